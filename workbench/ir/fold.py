"""Normalization rule `fold_splat`: `broadcast(reshape(constant <v> : tile<T>))` becomes the
one `constant <v> : tile<NxT>` it equals, `itof` of an integer constant the float
constant it is (a port's `N as f32` where cuTile Python writes `N * 1.0`), and `exti` of an
integer constant the wider constant it is (a port's i64 splat of an i32 generic, which cutile
0.4 cannot write as a constant: its const generics are i32 and it casts no i32 to i64).

cuTile Python folds a Python number into a splat constant (`offsets + 1000` is
`constant <i32: 1000> : tile<1024xi32>`); cutile writes the scalar constant and broadcasts it
(`broadcast_scalar`). Both are the same tile of one value, and tileiras folds the second into
the first.
"""
from __future__ import annotations

from copy import copy

from .model import Module, Operation, split_value_ref


def rule_fold_splat(module: Module) -> None:
    for entry in module.entries:
        defs = {}
        for op in entry.walk():
            for name in op.result_names():
                defs[name] = op
        for op in entry.walk():
            _fold_itof(op, defs)
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
    from .lexer import group, tokenize
    text = f"<{dtype}: {float(value):.6e}> : {result.text}"
    op.name = "constant"
    op.body = group(tokenize(text, 0), 0, text)
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
    from .lexer import group, tokenize
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
