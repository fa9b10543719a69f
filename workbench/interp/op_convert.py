"""Conversions: ftof (round to nearest even; tf32 and the ml_dtypes formats), itof, ftoi
(toward zero), exti (sign or zero extension), trunci (wrapping), bitcast, and the pointer
conversions (a pointer is its int64 address)."""
from __future__ import annotations

import numpy as np

from .errors import Fault, UnsupportedOp
from .numeric import F32, to_elem, unsigned
from .types import TileType, element_dtype


def _types(text) -> tuple[TileType, TileType]:
    source, result = text.in_types[0], text.result_type
    if not (isinstance(source, TileType) and isinstance(result, TileType)):
        raise Fault("expected `: tile<..> -> tile<..>`", kind=UnsupportedOp)
    return source, result


def build_ftof(op, text, c):
    _, result = _types(text)
    elem = result.elem

    def run(s, v):
        x = v[0]
        wide = x if x.dtype.itemsize >= 4 else np.asarray(x, F32)
        return (to_elem(wide, elem),)
    return c.make(op, run, text.operands()[:1])


def build_itof(op, text, c):
    _, result = _types(text)
    elem, uns = result.elem, "unsigned" in text.words()

    def run(s, v):
        return (to_elem(_integers(v[0], uns).astype(np.float64), elem),)
    return c.make(op, run, text.operands()[:1])


def build_ftoi(op, text, c):
    _, result = _types(text)
    dtype, uns = result.dtype, "unsigned" in text.words()
    info = np.iinfo(dtype)
    low, high = (0, 2 ** (8 * dtype.itemsize) - 1) if uns else (info.min, info.max)

    def run(s, v):
        x = np.trunc(np.asarray(v[0], np.float64))
        x = np.clip(np.nan_to_num(x, nan=0.0), low, high)     # out of range: undefined
        if uns:
            return (x.astype(np.uint64).astype(dtype),)
        return (x.astype(np.int64).astype(dtype),)
    return c.make(op, run, text.operands()[:1])


def _integers(x, uns: bool) -> np.ndarray:
    """An integer tile's values: its unsigned view, or signed (an i1 `true` is -1 signed)."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return x.astype(np.int8) * (1 if uns else -1)
    return unsigned(x) if uns else x


def build_exti(op, text, c):
    _, result = _types(text)
    dtype, uns = result.dtype, "unsigned" in text.words()
    return c.make(op, lambda s, v: (_integers(v[0], uns).astype(dtype),), text.operands()[:1])


def build_trunci(op, text, c):
    _, result = _types(text)
    dtype = result.dtype
    if dtype == np.bool_:
        return c.make(op, lambda s, v: ((np.asarray(v[0]) & 1).astype(bool),), text.operands()[:1])
    return c.make(op, lambda s, v: (np.asarray(v[0]).astype(dtype),), text.operands()[:1])


def build_bitcast(op, text, c):
    source, result = _types(text)
    dtype = result.dtype
    if source.dtype.itemsize != dtype.itemsize:
        raise Fault(f"bitcast {source.elem} -> {result.elem} changes the width", kind=UnsupportedOp)
    # ascontiguousarray makes a 0-d value 1-d: keep its shape
    return c.make(op, lambda s, v: (
        np.ascontiguousarray(v[0]).view(dtype).reshape(np.shape(v[0])),), text.operands()[:1])


def build_pointer_cast(op, text, c):
    """int_to_ptr, ptr_to_int, ptr_to_ptr: the address is the value."""
    _, result = _types(text)
    dtype = element_dtype(result.elem)
    return c.make(op, lambda s, v: (np.asarray(v[0]).astype(dtype),), text.operands()[:1])
