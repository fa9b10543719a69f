"""Memory ordering tokens, the way cuTile Python's token_order pass threads them. Every array
has a last-store and a last-op token (both the entry token at first): a load takes the
last-store token and is joined into last-op; a store takes last-op and becomes both. Arrays
only read keep the entry token (their joins are dead code); arrays only written need one
token (`let mut x_token`); arrays both read and written (in place) need both
(`x_token` = last op, `x_stored` = last store). Loops carry the `let mut` tokens."""
from __future__ import annotations

import ast

from .values import ArrayRef, Stmt, Value

READS = {"load", "gather"}
WRITES = {"store", "scatter"}


def inplace_arrays(fn: ast.FunctionDef) -> set[str]:
    """Array names the kernel both reads and writes (first argument of a memory call)."""
    reads, writes = set(), set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args \
                and isinstance(node.args[0], ast.Name):
            if node.func.attr in READS:
                reads.add(node.args[0].id)
            elif node.func.attr in WRITES:
                writes.add(node.args[0].id)
    return reads & writes


def declare(t, var: str, arr: str, why: str) -> None:
    """`let mut var: Token = arr.token();` before the outermost loop or branch around this
    access (the loop then carries it after the kernel's own values, as cuTile orders its loop
    results), or here when none is."""
    outer = t.blocks[t.regions[0]] if t.regions else t.blocks[-1]
    outer.append(Stmt("raw", text=f"let mut {var}: Token = {arr}.token();  // {why}", pure=False))


def last_op_token(t, arr: ArrayRef) -> str:
    """The `let mut` token a write to `arr` takes and replaces."""
    if arr.name not in t.token_vars:
        t.token_vars[arr.name] = t.fresh(f"{arr.name}_token")
        declare(t, t.token_vars[arr.name], arr.name, "ordered as cuTile orders its writes")
    return t.token_vars[arr.name]


def last_store_token(t, arr: ArrayRef) -> str:
    """The token a read of `arr` takes: its last store's (in place), else the array's own."""
    if arr.name in t.inplace:
        last_op_token(t, arr)
        if arr.name not in t.stored_vars:
            t.stored_vars[arr.name] = t.fresh(f"{arr.name}_stored")
            declare(t, t.stored_vars[arr.name], arr.name, "its last store, which reads wait for")
        return t.stored_vars[arr.name]
    return t.cached(("token", arr.name),
                    lambda: Value(arr, t.let_typed(f"{arr.name}_token", "Token",
                                                   f"{arr.name}.token()", pure=False))).expr


def after_read(t, arr: ArrayRef, token: str) -> None:
    """A read of an in-place array joins its token into the array's last-op token."""
    if arr.name in t.inplace:
        last = last_op_token(t, arr)
        t.raw(f"{last} = join_tokens(&[{last}, {token}]);")


def after_write(t, arr: ArrayRef) -> None:
    """A write is the array's last store too."""
    if arr.name in t.inplace:
        last_store_token(t, arr)
        t.raw(f"{t.stored_vars[arr.name]} = {t.token_vars[arr.name]};")


