"""Block pointers: `tl.make_block_ptr(base, shape, strides, offsets, block_shape, order)`,
and tensor descriptors made in the kernel (`tl.make_tensor_descriptor`, the same check, then
the descriptor a TensorDescriptor parameter would be),
`tl.advance(p, deltas)` and `tl.load` / `tl.store` through them. A block pointer whose shape
and strides are its tensor's own (checked in every case) addresses whole tiles of that tensor:
at offsets that are multiples of the block it is cuTile's `ct.load` / `ct.store` at index
`offset // block` per dimension; a transposed view (shape and strides naming the tensor's
dimensions in another order, the flash-attention tutorial's K) loads the tile in the tensor's
order and permutes it (cuTile pads every access at the tensor's bounds, which is what
`boundary_check` asks for; `padding_option` "zero" or "nan"). A pointer a loop advances
(`p = tl.advance(p, (0, BN))`) is followed in closed form (advancing.py).

Refused, each with the reason: a base that is not a pointer parameter, a shape or strides that
are not the tensor's (a strided or partial view), offsets that are not block multiples."""
from __future__ import annotations

import ast

from .arith import case_values, divide, text_of
from ..sources.module import call_argument as arg
from .values import BlockPtr, Desc, Fail, Ptr, Run, Static

PADDING = {None: "ZERO", "": "ZERO", "zero": "ZERO", "nan": "NAN"}


def make_block_ptr(t, call: ast.Call) -> BlockPtr:
    what = "tl.make_block_ptr"
    base, (shape, strides, offsets, block) = _base_and_items(
        t, call, what, ("shape", "strides", "offsets", "block_shape"))
    specs = t.array_specs(base.param, call)
    rank = len(specs[0].shape)
    if not len(shape) == len(strides) == len(offsets) == len(block) == rank:
        raise Fail(call, what, f"{base.param} has {rank} dimensions: give shape, strides, "
                   "offsets and block_shape one entry each")
    perm = tuple(_tensor_dim(shape[d], strides[d], specs, d, call, base.param)
                 for d in range(rank))
    if sorted(perm) != list(range(rank)):
        raise Fail(call, what, f"shape and strides do not name each dimension of {base.param} "
                   "once")
    return BlockPtr(base.param, tuple(block), tuple(offsets), perm)


def _tensor_dim(extent, stride, specs, d: int, node, param: str,
                what: str = "tl.make_block_ptr") -> int:
    """The tensor dimension a view dimension is: the one with this extent and stride in every
    case (a transposed view, order=(0, 1) over a row-major tensor, names them swapped)."""
    for e in range(len(specs[0].shape)):
        if _equal(extent, [s.shape[e] for s in specs]) and \
                _equal(stride, [s.effective_strides()[e] for s in specs]):
            return e
    raise Fail(node, what, f"shape[{d}] and strides[{d}] are not the extent and "
               f"stride of one dimension of {param} in every case (a strided or partial view "
               "is not translated)")


def make_tensor_descriptor(t, call: ast.Call) -> Desc:
    """`tl.make_tensor_descriptor(base, shape, strides, block_shape)` over a whole tensor, in
    its own order: the descriptor a TensorDescriptor parameter would be (desc.load/.store)."""
    what = "tl.make_tensor_descriptor"
    base, (shape, strides, block) = _base_and_items(t, call, what,
                                                    ("shape", "strides", "block_shape"))
    option = arg(call, "padding_option", 4)
    if option is not None and not (isinstance(option, ast.Constant) and option.value == "zero"):
        raise Fail(call, what, "only padding_option=\"zero\" is translated")
    specs = t.array_specs(base.param, call)
    if not len(shape) == len(strides) == len(block) == len(specs[0].shape):
        raise Fail(call, what, f"give shape, strides and block_shape one entry per dimension of "
                   f"{base.param}")
    perm = [_tensor_dim(shape[d], strides[d], specs, d, call, base.param, what)
            for d in range(len(shape))]
    if perm != list(range(len(shape))):
        raise Fail(call, what, "shape and strides name the tensor's dimensions in another order "
                   "(a transposed descriptor is not translated)")
    return Desc(base.param, tuple(block))


def advance(t, call: ast.Call) -> BlockPtr:
    pointer = t.expr(arg(call, "base", 0))
    if not isinstance(pointer, BlockPtr):
        raise Fail(call, "tl.advance", "advances a value that is not a block pointer")
    deltas = _items(t, arg(call, "offsets", 1), call, "offsets")
    return moved(t, pointer, deltas, call)


def moved(t, pointer: BlockPtr, deltas, node) -> BlockPtr:
    if len(deltas) != len(pointer.offsets):
        raise Fail(node, "tl.advance", f"give one offset per dimension ({len(pointer.offsets)})")
    offsets = tuple(d if is_zero(o) else o if is_zero(d) else t.binary(ast.Add(), o, d, node)
                    for o, d in zip(pointer.offsets, deltas))
    return BlockPtr(pointer.param, pointer.block, offsets, pointer.perm)


def is_zero(value) -> bool:
    return isinstance(value, Static) and value.uniform and value.value == 0


def index_text(pointer: BlockPtr, node) -> str:
    """The tile index in the tensor's dimension order."""
    parts = [""] * len(pointer.offsets)
    for offset, block, e in zip(pointer.offsets, pointer.block, pointer.perm):
        q = divide(offset, block)
        if q is None:
            raise Fail(node, "block pointer", f"the offset `{text_of(offset)}` is not a "
                       f"multiple of the block dimension {block.text}: cuTile indexes whole tiles")
        parts[e] = q
    return ", ".join(parts) + ("," if len(parts) == 1 else "")


def _tensor_order(pointer: BlockPtr, items: list) -> list:
    out = [None] * len(items)
    for item, e in zip(items, pointer.perm):
        out[e] = item
    return out


def block_load(t, pointer: BlockPtr, call: ast.Call) -> Run:
    """The tile in the tensor's order, permuted into the view's when the view is transposed."""
    option = arg(call, "padding_option", None)
    option = option.value if isinstance(option, ast.Constant) else option
    if option not in PADDING:
        raise Fail(call, "tl.load(padding_option=)", "padding_option must be \"zero\" or \"nan\"")
    tile = _tensor_order(pointer, [b.text for b in pointer.block])
    shape = ", ".join(tile) + ("," if len(tile) == 1 else "")
    code = (f"ct.load({pointer.param}, index=({index_text(pointer, call)}), shape=({shape}), "
            f"padding_mode=ct.PaddingMode.{PADDING[option]})")
    if list(pointer.perm) != sorted(pointer.perm):
        code = f"ct.permute({code}, {tuple(pointer.perm)})"
    return t.loaded(code, tuple(pointer.block), pointer.param, call)


def block_store(t, pointer: BlockPtr, call: ast.Call, tile_text: str) -> None:
    if list(pointer.perm) != sorted(pointer.perm):        # back into the tensor's order
        inverse = tuple(pointer.perm.index(e) for e in range(len(pointer.perm)))
        tile_text = f"ct.permute({tile_text}, {inverse})"
    t.state.written.add(pointer.param)
    t.emit(f"ct.store({pointer.param}, index=({index_text(pointer, call)}), tile={tile_text})",
           call)


def _base_and_items(t, call: ast.Call, what: str, names: tuple) -> tuple[Ptr, list]:
    """The base pointer parameter and the tuples `names` (the last one, block_shape, of
    constexprs) of a block pointer or descriptor made in the kernel."""
    base = t.expr(arg(call, "base", 0))
    if not isinstance(base, Ptr) or base.terms or base.shape is not None:
        raise Fail(call, what, "the base is not a pointer parameter itself")
    items = [_items(t, arg(call, name, i), call, name) for i, name in enumerate(names, 1)]
    if not all(isinstance(b, Static) and b.uniform for b in items[-1]):
        raise Fail(call, what, "block_shape must be constexprs")
    return base, items


def _items(t, node, call, name: str) -> tuple:
    if node is None:
        raise Fail(call, "tl.make_block_ptr", f"{name}= is required")
    value = t.expr(node)
    if not isinstance(value, tuple):
        raise Fail(call, "tl.make_block_ptr", f"{name} must be a tuple")
    return value


def _equal(value, wanted: list) -> bool:
    have = case_values(value)
    return have is not None and list(have) == list(wanted)


CALLS = {"make_block_ptr": make_block_ptr, "advance": advance,
         "make_tensor_descriptor": make_tensor_descriptor}
