"""Normalization rule `fold_splat`: `broadcast(reshape(constant <v> : tile<T>))` becomes the
one `constant <v> : tile<NxT>` it equals, `itof` of an integer constant the float
constant it is (a port's `N as f32` where cuTile Python writes `N * 1.0`), and `exti` of an
integer constant the wider constant it is (a port's i64 splat of an i32 generic, which cutile
0.4 cannot write as a constant: its const generics are i32 and it casts no i32 to i64), and
`ftof` of a float constant the constant of the new type when the conversion is exact (a
port's f32 literal converted to f16 / bf16 / tf32 / fp8, which cutile-rs spells no literal of).

cuTile Python folds a Python number into a splat constant (`offsets + 1000` is
`constant <i32: 1000> : tile<1024xi32>`); cutile writes the scalar constant and broadcasts it
(`broadcast_scalar`). Both are the same tile of one value, and tileiras folds the second into
the first.
"""
from __future__ import annotations

from copy import copy

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
            _fold_ftof(op, defs)
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


# Tile IR float type -> cuda.tile's bytecode type (its own encoder decides a value's bits)
FTOF_TYPES = {"f16": "F16", "bf16": "BF16", "tf32": "TF32", "f32": "F32",
              "f8E4M3FN": "F8E4M3FN", "f8E5M2": "F8E5M2"}


def _encoded(value: float, dtype: str) -> float | None:
    """`value` as a constant of `dtype` holds it (cuTile's own encoding), None if unknown."""
    from cuda.tile._bytecode.float import float_from_bits, float_to_bits
    from cuda.tile._bytecode.type import SimpleType
    if dtype == "f64":
        return value
    if dtype not in FTOF_TYPES:
        return None
    ty = getattr(SimpleType, FTOF_TYPES[dtype])
    return float_from_bits(float_to_bits(value, ty), ty)


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
        value = _encoded(float(items[2]), items[0]) if len(items) == 3 else None
    except ValueError:
        return
    if value is None or _encoded(value, dtype) != value:
        return
    text = _printed(value, dtype)
    body = f"<{dtype}: {text}> : {result}"
    op.name = "constant"
    op.body = group(tokenize(body, 0), 0, body)
    op.refresh()


def _printed(value: float, dtype: str) -> str:
    """A float constant's value as tileirdisasm prints it: 7 significant digits for f32 /
    f64, 6 (padded to the same width) for the narrower types."""
    if dtype in ("f32", "f64"):
        return f"{value:.6e}"
    mantissa, exponent = f"{value:.5e}".split("e")
    return f"{mantissa}0e{exponent}"


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
    if op.name != "broadcast" or len(op.operands()) != 1:
        return
    reshape = defs.get(split_value_ref(op.operands()[0].text)[0])
    if reshape is None or reshape.name != "reshape" or len(reshape.operands()) != 1:
        return
    const = defs.get(split_value_ref(reshape.operands()[0].text)[0])
    if const is None or const.name != "constant" or not _scalar_typed(const):
        return
    result_type = op.body[-1]
    op.name = "constant"
    op.body = [*(copy(n) for n in const.body[:-1]), copy(result_type)]
    op.refresh()


def _scalar_typed(const: Operation) -> bool:
    last = const.body[-1] if const.body else None
    return getattr(last, "kind", "") == "typed" and "x" not in last.text.removeprefix("tile<")
