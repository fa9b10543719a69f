"""Tiles made from nothing (`ct.full`, `ct.zeros`, `ct.arange`) and dtype conversion
(`ct.astype`)."""
from __future__ import annotations

import ast

from ..analyze import keyword
from .registry import Family
from .values import DType, Fail, Lit, Tile, literal, shape_text

FAMILY = Family("create")


def dtype_kw(t, node, what, default=None) -> str:
    dt = keyword(node, "dtype", None)
    if dt is None:
        if default is None:
            raise Fail(node, what, "dtype= is required")
        return default
    v = t.expr(dt)
    if not isinstance(v.kind, DType):
        raise Fail(node, what, "dtype must be ct.float32, ct.int32 or ct.bool_")
    if v.kind.dtype == "E":
        raise Fail(node, what, "a constant of the arrays' dtype has no generic Rust "
                               "spelling; build it in float32 and ct.astype it")
    return v.kind.dtype


@FAMILY.rule("full")
def full(t, node, hint, value_node=None):
    t.check_kwargs(node, {"shape", "fill_value", "dtype"}, "ct.full")
    shape = t.const_shape(keyword(node, "shape", 0), "ct.full")
    value_node = value_node or keyword(node, "fill_value", 1)
    value = t.expr(value_node)
    if not isinstance(value.kind, Lit):
        raise Fail(node, "ct.full", "the fill value must be a literal")
    dtype = dtype_kw(t, node, "ct.full")
    return t.let(hint or "full", Tile(dtype, shape),
                    f"constant({literal(value.kind.value, dtype, node)}, "
                    f"shape![{shape_text(shape)}])")


@FAMILY.rule("zeros")
def zeros(t, node, hint):
    t.check_kwargs(node, {"shape", "dtype"}, "ct.zeros")
    zero = ast.Constant(0)
    ast.copy_location(zero, node)
    return full(t, node, hint, value_node=zero)


@FAMILY.rule("arange")
def arange(t, node, hint):
    t.check_kwargs(node, {"dtype"}, "ct.arange")
    if len(node.args) != 1:
        raise Fail(node, "ct.arange", "only ct.arange(N, dtype=ct.int32) is ported")
    shape = t.const_shape(node.args[0], "ct.arange")
    dtype = dtype_kw(t, node, "ct.arange", default="i32")
    if dtype != "i32":
        raise Fail(node, "ct.arange", "only int32 ranges are ported")
    return t.let(hint or "iota", Tile("i32", shape), f"iota(shape![{shape_text(shape)}])")


@FAMILY.rule("astype")
def astype(t, node, hint):
    t.check_kwargs(node, set(), "ct.astype")
    x = t.expr(keyword(node, "x", 0))
    dt = t.expr(keyword(node, "dtype", 1))
    if not isinstance(dt.kind, DType):
        raise Fail(node, "ct.astype", "the dtype must be ct.float32/int32 or array.dtype")
    if not isinstance(x.kind, Tile):
        raise Fail(node, "ct.astype", "astype of a non-tile")
    if x.kind.dtype == dt.kind.dtype:
        return x
    return t.let(hint or f"{x.expr}_{dt.kind.dtype.lower()}", Tile(dt.kind.dtype, x.kind.shape),
                    f"convert_tile({x.expr})")
