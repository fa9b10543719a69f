"""`tl.load`, `tl.store` and tensor-descriptor `.load` / `.store`, written as cuTile tile
accesses (memory.py decides the form). Mixed into the Translator."""
from __future__ import annotations

import ast

from .arith import broadcast, divide, shape_text, text_of
from ..sources.module import call_argument as arg
from .memory import (block_form, decompose, gather_indices, padding_for, permutation,
                     reshape, split_mask)
from .block_ptrs import block_load, block_store
from .values import FLOAT_DTYPES, BlockPtr, Desc, Fail, Ptr, Run, Static


class Accesses:
    def load(self, call: ast.Call):
        ptr = self.expr(arg(call, "pointer", 0))
        if isinstance(ptr, BlockPtr):
            return block_load(self, ptr, call)
        if isinstance(ptr, Desc):
            raise Fail(call, "tl.load", "a tensor descriptor is read with desc.load([...])")
        if not isinstance(ptr, Ptr):
            raise Fail(call, "tl.load", "the address is not a pointer parameter plus offsets")
        for name in ("boundary_check", "padding_option"):
            if arg(call, name) is not None:
                raise Fail(call, f"tl.load({name}=)", f"{name} applies to a block pointer "
                           "(tl.make_block_ptr), and this address is a plain pointer")
        mask_node, other_node = arg(call, "mask", 1), arg(call, "other", 2)
        mask = self.expr(mask_node) if mask_node is not None else None
        other = self.expr(other_node) if other_node is not None else None
        access = decompose(self, ptr, call)
        explicit = split_mask(self, access, mask, ptr.shape, call)
        shape = ptr.shape if mask is None or ptr.shape else getattr(mask, "shape", None)
        form = block_form(access)
        pad = padding_for(other)
        if form is None:
            return self._gather(ptr, access, explicit, other, call)
        index, tile, axes = form
        mode = pad or "ZERO"
        code = (f"ct.load({ptr.param}, index=({_tuple(index)}), shape=({_tuple(tile)}), "
                f"padding_mode=ct.PaddingMode.{mode})")
        order = permutation(axes)
        if order is not None:           # a transposed access: read in order, then permute
            if len(axes) != len(tile):  # the block's dims alone (K[b, h] of K[B, H, N, D])
                blocks = [size for size, a in zip(tile, access.axis) if a is not None]
                code, tile = reshape(code, tile, _as_shape(blocks, self.n)), blocks
            code = f"ct.permute({code}, {order})"
            tile = [tile[d] for d in order]
        code = reshape(code, tile, shape)
        if explicit is not None or (pad is None and other is not None):
            fill = text_of(other) if other is not None else "0"
            if explicit is None:
                raise Fail(call, "tl.load(other=)", f"other={fill} at the tensor's bounds: "
                           "cuTile pads only with 0, -inf, +inf or nan")
            code = f"ct.where({explicit}, {code}, {fill})"
        return self.loaded(code, shape, ptr.param, call)

    def _gather(self, ptr, access, explicit, other, node):
        if ptr.shape is None:
            raise Fail(node, "tl.load", "a scalar load at an offset that is not an index")
        indices = gather_indices(access, ptr.shape)
        pad = text_of(other) if other is not None else "0"
        mask = f", mask={explicit}" if explicit else ""
        index = _index_argument(indices)
        self.note(node, f"tl.load of {ptr.param}: the offsets are not a block, so the "
                        "access is a ct.gather")
        return self.loaded(f"ct.gather({ptr.param}, {index}{mask}, padding_value={pad})",
                           ptr.shape, ptr.param, node)

    def loaded(self, code: str, shape, param: str, node) -> Run:
        """A value read from `param`: an integer one can be an offset; a float one's dtype is
        the array's where every case agrees."""
        dtypes = {spec.dtype for spec in self.array_specs(param, node)}
        dtype = FLOAT_DTYPES.get(dtypes.pop()) if len(dtypes) == 1 else None
        return Run(code, shape, is_int=self._int_tensor(param, node), dtype=dtype)

    def _int_tensor(self, param: str, node) -> bool:
        """Values loaded from an integer tensor are integers: they can be offsets."""
        return self.array_specs(param, node)[0].dtype.startswith(("i", "u"))

    def store(self, call: ast.Call):
        ptr = self.expr(arg(call, "pointer", 0))
        if isinstance(ptr, BlockPtr):
            value = self.data(arg(call, "value", 1), "tl.store")
            return block_store(self, ptr, call, _cast_to(text_of(value), ptr.param))
        if not isinstance(ptr, Ptr):
            raise Fail(call, "tl.store", "the address is not a pointer parameter plus offsets")
        value = self.data(arg(call, "value", 1), "tl.store")
        mask_node = arg(call, "mask", 2)
        mask = self.expr(mask_node) if mask_node is not None else None
        access = decompose(self, ptr, call)
        explicit = split_mask(self, access, mask, ptr.shape, call)
        shape = ptr.shape
        if shape is not None and getattr(value, "shape", None) is not None:
            broadcast(shape, value.shape, call)
        tile = _cast_to(text_of(value), ptr.param)
        if shape is not None and getattr(value, "shape", None) is None:
            tile = f"ct.full({shape_text(shape)}, {text_of(value)}, dtype={ptr.param}.dtype)"
        form = block_form(access)
        if form is None or explicit is not None:
            return self._scatter(ptr, access, explicit, tile, call)
        index, block, axes = form
        order = permutation(axes)
        if order is not None:           # a transposed access: permute into the tensor's order
            tile = f"ct.permute({tile}, {tuple(order.index(d) for d in range(len(order)))})"
            shape = tuple(shape[a] for a in axes)
        self.state.written.add(ptr.param)
        self.emit(f"ct.store({ptr.param}, index=({_tuple(index)}), "
                  f"tile={reshape(tile, _shape_items(shape), _as_shape(block, self.n))})", call)
        return None

    def _scatter(self, ptr, access, explicit, tile, node):
        if ptr.shape is None:
            raise Fail(node, "tl.store", "a masked scalar store: cuTile stores tiles")
        indices = gather_indices(access, ptr.shape)
        index = _index_argument(indices)
        mask = f", mask={explicit}" if explicit else ""
        self.state.written.add(ptr.param)
        self.note(node, f"tl.store to {ptr.param}: " + ("the mask is not the tensor's bounds"
                  if explicit else "the offsets are not a block") + ", so it is a ct.scatter")
        self.emit(f"ct.scatter({ptr.param}, {index}, {tile}{mask})", node)
        return None

    # -- atomics ---------------------------------------------------------------------------
    def atomic(self, call: ast.Call, op: str):
        """`tl.atomic_<op>(pointer, val, mask, sem, scope)`: ct.atomic_<op> at the indices a
        scatter would take, a bounds mask as its check_bounds (another mask sends its lanes
        out of bounds), Triton's order and scope in cuTile's names (acq_rel and gpu by
        default in both). It returns the old values."""
        what = f"tl.atomic_{op}"
        ptr = self._atomic_pointer(call, what)
        value = self.data(arg(call, "val", 1), what)
        mask_node = arg(call, "mask", 2)
        mask = self.expr(mask_node) if mask_node is not None else None
        access = decompose(self, ptr, call)
        order, scope = self._atomic_order(call, what)
        self._refuse_float_max_min(ptr, op, call)
        if ptr.shape is None:
            return self._scalar_atomic(ptr, access, value, mask, (op, order, scope), call)
        explicit = split_mask(self, access, mask, ptr.shape, call)
        indices = gather_indices(access, ptr.shape)
        if explicit is not None:
            # cuTile's atomics have no mask of their own: a masked-off lane gets an index past
            # the first dim, which check_bounds leaves alone
            indices[0] = f"ct.where({explicit}, {indices[0]}, {ptr.param}.shape[0])"
            self.note(call, f"{what}: its mask is not {ptr.param}'s bounds; a masked-off lane "
                      "is sent past them, where check_bounds skips it")
        index = _index_argument(indices)
        update = _tile_operand(value, ptr)
        old = self._emit_atomic(ptr, index, update, (op, order, scope), call)
        return Run(old, ptr.shape, is_int=self._int_tensor(ptr.param, call))

    def atomic_cas(self, call: ast.Call):
        """`tl.atomic_cas(pointer, cmp, val, sem, scope)`: ct.atomic_cas at the indices a
        scatter would take (Triton's takes no mask), cmp and val in the array's dtype, the
        order and scope as an atomic's. It returns the old values."""
        what = "tl.atomic_cas"
        ptr = self._atomic_pointer(call, what)
        cmp, val = self.data(arg(call, "cmp", 1), what), self.data(arg(call, "val", 2), what)
        access = decompose(self, ptr, call)
        order, scope = self._atomic_order(call, what)
        if ptr.shape is None:
            index = _scalar_index(access, call, what)
        else:
            index = _index_argument(gather_indices(access, ptr.shape))
        operands = [self._cas_operand(v, ptr, call) for v in (cmp, val)]
        old = self._emit_atomic(ptr, index, ", ".join(operands), ("cas", order, scope), call)
        return Run(old, ptr.shape, is_int=self._int_tensor(ptr.param, call))

    def _atomic_pointer(self, call, what: str) -> Ptr:
        ptr = self.expr(arg(call, "pointer", 0))
        if not isinstance(ptr, Ptr):
            raise Fail(call, what, "the address is not a pointer parameter plus offsets")
        return ptr

    def _atomic_order(self, call, what: str) -> tuple[str, str]:
        """Triton's `sem` and `scope` (acq_rel and gpu by default) in cuTile's names."""
        order = ATOMIC_ORDERS.get(_static_text(arg(call, "sem", 3), "acq_rel"))
        scope = ATOMIC_SCOPES.get(_static_text(arg(call, "scope", 4), "gpu"))
        if order is None or scope is None:
            raise Fail(call, what, "sem must be relaxed, acquire, release or acq_rel and scope "
                       "gpu, cta or sys, written as string literals")
        return order, scope

    def _cas_operand(self, value, ptr, call) -> str:
        """A compare-and-swap operand in the array's dtype: cuTile compares bit patterns, so
        it is cast (as Triton's is), and a scalar to a tile of the address's shape."""
        if ptr.shape is not None:
            return _tile_operand(value, ptr)
        if getattr(value, "shape", None):
            raise Fail(call, "tl.atomic_cas", f"a tile {shape_text(value.shape)} compared at "
                       "one address: give one value")
        return _cast_to(text_of(value), ptr.param)

    def _refuse_float_max_min(self, ptr, op: str, call):
        if op in ("max", "min") and not self._int_tensor(ptr.param, call):
            dtype = self.array_specs(ptr.param, call)[0].dtype
            raise Fail(call, f"tl.atomic_{op}", f"{ptr.param} is {dtype}: cuTile's atomic_{op} "
                       "takes integer arrays only (Tile IR has no float max/min mode). For "
                       "values >= 0 (an absolute max) the int32 bits order as the floats do: "
                       f"tl.atomic_{op}(ptr.to(tl.pointer_type(tl.int32)), "
                       "v.to(tl.int32, bitcast=True))")

    def _scalar_atomic(self, ptr, access, value, mask, how, call):
        """One element (`tl.atomic_max(amax_ptr, tl.max(x))`, a counter): the scalar index
        of each dim, a scalar update; it returns the old value."""
        what = f"tl.atomic_{how[0]}"
        if mask is not None:
            raise Fail(call, f"{what}(mask=)", "a mask on a one-element atomic: cuTile's "
                       "atomics take no mask; put the atomic under `if` instead")
        if getattr(value, "shape", None):
            raise Fail(call, what, f"a tile of values {shape_text(value.shape)} to one address: "
                       "reduce it first (tl.sum / tl.max), as the atomic adds one value")
        update = _cast_to(text_of(value), ptr.param)
        old = self._emit_atomic(ptr, _scalar_index(access, call, what), update, how, call)
        return Run(old, None, is_int=self._int_tensor(ptr.param, call))

    def _emit_atomic(self, ptr, index: str, update: str, how, call) -> str:
        op, order, scope = how
        self.state.fresh_count += 1
        old = f"atomic_old{self.state.fresh_count}"
        self.state.written.add(ptr.param)
        self.emit(f"{old} = ct.atomic_{op}({ptr.param}, {index}, {update}, "
                  f"memory_order=ct.MemoryOrder.{order}, memory_scope=ct.MemoryScope.{scope})",
                  call)
        return old

    # -- tensor descriptors ------------------------------------------------------------
    def desc_load(self, desc: Desc, call: ast.Call):
        index = self._desc_index(desc, call.args[0] if call.args else None, call)
        block = [b.text for b in desc.block]
        return self.loaded(f"ct.load({desc.param}, index=({_tuple(index)}), "
                           f"shape=({_tuple(block)}), padding_mode=ct.PaddingMode.ZERO)",
                           tuple(desc.block), desc.param, call)

    def desc_store(self, desc: Desc, call: ast.Call):
        index = self._desc_index(desc, call.args[0] if call.args else None, call)
        value = self.data(call.args[1], "desc.store")
        self.state.written.add(desc.param)
        self.emit(f"ct.store({desc.param}, index=({_tuple(index)}), "
                  f"tile={_cast_to(text_of(value), desc.param)})", call)
        return None

    def _desc_index(self, desc: Desc, node, call) -> list[str]:
        offsets = self.expr(node) if node is not None else None
        if not isinstance(offsets, tuple) or len(offsets) != len(desc.block):
            raise Fail(call, "desc.load/store", f"give one offset per dimension of "
                       f"{desc.param}'s block ({len(desc.block)})")
        out = []
        for offset, block in zip(offsets, desc.block):
            q = divide(offset, block)
            if q is None:
                raise Fail(call, "desc.load/store", f"the offset `{text_of(offset)}` is not a "
                           f"multiple of the block dimension {block.text}: cuTile indexes "
                           "whole tiles")
            out.append(q)
        return out


ATOMIC_ORDERS = {"relaxed": "RELAXED", "acquire": "ACQUIRE", "release": "RELEASE",
                 "acq_rel": "ACQ_REL"}
ATOMIC_SCOPES = {"gpu": "DEVICE", "cta": "BLOCK", "sys": "SYS"}


def _scalar_index(access, call, what: str) -> str:
    """The index of a one-element access: a scalar index per dimension."""
    form = block_form(access)
    if form is None:
        raise Fail(call, what, "the address is not an element of the tensor at a scalar index "
                   "per dimension")
    return _index_argument(form[0])


def _tile_operand(value, ptr) -> str:
    """An atomic's operand at a tile of addresses, in the array's dtype: a scalar is a tile
    of it (ct.full), a tile is cast."""
    if getattr(value, "shape", None) is None:
        return f"ct.full({shape_text(ptr.shape)}, {text_of(value)}, dtype={ptr.param}.dtype)"
    return _cast_to(text_of(value), ptr.param)


def _index_argument(indices: list[str]) -> str:
    """A gather's, scatter's or atomic's indices argument: one index alone, else a tuple."""
    return indices[0] if len(indices) == 1 else "(" + ", ".join(indices) + ")"


def _static_text(node, default: str) -> str | None:
    if node is None:
        return default
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _cast_to(code: str, param: str) -> str:
    """`code` in `param`'s dtype (a store converts as Triton's does)."""
    suffix = f", {param}.dtype)"
    return code if code.startswith("ct.astype(") and code.endswith(suffix) \
        else f"ct.astype({code}{suffix}"


def _tuple(items) -> str:
    items = list(items)
    return ", ".join(items) + ("," if len(items) == 1 else "")


def _shape_items(shape) -> list[str]:
    return [s.text for s in shape] if shape else []


def _as_shape(texts, cases: int) -> tuple:
    return tuple(Static((0,) * cases, t) for t in texts)
