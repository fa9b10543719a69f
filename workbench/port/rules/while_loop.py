"""`while` loops, `break` and `continue`, the way cuTile Python lowers them (ast2hir.py,
_while_stmt): a `loop` region that first computes the test and runs `if test {} else { break }`,
then the body, then `continue`; the loop carries what the body assigns and the test or the code
after the loop reads (typed strictly, as a `for` loop's values: loops.py). cutile 0.5.0 lowers
`while c { .. }` to the same region (compile_expression.rs, Expr::While: the test, an `if`
whose else branch breaks, the body), so a test that is one comparison is drafted as a Rust
`while`, its statements in a block as the condition (`while { ..; c } { .. }`); `while True:`
is `loop { .. }` (Expr::Loop: the body alone).

`break` / `continue` in a while loop, and `continue` in a `for` loop, are Rust's: cutile
passes the loop-carried values to them as cuTile does (a branch that jumps yields nothing: the
diff's passthrough_if_results reads cutile's `if`, which yields every carried value, so).
`break` in a `for` loop is cuTile's done flag (break_flag below): Tile IR `for` loops cannot
exit early and cutile 0.5.0 rejects `break` inside `for` (compile_block.rs). Statements after
a jump are dead, as cuTile drops them (early_return.py's tail_positions).
Where cutile 0.5.0 cannot follow, the drafter refuses: a `break` in a `for` loop cuTile also
splits (not drafted), and a `break` / `continue` under an `if` that assigns a value the loop
does not carry and reads after it (cutile passes every name such an `if` assigns to the jump:
compile_block.rs takes the branch's carry_vars, which are the `if`'s captured names)."""
from __future__ import annotations

import ast

from .tokens import carry_acquire_through
from .values import Fail, Scalar, Stmt, assigned_names

JUMPS = (ast.Break, ast.Continue)


def jumps_in(stmts):
    """The `break` / `continue` statements that leave this loop (not a nested one's)."""
    for s in stmts:
        if isinstance(s, JUMPS):
            yield s
        elif isinstance(s, ast.If):
            yield from jumps_in(s.body)
            yield from jumps_in(s.orelse)


class WhileLoops:
    """Mixed into the Translator."""

    def loop_statement(self, stmt) -> None:
        if isinstance(stmt, ast.For):
            self.for_loop(stmt)
        elif isinstance(stmt, ast.While):
            self.while_loop(stmt)
        else:
            self.jump(stmt)

    def while_loop(self, stmt: ast.While) -> None:
        if stmt.orelse:
            raise Fail(stmt, "while-else", "cuTile Python rejects `while .. else` "
                                           "(ast2hir.py: 'while-else' is not supported)")
        carried = self.loop_carried(stmt)       # first: a constant the loop changes is none
        decided = self.folded_test(stmt.test)
        if decided is False:
            raise Fail(stmt, "while", f"`{ast.unparse(stmt.test)}` is false at compile time: "
                                      "the loop never runs (remove it)")
        if decided is True and not any(isinstance(j, ast.Break) for j in jumps_in(stmt.body)):
            raise Fail(stmt, "while", f"`while {ast.unparse(stmt.test)}:` with no `break` "
                                      "never ends")
        self.check_jumps(stmt.body, carried)
        carry_acquire_through(self, self.folded_nodes([stmt]))
        test: list[Stmt] = []
        body: list[Stmt] = []
        self.state.loop_stack.append({"carried": carried, "var": None, "bound": None, "loads": [],
                                "memory_ops": {}, "regions": len(self.state.regions) + 1,
                                "split": None, "node": stmt, "pre": [], "entry_tokens": {}})
        try:
            self.enter_region(test)
            try:
                cond = None if decided is True else self.condition(stmt.test)
            finally:
                self.leave_region()
            self.enter_region(body)
            try:
                self.block(stmt.body)
            finally:
                self.leave_region()
        finally:
            frame = self.state.loop_stack.pop()
        if frame["loads"]:
            self.state.unchecked = True
            self.state.notes.append(
                f"line {stmt.lineno}: loads indexed by values the `while` loop carries or "
                "computes: cutile cannot bound them, so the entry is unsafe with "
                "unchecked_accesses = true; the launcher must keep every index in range")
        for s in frame["pre"]:
            self.emit(s)
        variant = {self.state.env[n].expr for n in carried}
        kept = self.hoist_invariants(test + body, variant)
        test_kept = [s for s in kept if any(s is t for t in test)]
        body_kept = kept[len(test_kept):]
        self.emit(self.while_stmt(stmt, cond, test_kept, body_kept))

    def while_stmt(self, stmt: ast.While, cond, test: list[Stmt], body: list[Stmt]) -> Stmt:
        """`while c { .. }`, or `while { <the test's statements>; c } { .. }` (cutile compiles
        the block into the loop's region before its exit `if`); `loop { .. }` for a test that
        is true at compile time. A loop's `orelse` holds the test's statements (render)."""
        if cond is None or cond is True:
            return Stmt("loop", header="loop", body=body, pure=False)
        if not test:
            return Stmt("loop", header=f"while {cond}", body=body, pure=False)
        tail = Stmt("raw", text=cond, pure=False)          # the block's value
        return Stmt("loop", header="while", body=body, orelse=test + [tail], pure=False)

    def check_jumps(self, stmts, carried: set[str]) -> None:
        """Refuse an `if` holding a `break` / `continue` whose branches assign a name the
        loop does not carry and the body reads after the `if` (its branches would assign one
        variable: cutile would pass it to the jump too; see the module's docstring). A name
        bound in a branch and read only there is a `let` of the branch, no assignment."""
        for s in stmts:
            if not isinstance(s, ast.If):
                continue
            test = self.folded_test(s.test)
            if isinstance(test, bool):              # folded: its branch joins the body
                self.check_jumps(s.body if test else s.orelse, carried)
                continue
            if not any(True for _ in jumps_in([s])):
                continue
            local = sorted(n for n in assigned_names([s]) - carried if self.read_after(n, s))
            if local:
                raise Fail(s, "break/continue",
                           f"this `if` holds a `break` / `continue` and assigns "
                           f"{', '.join(local)}, which the loop does not carry and reads "
                           "after the `if`: cutile 0.5.0 passes every variable an `if` assigns "
                           "to a jump inside it (compile_block.rs), so its loop would get a "
                           "wrong number of values; assign them outside the `if`")

    def jump(self, stmt) -> None:
        word = "break" if isinstance(stmt, ast.Break) else "continue"
        loop = self.state.loop_stack[-1]["node"] if self.state.loop_stack else None
        if loop is None or not any(n is loop for n in ast.walk(self.current_function())):
            raise Fail(stmt, word, f"a `{word}` outside a loop of its own function")
        done = self.state.loop_stack[-1].get("done")
        if isinstance(loop, ast.For) and word == "break":       # cuTile's done flag
            self.emit(Stmt("assign", name=done, expr=self.flag_constant(True), pure=False))
            word = "continue"
        self.raw(f"{word};")

    def break_flag(self, stmt: ast.For, step) -> str | None:
        """A `for` loop with a `break`: cuTile Python keeps the `for` and carries a done flag
        (for_loop_break.py: `false` at the start, each `break` a `continue` with `true`, the
        body first continues when the flag is set), since Tile IR `for` loops cannot exit
        early (cutile 0.5.0 rejects `break` in `for`: compile_block.rs); the port writes the
        same flag, a `let mut` bool after the loop's own values (it is appended to them) and
        before its tokens (`zt..`: cuTile adds those later), hence its name."""
        if not any(isinstance(j, ast.Break) for j in jumps_in(stmt.body)):
            return None
        if self.split_candidate(stmt, step) is not None:
            raise Fail(stmt, "break", "a `break` in a `for` loop that cuTile Python also splits "
                       "at a test of its variable (loop_split.py, after for_loop_break.py "
                       "has made the break a done flag): not drafted; write it as a `while`")
        flag = self.fresh("zs_done")
        self.raw(f"let mut {flag}: bool = {self.flag_constant(False)};  // cuTile's break flag")
        return flag

    def flag_constant(self, value: bool) -> str:
        """The flag's `false` / `true`: constants cuTile makes at the kernel's top."""
        text = "true" if value else "false"
        return self.cached(("prologue", text), lambda: self.let_prologue(
            f"flag_{text}", Scalar(self.types.of_name("bool_")), text)).expr

    def skip_when_done(self, flag: str) -> Stmt:
        return Stmt("if", header=f"if {flag}", body=[Stmt("raw", text="continue;", pure=False)],
                    pure=False)
