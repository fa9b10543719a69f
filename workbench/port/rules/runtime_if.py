"""`if` statements and conditional expressions on runtime values, the way cuTile Python lowers
them: a test of constants is folded first (`and` / `or`: bool_ops.py); what is left becomes
a Rust `if c { .. } else { .. }` that cutile compiles to a Tile IR `if` region.

The region's results: cuTile yields every local either branch assigns (sorted by name) that
has a value in both; cutile yields the variables the branches assign to (sorted by name, the
then branch's first), plus, inside a loop, every loop-carried variable. So each yielded name
is assigned in the then branch (`x = x;` where it keeps its value: no op), a new name is
declared before the `if` as an alias of a value of its type (no op either), and names only
one branch defines stay branch-local. A `return` under a runtime `if` is early_return.py's."""
from __future__ import annotations

import ast

from .values import Fail, Lit, Scalar, Stmt, Tile, Value, assigned_names
from .loops import name_events


class RuntimeIf:
    """Mixed into the Translator."""

    # ---- the test
    def condition(self, node):
        """True / False when the test is decided at compile time, else a Rust bool text."""
        if isinstance(node, ast.BoolOp):
            return self.bool_chain(node)            # bool_ops.py
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.condition(node.operand)
            if isinstance(inner, bool):
                return not inner
            # cuTile: `not x` is xori(x, true) (logical_not_impl: Unary invert); cutile 0.5.0
            # has no unary `!` ("Unary expression not supported")
            flag = self.let("cond", Scalar(self.types.of_name("bool_")), inner)
            return self.bool_text(self.bitwise_not(flag, node, "not"), node)
        try:
            return bool(self.static_value(node, "if"))
        except Fail:
            pass
        return self.bool_text(self.expr(node, hint="cond"), node)

    def bool_text(self, v: Value, node) -> str:
        kind = v.kind
        if isinstance(kind, Lit):
            return "true" if kind.value else "false"
        if isinstance(kind, Scalar) and kind.dtype.uniform == "bool_":
            return v.expr
        if isinstance(kind, Tile) and kind.shape == () and kind.dtype.uniform == "bool_":
            return f"tile_to_scalar({v.expr})"
        raise Fail(node, "if", f"the test `{ast.unparse(node)}` is not a boolean scalar "
                               "(compare it, e.g. `x != 0`)")

    # ---- the statement
    def runtime_if(self, stmt: ast.If):
        test = self.condition(stmt.test)
        if isinstance(test, bool):
            self.block(stmt.body if test else stmt.orelse)
            return
        for node in ast.walk(ast.Module(body=stmt.body + stmt.orelse, type_ignores=[])):
            if isinstance(node, ast.Return) and not self.state.tail:   # early_return.py
                self.refuse_return(node)
        cond = self.let("cond", Scalar(self.types.of_name("bool_")), test)
        live = self.live_after_if(stmt)
        before = dict(self.state.env)
        then_body, then_env = self.branch(stmt.body, before)
        else_body, else_env = self.branch(stmt.orelse, before)
        self.state.env = dict(before)
        yields = self.merge_branches(stmt, live, before, (then_body, then_env),
                                     (else_body, else_env))
        emitted = self.emit(Stmt("if", header=f"if {cond.expr}", body=then_body,
                                 orelse=else_body, pure=False))
        frame = self.state.loop_stack[-1] if self.state.loop_stack else None
        if frame and frame["split"] and frame["split"][0] is stmt \
                and len(self.state.regions) == frame["regions"]:
            frame["split_stmt"] = emitted          # loop_split.py makes two loops of it
            return
        self.check_yield_order(stmt, yields)

    def runtime_if_expression(self, node: ast.IfExp, test: str, hint) -> Value:
        """`a if c else b` on a runtime `c`: `let x: T = if c { a } else { b };` (each side
        computed in its branch, as cuTile computes it)."""
        cond = self.let("cond", Scalar(self.types.of_name("bool_")), test)
        before = dict(self.state.env)
        sides = []
        for side in (node.body, node.orelse):
            body: list[Stmt] = []
            self.state.env = dict(before)
            self.enter_region(body)
            try:
                sides.append((body, self.expr(side)))
            finally:
                self.leave_region()
        self.state.env = before
        kinds = [v.kind for _, v in sides if not isinstance(v.kind, Lit)]
        if not kinds or any(not isinstance(k, (Tile, Scalar)) for k in kinds):
            raise Fail(node, "if", "a runtime conditional expression of Python constants or "
                                   "non-values: give the branches a dtype (ct.full)")
        kind = kinds[0]
        texts = [self.branch_value(v, kind, node, body) for body, v in sides]
        name = self.fresh(hint or "sel")
        self.emit(Stmt("if", name=name, ty=self.ty(kind), header=f"if {cond.expr}",
                       body=sides[0][0], orelse=sides[1][0], args=tuple(texts), pure=False))
        return Value(kind, name)

    def branch(self, stmts, before: dict) -> tuple[list[Stmt], dict]:
        self.state.env = dict(before)
        body: list[Stmt] = []
        self.enter_region(body)
        try:
            self.block(stmts)
        finally:
            self.leave_region()
        return body, self.state.env

    def live_after_if(self, stmt: ast.If) -> set[str]:
        names = assigned_names(stmt.body + stmt.orelse)
        carried = set().union(*(frame["carried"] for frame in self.state.loop_stack)) \
            if self.state.loop_stack else set()
        return {n for n in names if n in carried or self.read_after(n, stmt)}

    def read_after(self, name: str, stmt) -> bool:
        end = getattr(stmt, "end_lineno", stmt.lineno)
        for line, kind in name_events(self.current_function().body, name):
            if line > end:
                return kind == "read"
        return False

    def merge_branches(self, stmt, live: set[str], before: dict, then, orelse) -> list[str]:
        """Assign each live name's branch values to one mutable variable; the Rust names
        the `if` yields, in cutile's order."""
        yields = []
        for name in sorted(live):
            values = [then[1].get(name), orelse[1].get(name)]
            if any(v is None for v in values):
                continue                        # undefined in a branch: local to it
            if all(v is before.get(name) for v in values):
                yields.append(values[0].expr)   # a loop-carried name assigned in place
                continue
            if any(not isinstance(v.kind, (Tile, Scalar, Lit)) for v in values):
                self.state.unported.add(name)
                raise Fail(stmt, "if", f"{name} gets a {kind_word(values)} in a branch of a "
                           "runtime `if`: only tiles and scalars flow out of a runtime branch "
                           "(assign its parts to separate names)")
            kind = next((v.kind for v in values if not isinstance(v.kind, Lit)), None)
            if kind is None:
                self.state.unported.add(name)
                raise Fail(stmt, "if", f"{name} is a Python constant in both branches of a "
                                       "runtime `if`: give it a dtype (ct.full / ct.astype)")
            target = self.mutable_target(stmt, name, kind, before)
            for (body, env), value in zip((then, orelse), values):
                text = self.branch_value(value, kind, stmt, body)
                body.append(Stmt("assign", name=target.expr, expr=text, pure=False))
            self.state.env[name] = target
            yields.append(target.expr)
        return yields

    def mutable_target(self, stmt, name: str, kind, before: dict) -> Value:
        """The variable the branches assign `name` to: its own let when that carries the
        Python name, else a new `let mut name = ..` alias (no op), so that cutile's order of
        the `if` results (by Rust name) is cuTile's (by Python name)."""
        old = before.get(name)
        params = {p.name for p in self.spec.params}
        if old is not None and isinstance(old.kind, (Tile, Scalar)) \
                and self.ty(old.kind) == self.ty(kind):
            shared = any(v is old for _, v in self.state.cache.values())    # reused elsewhere
            if old.expr == name and old.stmt is not None and old.stmt.kind == "let" \
                    and name not in params and not shared and not self.outside_loop(name, old):
                old.stmt.mutable = True
                old.stmt.pure = False
                return Value(kind, old.expr)
            alias = old
        else:
            alias = next((v for v in before.values() if isinstance(v.kind, type(kind))
                          and self.ty(v.kind) == self.ty(kind) and v.expr.isidentifier()), None)
        if alias is None:
            raise Fail(stmt, "if", f"{name} gets its value in both branches of a runtime `if` "
                       "and no value of its type exists before the `if` to declare it with "
                       "(cutile 0.5.0 has no uninitialised `let`)")
        value = self.let(name, kind, alias.expr, pure=False)
        value.stmt.mutable = True
        return Value(kind, value.expr)

    def outside_loop(self, name: str, old: Value) -> bool:
        """Whether `old` is a let before the innermost loop that the loop does not carry:
        assigning it in the body would make cutile carry it (it carries what a body
        assigns), so the branches assign a name of the body's own."""
        if not self.state.loop_stack or name in self.state.loop_stack[-1]["carried"]:
            return False
        return any(s is old.stmt for block in self.state.blocks[:self.state.loop_stack[-1]["regions"]]
                   for s in block)

    def branch_value(self, value: Value, kind, stmt, body: list[Stmt]) -> str:
        if not isinstance(value.kind, Lit):
            if self.ty(value.kind) != self.ty(kind):
                raise Fail(stmt, "if", f"a name gets {self.ty(value.kind)} in one branch and "
                                       f"{self.ty(kind)} in the other")
            return value.expr
        self.enter_region(body)
        try:
            return self.as_tile(value, kind.dtype, kind.shape, stmt).expr \
                if isinstance(kind, Tile) else \
                self.types.literal(value.kind.value, kind.dtype, stmt)
        finally:
            self.leave_region()

    def check_yield_order(self, stmt, yields: list[str]) -> None:
        carried = [self.state.env[n].expr for frame in self.state.loop_stack for n in sorted(frame["carried"])
                   if n in self.state.env]
        extra = [c for c in carried if c not in yields]
        if extra:
            self.state.notes.append(
                f"line {stmt.lineno}: cutile's `if` inside a loop also yields the loop-carried "
                f"{', '.join(extra)} (compile_expression.rs, Expr::If: the captured names "
                "include ctx.carry_vars); cuTile Python yields only what the branches assign, "
                "so the two IRs' `if` results differ")

    # ---- regions
    def enter_region(self, body: list[Stmt]) -> None:
        self.state.regions.append(len(self.state.blocks) - 1)
        self.state.blocks.append(body)
        self.state.scope_ids.append(self.state.next_scope)
        self.state.next_scope += 1

    def leave_region(self) -> None:
        self.state.blocks.pop()
        self.state.scope_ids.pop()
        self.state.regions.pop()


def kind_word(values) -> str:
    """What a non-tile value is, in a user's words."""
    kind = next(v.kind for v in values if not isinstance(v.kind, (Tile, Scalar, Lit)))
    return {"Seq": "tuple", "ArrayRef": "array", "DType": "dtype", "Func": "function"}.get(
        type(kind).__name__, "compile-time value")
