"""`tl.*` functions that reshape, split, join and permute tiles (calls.py looks them up), and
the readers of a call's shape and dtype arguments."""
from __future__ import annotations

import ast

from .arith import broadcast, shape_text, static_op, text_of
from .values import DType, Fail, Run, Static, literal
from ..sources.module import call_argument as arg


def dtype_of(t, node) -> DType:
    value = t.expr(node)
    if not isinstance(value, DType):
        raise Fail(node, "dtype", f"`{ast.unparse(node)}` is not a dtype")
    return value


def shape_arg(t, node, what: str) -> tuple:
    value = t.expr(node)
    items = value if isinstance(value, tuple) else (value,)
    if not all(isinstance(v, Static) and isinstance(v.value, int) for v in items):
        raise Fail(node, what, f"the shape `{ast.unparse(node)}` is not made of constants")
    return tuple(items)


def _reshape(t, call):
    x = t.data(call.args[0], "tl.reshape")
    return t.reshape_value(x, shape_arg(t, arg(call, "shape", 1), "tl.reshape"), call)


def _trans(t, call):
    if len(call.args) > 1:              # tl.trans(x, 2, 0, 1): a permutation
        return _permute(t, call)
    x = t.data(call.args[0], "tl.trans")
    if not x.shape or len(x.shape) != 2:
        raise Fail(call, "tl.trans", "only 2-D tiles are transposed")
    return Run(f"ct.transpose({text_of(x)})", (x.shape[1], x.shape[0]), dtype=x.dtype)


def _split(t, call):
    """`a, b = tl.split(x)`, x of shape (..., 2): the two halves of its last axis, each an
    extract of shape (..., 1) reshaped to (...)."""
    x = t.data(call.args[0], "tl.split")
    shape = getattr(x, "shape", None)
    if not shape or not (shape[-1].uniform and shape[-1].value == 2):
        raise Fail(call, "tl.split", "splits a tile whose last axis has 2 elements; this one "
                   f"is {shape_text(shape)}")
    part = shape[:-1] + (literal(1, t.n),)
    halves = []
    for i in (0, 1):
        index = ", ".join(["0"] * (len(shape) - 1) + [str(i)])
        code = f"ct.extract({text_of(x)}, index=({index}), shape={shape_text(part)})"
        halves.append(Run(f"ct.reshape({code}, {shape_text(shape[:-1])})", shape[:-1] or None,
                          is_int=x.is_int))
    return tuple(halves)


def _join(t, call):
    """`tl.join(a, b)`: a and b stacked on a new last axis of 2 (both of one shape)."""
    a, b = (t.data(call.args[i], "tl.join") for i in (0, 1))
    shape = broadcast(getattr(a, "shape", None), getattr(b, "shape", None), call)
    if not shape:
        raise Fail(call, "tl.join", "joins tiles; these are scalars")
    one = shape + (literal(1, t.n),)
    parts = [f"ct.reshape({_broadcast_text(v, shape)}, {shape_text(one)})" for v in (a, b)]
    return Run(f"ct.cat(({parts[0]}, {parts[1]}), axis={len(shape)})",
               shape + (literal(2, t.n),), is_int=getattr(a, "is_int", None))


def _broadcast_text(value, shape) -> str:
    same = getattr(value, "shape", None) is not None and \
        [d.vals for d in value.shape] == [d.vals for d in shape]
    return text_of(value) if same else f"ct.broadcast_to({text_of(value)}, {shape_text(shape)})"


def _interleave(t, call):
    """`tl.interleave(a, b)`: a and b alternating along the last axis, a join reshaped."""
    joined = _join(t, call)
    shape = joined.shape[:-2] + (static_op(lambda n: 2 * n, f"2 * {joined.shape[-2].text}",
                                           joined.shape[-2]),)
    return t.reshape_value(joined, shape, call)


def _permute(t, call):
    """tl.permute(x, (1, 0, 2)) or tl.permute(x, 1, 0, 2): ct.permute (ct.transpose for
    the 2-D swap)."""
    x = t.data(call.args[0], "tl.permute")
    rest = call.args[1:]
    dims_node = rest[0] if len(rest) == 1 else ast.Tuple(list(rest), ast.Load())
    dims = t.expr(dims_node)
    dims = dims if isinstance(dims, tuple) else (dims,)
    order = [t.static_int(ast.Constant(d.value), "tl.permute") if isinstance(d, Static)
             else None for d in dims]
    shape = x.shape or ()
    if None in order or sorted(order) != list(range(len(shape))):
        raise Fail(call, "tl.permute", f"`{ast.unparse(dims_node)}` is not an order of the "
                   f"{len(shape)} axes")
    new = tuple(shape[i] for i in order)
    if order == list(range(len(shape))):
        return x
    if order == [1, 0]:
        return Run(f"ct.transpose({text_of(x)})", new, is_int=x.is_int, dtype=x.dtype)
    return Run(f"ct.permute({text_of(x)}, ({', '.join(map(str, order))}))", new,
               is_int=x.is_int, dtype=x.dtype)


def _expand_dims(t, call):
    x = t.data(call.args[0], "tl.expand_dims")
    shape = list(getattr(x, "shape", None) or ())
    axes = t.expr(arg(call, "axis", 1))
    for a in sorted(axes if isinstance(axes, tuple) else (axes,), key=lambda v: v.value):
        shape.insert(t.static_int(ast.Constant(a.value), "tl.expand_dims") % (len(shape) + 1),
                     literal(1, t.n))
    return t.reshape_value(x, tuple(shape), call)


def _ravel(t, call):
    x = t.data(call.args[0], "tl.ravel")
    size = literal(1, t.n)
    for d in x.shape or ():
        size = static_op(lambda a, b: a * b, f"{size.text} * {d.text}", size, d)
    return t.reshape_value(x, (size,), call)


def _broadcast_to(t, call):
    x = t.data(call.args[0], "tl.broadcast_to")
    shape = shape_arg(t, arg(call, "shape", 1), "tl.broadcast_to")
    return Run(f"ct.broadcast_to({text_of(x)}, {shape_text(shape)})", shape)


SHAPE_CALLS = {"reshape": _reshape, "trans": _trans, "split": _split, "join": _join,
               "interleave": _interleave, "permute": _permute, "expand_dims": _expand_dims,
               "ravel": _ravel, "broadcast_to": _broadcast_to}
