"""`ct.gather` / `ct.scatter`: the pointer arithmetic cuTile Python lowers them to, op for op
(its _gather_scatter_pointer_and_mask): every index converted to u64 (exti) and broadcast to the
common index shape; with check_bounds, `index < extent` (unsigned compare of u64) per axis,
and-ed; the offset `sum(index * stride)`; the base pointer broadcast and offset
(`addptr_tile`); a custom `mask` broadcast and and-ed last; then `load_ptr_tko` (padding value
converted to the array's dtype) or `store_ptr_tko`.

Strides: the last axis has unit stride (port.toml says so), a constant 1 cuTile materializes
at the top of the kernel; the others come from the tensor view's `strides` metadata. cutile
0.5.0 has no public accessor for it, so the port declares one helper per rank with the same
compiler op `Tensor::shape()` uses (`return_type_meta_field`, field "strides")."""
from __future__ import annotations

from .dtypes import DT, PromotionError, bits, promote_dt
from .registry import Family
from .render_toml import ALIGNED_BASE, STRIDES_READ
from .tokens import after_read, after_write, last_op_token, last_store_token, wait_for_acquire
from .values import (ArrayRef, Const, Fail, Lit, NeedDtypes, Scalar, Seq, Tile, Value, broadcast_shape,
                     is_zero, refuse_write_through_slice, root_of, shape_text, tensor_ref)

FAMILY = Family("gather")


def strides_helper(rank: int) -> str:
    dynamic = ", ".join(["-1"] * (rank - 1))
    return (f"    // cutile 0.5.0 exposes a tensor's base pointer and shape but no accessor for its\n"
            f"    // strides; this reads the view's `strides` metadata (its dynamic strides, all but\n"
            f"    // the unit last one) with the compiler op that Tensor::shape() uses.\n"
            f"    #[cuda_tile::compiler_op(name = \"return_type_meta_field\", type_meta_field = \"strides\")]\n"
            f"    fn tensor_strides_{rank}<T: ElementType, const S: [i32; {rank}]>(\n"
            f"        tensor: &Tensor<T, S>,\n"
            f"    ) -> Shape<'static, {{ [{dynamic}] }}> {{\n"
            f"        unreachable!()\n"
            f"    }}")


def padded_load_helper(rank: int) -> str:
    return (f"    // cutile's load_ptr_tko takes the padding as a scalar and broadcasts it at the\n"
            f"    // load; cuTile Python broadcasts it first (and hoists that out of loops). The\n"
            f"    // same Tile IR op, declared with a padding tile of the result's shape:\n"
            f"    #[cuda_tile::op(name = \"cuda_tile.load_ptr_tko\", since = \"V13_2\", params = [\"source\"])]\n"
            f"    unsafe fn load_ptr_padded_{rank}<T: ElementType, P: PointerTo<T>, const S: [i32; {rank}], "
            f"O: ordering::LoadMode, Sc: scope::Mode, const CYCLES: i32>(\n"
            f"        source: PointerTile<P, S>,\n"
            f"        memory_ordering: O,\n"
            f"        memory_scope: Option<Sc>,\n"
            f"        mask: Option<Tile<bool, S>>,\n"
            f"        padding_value: Option<Tile<T, S>>,\n"
            f"        token: Option<Token>,\n"
            f"        latency: Latency<CYCLES>,\n"
            f"    ) -> (Tile<T, S>, Token) {{\n"
            f"        unreachable!()\n"
            f"    }}")


HELPERS = {"strides": lambda rank: strides_helper(rank), "load_ptr": padded_load_helper}


def u64_of(t, v: Value, node) -> Value:
    """astype(index, uint64): exti of an integer tile or scalar; a literal is a constant."""
    u64 = t.types.of_name("uint64")
    if isinstance(v.kind, (Lit, Const)):
        return t.as_tile(v, u64, (), node)
    if isinstance(v.kind, Scalar):
        v = t.scalar_tile(v, node)
    if not isinstance(v.kind, Tile) or not (v.kind.dtype.integral or v.kind.dtype.boolean):
        raise Fail(node, "index", "gather/scatter indices must be integers")
    if v.kind.dtype == u64:
        return v
    # the same width is one Tile IR type (integers are signless): cuTile Python emits no op
    # there, and exti to an identical width does not verify
    op = "bitcast" if v.kind.dtype.all(lambda n: bits(n) == 64) else "exti"
    return t.let(f"{v.expr}_u64", Tile(u64, v.kind.shape), f"{op}({v.expr})")


def extent_u64(t, arr: ArrayRef, dim: int, shape, node) -> Value:
    i32 = Scalar(t.types.of_name("int32"))
    size = t.let(f"{arr.name}_dim{dim}", i32, f"get_shape_dim({arr.name}.shape(), {dim}i32)")
    return t.fit(u64_of(t, size, node), shape, node)


def stride_u64(t, arr: ArrayRef, dim: int, shape, node) -> Value:
    if dim == arr.rank - 1:
        return t.let_prologue(f"{arr.name}_stride{dim}", Tile(t.types.of_name("uint64"), shape),
                              f"constant(1u64, shape![{shape_text(shape)}])")
    return t.fit(u64_of(t, dynamic_stride(t, arr, dim, node), node), shape, node)


def dynamic_stride(t, arr: ArrayRef, dim: int, node) -> Value:
    """A stride before the last dim, an i32 read from the view's strides metadata (which
    wb_ffi then checks, port.toml `strides_read`)."""
    refuse_unit_strides(t, arr, node)
    t.state.helpers.add(("strides", arr.rank))
    t.state.abi_promises.setdefault(root_of(t, arr.name), set()).add(STRIDES_READ)
    return t.let(f"{arr.name}_stride{dim}", Scalar(t.types.of_name("int32")),
                 f"get_shape_dim(tensor_strides_{arr.rank}({tensor_ref(t, arr)}), {dim}i32)")


def refuse_unit_strides(t, arr: ArrayRef, node) -> None:
    """The strides helper reads the view's dynamic strides by position, which holds only when
    no stride but the last is 1: cutile 0.5.0 makes every unit stride of a call static in the
    tensor view (cutile-compiler specialization.rs: `stride_one = strides[i] == 1`), and the
    `strides` metadata then holds only the others (the position of dim d moves)."""
    for s in t.spec.specializations:
        if any(s.constants.get(k) != v for k, v in t.const_values.items()):
            continue                        # a case of another entry
        units = s.unit_strides.get(root_of(t, arr.name), [])
        if units:
            raise Fail(node, "strides", f"{arr.name} has stride 1 in dim(s) "
                       f"{', '.join(map(str, units))} (not the last) in case {s.case}: cutile "
                       "0.5.0 makes each unit stride of a call static in the tensor view "
                       "(specialization.rs stride_one) and keeps only the others in its strides "
                       "metadata, so a port reading strides has no fixed position for them")


def pointer_and_mask(t, arr: ArrayRef, value: Value, check_bounds: bool, custom, node):
    """The pointer tile and mask of `array[indices]` (indices and mask already evaluated)."""
    items = value.kind.items if isinstance(value.kind, Seq) else [value]
    if len(items) != arr.rank:
        raise Fail(node, "indices", f"{len(items)} indices for an array of rank {arr.rank}")
    shape: tuple = ()
    for v in items:
        if isinstance(v.kind, Tile):
            shape = broadcast_shape(shape, v.kind.shape, node)
    offset = mask = None
    for dim, ind in enumerate(items):
        ind = t.fit(u64_of(t, ind, node), shape, node)
        if check_bounds:
            size = extent_u64(t, arr, dim, shape, node)
            inside = t.let(f"in{dim}", Tile(t.types.of_name("bool_"), shape),
                           f"lt_tile({ind.expr}, {size.expr})")
            mask = inside if mask is None else t.let("inside", inside.kind,
                                                     f"andi({mask.expr}, {inside.expr})")
        stride = stride_u64(t, arr, dim, shape, node)
        delta = t.let(f"off{dim}", ind.kind, f"{ind.expr} * {stride.expr}")
        offset = delta if offset is None else t.let("offset", delta.kind,
                                                    f"{offset.expr} + {delta.expr}")
    elem = t.rust_dtype(arr.dtype)
    ptr_kind = f"PointerTile<*mut {elem}, {{ [] }}>"
    pointer = lambda s: f"PointerTile<*mut {elem}, {{ [{shape_text(s)}] }}>"   # noqa: E731
    base = t.let_typed(f"{arr.name}_base", ptr_kind, f"get_tensor_base({tensor_ref(t, arr)})")
    ones = ("1",) * len(shape)
    if shape:
        base = t.let_typed(f"{arr.name}_base_r", pointer(ones),
                           f"{base}.reshape(shape![{shape_text(ones)}])")
    if ones != tuple(shape):
        base = t.let_typed(f"{arr.name}_base_b", pointer(shape),
                           f"{base}.broadcast(shape![{shape_text(shape)}])")
    ptrs = t.let_typed(f"{arr.name}_ptrs", pointer(shape), f"addptr_tile({base}, {offset.expr})")
    aligned = element_alignment(arr.dtype) if all(d == "1" for d in shape) else 1
    if not shape and all(is_zero(v) for v in items) and arr.name not in t.state.slice_roots:
        aligned = BASE_ALIGNMENT        # the base itself: the C ABI checks it (port.toml)
        t.state.abi_promises.setdefault(arr.name, set()).add(ALIGNED_BASE)
    if aligned > 1:
        ptrs = t.let_typed(f"{arr.name}_ptrs_a", pointer(shape),
                           f"unsafe {{ assume_div_by::<_, {aligned}>({ptrs}) }}")
    if custom is not None:
        if not isinstance(custom.kind, Tile) or not custom.kind.dtype.boolean:
            raise Fail(node, "mask", "the mask must be a bool tile")
        custom = t.fit(custom, shape, node)
        mask = custom if mask is None else t.let("mask", custom.kind,
                                                 f"andi({mask.expr}, {custom.expr})")
    return ptrs, mask, shape


BASE_ALIGNMENT = 16      # what cuTile assumes of a base it was given 16-byte aligned


def element_alignment(dt: DT) -> int:
    """cuTile's divisibility of a single-element pointer (dataflow_analysis.py PointerOffset:
    gcd(the base's div_by, the offset's div_by x the element's bytes), tiles of one element
    only; written in `assume div_by` by propagate_divby.py). A base is at least element-aligned
    and the offset divisible by 1, so the element's size is the part the drafter knows."""
    widths = {bits(n) for n in dt.names}          # a generic type: one width in every case
    if len(widths) != 1 or next(iter(widths)) % 8:
        return 1
    return next(iter(widths)) // 8


def latency_of(t, args) -> int:
    latency = args.get("latency")
    value = 0 if latency is None else t.static_value(latency, "latency")
    return 0 if value is None else int(value)


def early_constant(t, v: Value, dt) -> bool:
    """A literal computed from an expression (`-math.inf`) is a constant cuTile creates where
    it evaluates the expression, typed float32 / int32; used as that type, it stays there."""
    return isinstance(v.kind, Lit) and v.kind.early and dt.uniform == (
        "float32" if isinstance(v.kind.value, float) else "int32")


@FAMILY.rule("gather")
def gather(t, node, hint):
    args = t.bind_args("gather", node)
    arr = t.array_arg(args["array"], "ct.gather")
    check = t.static_bool(args.get("check_bounds"), "check_bounds", True)
    indices = t.expr(args["indices"])
    custom = t.expr(args["mask"]) if args.get("mask") is not None else None
    pad_value = t.expr(args["padding_value"]) if "padding_value" in args else Value(Lit(0))
    pad = t.as_tile(pad_value, arr.dtype, (), node) if early_constant(t, pad_value, arr.dtype) \
        else None
    ptrs, mask, shape = pointer_and_mask(t, arr, indices, check, custom, node)
    if pad is None:       # an integer padding literal: cuTile folds its broadcast (dataflow)
        pad = t.as_tile(pad_value, arr.dtype, () if arr.dtype.floating else shape, node)
    pad = t.fit(pad, shape, node)
    t.state.helpers.add(("load_ptr", len(shape)))
    token = wait_for_acquire(t, last_store_token(t, arr))
    mask_text = f"Some({mask.expr})" if mask is not None else "None"
    name = t.fresh(hint or f"{arr.name}_rows")
    done = t.fresh(f"{name}_token") if arr.name in t.state.inplace else "_"
    kind = Tile(arr.dtype, shape)
    stmt = t.raw(f"let ({name}, {done}): ({t.ty(kind)}, Token) = unsafe {{\n"
                 f"    load_ptr_padded_{len(shape)}({ptrs}, ordering::Weak, None::<scope::TileBlock>, "
                 f"{mask_text}, Some({pad.expr}), Some({token}), Latency::<{latency_of(t, args)}>)\n}};")
    t.state.loaded.add(arr.name)
    after_read(t, arr, done)
    return Value(kind, name, stmt=stmt)


def implicit_cast(t, src: DT, dst: DT, node, what: str) -> None:
    """cuTile stores a value of another dtype only when promoting it to the array's gives the
    array's (cast_ops._is_implicit_cast_ok): a widening. Where the array's dtype differs over
    the cases, the entries are split by dtype first (a case may never reach this store)."""
    try:
        ok = promote_dt(src, dst, t.types.n) == dst
    except PromotionError:
        ok = False
    if not ok and t.types.generic_of(dst):
        raise NeedDtypes(node, f"{what}: a {src.text()} value into an array that is "
                         f"{dst.text()} over the cases")
    if not ok:
        raise Fail(node, what, f"cuTile rejects storing {src.text()} into a "
                               f"{dst.text()} array (no implicit narrowing)")


@FAMILY.rule("scatter")
def scatter(t, node, hint):
    args = t.bind_args("scatter", node)
    arr = t.array_arg(args["array"], "ct.scatter")
    refuse_write_through_slice(t, arr, node, "ct.scatter")
    check = t.static_bool(args.get("check_bounds"), "check_bounds", True)
    indices = t.expr(args["indices"])
    value = t.expr(args["value"])
    custom = t.expr(args["mask"]) if args.get("mask") is not None else None
    ptrs, mask, shape = pointer_and_mask(t, arr, indices, check, custom, node)
    if isinstance(value.kind, (Tile, Scalar)) and value.kind.dtype != arr.dtype:
        implicit_cast(t, value.kind.dtype, arr.dtype, node, "ct.scatter")
    value = t.as_tile(value, arr.dtype, shape, node)
    token = last_op_token(t, arr)
    wait = wait_for_acquire(t, token)
    mask_text = f"Some({mask.expr})" if mask is not None else "None"
    t.raw(f"{token} = unsafe {{\n    store_ptr_tko({ptrs}, {value.expr}, ordering::Weak, "
          f"None::<scope::TileBlock>, {mask_text}, Some({wait}), "
          f"Latency::<{latency_of(t, args)}>)\n}};")
    after_write(t, arr)
    t.state.scattered.add(arr.name)
    if not any("ct.scatter writes" in n for n in t.state.notes):
        t.state.notes.append("ct.scatter writes through the array's base pointer (store_ptr_tko): the "
                       "parameter stays `&Tensor`, as cutile asks nothing more of a raw store")
    return None
