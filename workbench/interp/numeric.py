"""Number formats: which element types compute in float32 (f16, bf16, fp8: each op rounds its
float32 result once to the type, as the GPU's single-rounded ops do), tf32 rounding, and the
unsigned view of an integer tile for ops marked `unsigned`."""
from __future__ import annotations

import numpy as np

from .types import UNSIGNED, element_dtype

NARROW_FLOATS = {"f16", "bf16", "tf32", "f8E4M3FN", "f8E5M2", "f8E8M0FNU", "f4E2M1FN"}
F32 = np.dtype(np.float32)


def tf32_round(values) -> np.ndarray:
    """float32 values rounded to tf32 (10 mantissa bits, to nearest even); inf/NaN kept."""
    x = np.asarray(values, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0xFFF + ((bits >> 13) & 1)) & ~np.uint64(0x1FFF)
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isfinite(x), out, x)


def to_elem(values, elem: str) -> np.ndarray:
    """Float values (any float dtype) rounded to `elem`."""
    if elem == "tf32":
        return tf32_round(values)
    return np.asarray(values).astype(element_dtype(elem))


def float_op(fn, elem: str):
    """`fn` on arrays of `elem`: computed in float32 for the narrow formats, rounded back."""
    dtype = element_dtype(elem)
    if elem in NARROW_FLOATS:
        if elem == "tf32":
            return lambda *xs: tf32_round(fn(*(np.asarray(x, F32) for x in xs)))
        return lambda *xs: np.asarray(fn(*(np.asarray(x, F32) for x in xs))).astype(dtype)
    return lambda *xs: np.asarray(fn(*xs), dtype=dtype)


def unsigned(values) -> np.ndarray:
    values = np.asarray(values)
    if values.dtype == np.bool_:
        return values
    return values.view(UNSIGNED[values.dtype.itemsize])


def signed(values, dtype: np.dtype) -> np.ndarray:
    values = np.asarray(values)
    return values if values.dtype == dtype else values.astype(UNSIGNED[dtype.itemsize]).view(dtype)
