"""Where a block is: `ct.bid`, and integer helpers on scalars (`ct.cdiv`)."""
from __future__ import annotations

import ast

from ..analyze import keyword
from .registry import Family
from .values import Fail, Scalar

FAMILY = Family("grid")


@FAMILY.rule("bid")
def bid(t, node, hint):
    axis = keyword(node, "axis", 0)
    if not (isinstance(axis, ast.Constant) and axis.value in (0, 1, 2)):
        raise Fail(node, "ct.bid", "the axis must be 0, 1 or 2")
    return t.let(hint or f"bid{axis.value}", Scalar("i32"),
                    f"get_tile_block_id().{axis.value}", origin=f"bid{axis.value}")


@FAMILY.rule("cdiv")
def cdiv(t, node, hint):
    if len(node.args) != 2 or node.keywords:
        raise Fail(node, "ct.cdiv", "only ct.cdiv(a, b) is ported")
    a, b = (t.scalar_i32(x) for x in node.args)
    texts = [x if isinstance(x, str) else x.expr for x in (a, b)]
    return t.let(hint or "cdiv", Scalar("i32"), f"ceil_div({texts[0]}, {texts[1]})")
