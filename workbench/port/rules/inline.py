"""Helper functions of the kernel's module (`@ct.function`, or plain `def`s the kernel calls):
inlined at each call, as cuTile Python inlines them. The helper's parameters are bound to the
argument values (tiles, scalars, constants, dtypes alike), its body is translated in its own
scope, and its `return` value is the call's value."""
from __future__ import annotations

import ast

from .values import Fail, Func, Scalar, Static, Tile, Value, assigned_names

MAX_DEPTH = 16


def early_return(body: list[ast.stmt]):
    """A `return` that is not the helper's last top-level statement, or None."""
    for i, stmt in enumerate(body):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Return) and not (node is stmt and i == len(body) - 1):
                return node
    return None


class Inline:
    """Mixed into the Translator."""

    def inline_call(self, func: Func, node: ast.Call, hint) -> Value:
        fn = func.node
        if len(self.state.inline_stack) >= MAX_DEPTH:
            raise Fail(node, func.name, "helper calls nest too deep (recursion?)")
        early = early_return(fn.body)
        if early is not None:
            raise Fail(early, func.name, "a return before the helper's end: cuTile Python "
                       "lowers it into a loop-with-break region; not drafted (assign the "
                       "result and return once at the end)")
        params = self.bind_helper_args(fn, node)
        # a parameter the helper reassigns is the helper's own variable (Python binds the
        # argument's value to a new name): a copy, so the caller's variable keeps its value
        for name in sorted(assigned_names(fn.body) & set(params)):
            value = params[name]
            if isinstance(value.kind, (Tile, Scalar)):
                params[name] = self.let(name, value.kind, value.expr)
        saved_env, saved_loops = self.state.env, self.state.loop_stack
        self.state.env = dict(params)
        # a helper's names are its own: nothing it assigns is carried by the caller's loop
        self.state.loop_stack = [dict(frame, carried=set()) for frame in saved_loops]
        frame = {"name": func.name, "result": None, "returned": False, "node": fn}
        self.state.inline_stack.append(frame)
        try:
            body = fn.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:]
            self.helper_block(body)
        finally:
            self.state.inline_stack.pop()
            self.state.env, self.state.loop_stack = saved_env, saved_loops
        if frame["result"] is None:
            return Value(Static(None))
        return frame["result"]

    def helper_block(self, stmts):
        """A helper's statements: a failure fails the call (so the caller's statement is
        reported too); statements after a `return` are not reached."""
        for stmt in stmts:
            if self.state.inline_stack[-1]["returned"]:
                return
            self.statement(stmt)

    def bind_helper_args(self, fn: ast.FunctionDef, node: ast.Call) -> dict[str, Value]:
        args = fn.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            raise Fail(node, fn.name, "helpers with *args, **kwargs or keyword-only "
                                      "parameters are not inlined")
        names = [a.arg for a in args.args]
        defaults = dict(zip(names[len(names) - len(args.defaults):], args.defaults))
        bound: dict[str, Value] = {}
        if len(node.args) > len(names):
            raise Fail(node, fn.name, f"{len(node.args)} arguments for {len(names)} parameters")
        for name, arg in zip(names, node.args):
            bound[name] = self.expr(arg)
        for kw in node.keywords:
            if kw.arg not in names or kw.arg in bound:
                raise Fail(node, fn.name, f"keyword {kw.arg!r} does not match the helper")
            bound[kw.arg] = self.expr(kw.value)
        for name in names:
            if name not in bound:
                if name not in defaults:
                    raise Fail(node, fn.name, f"no value for parameter {name!r}")
                bound[name] = self.expr(defaults[name])
        return bound

    def return_statement(self, stmt: ast.Return):
        if not self.state.inline_stack:
            if stmt.value is None:          # one that ends the kernel never gets here
                self.refuse_return(stmt)
            raise Fail(stmt, "return", "a kernel returns nothing")
        frame = self.state.inline_stack[-1]
        frame["result"] = self.expr(stmt.value, hint=frame["name"].lstrip("_")) \
            if stmt.value is not None else None
        frame["returned"] = True
