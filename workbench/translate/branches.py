"""The Triton translator's `if`: an `if` on constants is decided per the cases, one on a
runtime scalar is a cuTile `if`, and `if cond: ...; return` where nothing follows the `if`
but the kernel's end puts the rest of the kernel under `else` (cuTile has no early return).
"""
from __future__ import annotations

import ast

from .carried import assigned_names, lazy
from .values import BlockPtr, Desc, Fail, Ptr, Run, Static

# values that live only in the translator (index arithmetic written into the accesses): a
# runtime branch cannot reassign one, as no cuTile variable carries it out of the branch
SYMBOLIC = (Ptr, Desc, BlockPtr)


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
            self._start_variables(stmt)
            self.emit(f"if {test.code}:", stmt)
            self.note(stmt, "a runtime `if`: cuTile branches at run time")
        else:
            raise Fail(stmt, "if", "an `if` on a tile")
        if _returns(stmt.body) and not stmt.orelse and self.state.tail:
            self._early_return(stmt)
            return
        runtime = not isinstance(test, Static)
        before = dict(self.state.env)
        self._indented(stmt.body, stmt)
        if runtime:
            self._check_symbolic(before, stmt)
        taken = dict(self.state.env)
        if stmt.orelse:
            if not runtime:
                self.state.env = dict(before)    # the cases that skip the body do not see it
            self.emit("else:", stmt)
            self._indented(stmt.orelse, stmt)
            if runtime:
                self._check_symbolic(before, stmt)
        if not runtime:
            self._per_case(test, taken, stmt)

    def _per_case(self, test: Static, taken: dict, stmt: ast.If) -> None:
        """After an `if` on a constant that differs between the cases (`if IS_NEOX`), a name
        holds the value of the branch each case takes: a number becomes the per-case constant
        (`(1 if IS_NEOX else 2)`); a name the translator keeps symbolic (index arithmetic
        written into the accesses) cannot hold two, so it is refused by name."""
        skipped = self.state.env
        for name in sorted(set(taken) | set(skipped)):
            merged = _one_value(test, taken.get(name), skipped.get(name))
            if merged is None:
                raise Fail(stmt, "if on a constant", f"`{name}` is set differently under `if "
                           f"{ast.unparse(stmt.test)}`, which is {test.vals[0]!r} in some cases "
                           "and not in others, and it is index arithmetic the translator writes "
                           "into each access, which cannot hold both: port the cases of each "
                           "value as their own kernel (a record: record one kind of launch at "
                           "a time)")
            skipped[name] = merged

    def _start_variables(self, stmt: ast.If) -> None:
        """A number a runtime `if` reassigns (`loss = 0.0; if label != ignore: loss = ...`)
        is a variable of the derived kernel, written before the `if`: folded, the branch's
        value would stand for both paths, and the path that skips it would have none."""
        for name in dict.fromkeys(assigned_names(stmt)):
            current = self.state.env.get(name)
            if name in self.state.variables or not isinstance(current, Static) or \
                    self.src.param(name) is not None or \
                    not isinstance(current.value, (int, float)):
                continue
            self.state.variables.add(name)
            self.state.typed.add(name)
            self.state.env[name] = self._set_variable(name, current, stmt)

    def _check_symbolic(self, before: dict, stmt: ast.If) -> None:
        """A pointer advanced under a runtime `if` is a different address per program: the
        translation keeps pointers symbolic, so it is refused by name."""
        for name, value in self.state.env.items():
            if isinstance(value, SYMBOLIC) and name in before and before[name] is not value:
                raise Fail(stmt, "pointer in a runtime if", f"`{name}` is advanced inside "
                           f"`if {ast.unparse(stmt.test)}`, decided at run time: advance it "
                           "outside the branch, or select the offset with tl.where")

    def _early_return(self, stmt: ast.If) -> None:
        """`if cond: ...; return` at the kernel's top level: the rest of the kernel runs
        under `else:` (a cuTile kernel has no early return)."""
        rest = self.state.rest
        if rest and _returns(rest):
            rest = rest[:-1]
        self.note(stmt, "an early `return`: the rest of the kernel is its `else` branch")
        before = dict(self.state.env)
        self._indented(stmt.body[:-1], stmt, tail=True)
        self.state.env = before          # the `else` runs where the returning branch did not
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


def _one_value(test: Static, then, other):
    """A name's value after an `if` on `test` in every case, from its value where the body
    ran (`then`) and where it did not (`other`); None when no one value says both."""
    if then is None or other is None or then is other:
        return other if then is None else then     # set on one path only: read only there
    if isinstance(then, Static) and isinstance(other, Static):
        if then.vals == other.vals:
            return then
        vals = tuple(a if t else b for t, a, b in zip(test.vals, then.vals, other.vals))
        return Static(vals, f"({then.text} if {test.text} else {other.text})")
    if isinstance(then, Run) and isinstance(other, Run) and then.code == other.code \
            and not lazy(then) and not lazy(other):
        return then                                 # one cuTile variable both branches write
    return None


def _returns(body: list) -> bool:
    """Whether the statements end with a bare `return`."""
    return bool(body) and isinstance(body[-1], ast.Return) and body[-1].value is None
