"""Element-wise arithmetic: float ops (computed per numeric.py), integer ops (wrapping, with
`signed`/`unsigned` and `rounding<...>` read from the op), comparisons and select."""
from __future__ import annotations

import numpy as np

from .errors import Fault, UnsupportedOp
from .numeric import F32, float_op, signed, to_elem, unsigned
from .types import TileType

# -- floats -------------------------------------------------------------------------------------

FLOAT_BINARY = {
    "addf": np.add, "subf": np.subtract, "mulf": np.multiply, "divf": np.divide,
    "remf": np.fmod, "pow": np.power, "fpowf": np.power, "atan2": np.arctan2,
}
FLOAT_UNARY = {
    "negf": np.negative, "absf": np.abs, "exp": np.exp, "exp2": np.exp2, "log": np.log,
    "log2": np.log2, "sqrt": np.sqrt, "rsqrt": lambda x: 1.0 / np.sqrt(x), "tanh": np.tanh,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh,
    "floor": np.floor, "ceil": np.ceil,
}


def _elem(text) -> str:
    t = text.result_type
    if not isinstance(t, TileType):
        raise Fault(f"expected a tile result, found {t}", kind=UnsupportedOp)
    return t.elem


def build_float_binary(op, text, c):
    compute = float_op(FLOAT_BINARY[op.name], _elem(text))
    return c.make(op, lambda s, v: (compute(v[0], v[1]),), text.operands()[:2])


def _minmax(name: str, propagate_nan: bool):
    if name == "maxf":
        return np.maximum if propagate_nan else np.fmax
    return np.minimum if propagate_nan else np.fmin


def build_minmax_f(op, text, c):
    compute = float_op(_minmax(op.name, "propagate_nan" in text.words()), _elem(text))
    return c.make(op, lambda s, v: (compute(v[0], v[1]),), text.operands()[:2])


def build_float_unary(op, text, c):
    compute = float_op(FLOAT_UNARY[op.name], _elem(text))
    return c.make(op, lambda s, v: (compute(v[0]),), text.operands()[:1])


def build_fma(op, text, c):
    elem = _elem(text)
    wide = np.float64 if elem in ("f32", "f64") else F32

    def run(s, v):
        a, b, acc = (np.asarray(x, wide) for x in v)
        return (to_elem(a * b + acc, elem),)
    return c.make(op, run, text.operands()[:3])


# -- integers -----------------------------------------------------------------------------------

def _is_unsigned(text) -> bool:
    return "unsigned" in text.words()


def build_int_binary(op, text, c):
    name, uns = op.name, _is_unsigned(text)
    dtype = text.result_type.dtype
    simple = {"addi": np.add, "subi": np.subtract, "muli": np.multiply, "andi": np.bitwise_and,
              "ori": np.bitwise_or, "xori": np.bitwise_xor}
    if name in simple:
        fn = simple[name]
        return c.make(op, lambda s, v: (np.asarray(fn(v[0], v[1]), dtype=dtype),),
                      text.operands()[:2])
    if name in ("maxi", "mini"):
        pick = np.maximum if name == "maxi" else np.minimum
        if uns:
            return c.make(op, lambda s, v: (signed(pick(unsigned(v[0]), unsigned(v[1])), dtype),),
                          text.operands()[:2])
        return c.make(op, lambda s, v: (np.asarray(pick(v[0], v[1]), dtype),), text.operands()[:2])
    if name == "shli":
        bits = dtype.itemsize * 8
        return c.make(op, lambda s, v: (_shift_left(v[0], v[1], bits, dtype),), text.operands()[:2])
    if name == "shri":
        bits = dtype.itemsize * 8
        return c.make(op, lambda s, v: (_shift_right(v[0], v[1], bits, dtype, uns),),
                      text.operands()[:2])
    if name == "divi":
        rounding = text.typed("rounding") or "zero"
        return c.make(op, lambda s, v: (_divide(v[0], v[1], rounding, uns, dtype),),
                      text.operands()[:2])
    if name == "remi":
        return c.make(op, lambda s, v: (_remainder(v[0], v[1], uns, dtype),), text.operands()[:2])
    if name == "mulhii":
        return c.make(op, lambda s, v: (_mul_high(v[0], v[1], uns, dtype),), text.operands()[:2])
    raise Fault(f"no integer rule for {name}", kind=UnsupportedOp)


def _shift_left(x, y, bits, dtype):
    amount = unsigned(y).astype(np.uint64)
    out = np.left_shift(unsigned(x), np.minimum(amount, bits - 1).astype(unsigned(x).dtype))
    return signed(np.where(amount >= bits, 0, out), dtype)


def _shift_right(x, y, bits, dtype, uns):
    amount = unsigned(y).astype(np.uint64)
    capped = np.minimum(amount, bits - 1)
    if uns:
        out = np.right_shift(unsigned(x), capped.astype(unsigned(x).dtype))
        return signed(np.where(amount >= bits, 0, out), dtype)
    return np.asarray(np.right_shift(x, capped.astype(np.asarray(x).dtype)), dtype)


def _divide(x, y, rounding, uns, dtype):
    if uns:
        a, b = unsigned(x), unsigned(y)
        safe = np.where(b == 0, 1, b)
        q = a // safe
        if rounding == "positive_inf":
            q = q + (a % safe != 0)
        return signed(np.where(b == 0, ~np.zeros_like(a), q), dtype)
    a, b = np.asarray(x), np.asarray(y)
    safe = np.where(b == 0, 1, b)
    floor = np.floor_divide(a, safe)
    exact = np.remainder(a, safe) == 0
    if rounding == "negative_inf":
        q = floor
    elif rounding == "positive_inf":
        q = floor + ~exact
    else:                                   # toward zero
        q = floor + (~exact & ((a < 0) != (safe < 0)))
    return np.asarray(np.where(b == 0, -1, q), dtype)


def _remainder(x, y, uns, dtype):
    if uns:
        a, b = unsigned(x), unsigned(y)
        return signed(np.where(b == 0, a, a % np.where(b == 0, 1, b)), dtype)
    a, b = np.asarray(x), np.asarray(y)
    return np.asarray(np.where(b == 0, a, np.fmod(a, np.where(b == 0, 1, b))), dtype)


def _mul_high(x, y, uns, dtype):
    bits = dtype.itemsize * 8
    if bits >= 64:
        a = (unsigned(x) if uns else np.asarray(x)).astype(object)
        b = (unsigned(y) if uns else np.asarray(y)).astype(object)
        high = (a * b) >> 64
        return signed(np.asarray(high & ((1 << 64) - 1)).astype(np.uint64), dtype)
    wide = np.uint64 if uns else np.int64
    a = (unsigned(x) if uns else np.asarray(x)).astype(wide)
    b = (unsigned(y) if uns else np.asarray(y)).astype(wide)
    return signed((a * b) >> bits, dtype) if uns else np.asarray((a * b) >> bits).astype(dtype)


def build_int_unary(op, text, c):
    dtype = text.result_type.dtype
    fn = np.negative if op.name == "negi" else np.abs
    return c.make(op, lambda s, v: (np.asarray(fn(v[0]), dtype),), text.operands()[:1])


# -- comparisons and select -----------------------------------------------------------------

COMPARE = {"equal": np.equal, "not_equal": np.not_equal, "less_than": np.less,
           "less_than_or_equal": np.less_equal, "greater_than": np.greater,
           "greater_than_or_equal": np.greater_equal}


def _predicate(text):
    found = [w for w in text.words() if w in COMPARE]
    if not found:
        raise Fault("no comparison predicate", kind=UnsupportedOp)
    return COMPARE[found[0]]


def build_cmpi(op, text, c):
    compare = _predicate(text)
    if _is_unsigned(text):
        return c.make(op, lambda s, v: (compare(unsigned(v[0]), unsigned(v[1])),),
                      text.operands()[:2])
    return c.make(op, lambda s, v: (np.asarray(compare(v[0], v[1])),), text.operands()[:2])


def build_cmpf(op, text, c):
    compare = _predicate(text)
    ordered = "unordered" not in text.words()

    def run(s, v):
        a, b = np.asarray(v[0], F32) if v[0].dtype.itemsize < 4 else v[0], \
            np.asarray(v[1], F32) if v[1].dtype.itemsize < 4 else v[1]
        nan = np.isnan(a) | np.isnan(b)
        result = compare(a, b)
        return (np.asarray(result & ~nan if ordered else result | nan),)
    return c.make(op, run, text.operands()[:2])


def build_select(op, text, c):
    return c.make(op, lambda s, v: (np.where(v[0], v[1], v[2]),), text.operands()[:3])
