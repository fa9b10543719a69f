"""Tiles made from nothing (`ct.full`, `ct.zeros`, `ct.ones`, `ct.arange`) and dtype
conversion (`ct.astype`, `Tile.astype`, `ct.bitcast`)."""
from __future__ import annotations

from .registry import Family
from .values import Const, ConstFloat, DType, Fail, FloatParam, Lit, Scalar, Tile, Value, shape_text

FAMILY = Family("create")


def dtype_arg(t, node, args, what, default=None):
    dt = args.get("dtype")
    if dt is None:
        if default is None:
            raise Fail(node, what, "dtype= is required")
        return t.types.of_name(default)
    v = t.expr(dt)
    if not isinstance(v.kind, DType):
        raise Fail(node, what, "dtype must be a cuda.tile dtype or array.dtype")
    return v.kind.dtype


def filled(t, node, hint, shape, value: Value, dt, what: str) -> Value:
    kind = Tile(dt, shape)
    if isinstance(value.kind, Lit):
        wide = t.types.narrow_literal(value.kind.value, dt)
        if wide is not None:
            f32 = t.let("wide", Tile(t.types.of_name("float32"), shape),
                        t.constant_expr(wide, shape, node))
            return t.let(hint or "full", kind, t.conversion(f32, dt, node))
        text = t.types.literal(value.kind.value, dt, node)
        return t.let(hint or "full", kind, t.constant_expr(text, shape, node))
    if isinstance(value.kind, Const):      # constant() takes no const generic: split on it
        return filled(t, node, hint, shape, Value(Lit(t.static_value(value, what))), dt, what)
    if isinstance(value.kind, (ConstFloat, FloatParam)) or (
            isinstance(value.kind, (Scalar, Tile)) and getattr(value.kind, "shape", ()) == ()):
        return t.as_tile(value, dt, shape, node)       # a float of the generics: computed
    raise Fail(node, what, "the fill value must be a literal or a scalar")


@FAMILY.rule("full")
def full(t, node, hint):
    args = t.bind_args("full", node)
    shape = t.const_shape(args["shape"], "ct.full")
    if "fill_value" not in args:
        raise Fail(node, "ct.full", "fill_value is required")
    dt = dtype_arg(t, node, args, "ct.full")
    return filled(t, node, hint, shape, t.expr(args["fill_value"]), dt, "ct.full")


@FAMILY.rule("zeros")
def zeros(t, node, hint):
    args = t.bind_args("zeros", node)
    shape = t.const_shape(args["shape"], "ct.zeros")
    return filled(t, node, hint, shape, Value(Lit(0)), dtype_arg(t, node, args, "ct.zeros"),
                  "ct.zeros")


@FAMILY.rule("ones")
def ones(t, node, hint):
    args = t.bind_args("ones", node)
    shape = t.const_shape(args["shape"], "ct.ones")
    return filled(t, node, hint, shape, Value(Lit(1)), dtype_arg(t, node, args, "ct.ones"),
                  "ct.ones")


@FAMILY.rule("arange")
def arange(t, node, hint):
    args = t.bind_args("arange", node)
    shape = t.const_shape(args["size"], "ct.arange")
    for name, default in (("start", 0), ("step", 1)):
        if name in args and t.static_value(args[name], name) != default:
            raise Fail(node, f"ct.arange({name}=..)", f"a {name} other than {default} is not ported")
    dt = dtype_arg(t, node, args, "ct.arange", default="int32")
    if not dt.integral:
        raise Fail(node, "ct.arange", "only integer ranges are ported (iota)")
    return t.let(hint or "iota", Tile(dt, shape), f"iota(shape![{shape_text(shape)}])")


@FAMILY.rule("astype", tile_method="astype")
def astype(t, node, hint, dtype=None):
    if dtype is not None:               # ct.float32(x)
        if len(node.args) != 1 or node.keywords:
            raise Fail(node, "dtype(x)", "a dtype called with one argument converts it")
        x, dt = t.expr(node.args[0]), dtype.dtype
    else:
        args = t.bind_args("astype", node)
        if args.get("rounding_mode") is not None and \
                t.static_value(args["rounding_mode"], "rounding_mode") is not None:
            raise Fail(node, "ct.astype(rounding_mode=..)", "a conversion rounding mode is not "
                       "ported (cutile's convert_tile rounds to nearest even)")
        x = t.expr(args["x"])
        v = t.expr(args["dtype"])
        if not isinstance(v.kind, DType):
            raise Fail(node, "ct.astype", "the dtype must be a cuda.tile dtype or array.dtype")
        dt = v.kind.dtype
    if isinstance(x.kind, Lit):
        return t.constant_tile(x.kind.value, dt, (), node)
    if not isinstance(x.kind, (Tile, Scalar)):
        raise Fail(node, "ct.astype", "astype of a non-tile")
    return t.convert(x, dt, node, hint=hint)


@FAMILY.rule("bitcast")
def bitcast(t, node, hint):
    args = t.bind_args("bitcast", node)
    x = t.expr(args["x"])
    v = t.expr(args["dtype"])
    if not isinstance(x.kind, Tile) or not isinstance(v.kind, DType):
        raise Fail(node, "ct.bitcast", "ct.bitcast(tile, dtype)")
    return t.let(hint or f"{x.expr}_bits", Tile(v.kind.dtype, x.kind.shape), f"bitcast({x.expr})")


FAMILY.refuse("astile", "ct.astile builds a tile from a Python sequence; cutile 0.5.0 has "
              "no tile literal (only constant() of one value)")
FAMILY.refuse("pack_to_bytes", "byte packing: not drafted; cutile 0.5.0's pack() turns a rank-1 "
              "tile into i8/u8 bytes of the same total bits: write it by hand")
FAMILY.refuse("unpack_from_bytes", "byte unpacking: not drafted; cutile 0.5.0's unpack() turns "
              "rank-1 i8/u8 bytes into a tile of the same total bits: write it by hand")
