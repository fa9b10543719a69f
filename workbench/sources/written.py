"""Which array parameters a kernel writes, read from its source (nothing runs): what a
record calls each argument's role. An array the kernel only writes is an output (a check
poisons it before each launch); one it also reads, or updates atomically, is in-place.

cuTile: ct.store / ct.scatter / ct.atomic_* (and an array's or tiled view's .store /
.atomic_*) write their first argument; ct.load / ct.gather / .load read it. Triton: the
pointer expression of tl.store / tl.atomic_* is written, tl.load's is read. A name bound
from a parameter (`p = x_ptr + offs`, `v = X.tiled_view(..)`, a block pointer) stands for it.
"""
from __future__ import annotations

import ast
import inspect
import textwrap

from .record import IN, INOUT, OUT

_WRITES = {"store", "scatter"}
_READS = {"load", "gather"}


def parameter_roles(pyfunc, params: list[str]) -> dict[str, str]:
    """{parameter: in | out | inout} for `pyfunc`'s array parameters."""
    try:
        fn = ast.parse(textwrap.dedent(inspect.getsource(pyfunc))).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        return {p: IN for p in params}          # no source to read: nothing is poisoned
    aliases = _aliases(fn, set(params))
    written, read, atomic = set(), set(), set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        op, subject = _access(node)
        if op is None or subject is None:
            continue
        roots = _roots(subject, aliases)
        if op.startswith("atomic"):
            atomic |= roots
        elif op in _WRITES:
            written |= roots
        elif op in _READS:
            read |= roots
    return {p: INOUT if p in atomic or (p in written and p in read) else
            OUT if p in written else IN for p in params}


def _access(call: ast.Call):
    """(operation, the expression naming the memory) of a memory call, else (None, None)."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None, None
    op = func.attr
    if not (op in _WRITES or op in _READS or op.startswith("atomic")):
        return None, None
    module_call = isinstance(func.value, ast.Name) and func.value.id in ("ct", "tl", "cuda")
    if module_call or (isinstance(func.value, ast.Attribute) and func.value.attr == "tile"):
        first = call.args[0] if call.args else next(
            (k.value for k in call.keywords if k.arg in ("array", "pointer", "ptr", "base")),
            None)
        return op, first
    return op, func.value               # X.store(..), view.load(..)


def _aliases(fn: ast.FunctionDef, params: set[str]) -> dict[str, set[str]]:
    """name -> the parameters its value is made from, through plain assignments."""
    aliases = {p: {p} for p in params}
    for _ in range(3):                  # names made from names made from parameters
        for node in ast.walk(fn):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value:
                roots = _roots(node.value, aliases)
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and roots and name.id not in params:
                            aliases.setdefault(name.id, set()).update(roots)
    return aliases


def _roots(expr: ast.AST, aliases: dict[str, set[str]]) -> set[str]:
    return {p for n in ast.walk(expr) if isinstance(n, ast.Name) for p in aliases.get(n.id, ())}
