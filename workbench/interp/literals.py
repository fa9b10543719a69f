"""Literal values in Tile IR text: `constant <f32: 0.000000e+00>`, `<i16: [32, 64]>`,
`<i1: true>`, bit patterns (`0xFF800000 : f32` is -inf), and reduction identities."""
from __future__ import annotations

import numpy as np

from .errors import Fault, UnsupportedOp
from .types import UNSIGNED, element_dtype, is_float


def scalar_literal(text: str, elem: str):
    """One literal as a 0-d array of the element type."""
    dtype = element_dtype(elem)
    text = text.strip()
    if text in ("true", "false"):
        return np.array(text == "true", dtype=dtype)
    if text.lower().startswith(("0x", "-0x")):
        bits = int(text, 16) & ((1 << (8 * dtype.itemsize)) - 1)
        return np.array(bits, dtype=UNSIGNED[dtype.itemsize]).view(dtype).reshape(())
    try:
        if is_float(elem):
            return np.array(float(text), dtype=np.float64).astype(dtype)
        value = int(text)
    except ValueError:
        raise Fault(f"cannot read the literal {text!r} as {elem}", kind=UnsupportedOp)
    if dtype == np.bool_:
        return np.array(bool(value))
    bits = value & ((1 << (8 * dtype.itemsize)) - 1)
    return np.array(bits, dtype=UNSIGNED[dtype.itemsize]).view(dtype).reshape(())


def dense_literal(text: str, elem: str, shape: tuple[int, ...]) -> np.ndarray:
    """`1.0` (a splat) or `[[0, 1], [2, 3]]` as an array of `shape`."""
    text = text.strip()
    if not text.startswith("["):
        return np.full(shape, scalar_literal(text, elem), dtype=element_dtype(elem))
    flat = [scalar_literal(item, elem) for item in _leaves(text)]
    values = np.array(flat, dtype=element_dtype(elem))
    if values.size != int(np.prod(shape)):
        raise Fault(f"a constant of {values.size} values does not fill shape {shape}",
                    kind=UnsupportedOp)
    return values.reshape(shape)


def _leaves(text: str) -> list[str]:
    return [t for t in text.replace("[", ",").replace("]", ",").split(",") if t.strip()]


def typed_literals(text: str) -> list[tuple[str, str]]:
    """`[0xFF800000 : f32, 0 : i32]` -> [("0xFF800000", "f32"), ("0", "i32")]."""
    inner = text.strip()[1:-1]
    pairs = []
    for item in inner.split(","):
        if item.strip():
            value, _, elem = item.rpartition(":")
            pairs.append((value.strip(), elem.strip()))
    return pairs
