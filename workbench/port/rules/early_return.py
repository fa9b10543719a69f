"""`return` under a runtime `if`, the way cuTile Python's control flow reads it: where the
`if` ends the kernel's top level, or ends a branch that itself ends the kernel (a "tail"
position: nothing runs after it but the kernel's end), a branch that always returns leaves the
rest of the block to the other branch. So

    if c:               if c {
        A                   A
        return      ->  } else {
    B                       B
                        }

which is what cuTile Python's Tile IR means (it writes `if c { A; return } else { }` and then
B; the diff's `sink_after_return` normalization reads both as the same program). cutile 0.5.0
lowers `return` only at a function's top level (compile_block.rs: "`return` is only
supported at the top level of a function body"), so a `return` anywhere else (in a loop, in
a branch some path of which falls through to more statements) is refused with that reason;
cuTile lowers those into a loop with a break flag (for_loop_return.py), which a port cannot
write."""
from __future__ import annotations

import ast

from .values import Fail

RETURN_REFUSED = ("a `return` under a runtime `if` that does not end the kernel (in a loop, "
                  "or with statements after the `if` that the returning path would skip "
                  "only through a flag): cutile 0.5.0 lowers `return` only at a function's "
                  "top level (compile_block.rs: \"`return` is only supported at the top "
                  "level of a function body\")")


class EarlyReturn:
    """Mixed into the Translator."""

    tail = False        # whether the block being translated ends the kernel

    def tail_positions(self, stmts):
        """(statement, whether it ends the kernel) for a block's statements, an `if` with a
        branch that always returns rewritten to hold the rest of the block (see above)."""
        tail = self.state.tail and not self.state.loop_stack and not self.state.inline_stack
        stmts = list(stmts)
        for i, stmt in enumerate(stmts):
            rest = stmts[i + 1:]
            if tail and isinstance(stmt, ast.Return) and stmt.value is None:
                return                      # the end of the kernel: what follows never runs
            if tail and rest and isinstance(stmt, ast.If):
                sunk = self.sink_rest(stmt, rest)
                if sunk is not None:
                    yield sunk, True
                    return
            yield stmt, tail and not rest
            if isinstance(stmt, (ast.Break, ast.Continue)):
                return              # cuTile lowers nothing after a jump (dead statements)

    def sink_rest(self, stmt: ast.If, rest: list[ast.stmt]) -> ast.If | None:
        then_returns, else_returns = self.always_returns(stmt.body), \
            self.always_returns(stmt.orelse)
        if not (then_returns or else_returns):
            return None
        new = ast.If(test=stmt.test,
                     body=stmt.body if then_returns else stmt.body + rest,
                     orelse=stmt.orelse if else_returns else stmt.orelse + rest)
        ast.copy_location(new, stmt)
        new.end_lineno = max(getattr(s, "end_lineno", s.lineno) for s in [stmt, *rest])
        self.state.notes.append(f"line {stmt.lineno}: the `return` under this `if` is drafted as an "
                          "if/else over the rest of the kernel (cutile 0.5.0 lowers `return` "
                          "only at a function's top level)")
        return new

    def always_returns(self, stmts) -> bool:
        """Whether every path through `stmts` ends in a `return` (constant tests folded)."""
        if not stmts:
            return False
        last = stmts[-1]
        if isinstance(last, ast.Return):
            return True
        if isinstance(last, ast.If):
            test = self.folded_test(last.test)
            if isinstance(test, bool):
                return self.always_returns(last.body if test else last.orelse)
            return self.always_returns(last.body) and self.always_returns(last.orelse)
        return False

    def refuse_return(self, stmt) -> None:
        raise Fail(stmt, "return", RETURN_REFUSED)
