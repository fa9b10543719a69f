"""Matrix multiply-accumulate: `ct.mma`."""
from __future__ import annotations

from .registry import Family
from .values import Fail, Tile

FAMILY = Family("matmul")


@FAMILY.rule("mma")
def mma(t, node, hint):
    if len(node.args) != 3 or node.keywords:
        raise Fail(node, "ct.mma", "only ct.mma(a, b, acc) is ported")
    a, b, c = (t.expr(x) for x in node.args)
    if not all(isinstance(v.kind, Tile) and len(v.kind.shape) == 2 for v in (a, b, c)):
        raise Fail(node, "ct.mma", "the operands must be 2-D tiles")
    (m, k), (k2, n), (m2, n2) = a.kind.shape, b.kind.shape, c.kind.shape
    if (k, m, n) != (k2, m2, n2):
        raise Fail(node, "ct.mma", f"shapes ({m}, {k}) x ({k2}, {n}) + ({m2}, {n2}) "
                                   "do not match")
    if a.kind.dtype != b.kind.dtype:
        raise Fail(node, "ct.mma", "a and b have different dtypes")
    return t.let(hint or "mma", c.kind, f"mma({a.expr}, {b.expr}, {c.expr})")
