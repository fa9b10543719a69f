"""Shape changes: `ct.transpose`, `ct.reshape`."""
from __future__ import annotations

from .registry import Family
from .values import Fail, Tile, shape_text

FAMILY = Family("shape")


@FAMILY.rule("transpose")
def transpose(t, node, hint):
    if len(node.args) != 1 or node.keywords:
        raise Fail(node, "ct.transpose", "only the 2-D ct.transpose(x) is ported")
    x = t.expr(node.args[0])
    if not isinstance(x.kind, Tile) or len(x.kind.shape) != 2:
        raise Fail(node, "ct.transpose", "only 2-D tiles")
    return t.let(hint or f"{x.expr}_t", Tile(x.kind.dtype, tuple(reversed(x.kind.shape))),
                    f"{x.expr}.transpose()")


@FAMILY.rule("reshape")
def reshape(t, node, hint):
    if len(node.args) != 2 or node.keywords:
        raise Fail(node, "ct.reshape", "only ct.reshape(x, shape) is ported")
    x = t.expr(node.args[0])
    shape = t.const_shape(node.args[1], "ct.reshape")
    if not isinstance(x.kind, Tile):
        raise Fail(node, "ct.reshape", "reshape of a non-tile")
    return t.let(hint or f"{x.expr}_r", Tile(x.kind.dtype, shape),
                    f"{x.expr}.reshape(shape![{shape_text(shape)}])")
