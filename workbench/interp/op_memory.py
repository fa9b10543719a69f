"""Memory ops: tensor and partition views, tile loads and stores through them (padding and
out-of-bounds masking), pointer tiles (`offset`, gathers and scatters with masks) and atomics
(applied in order: blocks run one after another, elements of a tile in row-major order).
Memory ordering and scope words (weak, relaxed, acq_rel, device, ...) change nothing here:
everything runs in order."""
from __future__ import annotations

import numpy as np

from ..ir.model import split_commas
from .errors import Fault, UnsupportedOp
from .numeric import F32, signed, to_elem, unsigned
from .syntax import value_or_int
from .types import PartitionViewType, TensorViewType, TileType, element_dtype
from .views import PartitionView, TensorView

TOKEN = "token"          # the value every token-producing op returns: order is sequential


def _pointer_types(text) -> tuple[TileType, list]:
    first = text.in_types[0] if text.in_types else None
    if not (isinstance(first, TileType) and first.is_pointer):
        raise Fault("expected a tile of pointers as the first type", kind=UnsupportedOp)
    return first, text.in_types[1:]


# -- views --------------------------------------------------------------------------------------

def build_make_tensor_view(op, text, c):
    view_type = text.result_type
    if not isinstance(view_type, TensorViewType):
        raise Fault("expected `-> tensor_view<...>`", kind=UnsupportedOp)
    operands = text.operands()
    pointer = operands[0]
    dtype = element_dtype(view_type.elem)

    def items(key, static):
        node = text.keyed(key)
        if node is None:
            if any(s is None for s in static):
                raise Fault(f"no `{key} = [...]` for a dynamic {key}", kind=UnsupportedOp)
            return list(static)
        return [value_or_int(part) for part in split_commas(node.items) if part]
    shape, strides = items("shape", view_type.shape), items("strides", view_type.strides)
    if len(shape) != len(view_type.shape) or len(strides) != len(view_type.shape):
        raise Fault("shape or strides do not match the view's rank", kind=UnsupportedOp)
    dynamic = [x for x in shape + strides if isinstance(x, str)]
    rank = len(shape)

    def run(s, v):
        values = iter(v[1:])
        dims = [int(next(values)) if isinstance(x, str) else x for x in shape + strides]
        if any(d < 0 for d in dims[:rank]):
            raise Fault(f"negative extent in shape {tuple(dims[:rank])}")
        return (TensorView(int(v[0]), view_type.elem, dtype, tuple(dims[:rank]),
                           tuple(dims[rank:])),)
    return c.make(op, run, [pointer] + dynamic)


def build_make_partition_view(op, text, c):
    view_type = text.result_type
    if not isinstance(view_type, PartitionViewType):
        raise Fault("expected `: partition_view<...>`", kind=UnsupportedOp)

    def run(s, v):
        return (PartitionView(v[0], view_type.tile, view_type.dim_map, view_type.padding),)
    return c.make(op, run, text.operands()[:1])


def build_get_index_space_shape(op, text, c):
    dtype = text.result_type.dtype
    return c.make(op, lambda s, v: tuple(np.array(n, dtype) for n in v[0].index_space()),
                  text.operands()[:1])


def build_get_tensor_shape(op, text, c):
    dtype = text.result_type.dtype
    return c.make(op, lambda s, v: tuple(np.array(n, dtype) for n in v[0].shape),
                  text.operands()[:1])


def _indices(text) -> list[str]:
    group = text.group("[")
    if group is None:
        raise Fault("expected `view[indices]`", kind=UnsupportedOp)
    return [t.text for t in group.items if getattr(t, "kind", "") == "value"]


def _check_view(view):
    if not isinstance(view, PartitionView):
        raise Fault(f"loads and stores through a {type(view).__name__} are not supported",
                    kind=UnsupportedOp)


def _box(view, index, tile_shape):
    start, counts, strides = view.box(tuple(int(i) for i in index))
    inside = tuple(slice(0, c) for c in counts)
    return start, counts, strides, (None if counts == tuple(tile_shape) else inside)


def build_load_view(op, text, c):
    view_name = text.operands()[0]
    indices = _indices(text)

    def run(s, v):
        view = v[0]
        _check_view(view)
        dtype = view.tensor.dtype
        start, counts, strides, partial = _box(view, v[1:], view.tile)
        stored = np.dtype(np.uint8) if dtype == np.bool_ else dtype
        window = s.memory.window(start, counts, strides, stored, "load_view_tko")
        if dtype == np.bool_:
            window = window != 0
        if partial is None:
            return np.array(window), TOKEN
        tile = np.full(view.tile, view.fill_value(s.options.poison), dtype)
        tile[partial] = window
        return tile, TOKEN
    return c.make(op, run, [view_name] + indices)


def build_store_view(op, text, c):
    operands = text.operands()
    indices = _indices(text)

    def run(s, v):
        tile, view = v[0], v[1]
        _check_view(view)
        dtype = view.tensor.dtype
        start, counts, strides, partial = _box(view, v[2:], view.tile)
        stored = np.dtype(np.uint8) if dtype == np.bool_ else dtype
        window = s.memory.window(start, counts, strides, stored, "store_view_tko")
        values = np.asarray(tile, dtype)
        window[...] = values if partial is None else values[partial]
        return (TOKEN,)
    return c.make(op, run, operands[:2] + indices)


# -- pointer tiles ------------------------------------------------------------------------------

def build_offset(op, text, c):
    pointers, _ = _pointer_types(text)
    size = element_dtype(pointers.pointee).itemsize
    return c.make(op, lambda s, v: (np.asarray(v[0], np.int64)
                                    + np.asarray(v[1]).astype(np.int64) * size,),
                  text.operands()[:2])


def _poison(dtype: np.dtype, poison: bool):
    if not poison or dtype.kind == "b":
        return np.zeros((), dtype)
    if dtype.kind in "iu":
        return np.array(np.iinfo(dtype).min, dtype)
    return np.array(np.nan).astype(dtype)


def build_load_ptr(op, text, c):
    pointers, rest = _pointer_types(text)
    dtype = element_dtype(pointers.pointee)
    # `, mask` and `, padding` are each optional: a mask is the i1 tile (a padding comes last)
    has_mask = bool(rest) and rest[0].elem == "i1" and (len(rest) == 2
                                                         or pointers.pointee != "i1")
    has_padding = len(rest) == 2 or (len(rest) == 1 and not has_mask)
    names = text.operands()[:1 + len(rest)]

    def run(s, v):
        addrs = np.asarray(v[0], np.int64)
        mask = v[1] if has_mask else None
        fill = v[-1] if has_padding else _poison(dtype, s.options.poison)
        if mask is None:
            return s.memory.read(addrs, dtype, None, what="load_ptr_tko"), TOKEN
        if np.ndim(fill):
            values = s.memory.read(addrs, dtype, mask, 0, what="load_ptr_tko")
            return np.where(np.broadcast_to(mask, addrs.shape), values, fill), TOKEN
        return s.memory.read(addrs, dtype, mask, fill, what="load_ptr_tko"), TOKEN
    return c.make(op, run, names)


def build_store_ptr(op, text, c):
    pointers, rest = _pointer_types(text)
    dtype = element_dtype(pointers.pointee)
    names = text.operands()[:1 + len(rest)]

    def run(s, v):
        mask = v[2] if len(v) > 2 else None
        s.memory.write(v[0], np.asarray(v[1], dtype), mask, what="store_ptr_tko")
        return (TOKEN,)
    return c.make(op, run, names)


ATOMIC_MODES = ("addf", "add", "and", "or", "xor", "max", "min", "umax", "umin", "xchg")


def _combine(mode: str, elem: str, dtype: np.dtype):
    if mode == "addf":
        return lambda old, arg: to_elem(np.asarray(old, F32 if dtype.itemsize < 4 else dtype)
                                        + np.asarray(arg, F32 if dtype.itemsize < 4 else dtype),
                                        elem)
    if mode == "xchg":
        return lambda old, arg: arg
    if mode in ("umax", "umin"):
        pick = np.maximum if mode == "umax" else np.minimum
        return lambda old, arg: signed(pick(unsigned(old), unsigned(arg)), dtype)
    fn = {"add": np.add, "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
          "max": np.maximum, "min": np.minimum}[mode]
    return lambda old, arg: np.asarray(fn(old, arg), dtype)


def build_atomic_rmw(op, text, c):
    pointers, rest = _pointer_types(text)
    mode = next((w for w in text.words() if w in ATOMIC_MODES), None)
    if mode is None:
        raise Fault("no atomic mode found", kind=UnsupportedOp)
    elem = pointers.pointee
    dtype = element_dtype(elem)
    combine = _combine(mode, elem, dtype)
    names = text.operands()[:1 + len(rest)]

    def run(s, v):
        addrs = np.asarray(v[0], np.int64)
        arg = np.broadcast_to(np.asarray(v[1], dtype), addrs.shape).reshape(-1)
        mask = v[2] if len(v) > 2 else None
        old = s.memory.update(addrs, dtype, lambda before, pos: combine(before, arg[pos]), mask,
                              what="atomic_rmw_tko")
        return old, TOKEN
    return c.make(op, run, names)


def build_atomic_cas(op, text, c):
    pointers, rest = _pointer_types(text)
    dtype = element_dtype(pointers.pointee)
    names = text.operands()[:1 + len(rest)]

    def run(s, v):
        addrs = np.asarray(v[0], np.int64)
        expected = np.broadcast_to(np.asarray(v[1], dtype), addrs.shape).reshape(-1)
        new = np.broadcast_to(np.asarray(v[2], dtype), addrs.shape).reshape(-1)
        mask = v[3] if len(v) > 3 else None

        def swap(before, pos):
            same = unsigned(before) == unsigned(expected[pos])
            return np.where(same, new[pos], before)
        return s.memory.update(addrs, dtype, swap, mask, what="atomic_cas_tko"), TOKEN
    return c.make(op, run, names)
