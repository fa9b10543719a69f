"""The Triton translator's `if`: an `if` on constants is decided per the cases, one on a
runtime scalar is a cuTile `if`, and `if cond: ...; return` where nothing follows the `if`
but the kernel's end puts the rest of the kernel under `else` (cuTile has no early return).
"""
from __future__ import annotations

import ast

from .values import Fail, Run, Static


class Branches:
    def if_statement(self, stmt: ast.If) -> None:
        test = self.expr(stmt.test)
        if isinstance(test, Static):
            if test.uniform:
                self.note(stmt, f"`if {ast.unparse(stmt.test)}`: {bool(test.value)} in every "
                                "case, folded")
                self.block(stmt.body if test.value else stmt.orelse)
                return
            self.emit(f"if {test.text}:", stmt)
        elif isinstance(test, Run) and not test.is_tile:
            self.emit(f"if {test.code}:", stmt)
            self.note(stmt, "a runtime `if`: cuTile branches at run time")
        else:
            raise Fail(stmt, "if", "an `if` on a tile")
        if _returns(stmt.body) and not stmt.orelse and self.state.tail:
            self._early_return(stmt)
            return
        self._indented(stmt.body, stmt)
        if stmt.orelse:
            self.emit("else:", stmt)
            self._indented(stmt.orelse, stmt)

    def _early_return(self, stmt: ast.If) -> None:
        """`if cond: ...; return` at the kernel's top level: the rest of the kernel runs
        under `else:` (a cuTile kernel has no early return)."""
        rest = self.state.rest
        if rest and _returns(rest):
            rest = rest[:-1]
        self.note(stmt, "an early `return`: the rest of the kernel is its `else` branch")
        self._indented(stmt.body[:-1], stmt, tail=True)
        if rest:
            self.emit("else:", stmt)
            self._indented(rest, stmt, tail=True)
        self.state.returned = True

    def _indented(self, body, stmt, tail: bool = False) -> None:
        """A branch's statements one level in; `pass` where none of them wrote a line.
        `tail`: the branch ends the kernel (nothing runs after it)."""
        self.state.depth += 1
        outer = (self.state.tail, self.state.rest)
        self.state.tail, self.state.rest = tail, []
        before = len(self.state.lines)
        self.block(body)
        if len(self.state.lines) == before:
            self.emit("pass", stmt)
        self.state.tail, self.state.rest = outer
        self.state.depth -= 1


def _returns(body: list) -> bool:
    """Whether the statements end with a bare `return`."""
    return bool(body) and isinstance(body[-1], ast.Return) and body[-1].value is None
