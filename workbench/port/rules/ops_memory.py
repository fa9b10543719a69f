"""Tile access: `ct.load` (ZERO padding -> `partition`, other padding ->
`make_partition_view(.., padding::X, dim_map::Identity, x.token())`; literal indices bound
first, partitions reused), `ct.store` (index == (bid(0), bid(1), ..) -> a statically tiled
`&mut` output; otherwise the full output view at the explicit index, unchecked) and
`ct.num_tiles`."""
from __future__ import annotations

import ast

from ..analyze import ct_name, keyword
from .registry import Family
from .values import ArrayRef, Fail, Scalar, Stmt, Tile, Value, shape_text

FAMILY = Family("memory")

PADDING = {"ZERO": "Zero", "NEG_INF": "NegInf", "POS_INF": "PosInf", "NAN": "Nan",
           "NEG_ZERO": "NegZero", "UNDETERMINED": "None", None: "None"}


@FAMILY.rule("load")
def load(t, call, hint=None) -> Value:
    t.check_kwargs(call, {"index", "shape", "padding_mode"}, "ct.load")
    arr = t.array_arg(keyword(call, "array", 0), "ct.load")
    if arr.name in t.outputs:
        raise Fail(call, "ct.load", f"{arr.name} is loaded after being stored")
    t.loaded.add(arr.name)
    index_node, shape_node = keyword(call, "index", 1), keyword(call, "shape", 2)
    if index_node is None or shape_node is None:
        raise Fail(call, "ct.load", "index and shape are required")
    shape = t.const_shape(shape_node, "ct.load")
    if len(shape) != arr.rank:
        raise Fail(call, "ct.load", f"tile rank {len(shape)} != array rank {arr.rank}")
    pad_node = keyword(call, "padding_mode", None)
    pad = None
    if pad_node is not None:
        pad = (ct_name(pad_node) or "").removeprefix("PaddingMode.")
        if pad not in PADDING:
            raise Fail(pad_node, "padding_mode", f"`{ast.unparse(pad_node)}` is not ported")
    index = t.index_values(index_node, arr.rank, "ct.load")
    part = partition(t, arr, shape, pad)
    if t.loop_stack and any(v.origin == "loop" for v in index):
        t.loop_stack[-1]["loads"].append(call.lineno)
    return t.let(f"{arr.name}_tile", Tile("E", shape),
                    f"{part}.load([{', '.join(v.expr for v in index)}])", pure=False)


def partition(t, arr: ArrayRef, shape, pad) -> str:
    def make():
        ty = f"Partition<E, {{ [{shape_text(shape)}] }}>"
        if pad == "ZERO":
            expr = f"{arr.name}.partition(shape![{shape_text(shape)}])"
        else:
            expr = (f"unsafe {{ make_partition_view({arr.name}, shape![{shape_text(shape)}], "
                    f"padding::{PADDING[pad]}, dim_map::Identity, {arr.name}.token()) }}")
        name = t.fresh(f"{arr.name}_part" if pad != "UNDETERMINED-view" else arr.name)
        stmt = t.emit(Stmt("let", name=name, ty=ty, expr=expr))
        return Value(ArrayRef(arr.name, arr.rank), name, stmt=stmt)
    return t.cached(("partition", arr.name, shape, pad), make).expr


@FAMILY.rule("store")
def store(t, call, hint=None):
    t.check_kwargs(call, {"index", "tile"}, "ct.store")
    if t.loop_stack:
        raise Fail(call, "ct.store", "a store inside a loop is not ported")
    arr = t.array_arg(keyword(call, "array", 0), "ct.store")
    if arr.name in t.outputs:
        raise Fail(call, "ct.store", f"{arr.name} is stored twice")
    if arr.name in t.loaded:
        raise Fail(call, "ct.store", f"{arr.name} is both loaded and stored (in place)")
    index_node, tile_node = keyword(call, "index", 1), keyword(call, "tile", 2)
    if index_node is None or tile_node is None:
        raise Fail(call, "ct.store", "index and tile are required")
    tile = t.expr(tile_node, hint="result")
    if not isinstance(tile.kind, Tile):
        raise Fail(tile_node, "ct.store", "the stored value is not a tile")
    if tile.kind.dtype != "E":
        raise Fail(tile_node, "ct.store", f"the stored tile is {tile.kind.dtype}, the array "
                   "holds the arrays' dtype: ct.astype(tile, out.dtype) first")
    if len(tile.kind.shape) != arr.rank:
        raise Fail(tile_node, "ct.store", f"tile rank {len(tile.kind.shape)} != array rank "
                                          f"{arr.rank}")
    shape = tile.kind.shape
    t.store_shapes[call.lineno] = list(shape)
    bids = isinstance(index_node, (ast.Tuple, ast.List)) and len(index_node.elts) == arr.rank
    index = None
    if bids:
        index = [t.expr(e) for e in index_node.elts]
        bids = all(v.origin == f"bid{i}" for i, v in enumerate(index))
    if bids and arr.rank <= 3:
        t.outputs[arr.name] = {"form": "static", "shape": shape}
        t.emit(Stmt("raw", text=f"{arr.name}.store({tile.expr});", pure=False))
        return
    index = t.index_values(index_node, arr.rank, "ct.store")
    # A launch passes every `&mut` output as a partition of the kernel's tile shape
    # (cutile checks it), so an explicit index goes through the full view, unchecked:
    # the launcher's shape checks keep it in range.
    t.outputs[arr.name] = {"form": "indexed", "shape": shape}
    if not t.unchecked:
        t.unchecked = True
        t.notes.append("unchecked_accesses: the store at an explicit index goes through "
                          "the full output view; the launcher must keep it in range")
    part = t.fresh(f"{arr.name}_part")
    t.emit(Stmt("raw", pure=False, text=(
        f"let mut {part}: PartitionMut<E, {{ [{shape_text(shape)}] }}> =\n"
        f"    unsafe {{ {arr.name}.partition_full_mut(shape![{shape_text(shape)}]) }};\n"
        f"{part}.store({tile.expr}, [{', '.join(v.expr for v in index)}]);")))


@FAMILY.rule("num_tiles")
def num_tiles(t, node, hint):
    t.check_kwargs(node, {"axis", "shape"}, "ct.num_tiles")
    arr = t.array_arg(keyword(node, "array", 0), "ct.num_tiles")
    axis = keyword(node, "axis", 1)
    shape = t.const_shape(keyword(node, "shape", 2), "ct.num_tiles")
    if not (isinstance(axis, ast.Constant) and isinstance(axis.value, int)):
        raise Fail(node, "ct.num_tiles", "the axis must be an integer literal")
    if len(shape) != arr.rank:
        raise Fail(node, "ct.num_tiles", "tile rank != array rank")
    view = partition(t, arr, shape, "UNDETERMINED")
    return t.let(hint or "n_tiles", Scalar("i32"),
                    f"num_tiles(&{view}, {axis.value % arr.rank}i32)", origin="num_tiles")
