"""reduce and scan: their regions run on whole slices at once (the region's ops are
element-wise), a reduction as a pairwise tree (log2 n region runs; Tile IR leaves the order
unspecified), a scan as an inclusive Hillis-Steele prefix in element order.

A region that is one add/mul/max/min/and/or/xor of its two arguments on f32, f64 or an integer
type (a plain sum, max, ...) runs as the NumPy reduction instead: same result up to the order of
the additions, without a region run per tree level."""
from __future__ import annotations

import numpy as np

from ..ir.printer import print_nodes
from .code import run_code
from .errors import Fault, UnsupportedOp
from .literals import scalar_literal, typed_literals
from .syntax import OpText


def _setup(op, text, c):
    dim = text.keyed("dim")
    identities = text.keyed("identities")
    if dim is None or identities is None:
        raise Fault("expected `dim=N identities=[...]`", kind=UnsupportedOp)
    axis = int(dim.text)
    ids = [scalar_literal(value, elem) for value, elem in typed_literals(print_nodes([identities]))]
    inputs = text.operands()
    if len(ids) != len(inputs):
        raise Fault(f"{len(inputs)} operands but {len(ids)} identities", kind=UnsupportedOp)
    code = c.code(op.regions[0].block)
    if len(code.args) != 2 * len(inputs):
        raise Fault(f"the region takes {len(code.args)} arguments, expected {2 * len(inputs)}",
                    kind=UnsupportedOp)
    return axis, ids, inputs, code


def _combine(s, code, firsts, seconds):
    """The region on (first_i, second_i) pairs: [first0, second0, first1, second1, ...]."""
    args = [x for pair in zip(firsts, seconds) for x in pair]
    signal = run_code(s, code, args)
    if signal is None or signal.kind != "yield":
        raise Fault("a reduce/scan region must end in yield")
    shape = np.broadcast_shapes(*(np.shape(x) for x in args))
    return [np.broadcast_to(np.asarray(v), shape) for v in signal.values]


_FAST = {"addf": np.add, "addi": np.add, "mulf": np.multiply, "muli": np.multiply,
         "andi": np.bitwise_and, "ori": np.bitwise_or, "xori": np.bitwise_xor}
_FAST_TYPES = {"f32", "f64", "i1", "i8", "i16", "i32", "i64"}


def _simple_region(code):
    """The NumPy ufunc a one-op region computes, or None."""
    if len(code.instrs) != 2 or len(code.args) != 2:
        return None
    first, last = code.instrs
    if last.op.name != "yield" or last.operands != first.results or \
            set(first.operands) != set(code.args) or len(first.operands) != 2:
        return None
    text = OpText(first.op)
    elem = getattr(text.result_type, "elem", None)
    if elem not in _FAST_TYPES:
        return None
    name, words = first.op.name, text.words()
    if name in _FAST:
        return _FAST[name]
    if name in ("maxf", "minf"):
        nan = "propagate_nan" in words
        if name == "maxf":
            return np.maximum if nan else np.fmax
        return np.minimum if nan else np.fmin
    if name in ("maxi", "mini") and "unsigned" not in words:
        return np.maximum if name == "maxi" else np.minimum
    return None


def build_reduce(op, text, c):
    axis, ids, inputs, code = _setup(op, text, c)
    fast = _simple_region(code) if len(inputs) == 1 else None
    if fast is not None:
        identity = ids[0]
        return c.make(op, lambda s, v: (np.asarray(fast(fast.reduce(v[0], axis=axis), identity),
                                                   v[0].dtype),), inputs, [code])

    def run(s, v):
        xs = [np.moveaxis(np.asarray(x), axis, 0) for x in v]
        while xs[0].shape[0] > 1:
            if xs[0].shape[0] % 2:
                xs = [np.concatenate([x, np.broadcast_to(i, (1,) + x.shape[1:]).astype(x.dtype)])
                      for x, i in zip(xs, ids)]
            # element (later) first, accumulator (earlier) second, as the region expects
            xs = _combine(s, code, [x[1::2] for x in xs], [x[0::2] for x in xs])
        return tuple(x[0] for x in xs)
    return c.make(op, run, inputs, [code])


def build_scan(op, text, c):
    axis, ids, inputs, code = _setup(op, text, c)
    reverse = text.keyed("reverse")
    backwards = reverse is not None and reverse.text == "true"
    fast = _simple_region(code) if len(inputs) == 1 else None
    if fast is not None:
        identity = ids[0]

        def run_fast(s, v):
            x = np.array(np.flip(v[0], axis) if backwards else v[0])
            head = (slice(None),) * axis + (slice(0, 1),)
            x[head] = fast(x[head], identity)          # the identity folds in once, first
            y = fast.accumulate(x, axis=axis, dtype=x.dtype)
            return (np.flip(y, axis) if backwards else y,)
        return c.make(op, run_fast, inputs, [code])

    def run(s, v):
        ys = [np.moveaxis(np.asarray(x), axis, 0) for x in v]
        if backwards:
            ys = [y[::-1] for y in ys]
        n = ys[0].shape[0]
        first = _combine(s, code, [y[:1] for y in ys],
                         [np.broadcast_to(i, y[:1].shape).astype(y.dtype) for y, i in zip(ys, ids)])
        ys = [np.concatenate([f, y[1:]]) for f, y in zip(first, ys)]
        shift = 1
        while shift < n:
            later = _combine(s, code, [y[shift:] for y in ys], [y[:-shift] for y in ys])
            ys = [np.concatenate([y[:shift], l]) for y, l in zip(ys, later)]
            shift *= 2
        if backwards:
            ys = [y[::-1] for y in ys]
        return tuple(np.moveaxis(y, 0, axis) for y in ys)
    return c.make(op, run, inputs, [code])
