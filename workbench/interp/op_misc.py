"""Tokens (ordering is sequential here, so they carry nothing), the block's id and the grid,
`assume` facts checked against the actual values, `assert` and `print_tko`."""
from __future__ import annotations

import re

import numpy as np

from ..ir.model import Token
from .errors import AssumeViolated, Fault, InterpError, UnsupportedOp
from .op_memory import TOKEN
from .types import TileType, element_dtype
from .views import TensorView


def build_token(op, text, c):
    return c.make(op, lambda s, v: (TOKEN,), text.operands())


def build_block_id(op, text, c):
    dtype = text.result_type.dtype
    return c.make(op, lambda s, v: tuple(np.array(i, dtype) for i in s.block_id), [])


def build_num_blocks(op, text, c):
    dtype = text.result_type.dtype
    return c.make(op, lambda s, v: tuple(np.array(i, dtype) for i in s.grid), [])


# -- assume -----------------------------------------------------------------------------------

_HINT = ("the kernel was compiled for inputs where this holds (cuTile's specialization on "
         "shapes, strides and base addresses, or a fact the port asserts): run it on such "
         "inputs, or compile it for these")


def build_assume(op, text, c):
    name = text.operands()[0]
    value_type = text.in_types[0] if text.in_types else None
    step = 1
    if isinstance(value_type, TileType) and value_type.is_pointer:
        step = element_dtype(value_type.pointee).itemsize
    for kind in ("div_by", "bounded", "same_elements"):
        arg = text.typed(kind)
        if arg is not None:
            break
    else:
        raise Fault("unknown assume predicate", kind=UnsupportedOp)
    fact = f"{kind}<{arg}>"
    check = {"div_by": _div_by, "bounded": _bounded, "same_elements": _same_elements}[kind]
    test = check(arg, step)

    def run(s, v):
        if s.options.check_assumes:
            problem = test(v[0])
            if problem:
                raise Fault(f"assume {fact} does not hold for {name}: {problem}", _HINT,
                            kind=AssumeViolated)
        return (v[0],)
    return c.make(op, run, [name])


def _first_bad(bad: np.ndarray, values: np.ndarray) -> str:
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    shown = values[index] if values.ndim else values
    return f"it is {int(shown)}" if not index else f"element {index} is {int(shown)}"


def _div_by(arg: str, step: int):
    match = re.fullmatch(r"\s*(\d+)\s*(?:,\s*every\s+(\d+)\s+along\s+(\d+))?\s*", arg)
    if not match:
        raise Fault(f"cannot read div_by<{arg}>", kind=UnsupportedOp)
    divisor, every, along = int(match[1]), int(match[2] or 1), int(match[3] or 0)

    def test(value):
        if isinstance(value, TensorView):
            return "" if value.base % divisor == 0 else \
                f"the view's base address is {value.base % divisor} bytes past a multiple"
        x = np.asarray(value).astype(np.int64)
        if every == 1 or x.ndim == 0:
            bad = x % divisor != 0
            return _first_bad(bad, x) if bad.any() else ""
        moved = np.moveaxis(x, along, 0)
        firsts = moved[::every]
        if (firsts % divisor != 0).any():
            return "the first element of a group of " + str(every) + " is not divisible"
        position = np.arange(moved.shape[0]) % every
        expected = np.repeat(firsts, every, axis=0)[:moved.shape[0]] + \
            (position * step).reshape((-1,) + (1,) * (moved.ndim - 1))
        return "" if (moved == expected).all() else \
            f"elements do not increase by {step} within groups of {every}"
    return test


def _bounded(arg: str, step: int):
    low_text, _, high_text = arg.partition(",")
    low = None if low_text.strip() == "?" else int(low_text)
    high = None if high_text.strip() == "?" else int(high_text)

    def test(value):
        x = np.asarray(value).astype(np.int64)
        bad = np.zeros(x.shape, bool)
        if low is not None:
            bad |= x < low
        if high is not None:
            bad |= x > high
        return _first_bad(bad, x) if bad.any() else ""
    return test


def _same_elements(arg: str, step: int):
    sizes = [int(v) for v in arg.strip("[] ").split(",") if v.strip()]

    def test(value):
        x = np.asarray(value)
        expanded = x[tuple(slice(None, None, n) for n in sizes)]
        for axis, n in enumerate(sizes):
            expanded = np.repeat(expanded, n, axis=axis)
        expanded = expanded[tuple(slice(0, d) for d in x.shape)]
        return "" if (expanded == x).all() else f"elements differ within chunks of {sizes}"
    return test


# -- assert and print ---------------------------------------------------------------------------

def _string(op) -> str:
    token = next((t for t in op.body if isinstance(t, Token) and t.kind == "string"), None)
    if token is None:
        raise Fault("expected a string", kind=UnsupportedOp)
    raw = token.text[1:-1]
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m[1], 16)), raw).replace('\\"', '"')


def build_assert(op, text, c):
    message = _string(op)

    def run(s, v):
        flags = np.asarray(v[0], bool)
        if not flags.all():
            index = tuple(int(i) for i in np.argwhere(~flags)[0]) if flags.ndim else ()
            raise Fault(f"assertion failed: {message} (element {index}, block {s.block_id})",
                        kind=InterpError)
        return ()
    return c.make(op, run, text.operands()[:1])


_SPEC = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t)?([diouxXeEfFgGcs%])")


def build_print(op, text, c):
    fmt = _string(op)
    python_fmt = _SPEC.sub(lambda m: m[0] if m[1] == "%" else
                           re.sub(r"(hh|h|ll|l|z|j|t)(?=[a-zA-Z]$)", "", m[0]), fmt)

    def run(s, v):
        values = [np.asarray(x) for x in v]
        if all(x.size == 1 for x in values):
            args = tuple(x.reshape(()).item() for x in values)
            s.options.print(python_fmt % args if args else python_fmt)
        else:
            for items in np.broadcast(*values):
                s.options.print(python_fmt % tuple(np.asarray(i).item() for i in items))
        return (TOKEN,)
    return c.make(op, run, text.operands())
