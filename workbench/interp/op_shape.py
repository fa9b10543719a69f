"""Making and reshaping tiles: constant, iota, broadcast, reshape (row-major), permute,
extract (the indices count whole result-sized slices) and cat."""
from __future__ import annotations

import numpy as np

from ..ir.model import Group
from ..ir.printer import print_nodes
from .errors import Fault, UnsupportedOp
from .literals import dense_literal
from .types import TileType


def _result(text) -> TileType:
    t = text.result_type
    if not isinstance(t, TileType):
        raise Fault(f"expected a tile result, found {t}", kind=UnsupportedOp)
    return t


def build_constant(op, text, c):
    result = _result(text)
    literal = next((n for n in text.head if isinstance(n, Group) and n.open.text == "<"), None)
    if literal is None:
        raise Fault("expected `<type: value>`", kind=UnsupportedOp)
    inner = print_nodes(literal.items)
    elem, _, value = inner.partition(":")
    tile = dense_literal(value, result.elem, result.shape)
    tile.flags.writeable = False
    return c.make(op, lambda s, v: (tile,), [])


def build_iota(op, text, c):
    result = _result(text)
    if len(result.shape) != 1:
        raise Fault("iota makes a 1-d tile", kind=UnsupportedOp)
    tile = np.arange(result.shape[0]).astype(result.dtype)
    tile.flags.writeable = False
    return c.make(op, lambda s, v: (tile,), [])


def build_broadcast(op, text, c):
    shape = _result(text).shape
    return c.make(op, lambda s, v: (np.broadcast_to(v[0], shape),), text.operands()[:1])


def build_reshape(op, text, c):
    shape = _result(text).shape
    return c.make(op, lambda s, v: (np.reshape(v[0], shape),), text.operands()[:1])


def build_permute(op, text, c):
    group = text.group("[")
    if group is None:
        raise Fault("expected the permutation `[...]`", kind=UnsupportedOp)
    perm = tuple(int(t.text) for t in group.items if t.text != ",")
    return c.make(op, lambda s, v: (np.transpose(v[0], perm),), text.operands()[:1])


def build_extract(op, text, c):
    shape = _result(text).shape
    names = text.operands()

    def run(s, v):
        source, indices = v[0], [int(i) for i in v[1:]]
        size = np.shape(source)
        if any(i < 0 or (i + 1) * n > d for i, n, d in zip(indices, shape, size)):
            raise Fault(f"slice {tuple(indices)} of shape {shape} is outside the source "
                        f"tile {size}: undefined behavior")
        index = tuple(slice(i * n, (i + 1) * n) for i, n in zip(indices, shape))
        return (source[index],)
    return c.make(op, run, names)


def build_cat(op, text, c):
    dim = text.keyed("dim")
    if dim is None:
        raise Fault("expected `dim = N`", kind=UnsupportedOp)
    axis = int(dim.text)
    return c.make(op, lambda s, v: (np.concatenate([v[0], v[1]], axis=axis),),
                  text.operands()[:2])
