"""Tile access: `ct.load` (ZERO padding -> `partition`, other padding ->
`make_partition_view(.., padding::X, dim_map::Identity, x.token())`; literal indices bound
first, partitions reused; `latency` / `allow_tma=False` -> `load_view_tko(.., Some(latency),
tma::Disabled)`), `ct.store` (index == (bid(0), bid(1), ..) at the kernel's top level -> a
statically tiled `&mut` output stored with `out.store(tile)`; otherwise the full output view
at the explicit index, unchecked) and `ct.num_tiles`."""
from __future__ import annotations

import ast

import cuda.tile as ct

from .loops import memory_ops
from .registry import Family
from .tokens import after_read, after_write, last_op_token, last_store_token, wait_for_acquire
from .values import (ArrayRef, Fail, Lit, NeedDtypes, Scalar, Seq, Stmt, Tile, Value,
                     shape_text, tensor_ref)
from .ops_slice import refuse_access_after_slice_store, slice_store
from .launch_form import note_store

FAMILY = Family("memory")

PADDING = {"ZERO": "Zero", "NEG_INF": "NegInf", "POS_INF": "PosInf", "NAN": "Nan",
           "NEG_ZERO": "NegZero", "UNDETERMINED": "None", None: "None"}


def hints_of(t, args, call, what: str) -> tuple[int | None, bool | None]:
    """(latency, allow_tma) of a load/store; the memory order and scope must be the defaults
    (cutile's view loads/stores take `ordering::Weak` only through the safe API)."""
    for name, default in (("memory_order", ct.MemoryOrder.WEAK),
                          ("memory_scope", ct.MemoryScope.NONE)):
        if name in args and t.static_value(args[name], name) != default:
            raise Fail(call, f"{what}({name}=..)", f"only the default {name} is ported")
    if "check_bounds" in args and not t.static_bool(args["check_bounds"], "check_bounds"):
        raise Fail(call, f"{what}(check_bounds=False)", "check_bounds=False needs Tile IR "
                   "13.4 (inbounds); the workbench compares 13.3 bytecode")
    latency = args.get("latency")
    latency = None if latency is None else t.static_value(latency, "latency")
    tma = args.get("allow_tma")
    tma = None if tma is None else t.static_value(tma, "allow_tma")
    # allow_tma=True is tma::Enabled: cutile writes no allow_tma hint for it, cuTile Python
    # writes allow_tma = true (a hint note of the diff)
    return latency, tma


def order_of(t, args, rank: int, call) -> tuple[int, ...] | None:
    """The dim_map of `order=`: None for "C" (identity), else the axis order (a permuted
    partition view, cutile's make_partition_view(.., const_array![..], ..))."""
    if "order" not in args:
        return None
    order = t.static_value(args["order"], "order")
    if order in ("C", None):
        return None
    if order == "F":
        order = tuple(reversed(range(rank)))
    order = tuple(int(o) for o in order)
    if sorted(order) != list(range(rank)):
        raise Fail(call, "order", f"{order} is not an order of {rank} axes")
    return None if order == tuple(range(rank)) else order


def view_access(latency, tma) -> str | None:
    """The trailing `Some(latency), tma::X` of a raw view access, or None for the default."""
    if latency is None and tma is None:
        return None
    lat = "None" if latency is None else f"Some({int(latency)})"
    return f"ordering::Weak, scope::TileBlock, {lat}, tma::{'Disabled' if tma is False else 'Enabled'}"



@FAMILY.rule("load")
def load(t, call, hint=None) -> Value:
    args = t.bind_args("load", call)
    arr = t.array_arg(args["array"], "ct.load")
    if "index" not in args or "shape" not in args:
        raise Fail(call, "ct.load", "index and shape are required")
    latency, tma = hints_of(t, args, call, "ct.load")
    refuse_access_after_slice_store(t, arr, call, "ct.load")
    t.state.loaded.add(arr.name)
    shape = t.const_shape(args["shape"], "ct.load")
    if not shape and arr.rank:          # cuTile: a 0-d load is a tile of ones, reshaped to 0-d
        one = load_tile(t, call, args, arr, ("1",) * arr.rank, latency, tma, None)
        return t.let(hint or f"{arr.name}_item", Tile(arr.dtype, ()), f"{one.expr}.reshape(shape![])")
    if len(shape) != arr.rank:
        raise Fail(call, "ct.load", f"tile rank {len(shape)} != array rank {arr.rank}")
    return load_tile(t, call, args, arr, shape, latency, tma, hint)


def load_tile(t, call, args, arr: ArrayRef, shape, latency, tma, hint) -> Value:
    """A load of a tile of `shape` (the array's rank) at `index`."""
    pad = None
    if "padding_mode" in args:
        mode = t.static_value(args["padding_mode"], "padding_mode")
        pad = getattr(mode, "name", None)
        if pad not in PADDING:
            raise Fail(args["padding_mode"], "padding_mode",
                       f"`{ast.unparse(args['padding_mode'])}` is not ported")
    index = t.index_values(args["index"], arr.rank, "ct.load")
    order = order_of(t, args, arr.rank, call)
    t.note_loop_load(index, call.lineno)       # loops.py
    idx = ", ".join(v.expr for v in index)
    if arr.name in t.state.inplace:
        return inplace_load(t, arr, shape, pad, order, idx, latency, tma, hint)
    unproven_index_unchecked(t, index, call)
    part = partition(t, arr, shape, pad, order, call)
    raw = view_access(latency, tma)
    expr = f"{part}.load([{idx}])" if raw is None else f"load_view_tko(&{part}, [{idx}], {raw})"
    return t.let(f"{arr.name}_tile", Tile(arr.dtype, shape), expr, pure=False)


def unproven_index_unchecked(t, index: list[Value], call) -> None:
    """A checked entry's load at a tile index cutile cannot prove in range gets a bounds
    assert from cutile (checks/placement.rs) that cuTile Python does not make: such an entry
    is unchecked, as cuTile's is. A constant index other than 0 makes it so here; an index
    computed from a tile (data) when the entry is done, unless something else did
    (settle_unchecked: the first reason is the one the port's note gives)."""
    if t.state.unchecked:
        return
    if any((v.origin or "").startswith("literal") and v.origin != "literal0" for v in index):
        t.state.unchecked = True
        t.state.notes.append(f"unchecked_accesses: line {call.lineno} loads at a constant tile "
                             "index, which cutile would bounds-check with an assert cuTile "
                             "Python does not make; the launcher must keep the arrays large "
                             "enough")
    elif any(v.origin == "tile" for v in index) and not t.state.data_index_line:
        t.state.data_index_line = call.lineno


def settle_unchecked(t) -> None:
    """The entry is unchecked for a load at an index from data, if nothing else made it so."""
    if t.state.data_index_line and not t.state.unchecked:
        t.state.unchecked = True
        t.state.notes.append(f"unchecked_accesses: line {t.state.data_index_line} loads at an "
                             "index computed from data, which cutile would bounds-check with "
                             "an assert cuTile Python does not make (it pads); the launcher "
                             "must keep the arrays large enough")


def inplace_load(t, arr: ArrayRef, shape, pad, order, idx: str, latency, tma, hint) -> Value:
    """A load of an array the kernel also writes: its view and load take the last store's
    token and the load's token is joined into the array's last-op token (cuTile's order)."""
    token = wait_for_acquire(t, last_store_token(t, arr))
    dim_map = "dim_map::Identity" if order is None else f"const_array![{', '.join(map(str, order))}]"
    view = t.let_typed(f"{arr.name}_part", f"Partition<{t.rust_dtype(arr.dtype)}, {{ [{shape_text(shape)}] }}>",
                       f"unsafe {{ make_partition_view({tensor_ref(t, arr)}, shape![{shape_text(shape)}], "
                       f"padding::{PADDING[pad]}, {dim_map}, {token}) }}", pure=False)
    name, done = t.fresh(hint or f"{arr.name}_tile"), t.fresh(f"{arr.name}_loaded")
    kind = Tile(arr.dtype, shape)
    lat = "None" if latency is None else f"Some({int(latency)})"
    stmt = t.raw(f"let ({name}, {done}): ({t.ty(kind)}, Token) = unsafe {{ load_view_raw(&{view}, "
                 f"[{idx}], Some({token}), ordering::Weak, scope::TileBlock, "
                 f"tma::{'Disabled' if tma is False else 'Enabled'}, {lat}, "
                 f"[{', '.join(['false'] * arr.rank)}], shape![{shape_text(shape)}]) }};")
    after_read(t, arr, done)
    return Value(kind, name, stmt=stmt)


def inplace_store(t, arr: ArrayRef, tile: Value, shape, index, latency, tma) -> None:
    """A store to an array the kernel also reads: it waits for the array's last op, and is
    its last op and last store after. A loop-parallel one (parallel_store) waits for the
    array's last op from before the loop and is joined into it, as cuTile orders it."""
    token = last_op_token(t, arr)
    parallel = bool(t.state.loop_stack) and parallel_store(t, arr, index)
    wait = wait_for_acquire(t, token_at_loop_entry(t, token) if parallel else token)
    view = t.fresh(f"{arr.name}_part")
    lat = "None" if latency is None else f"Some({int(latency)})"
    t.raw(f"let {view}: PartitionMut<{t.rust_dtype(arr.dtype)}, {{ [{shape_text(shape)}] }}> = "
          f"unsafe {{ make_partition_view_mut({arr.name}, shape![{shape_text(shape)}], padding::None, "
          f"{wait}) }};")
    store = (f"unsafe {{ store_view_raw(&{view}, {tile.expr}, [{', '.join(v.expr for v in index)}], "
             f"Some({wait}), ordering::Weak, scope::TileBlock, "
             f"tma::{'Disabled' if tma is False else 'Enabled'}, {lat}, "
             f"[{', '.join(['false'] * arr.rank)}]) }};")
    if parallel:
        done = t.fresh(f"{arr.name}_stored")
        t.raw(f"let {done}: Token = {store}")
        t.raw(f"{token} = join_tokens(&[{token}, {done}]);")
    else:
        t.raw(f"{token} = {store}")
    after_write(t, arr)


def partition(t, arr: ArrayRef, shape, pad, order=None, node=0) -> str:
    def make():
        ty = f"Partition<{t.rust_dtype(arr.dtype)}, {{ [{shape_text(shape)}] }}>"
        dim_map = "dim_map::Identity" if order is None else \
            f"const_array![{', '.join(map(str, order))}]"
        if pad == "ZERO" and order is None:
            expr = f"{arr.name}.partition(shape![{shape_text(shape)}])"
        else:
            expr = (f"unsafe {{ make_partition_view({tensor_ref(t, arr)}, shape![{shape_text(shape)}], "
                    f"padding::{PADDING[pad]}, {dim_map}, {arr.name}.token()) }}")
        name = t.fresh(f"{arr.name}_part")
        stmt = t.emit(Stmt("let", name=name, ty=ty, expr=expr))
        return Value(ArrayRef(arr.name, arr.rank, arr.dtype), name, stmt=stmt)
    # one view per access, as cuTile makes them (a loop-invariant one is hoisted)
    return make().expr


def stored_tile(t, node, arr: ArrayRef, call) -> Value:
    """The value of a store as a tile of the array's dtype and rank (a literal or scalar is
    converted and reshaped to (1,)*rank, as cuTile's implicit_cast + reshape do)."""
    tile = t.expr(node, hint="result")
    if isinstance(tile.kind, (Lit, Scalar)) or (isinstance(tile.kind, Tile) and not tile.kind.shape):
        one = ("1",) * arr.rank
        return t.as_tile(tile, arr.dtype, one, node) if not isinstance(tile.kind, Tile) or \
            tile.kind.dtype == arr.dtype else t.fit(t.convert(tile, arr.dtype, node), one, node)
    if not isinstance(tile.kind, Tile):
        raise Fail(node, "ct.store", "the stored value is not a tile")
    if tile.kind.dtype != arr.dtype:
        if t.types.generic_of(arr.dtype):   # a dtype branch (`if BF16:` casts): concrete entries
            raise NeedDtypes(node, f"a {tile.kind.dtype.text()} tile stored to {arr.name}, "
                             f"whose dtype is {arr.dtype.text()} over the cases")
        raise Fail(node, "ct.store", f"the stored tile is {tile.kind.dtype.text()}, the array "
                   f"holds {arr.dtype.text()}: ct.astype(tile, {arr.name}.dtype) first")
    if len(tile.kind.shape) != arr.rank:
        raise Fail(node, "ct.store", f"tile rank {len(tile.kind.shape)} != array rank {arr.rank}")
    return tile


@FAMILY.rule("store")
def store(t, call, hint=None):
    args = t.bind_args("store", call)
    arr = t.array_arg(args["array"], "ct.store")
    if "index" not in args or "tile" not in args:
        raise Fail(call, "ct.store", "index and tile are required")
    latency, tma = hints_of(t, args, call, "ct.store")
    refuse_access_after_slice_store(t, arr, call, "ct.store")
    if order_of(t, args, arr.rank, call) is not None:
        raise Fail(call, "ct.store(order=..)", "a store through a permuted view: cutile "
                   "0.5.0's partition_full_mut takes no dim_map (make_partition_view_mut neither)")
    index_value = t.expr(args["index"])            # cuTile evaluates the index first
    tile = stored_tile(t, args["tile"], arr, call)
    shape = tile.kind.shape
    t.state.store_shapes.setdefault(call.lineno, list(shape))
    items = index_value.kind.items if isinstance(index_value.kind, Seq) else [index_value]
    bids = len(items) == arr.rank and all(v.origin == f"bid{i}" for i, v in enumerate(items)) \
        and arr.rank <= 3
    first = arr.name not in t.state.outputs
    raw = view_access(latency, tma)
    if arr.name in t.state.slice_roots:
        slice_store(t, arr, tile, t.index_values(index_value, arr.rank, "ct.store"),
                    latency, tma, call)
        return None
    note_store(t, arr, items)
    if arr.name in t.state.inplace:          # read and written: cuTile's token order, by hand
        index = t.index_values(index_value, arr.rank, "ct.store")
        t.state.outputs.setdefault(arr.name, {"form": "shared", "shape": shape})
        if not t.state.unchecked:
            t.state.unchecked = True
            t.state.notes.append(f"unchecked_accesses: {arr.name} is read and written: its views "
                           "are made per access with cuTile's tokens")
        inplace_store(t, arr, tile, shape, index, latency, tma)
        return None
    if bids and arr.rank <= 3 and first and not t.state.regions and not t.state.inline_stack \
            and raw is None:
        t.state.outputs[arr.name] = {"form": "static", "shape": shape}
        t.emit(Stmt("raw", text=f"{arr.name}.store({tile.expr});", pure=False))
        return None
    index = t.index_values(index_value, arr.rank, "ct.store")
    # A launch passes every `&mut` output as a partition of the kernel's tile shape
    # (cutile checks it), so an explicit index goes through the full view, unchecked:
    # the launcher's shape checks keep it in range.
    # cutile takes `&mut Tensor` parameters of rank <= 3 only (kernel_entry_generator:
    # "Unable to partition tensors with rank > 3"): a higher rank output stays `&Tensor`,
    # stored through partition_full_mut, which takes &self
    t.state.outputs.setdefault(arr.name, {"form": "indexed" if arr.rank <= 3 else "shared",
                                    "shape": shape})
    if not t.state.unchecked:
        t.state.unchecked = True
        t.state.notes.append("unchecked_accesses: the store at an explicit index goes through "
                       "the full output view; the launcher must keep it in range")
    part = full_view(t, arr, shape)
    idx = ", ".join(v.expr for v in index)
    if t.state.loop_stack and parallel_store(t, arr, index) and chained_parallel(t, arr):
        parallel_store_chained(t, arr, part, tile, idx, latency, tma)
    elif (t.state.loop_stack and not parallel_store(t, arr, index)) \
            or arr.name in t.state.token_vars:
        # cuTile orders this store after the previous iteration's (a loop-carried token), or
        # after a write through pointers before it (a scatter, an atomic): the raw store
        # takes and gives the token
        token = last_op_token(t, arr)
        lat = "None" if latency is None else f"Some({int(latency)})"
        t.raw(f"{token} = unsafe {{ store_view_raw(&{part}, {tile.expr}, [{idx}], Some({token}), "
              f"ordering::Weak, scope::TileBlock, tma::{'Disabled' if tma is False else 'Enabled'}, "
              f"{lat}, [{', '.join(['false'] * arr.rank)}]) }};")
    elif raw is None:
        t.raw(f"{part}.store({tile.expr}, [{idx}]);")
    else:
        t.raw(f"unsafe {{ store_view_tko_mut(&mut {part}, {tile.expr}, [{idx}], {raw}) }};")
    return None


def parallel_store(t, arr: ArrayRef, index) -> bool:
    """cuTile's loop-parallel store (token_order._get_parallel_stores): the array's only
    memory op in the innermost loop, in the loop's body itself (not under an `if`), indexed
    by the loop variable itself: no ordering between iterations."""
    frame = t.state.loop_stack[-1]
    if len(t.state.regions) != frame["regions"]:      # under a branch of the loop body
        return False
    return frame["memory_ops"].get(arr.name, 0) == 1 and \
        any(v.origin == "loop" and v.expr == frame["var"] for v in index)


def chained_parallel(t, arr: ArrayRef) -> bool:
    """Whether a loop-parallel store's token flows on: an enclosing loop carries the array's
    token (the store takes the enclosing body's), or the array is accessed after the loop."""
    if len(t.state.loop_stack) > 1 or t.state.inline_stack:     # (the token's DCE drops what is unused)
        return True
    loop = t.state.loop_stack[-1]["node"]
    end = getattr(loop, "end_lineno", loop.lineno)
    return any(getattr(n, "lineno", 0) > end for n in t.folded_nodes(t.current_function().body)
               if memory_ops([n]).get(arr.name))


def parallel_store_chained(t, arr: ArrayRef, part: str, tile: Value, idx: str, latency,
                           tma) -> None:
    """cuTile's loop-parallel store whose token is waited for later: the store takes the
    array's token from before the loop, and its token is joined into the array's last-op
    token, which the loop carries (token_order._try_loop_parallel_store)."""
    token = last_op_token(t, arr)
    before = token_at_loop_entry(t, token)
    done = t.fresh(f"{arr.name}_stored")
    lat = "None" if latency is None else f"Some({int(latency)})"
    t.raw(f"let {done}: Token = unsafe {{ store_view_raw(&{part}, {tile.expr}, [{idx}], "
          f"Some({before}), ordering::Weak, scope::TileBlock, "
          f"tma::{'Disabled' if tma is False else 'Enabled'}, {lat}, "
          f"[{', '.join(['false'] * arr.rank)}]) }};")
    t.raw(f"{token} = join_tokens(&[{token}, {done}]);")


def token_at_loop_entry(t, token: str) -> str:
    """`token` as the innermost loop starts (bound once, before the loop)."""
    frame = t.state.loop_stack[-1]
    before = frame["entry_tokens"].get(token)
    if before is None:
        before = frame["entry_tokens"][token] = t.fresh(f"{token}_at_loop")
        frame["pre"].append(Stmt("raw", text=f"let {before}: Token = {token};", pure=False))
    return before


def full_view(t, arr: ArrayRef, shape) -> str:
    """A `PartitionMut` over the whole output for tiles of `shape`: one per access (cuTile
    makes one per access; a loop-invariant one is hoisted out of its loops)."""
    def make():
        name = t.fresh(f"{arr.name}_part")
        view = t.raw(f"let mut {name}: PartitionMut<{t.rust_dtype(arr.dtype)}, {{ [{shape_text(shape)}] }}> =\n"
                     f"    unsafe {{ {arr.name}.partition_full_mut(shape![{shape_text(shape)}]) }};")
        view.pure = True            # a view: hoisted out of loops, as cuTile hoists it
        return Value(ArrayRef(arr.name, arr.rank, arr.dtype), name)
    return make().expr               # one view per access, as cuTile makes them


@FAMILY.rule("num_tiles")
def num_tiles(t, node, hint):
    args = t.bind_args("num_tiles", node)
    arr = t.array_arg(args["array"], "ct.num_tiles")
    shape = t.const_shape(args["shape"], "ct.num_tiles")
    axis = t.static_int(args["axis"], node, "the axis")
    if "order" in args and t.static_value(args["order"], "order") != "C":
        raise Fail(node, "ct.num_tiles(order=..)", "a non-C order is not ported")
    if len(shape) != arr.rank:
        raise Fail(node, "ct.num_tiles", "tile rank != array rank")
    view = partition(t, arr, shape, "UNDETERMINED", node=node)
    return t.let(hint or "n_tiles", Scalar(t.types.of_name("int32")),
                 f"num_tiles(&{view}, {axis % arr.rank}i32)", origin="num_tiles")


FAMILY.refuse("load_advanced_indexing", "an advanced-indexing load: not drafted; cutile 0.5.0 "
              "has make_gather_scatter_view (one sparse dimension, unsafe) for load_view_raw: "
              "write it by hand")
FAMILY.refuse("store_advanced_indexing", "an advanced-indexing store; see "
              "load_advanced_indexing")
