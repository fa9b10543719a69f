"""Normalization rule `fold_splat`: `broadcast(reshape(constant <v> : tile<T>))` (or the
reshape alone) becomes the one `constant <v> : tile<NxT>` it equals, `itof` of an integer constant the float
constant it is (a port's `N as f32` where cuTile Python writes `N * 1.0`), and `exti` of an
integer constant the wider constant it is (a port's i64 splat of an i32 generic, which cutile
0.4 cannot write as a constant: its const generics are i32 and it casts no i32 to i64), and
`ftof` of a float constant the constant of the new type when the conversion is exact (a
port's f32 literal converted to f16 / bf16 / tf32 / fp8, which cutile-rs spells no literal of),
`bitcast` of an i32 constant to f32 the float of those bits (a float ct.Constant, which a
port takes as an i32 generic of its f32 bits), and `addf`/`subf`/`mulf`/`divf` of two
scalar constants their rounded result (what cuTile Python folded in Python, `1.0 / N`, a port
computes on 0-d tiles from its const generics), and `maxi`/`mini` of two integer constants
the one they pick (cuTile Python's split loop starts at `max(0, 0)`, which cutile folds).

cuTile Python folds a Python number into a splat constant (`offsets + 1000` is
`constant <i32: 1000> : tile<1024xi32>`); cutile writes the scalar constant and broadcasts it
(`broadcast_scalar`). Both are the same tile of one value, and tileiras folds the second into
the first.
"""
from __future__ import annotations

import math
import struct
from copy import copy

from .floats import BYTECODE_TYPES, parsed, printed, rounded
from .model import Module, Operation, split_value_ref
from .lexer import group, tokenize


def rule_fold_splat(module: Module) -> None:
    for entry in module.entries:
        defs = {}
        for op in entry.walk():
            for name in op.result_names():
                defs[name] = op
        for op in entry.walk():
            _fold_itof(op, defs)
            _fold_bitcast(op, defs)
            _fold_ftof(op, defs)
            _fold_arith(op, defs)
            _fold_min_max(op, defs)
            _fold_exti(op, defs)        # a generic widened, then broadcast (a gather's padding)
        for op in entry.walk():
            _fold(op, defs)
        for op in entry.walk():
            _fold_exti(op, defs)


FLOAT_TYPES = {"f32", "f16", "bf16", "f64"}


def _fold_itof(op: Operation, defs: dict) -> None:
    if op.name != "itof" or len(op.operands()) != 1:
        return
    const = defs.get(split_value_ref(op.operands()[0].text)[0])
    value = _int_constant(const) if const is not None else None
    result = op.body[-1] if op.body else None
    dtype = _scalar_dtype(result)
    if value is None or dtype not in FLOAT_TYPES or abs(value) >= 10 ** 7:
        return
    text = f"<{dtype}: {float(value):.6e}> : {result.text}"
    op.name = "constant"
    op.body = group(tokenize(text, 0), 0, text)
    op.refresh()


def _fold_ftof(op: Operation, defs: dict) -> None:
    """`ftof` of a float constant is the constant of the new type only when the conversion is
    exact (the value is one of the new type's): then no rounding mode matters. A port writes
    a literal of a type cutile-rs spells none of (f16 5.0, fp8, tf32) as f32 + convert."""
    if op.name != "ftof" or len(op.operands()) != 1:
        return
    const = defs.get(split_value_ref(op.operands()[0].text)[0])
    if const is None or const.name != "constant" or not const.body or \
            not hasattr(const.body[0], "items"):
        return
    items = [getattr(t, "text", "") for t in const.body[0].items]
    result = getattr(op.body[-1], "text", "") if op.body else ""
    dtype = result.rsplit("x", 1)[-1][:-1] if "x" in result[5:] else result[5:-1]
    try:
        value = rounded(parsed(items[2], items[0]), items[0]) if len(items) == 3 else None
    except (ValueError, AttributeError):
        return
    if value is None or rounded(value, dtype) != value:
        return
    text = printed(value, dtype)
    if text is None:
        return
    body = f"<{dtype}: {text}> : {result}"
    op.name = "constant"
    op.body = group(tokenize(body, 0), 0, body)
    op.refresh()


def _fold_bitcast(op: Operation, defs: dict) -> None:
    """`bitcast` of an i32 constant to f32 is the float constant of those bits (a port's
    float ct.Constant, which it takes as an i32 generic of its f32 bits)."""
    if op.name != "bitcast" or len(op.operands()) != 1:
        return
    const = defs.get(split_value_ref(op.operands()[0].text)[0])
    value = _int_constant(const) if const is not None else None
    result = op.body[-1] if op.body else None
    if value is None or _scalar_dtype(result) != "f32" or _scalar_dtype(const.body[-1]) != "i32":
        return
    text = printed(struct.unpack("<f", struct.pack("<i", value))[0], "f32")
    if text is not None:
        _make_constant(op, f"<f32: {text}> : {result.text}")


# scalar float arithmetic: a port computes on 0-d tiles what cuTile Python folded in Python
# (`1.0 / N`); one IEEE operation rounded once to the result type, as computed in float64 and
# rounded (float64 holds the exact result's rounding for every type up to f32)
ARITH = {"addf": lambda a, b: a + b, "subf": lambda a, b: a - b,
         "mulf": lambda a, b: a * b, "divf": lambda a, b: a / b if b else None}


def _fold_arith(op: Operation, defs: dict) -> None:
    if op.name not in ARITH or len(op.operands()) != 2:
        return
    result = op.body[-1] if op.body else None
    dtype = _scalar_dtype(result)
    if dtype not in ("f32", "f16", "bf16", "f64"):
        return
    values = [_float_constant(defs.get(split_value_ref(o.text)[0])) for o in op.operands()]
    if None in values:
        return
    exact = ARITH[op.name](*values)
    value = rounded(exact, dtype) if exact is not None and math.isfinite(exact) else None
    text = printed(value, dtype) if value is not None else None
    if text is not None:
        _make_constant(op, f"<{dtype}: {text}> : {result.text}")


def _fold_min_max(op: Operation, defs: dict) -> None:
    if op.name not in ("maxi", "mini") or len(op.operands()) != 2:
        return
    consts = [defs.get(split_value_ref(o.text)[0]) for o in op.operands()]
    values = [_int_constant(c) if c is not None else None for c in consts]
    result = op.body[-1] if op.body else None
    dtype = _scalar_dtype(result)
    unsigned = any(getattr(t, "text", "") == "unsigned" for t in op.body)
    if None in values or dtype is None or unsigned and min(values) < 0:
        return
    pick = max(values) if op.name == "maxi" else min(values)
    _make_constant(op, f"<{dtype}: {pick}> : {result.text}")


def _float_constant(const: Operation | None) -> float | None:
    if const is None or const.name != "constant" or not const.body or \
            not hasattr(const.body[0], "items") or _scalar_dtype(const.body[-1]) is None:
        return None
    items = [getattr(t, "text", "") for t in const.body[0].items]
    if len(items) != 3 or items[0] not in BYTECODE_TYPES and items[0] != "f64":
        return None
    try:
        return rounded(float(items[2]), items[0])     # the printed digits name one value
    except ValueError:
        return None


def _make_constant(op: Operation, body: str) -> None:
    op.name = "constant"
    op.body = group(tokenize(body, 0), 0, body)
    op.refresh()


def _fold_exti(op: Operation, defs: dict) -> None:
    if op.name != "exti" or len(op.operands()) != 1:
        return
    const = defs.get(split_value_ref(op.operands()[0].text)[0])
    value = _int_constant(const) if const is not None else None
    signed = any(getattr(t, "text", "") == "signed" for t in op.body)
    result = op.body[-1] if op.body else None
    text = getattr(result, "text", "")
    dtype = text.rsplit("x", 1)[-1][:-1] if "x" in text[5:] else text[5:-1]
    # an i1's signed extension of 1 is -1: only wider integer sources fold
    source = getattr(const.body[0].items[0], "text", "") if value is not None else ""
    if value is None or source == "i1" or not dtype.startswith("i") or not (signed or value >= 0):
        return
    body = f"<{dtype}: {value}> : {text}"
    op.name = "constant"
    op.body = group(tokenize(body, 0), 0, body)
    op.refresh()


def _int_constant(const: Operation) -> int | None:
    if const.name != "constant" or not const.body or not hasattr(const.body[0], "items"):
        return None
    items = [getattr(t, "text", "") for t in const.body[0].items]
    if len(items) != 3 or not items[0].startswith("i"):
        return None
    try:
        return int(items[2])
    except ValueError:
        return None


def _scalar_dtype(node) -> str | None:
    text = getattr(node, "text", "")
    if not text.startswith("tile<") or "x" in text[5:]:
        return None
    return text[5:-1]


def _fold(op: Operation, defs: dict) -> None:
    """`reshape` of a scalar constant, and `broadcast` of either, is the constant of the
    result's shape (cuTile Python folds a stored literal, `reshape(astype(-1, T), (1,))`)."""
    if op.name not in ("reshape", "broadcast") or len(op.operands()) != 1:
        return
    source = defs.get(split_value_ref(op.operands()[0].text)[0])
    if op.name == "broadcast" and source is not None and source.name == "reshape" and \
            len(source.operands()) == 1:
        source = defs.get(split_value_ref(source.operands()[0].text)[0])
    if source is None or source.name != "constant" or not (
            _scalar_typed(source) or op.name == "broadcast" and _splat(source)):
        return
    result_type = op.body[-1]
    op.name = "constant"
    op.body = [*(copy(n) for n in source.body[:-1]), copy(result_type)]
    op.refresh()


def _splat(const: Operation) -> bool:
    """A constant of one value (a folded reshape's), not a dense array of several."""
    items = getattr(const.body[0], "items", None) if const.body else None
    return items is not None and len(items) == 3 and getattr(items[2], "text", None) is not None


def _scalar_typed(const: Operation) -> bool:
    last = const.body[-1] if const.body else None
    return getattr(last, "kind", "") == "typed" and "x" not in last.text.removeprefix("tile<")
