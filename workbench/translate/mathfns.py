"""Math functions, mapped by what they compute: Triton's own (`tl.exp`, `tl.math.rsqrt`) and
libdevice's (`from triton.language.extra.libdevice import tanh`, `libdevice.rsqrt(x)`,
`tl.extra.libdevice.pow(x, y)`), each onto the cuda.tile function that computes the same.
A function with no cuTile counterpart is refused in one line: its name, what it computes,
and what to write instead.

    math_call(t, "tanh", call, "libdevice.tanh")     # Run("ct.tanh(x)")
"""
from __future__ import annotations

import ast

from .arith import binop, broadcast, float_dtype, position_kind, text_of
from .values import Fail, Run, Static

UNARY = {"exp": "ct.exp", "exp2": "ct.exp2", "log": "ct.log", "log2": "ct.log2",
         "sqrt": "ct.sqrt", "sqrt_rn": "ct.sqrt", "rsqrt": "ct.rsqrt", "sin": "ct.sin",
         "cos": "ct.cos", "tan": "ct.tan", "sinh": "ct.sinh", "cosh": "ct.cosh",
         "tanh": "ct.tanh", "abs": "ct.abs", "floor": "ct.floor", "ceil": "ct.ceil",
         "isnan": "ct.isnan"}
BINARY = {"pow": "ct.pow", "atan2": "ct.atan2", "maximum": "ct.maximum",
          "minimum": "ct.minimum"}
DIVISIONS = ("div_rn", "fdiv")
# libdevice's faster, less exact forms (and one correctly rounded form): the function each
# approximates, which cuTile computes to its own rounding
APPROXIMATING = {"fast_expf": "exp", "fast_logf": "log", "fast_log2f": "log2",
                 "fast_sinf": "sin", "fast_cosf": "cos", "fast_tanf": "tan",
                 "fast_powf": "pow", "fast_dividef": "div_rn", "rsqrt_rn": "rsqrt"}
CUTILE_MATH = ("exp, exp2, log, log2, sqrt, rsqrt, sin, cos, tan, sinh, cosh, tanh, pow, "
               "atan2, abs, floor, ceil, isnan, maximum, minimum")
# name -> (what it computes, what to write instead)
REFUSED = {
    "erf": ("the error function", "write the GELU with its tanh form (0.5 * x * (1 + "
            "tanh(0.7978845608 * (x + 0.044715 * x * x * x)))) or a polynomial"),
    "erfc": ("1 - erf(x)", "write it from a polynomial"),
    "erfinv": ("the inverse error function", "write it from a polynomial"),
    "log1p": ("log(1 + x), exact near 0", "write log(1 + x) where |x| is not small"),
    "expm1": ("exp(x) - 1, exact near 0", "write exp(x) - 1 where |x| is not small"),
    "log10": ("the base-10 logarithm", "write log2(x) * 0.3010299956639812 (log10 of 2)"),
    "exp10": ("10 ** x", "write exp2(x * 3.321928094887362) (log2 of 10)"),
    "isinf": ("whether x is +-inf", "write abs(x) == float('inf')"),
    "isfinited": ("whether x is finite", "write abs(x) < float('inf')"),
    "finitef": ("whether x is finite", "write abs(x) < float('inf')"),
    "signbit": ("the sign bit of x", "write x < 0 (it differs for -0.0 and NaN)"),
    "copysign": ("|x| with the sign of y", "write tl.where(y < 0, -abs(x), abs(x))"),
    "trunc": ("x rounded toward zero", "write tl.where(x < 0, ceil(x), floor(x))"),
    "round": ("x rounded half away from zero", "write it from floor and tl.where"),
    "rint": ("x rounded half to even", "write it from floor and tl.where"),
    "nearbyint": ("x rounded half to even", "write it from floor and tl.where"),
    "fmod": ("the C remainder of x / y (the sign of x)", "write x - y * trunc(x / y) with "
             "trunc written from floor and ceil"),
    "remainder": ("the IEEE remainder of x / y", "write it from division and rounding"),
    "hypot": ("sqrt(x*x + y*y)", "write sqrt(x * x + y * y) where it does not overflow"),
    "cbrt": ("the cube root", "write pow(x, 1.0 / 3) for x >= 0"),
    "umulhi": ("the high 32 bits of a 32 x 32-bit product", "compute the product in int64 "
               "and shift it right by 32"),
}


def is_math(name: str) -> bool:
    return name in UNARY or name in BINARY or name in DIVISIONS or name in APPROXIMATING \
        or name == "fma" or name in REFUSED


def math_call(t, name: str, call: ast.Call, construct: str):
    """The cuTile value of math function `name` called at `call` (spelled `construct`)."""
    if name in APPROXIMATING:
        meant = APPROXIMATING[name]
        t.note(call, f"{construct} is libdevice's faster or differently rounded "
                     f"{meant}: written as cuTile's {meant}, which may differ in the last bits")
        name = meant
    if name in UNARY:
        x = t.data(call.args[0], construct)
        return Run(f"{UNARY[name]}({text_of(x)})", getattr(x, "shape", None),
                   dtype=float_dtype(x))
    if name in BINARY:
        return _binary(t, BINARY[name], call, construct)
    if name in DIVISIONS:
        a, b = (t.data(n, construct) for n in call.args[:2])
        return binop(ast.Div, a, b, call, t.n)
    if name == "fma":
        a, b, c = (t.data(n, construct) for n in call.args[:3])
        return binop(ast.Add, binop(ast.Mult, a, b, call, t.n), c, call, t.n)
    what, instead = REFUSED.get(name, (None, None))
    if what is None:
        raise Fail(call, construct, f"a math function with no cuTile counterpart (cuda.tile "
                   f"computes {CUTILE_MATH}): write it from those")
    raise Fail(call, construct, f"computes {what}; cuTile has no {name}: {instead}")


def _binary(t, function: str, call: ast.Call, construct: str):
    a, b = t.data(call.args[0], construct), t.data(call.args[1], construct)
    shape = broadcast(getattr(a, "shape", None), getattr(b, "shape", None), call)
    is_int = all(isinstance(v, Static) and isinstance(v.value, int) or
                 isinstance(v, Run) and v.is_int for v in (a, b)) or None
    return Run(f"{function}({text_of(a)}, {text_of(b)})", shape, is_int=is_int,
               kind=position_kind(shape, is_int, a, b),
               dtype=None if is_int else float_dtype(a, b))
