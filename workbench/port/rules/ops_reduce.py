"""Reductions along one axis: `ct.sum`, `ct.max`, `ct.min` (with keepdims)."""
from __future__ import annotations

import ast

from ..analyze import keyword
from .registry import Family
from .values import Fail, Tile, shape_text

FAMILY = Family("reduce")

REDUCE = {"sum": "reduce_sum", "max": "reduce_max", "min": "reduce_min"}


def reduce(t, node, hint, fname):
    t.check_kwargs(node, {"axis", "keepdims"}, f"ct.{fname}")
    x = t.expr(keyword(node, "x", 0))
    axis = keyword(node, "axis", 1)
    keep = keyword(node, "keepdims", 2)
    if not isinstance(x.kind, Tile) or not x.kind.shape:
        raise Fail(node, f"ct.{fname}", "the argument must be a tile of rank >= 1")
    if not (isinstance(axis, ast.Constant) and isinstance(axis.value, int)):
        raise Fail(node, f"ct.{fname}", "only one integer axis is ported")
    keepdims = False
    if keep is not None:
        if not isinstance(keep, ast.Constant):
            raise Fail(node, f"ct.{fname}", "keepdims must be a literal")
        keepdims = bool(keep.value)
    rank = len(x.kind.shape)
    ax = axis.value % rank
    reduced = tuple(d for i, d in enumerate(x.kind.shape) if i != ax)
    kept = tuple("1" if i == ax else d for i, d in enumerate(x.kind.shape))
    r = t.let(f"{hint}_red" if (hint and keepdims) else (hint or f"{fname}_red"),
                 Tile(x.kind.dtype, reduced), f"{REDUCE[fname]}({x.expr}, {ax}i32)")
    if keepdims:
        r = t.let(hint or fname, Tile(x.kind.dtype, kept),
                     f"{r.expr}.reshape(shape![{shape_text(kept)}])")
    return r


@FAMILY.rule("sum")
def sum(t, node, hint):
    return reduce(t, node, hint, "sum")


@FAMILY.rule("max")
def max(t, node, hint):
    return reduce(t, node, hint, "max")


@FAMILY.rule("min")
def min(t, node, hint):
    return reduce(t, node, hint, "min")
