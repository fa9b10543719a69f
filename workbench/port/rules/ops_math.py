"""Elementwise math. Unary functions (integers promoted to float32 where cuTile promotes them),
with `rounding_mode` / `flush_to_zero` where cuTile takes them; the binary functions
(`ct.add` .. `ct.pow`, `ct.maximum`, `ct.atan2`) share the operators' rules (arith.py);
`ct.where`, `ct.isnan`."""
from __future__ import annotations

import ast
import inspect
import math

import cuda.tile as ct

from .arith import rounding_name
from .registry import Family
from .values import Fail, Lit, Scalar, Tile, Value, broadcast_shape

FAMILY = Family("math")

# name -> (cutile call template for floats, params cuTile takes: "rm", "ftz")
FLOAT_UNARY = {
    "exp": ("exp({x})", "rm"), "log": ("log({x})", ""), "log2": ("log2({x})", ""),
    "exp2": ("exp2({x}, {ftz})", "ftz"), "sqrt": ("sqrt({x}, rounding::{rm}, {ftz})", "rm ftz"),
    "rsqrt": ("rsqrt({x}, {ftz})", "ftz"), "tanh": ("tanh({x})", "rm"),
    "sin": ("sin({x})", ""), "cos": ("cos({x})", ""), "tan": ("tan({x})", ""),
    "sinh": ("sinh({x})", ""), "cosh": ("cosh({x})", ""),
}
WITH_ROUNDING = {"exp": "unsafe {{ exp_with_rounding({x}, rounding::{rm}) }}",
                 "tanh": "unsafe {{ tanh_with_rounding({x}, rounding::{rm}) }}"}


def tile_operand(t, v: Value, node) -> Value:
    if isinstance(v.kind, Scalar):
        return t.scalar_tile(v, node)
    if not isinstance(v.kind, Tile):
        raise Fail(node, "operand", "not a tile or scalar")
    return v


def float_unary(t, node, hint, name: str):
    args = t.bind_args(name, node)
    x = t.expr(args["x"])
    if isinstance(x.kind, Lit):
        return Value(Lit(getattr(math, name if name != "rsqrt" else "sqrt")(x.kind.value)
                         ** (-1 if name == "rsqrt" else 1)))
    x = tile_operand(t, x, node)
    if not x.kind.dtype.floating:          # cuTile promotes integers and bools to float32
        x = t.convert(x, t.types.of_name("float32"), node)
    template, params = FLOAT_UNARY[name]
    rm = rounding_name(t.static_value(args["rounding_mode"], "rounding_mode")) \
        if "rounding_mode" in args else None
    ftz = t.static_bool(args.get("flush_to_zero"), "flush_to_zero", False)
    if rm is not None and "rm" not in params or ftz and "ftz" not in params:
        raise Fail(node, f"ct.{name}", "rounding_mode / flush_to_zero not taken")
    if rm is not None and name in WITH_ROUNDING:
        template = WITH_ROUNDING[name]
    expr = template.format(x=x.expr, rm=rm or "NearestEven",
                           ftz="ftz::Enabled" if ftz else "ftz::Disabled")
    return t.let(hint or name, x.kind, expr)


def make_float_unary(name):
    def rule(t, node, hint):
        return float_unary(t, node, hint, name)
    rule.__name__ = name
    return rule


for _name in FLOAT_UNARY:
    FAMILY.rule(_name)(make_float_unary(_name))


def preserve_unary(t, node, hint, name, float_fn, int_fn, accepts_int=True):
    args = t.bind_args(name, node)
    x = tile_operand(t, t.expr(args["x"]), node)
    dt = x.kind.dtype
    if dt.floating:
        return t.let(hint or name, x.kind, f"{float_fn}({x.expr})")
    if (dt.integral or dt.boolean) and accepts_int and int_fn:
        return t.let(hint or name, x.kind, f"{int_fn}({x.expr})")
    raise Fail(node, f"ct.{name}", f"ct.{name} of {dt.text()} is not ported")


@FAMILY.rule("abs")
def abs_(t, node, hint):
    return preserve_unary(t, node, hint, "abs", "absf", "absi")


@FAMILY.rule("floor")
def floor(t, node, hint):
    return preserve_unary(t, node, hint, "floor", "floor", None, accepts_int=False)


@FAMILY.rule("ceil")
def ceil(t, node, hint):
    return preserve_unary(t, node, hint, "ceil", "ceil", None, accepts_int=False)


@FAMILY.rule("negative")
def negative(t, node, hint):
    args = t.bind_args("negative", node)
    return t.negate(tile_operand(t, t.expr(args["x"]), node), node, hint)


@FAMILY.rule("bitwise_not")
def bitwise_not(t, node, hint):
    args = t.bind_args("bitwise_not", node)
    return t.bitwise_not(t.expr(args["x"]), node, hint)


@FAMILY.rule("isnan")
def isnan(t, node, hint):
    args = t.bind_args("isnan", node)
    x = tile_operand(t, t.expr(args["x"]), node)
    if not x.kind.dtype.floating:
        raise Fail(node, "ct.isnan", "isnan of a non-float tile")
    return t.let(hint or "nan", Tile(t.types.of_name("bool_"), x.kind.shape),
                 f"cmpf({x.expr}, {x.expr}, predicate::NotEqual, cmp_ordering::Unordered)")


def binary_rule(name: str, fn: str):
    first, second = list(inspect.signature(getattr(ct, name)).parameters)[:2]   # x, y; x1, x2

    def rule(t, node, hint):
        args = t.bind_args(name, node)
        if first not in args or second not in args:
            raise Fail(node, f"ct.{name}", f"ct.{name} takes two operands")
        a, b = t.expr(args[first]), t.expr(args[second])
        rm = rounding_name(t.static_value(args["rounding_mode"], "rounding_mode")) \
            if "rounding_mode" in args else None
        ftz = t.static_bool(args.get("flush_to_zero"), "flush_to_zero", False)
        nan = t.static_bool(args.get("propagate_nan"), "propagate_nan", False)
        rounding = None if rm is None else t.static_value(args["rounding_mode"], "rounding_mode")
        return t.binary(fn, a, b, node, hint, rounding=rounding, ftz=ftz, nan=nan,
                        nodes=(args[first], args[second]))
    rule.__name__ = name
    return rule


for _name, _fn in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "truediv"),
                   ("floordiv", "floordiv"), ("mod", "mod"), ("pow", "pow"),
                   ("maximum", "maximum"), ("minimum", "minimum"), ("atan2", "atan2"),
                   ("bitwise_and", "bitwise_and"), ("bitwise_or", "bitwise_or"),
                   ("bitwise_xor", "bitwise_xor"), ("bitwise_lshift", "bitwise_lshift"),
                   ("bitwise_rshift", "bitwise_rshift")):
    FAMILY.rule(_name)(binary_rule(_name, _fn))


def comparison_rule(name: str, op):
    def rule(t, node, hint):
        args = t.bind_args(name, node)
        return t.comparison(op, t.expr(args["x"]), t.expr(args["y"]), node, hint,
                            nodes=(args["x"], args["y"]))
    rule.__name__ = name
    return rule


for _name, _op in (("equal", ast.Eq), ("not_equal", ast.NotEq), ("less", ast.Lt),
                   ("less_equal", ast.LtE), ("greater", ast.Gt), ("greater_equal", ast.GtE)):
    FAMILY.rule(_name)(comparison_rule(_name, _op))


@FAMILY.rule("where")
def where(t, node, hint):
    """cuTile's where: x and y promoted together (two literals: their default dtype), the
    condition, x and y each broadcast to the common shape, in that order."""
    args = t.bind_args("where", node)
    cond, x, y = (t.expr(args[k]) for k in ("cond", "x", "y"))
    if isinstance(cond.kind, Scalar):
        cond = t.scalar_tile(cond, node)
    if not isinstance(cond.kind, Tile) or not cond.kind.dtype.boolean:
        raise Fail(node, "ct.where", "the condition must be a bool tile")
    if any(isinstance(v.kind, (Tile, Scalar)) for v in (x, y)):
        dtype = t.common_dtype([x, y], node, "ct.where")
    else:
        dtype = t.types.of_name(literal_dtype([x, y], node))
    shape = cond.kind.shape
    for v, n in ((x, args["x"]), (y, args["y"])):
        if isinstance(v.kind, Tile):
            shape = broadcast_shape(shape, v.kind.shape, n)
    tc = t.fit(cond, shape, node)
    tx, ty = (t.as_tile(v, dtype, shape, args[k]) for v, k in ((x, "x"), (y, "y")))
    return t.let(hint or "selected", Tile(dtype, shape),
                 f"select({tc.expr}, {tx.expr}, {ty.expr})")


def literal_dtype(values, node) -> str:
    """The dtype cuTile gives Python literals together: float32 if any is a float, else
    int32, bool only for bools alone."""
    kinds = [type(v.kind.value) for v in values if isinstance(v.kind, Lit)]
    if len(kinds) != len(values):
        raise Fail(node, "ct.where", "x and y must be tiles, scalars or literals")
    if float in kinds:
        return "float32"
    return "bool_" if all(k is bool for k in kinds) else "int32"


FAMILY.refuse("divmod", "ct.divmod returns a pair; write `//` and `%`")
