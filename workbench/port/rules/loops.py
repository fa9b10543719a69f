"""`for v in range(..)` loops: loop-carried values become `let mut` + assignment, pure
loop-invariant lets are hoisted before the loop (Python's compiler hoists them too), and
loads indexed by the loop variable against a bound cutile cannot relate to the arrays make
the entry unchecked."""
from __future__ import annotations

import ast

from .values import IDENT, ArrayRef, DType, Fail, Lit, Scalar, Stmt, Value, assigned_names


class Loops:
    """Mixed into the Translator."""

    def for_loop(self, stmt: ast.For):
        if stmt.orelse:
            raise Fail(stmt, "for-else", "a for loop with an else clause")
        if not isinstance(stmt.target, ast.Name):
            raise Fail(stmt, "for", "the loop variable must be one name")
        it = stmt.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and it.func.id == "range" and 1 <= len(it.args) <= 2 and not it.keywords):
            raise Fail(stmt, "for", "only `for v in range(n)` / `range(a, b)` loops are ported")
        bounds = [self.scalar_i32(a) for a in it.args]
        start, stop = (("0i32", bounds[0]) if len(bounds) == 1 else bounds)
        start = start if isinstance(start, str) else start.expr
        stop_value = stop
        self.loops += 1
        carried = {n for n in assigned_names(stmt.body) if n in self.env
                   and not isinstance(self.env[n].kind, (ArrayRef, Lit, DType))}
        for n in sorted(carried):
            value = self.env[n]
            if value.stmt is None or value.stmt.kind != "let" or isinstance(value.kind, Scalar) \
                    and value.origin in ("constant",) or value.expr in {p.name for p in self.spec.params}:
                raise Fail(stmt, "loop-carried value", f"{n} is reassigned in the loop but is "
                                                       "not a local value")
            value.stmt.mutable = True
            value.stmt.pure = False
        var = self.fresh(stmt.target.id)
        body: list[Stmt] = []
        self.blocks.append(body)
        self.scope_ids.append(self.next_scope)
        self.next_scope += 1
        saved = self.env.get(stmt.target.id)
        self.env[stmt.target.id] = Value(Scalar("i32"), var, origin="loop")
        self.loop_stack.append({"carried": carried, "var": var, "bound": stop_value,
                                "loads": []})
        try:
            self.block(stmt.body)
        finally:
            frame = self.loop_stack.pop()
            self.blocks.pop()
            self.scope_ids.pop()
        if saved is not None:
            self.env[stmt.target.id] = saved
        if frame["loads"] and getattr(stop_value, "origin", None) != "num_tiles":
            self.unchecked = True
            self.notes.append(
                f"line {stmt.lineno}: loads indexed by `{stmt.target.id}` run to a bound "
                "cutile cannot relate to the arrays, so the entry is unsafe with "
                "unchecked_accesses = true; the launcher must keep every index in range")
        # hoist pure loop invariants (Python's compiler does the same)
        variant = {var} | {self.env[n].expr for n in carried}
        hoisted, kept = [], []
        for s in body:
            uses = set(IDENT.findall(s.source_text()))
            if s.kind == "let" and s.pure and not (uses & variant):
                hoisted.append(s)
            else:
                kept.append(s)
                variant |= s.defines()
        for s in hoisted:
            self.emit(s)
        stop_expr = stop_value if isinstance(stop_value, str) else stop_value.expr
        self.emit(Stmt("loop", header=f"for {var} in {start}..{stop_expr}", body=kept,
                       loop_var=var, pure=False))
