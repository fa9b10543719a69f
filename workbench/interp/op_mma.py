"""Matrix multiply-accumulate (2-d, or 3-d batched): mmaf with f16/bf16/tf32/fp8/f32 inputs
multiplied exactly and summed in float32 (f64 in float64), rounded once to the accumulator's
type; mmai with i8 inputs (`signed`/`unsigned` each) summed exactly, wrapping to i32."""
from __future__ import annotations

import numpy as np

from .errors import Fault, UnsupportedOp
from .numeric import F32, to_elem, unsigned
from .types import TileType


def _acc_type(text) -> TileType:
    types = text.in_types
    if len(types) != 3 or not all(isinstance(t, TileType) for t in types):
        raise Fault("expected `: lhs, rhs, acc` tile types", kind=UnsupportedOp)
    if len(types[2].shape) not in (2, 3):
        raise Fault("mma takes 2-d or 3-d tiles", kind=UnsupportedOp)
    return types[2]


def build_mmaf(op, text, c):
    acc = _acc_type(text)
    wide = np.float64 if acc.elem == "f64" else F32

    def run(s, v):
        a, b, acc_in = (np.asarray(x, wide) for x in v[:3])
        return (to_elem(np.matmul(a, b) + acc_in, acc.elem),)
    return c.make(op, run, text.operands()[:3])


def build_mmai(op, text, c):
    acc = _acc_type(text)
    words = [w for w in text.words() if w in ("signed", "unsigned")]
    if len(words) != 2:
        raise Fault("expected the signedness of lhs and rhs", kind=UnsupportedOp)
    lhs_unsigned, rhs_unsigned = (w == "unsigned" for w in words)

    def run(s, v):
        a = (unsigned(v[0]) if lhs_unsigned else np.asarray(v[0])).astype(np.float64)
        b = (unsigned(v[1]) if rhs_unsigned else np.asarray(v[1])).astype(np.float64)
        total = np.matmul(a, b).astype(np.int64) + np.asarray(v[2]).astype(np.int64)
        return (total.astype(acc.dtype),)
    return c.make(op, run, text.operands()[:3])
