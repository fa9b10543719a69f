"""Elementwise math: the unary functions, `ct.maximum` / `ct.minimum`, `ct.where`."""
from __future__ import annotations

from .registry import Family
from .values import Fail, Tile, broadcast_shape

FAMILY = Family("math")

UNARY_MATH = {"exp": "exp({})", "log": "log({})", "tanh": "tanh({})",
              "rsqrt": "rsqrt({}, ftz::Disabled)"}


def unary_math(t, node, hint, fname):
    if len(node.args) != 1 or node.keywords:
        raise Fail(node, f"ct.{fname}", "only the one-argument form is ported")
    x = t.expr(node.args[0])
    if not isinstance(x.kind, Tile) or x.kind.dtype not in ("E", "f32"):
        raise Fail(node, f"ct.{fname}", "the argument must be a floating tile")
    return t.let(hint or fname, x.kind, UNARY_MATH[fname].format(x.expr))


@FAMILY.rule("exp")
def exp(t, node, hint):
    return unary_math(t, node, hint, "exp")


@FAMILY.rule("log")
def log(t, node, hint):
    return unary_math(t, node, hint, "log")


@FAMILY.rule("tanh")
def tanh(t, node, hint):
    return unary_math(t, node, hint, "tanh")


@FAMILY.rule("rsqrt")
def rsqrt(t, node, hint):
    return unary_math(t, node, hint, "rsqrt")


def binary_fn(t, node, hint, fname):
    if len(node.args) != 2 or node.keywords:
        raise Fail(node, f"ct.{fname}", "only the two-argument form is ported")
    a, b = t.expr(node.args[0]), t.expr(node.args[1])
    (ta, tb), dtype, shape = t.operands([a, b], node.args, f"ct.{fname}")
    return t.let(hint or fname, Tile(dtype, shape), f"{fname}_tile({ta.expr}, {tb.expr})"
                    .replace("maximum_tile", "max_tile").replace("minimum_tile", "min_tile"))


@FAMILY.rule("maximum")
def maximum(t, node, hint):
    return binary_fn(t, node, hint, "maximum")


@FAMILY.rule("minimum")
def minimum(t, node, hint):
    return binary_fn(t, node, hint, "minimum")


@FAMILY.rule("where")
def where(t, node, hint):
    if len(node.args) != 3 or node.keywords:
        raise Fail(node, "ct.where", "only ct.where(cond, x, y) is ported")
    cond, x, y = (t.expr(a) for a in node.args)
    if not isinstance(cond.kind, Tile) or cond.kind.dtype != "bool":
        raise Fail(node, "ct.where", "the condition must be a bool tile")
    (tx, ty), dtype, shape = t.operands([x, y], node.args[1:], "ct.where")
    shape = broadcast_shape(shape, cond.kind.shape, node)
    tx, ty = t.fit(tx, shape, node), t.fit(ty, shape, node)
    tc = t.fit(cond, shape, node)
    return t.let(hint or "selected", Tile(dtype, shape),
                    f"select({tc.expr}, {tx.expr}, {ty.expr})")
