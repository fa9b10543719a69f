"""Python builtins in a kernel: `min` / `max` (cuTile's minimum / maximum; of literals and
constants, folded), `abs`, `int(..)` / `float(..)` / `bool(..)` of compile-time values, `len`
of a tuple."""
from __future__ import annotations

import ast
import math

from .ops_refused import PRINT_BY_HAND
from .registry import Family
from .values import Const, DType, Fail, Lit, Seq, Static, Value

FAMILY = Family("builtins")


def fold(t, node):
    """The call's value when all its arguments are compile-time."""
    return t.wrap_static(t.static_value(node, ast.unparse(node.func)), node)


def extremum(t, node, hint, name):
    if node.keywords:
        raise Fail(node, name, f"{name}() with keywords is not ported")
    values = [t.expr(a) for a in node.args]
    if len(values) == 1 and isinstance(values[0].kind, Seq):
        values = values[0].kind.items
    if len(values) < 2:
        raise Fail(node, name, f"{name}() of fewer than two values")
    if all(isinstance(v.kind, (Lit, Static)) for v in values):
        return Value(Lit((min if name == "min" else max)(v.kind.value for v in values)))
    if all(isinstance(v.kind, (Lit, Const)) for v in values):
        names = tuple(dict.fromkeys(n for v in values if isinstance(v.kind, Const) for n in v.kind.names))
        return Value(Lit(t.static_value(node, name))) if all(n in t.const_values for n in names) \
            else t.need_value(next(v for v in values if isinstance(v.kind, Const)), node,
                              f"{name}() of constants")
    out = values[0]
    for v in values[1:]:
        out = t.binary("minimum" if name == "min" else "maximum", out, v, node, hint)
    return out


@FAMILY.builtin("min")
def min_(t, node, hint):
    return extremum(t, node, hint, "min")


@FAMILY.builtin("max")
def max_(t, node, hint):
    return extremum(t, node, hint, "max")


@FAMILY.builtin("abs")
def abs_(t, node, hint):
    if len(node.args) == 1 and isinstance(t.expr(node.args[0]).kind, (Lit, Const)):
        return Value(Lit(abs(t.static_value(node.args[0], "abs"))))
    return t.ct_rule("abs")(t, node, hint)


def conversion(t, node, hint, name):
    try:
        return fold(t, node)
    except Fail:
        pass
    dtype = {"int": "int32", "float": "float32", "bool": "bool_"}[name]
    if len(node.args) != 1:
        raise Fail(node, name, f"{name}() of one value")
    return t.ct_rule("astype")(t, node, hint, dtype=DType(t.types.of_name(dtype)))


@FAMILY.builtin("int")
def int_(t, node, hint):
    return conversion(t, node, hint, "int")


@FAMILY.builtin("float")
def float_(t, node, hint):
    if len(node.args) == 1 and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        try:
            return Value(Lit(float(node.args[0].value)))
        except ValueError:
            raise Fail(node, "float", f"float({node.args[0].value!r})") from None
    return conversion(t, node, hint, "float")


@FAMILY.builtin("bool")
def bool_(t, node, hint):
    return conversion(t, node, hint, "bool")


@FAMILY.builtin("len")
def len_(t, node, hint):
    v = t.expr(node.args[0]) if len(node.args) == 1 else None
    if v is None or not isinstance(v.kind, Seq):
        raise Fail(node, "len", "len() of something that is no tuple the drafter knows (only "
                                "a tuple's len() is a constant)")
    return Value(Lit(len(v.kind.items)))


@FAMILY.builtin("range")
def range_(t, node, hint):
    raise Fail(node, "range", "range() outside a for loop")


@FAMILY.builtin("print")
def print_(t, node, hint):
    raise Fail(node, "print", "print() in a kernel: not drafted; cutile 0.5.0 has "
                              + PRINT_BY_HAND)


_ = math


@FAMILY.rule("static_assert")
def static_assert(t, node, hint):
    args = t.bind_args("static_assert", node)
    if not t.static_bool(args["condition"], "ct.static_assert"):
        raise Fail(node, "ct.static_assert", "the condition is false for this entry")
    return None
