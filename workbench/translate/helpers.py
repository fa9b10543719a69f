"""Calls of other `@triton.jit` functions of the module, inlined at the call: the helper's
parameters are bound to the call's values (defaults where the call gives none; a parameter the
helper assigns is first copied into a variable of its own, so a loop in the helper carries
that variable, not the caller's), its body is
translated in place, and its final `return` is the call's value. Triton inlines them too,
so the derived kernel keeps no function boundary. The helper's own names are renamed per
call (`<helper><n>_<name>`), so they never overwrite the caller's in the derived kernel."""
from __future__ import annotations

import ast
import copy

from .values import Fail, Static

MAX_DEPTH = 8


def inline_helper(t, fn: ast.FunctionDef, node: ast.Call, file: str | None = None):
    """The value of `fn(...)` at `node`, with the helper's statements emitted here. `file`:
    the helper's own file, when not the kernel's (its diagnostics name it)."""
    depth, outer_file = t.state.helper_depth, t.state.file
    if depth >= MAX_DEPTH:
        raise Fail(node, f"{fn.name}(...)", f"helpers nested deeper than {MAX_DEPTH} "
                   "(a recursive helper?)")
    t.state.fresh_count += 1
    prefix = f"{fn.name.strip('_')}{t.state.fresh_count}_"
    renamed = _renamed(fn, prefix)
    values = _bound_arguments(t, fn, node)
    t.state.helper_depth = depth + 1
    t.state.file = file or outer_file
    try:
        assigned = {n.id for n in ast.walk(renamed) if isinstance(n, ast.Name)
                    and isinstance(n.ctx, ast.Store)}
        for name, value in values.items():
            if prefix + name in assigned:       # the helper changes it: a variable of its own
                t.assign(ast.Name(prefix + name, ast.Store()), value, node)
            else:
                t.state.env[prefix + name] = value
        body = _up_to_return(_folded(t, renamed.body))
        returns = [n for s in body for n in ast.walk(s) if isinstance(n, ast.Return)]
        last = body[-1] if body and isinstance(body[-1], ast.Return) else None
        if any(r is not last for r in returns):
            raise Fail(node, f"{fn.name}(...)", "a helper that returns inside a loop or a "
                       "runtime `if` is not inlined (the translator has no early return)")
        t.block(body[:-1] if last is not None else body)
        return t.expr(last.value) if last is not None and last.value is not None else None
    except Fail as e:
        if e.file is None and any(n is e.node for n in ast.walk(renamed)):
            e.file = t.state.file           # a line of the helper: in the helper's file
        raise
    finally:
        t.state.helper_depth, t.state.file = depth, outer_file


def _folded(t, stmts: list) -> list:
    """The statements with every `if` on a compile-time value replaced by the branch it takes
    (how Triton compiles a constexpr branch; a `return` in it is then the helper's end)."""
    out = []
    for stmt in stmts:
        if _is_docstring(stmt):
            continue
        if isinstance(stmt, ast.If):
            try:
                test = t.expr(stmt.test)
            except Fail:
                test = None
            if isinstance(test, Static) and test.uniform:
                out += _folded(t, stmt.body if test.value else stmt.orelse)
                continue
        out.append(stmt)
    return out


def _up_to_return(stmts: list) -> list:
    """The statements up to the first `return` at this level (the rest never runs)."""
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Return):
            return stmts[:i + 1]
    return stmts


def _bound_arguments(t, fn: ast.FunctionDef, node: ast.Call) -> dict:
    """Parameter name -> value: positional, then keyword, then the helper's defaults."""
    params = [a.arg for a in fn.args.args]
    if any(isinstance(a, ast.Starred) for a in node.args) or \
            any(k.arg is None for k in node.keywords) or fn.args.vararg or fn.args.kwarg:
        raise Fail(node, f"{fn.name}(...)", "*args / **kwargs are not inlined")
    if len(node.args) > len(params):
        raise Fail(node, f"{fn.name}(...)", f"{fn.name} takes {len(params)} arguments, "
                   f"the call gives {len(node.args)}")
    values = {p: t.expr(a) for p, a in zip(params, node.args)}
    for keyword in node.keywords:
        if keyword.arg not in params or keyword.arg in values:
            raise Fail(node, f"{fn.name}(...)", f"unexpected argument `{keyword.arg}`")
        values[keyword.arg] = t.expr(keyword.value)
    defaults = dict(zip(params[len(params) - len(fn.args.defaults):], fn.args.defaults))
    for p in params:
        if p not in values:
            if p not in defaults:
                raise Fail(node, f"{fn.name}(...)", f"no value for the parameter `{p}`")
            values[p] = t.expr(defaults[p])
    return values


def _renamed(fn: ast.FunctionDef, prefix: str) -> ast.FunctionDef:
    """A copy of `fn` whose parameters and local names carry `prefix` (globals, such as `tl`
    and the module's constants, keep theirs)."""
    local = {a.arg for a in fn.args.args}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            local.add(n.id)
    copied = copy.deepcopy(fn)
    for n in ast.walk(copied):
        if isinstance(n, ast.Name) and n.id in local:
            n.id = prefix + n.id
    return copied


def _is_docstring(stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
        and isinstance(stmt.value.value, str)
