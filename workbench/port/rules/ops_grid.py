"""Where a block is and how many there are: `ct.bid`, `ct.num_blocks`; integer helpers on
scalars (`ct.cdiv`)."""
from __future__ import annotations

from .registry import Family
from .values import Const, Fail, Lit, Scalar, Tile, Value

FAMILY = Family("grid")


def axis_of(t, node, args) -> int:
    axis = t.static_int(args["axis"], node, "the axis") if "axis" in args else None
    if axis not in (0, 1, 2):
        raise Fail(node, "axis", "the axis must be 0, 1 or 2")
    return axis


@FAMILY.rule("bid")
def bid(t, node, hint):
    axis = axis_of(t, node, t.bind_args("bid", node))
    return t.let(hint or f"bid{axis}", Scalar(t.types.of_name("int32")),
                 f"get_tile_block_id().{axis}", origin=f"bid{axis}")


@FAMILY.rule("num_blocks")
def num_blocks(t, node, hint):
    axis = axis_of(t, node, t.bind_args("num_blocks", node))
    return t.let(hint or f"num_blocks{axis}", Scalar(t.types.of_name("int32")),
                 f"get_num_tile_blocks().{axis}", origin=f"num_blocks{axis}")


@FAMILY.rule("cdiv")
def cdiv(t, node, hint):
    args = t.bind_args("cdiv", node)
    a, b = t.expr(args["x"]), t.expr(args["y"])
    if all(isinstance(v.kind, (Lit, Const)) for v in (a, b)):
        if all(isinstance(v.kind, Lit) for v in (a, b)):
            return Value(Lit(-(-a.kind.value // b.kind.value)))
        ra, rb = (t.rust_text(v) if isinstance(v.kind, Const) else f"{v.kind.value}i32" for v in (a, b))
        pa, pb = (t.py_text(v) for v in (a, b))
        names = tuple(dict.fromkeys(n for v in (a, b) if isinstance(v.kind, Const) for n in v.kind.names))
        return Value(Const(f"ceil_div({ra}, {rb})", f"(-(-{pa} // {pb}))", names))
    if any(isinstance(v.kind, Tile) for v in (a, b)) or not all(
            isinstance(v.kind, (Lit, Const)) or v.kind.dtype.uniform == "int32" for v in (a, b)):
        return t.binary("cdiv", a, b, node, hint, nodes=(args["x"], args["y"]))
    texts = [t.i32_text(v, node, "ct.cdiv") for v in (a, b)]
    return t.let(hint or "cdiv", Scalar(t.types.of_name("int32")),
                 f"ceil_div({texts[0]}, {texts[1]})")
