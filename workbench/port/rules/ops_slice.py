"""`Array.slice(axis, start, stop)`: a view of the same memory, as cuTile Python makes it
(cuda.tile _ir/ops.py array_slice_impl): the base pointer offset by `start * strides[axis]`
(a muli in the array's index dtype, exti to u64, then `offset`), the axis's extent
`stop - start` (a subi; static when both bounds are constants), the strides and the other
extents unchanged. The port builds the same view with cutile's `make_tensor_view` from the
derived pointer, extents and strides; the slice is then an array like a parameter, so
`ct.load`, `.shape` and another `.slice` read it (the view's metadata holds them).

The view is a local `Tensor` with no type on its `let` (cutile's type inference then reads
its type from the op; an annotated one leaves `make_partition_view(&view, ..)` untyped) and is
passed as `&view` (values.tensor_ref). `ct.store` through a slice keeps the root a `&Tensor`
parameter and orders the stores of the root (through any slice) by its last-op token; it is
refused in a loop (no loop-carried token through a slice) and when the root is also read.
`ct.scatter` / atomics through a slice are refused (values.refuse_write_through_slice).

Not stated: cuTile's dataflow proves divisibility facts on the new base and extent
(`assume div_by<16>`); cutile 0.5.0 propagates none through `offset`, and the port cannot
state them in source for every call (the IR diff reports them as hint or perf findings)."""
from __future__ import annotations

import ast
import inspect

import cuda.tile as ct

from .ops_gather import dynamic_stride
from .tokens import after_write, last_op_token
from .values import ArrayRef, Const, Fail, Lit, Scalar, Tile, Value, root_of, tensor_ref

SLICE_SIGNATURE = inspect.signature(ct.Array.slice)


def slice_args(t, node: ast.Call) -> dict:
    """The call's arguments bound to cuda.tile's own `Array.slice(self, axis, start, stop)`."""
    if any(isinstance(a, ast.Starred) for a in node.args) or \
            any(k.arg is None for k in node.keywords):
        raise Fail(node, ".slice()", "*args / **kwargs are not ported")
    try:
        bound = SLICE_SIGNATURE.bind(None, *node.args, **{k.arg: k.value for k in node.keywords})
    except TypeError as e:
        raise Fail(node, ".slice()", f"arguments do not match Array.slice: {e}") from None
    return dict(bound.arguments)


def static_bound(t, v: Value, node):
    """The integer a constant bound has for this entry, else None (a runtime value)."""
    if isinstance(v.kind, Lit) and type(v.kind.value) is int:
        return v.kind.value
    if isinstance(v.kind, Const):
        return t.static_int(node, node, "a slice bound")
    return None


def bound_scalar(t, v: Value, node, what: str) -> Value:
    """A bound as an i32 scalar (cuTile requires a signed integer 0-d value; the drafter's
    arrays have the int32 index dtype)."""
    kind = v.kind
    if isinstance(kind, (Scalar, Tile)) and (getattr(kind, "shape", ()) != () or
                                              kind.dtype.uniform != "int32"):
        raise Fail(node, ".slice()", f"the {what} `{ast.unparse(node)}` is "
                   f"{kind.dtype.text()}{' of shape ' + str(kind.shape) if getattr(kind, 'shape', ()) else ''}: "
                   "only an int32 0-d bound (the index dtype) is ported")
    return t.index_scalar(v, node, "a slice bound")


def stride_scalar(t, arr: ArrayRef, axis: int, node) -> Value:
    """The stride of `axis` as an i32 scalar: the unit last stride is a constant 1 (cuTile
    makes it at the kernel's top), the others the view's `strides` metadata."""
    i32 = Scalar(t.types.of_name("int32"))
    if axis == arr.rank - 1:
        return t.cached(("unit_stride", arr.name), lambda: t.let_prologue(
            f"{arr.name}_stride{axis}", i32, "1i32"))
    return t.cached(("stride", arr.name, axis), lambda: dynamic_stride(t, arr, axis, node))


def array_slice(t, node: ast.Call, receiver: Value, hint) -> Value:
    arr = receiver.kind
    args = slice_args(t, node)
    if arr.rank == 0:
        raise Fail(node, ".slice()", "a 0-d array has no axis to slice")
    axis = t.static_int(args["axis"], node, "the slice axis")
    if not -arr.rank <= axis < arr.rank:
        raise Fail(node, ".slice()", f"axis {axis} is out of range for rank {arr.rank}")
    axis %= arr.rank
    start_v, stop_v = t.expr(args["start"]), t.expr(args["stop"])
    start_c = static_bound(t, start_v, args["start"])
    stop_c = static_bound(t, stop_v, args["stop"])
    for value, what in ((start_c, "start"), (stop_c, "stop")):
        if value is not None and value < 0:
            raise Fail(node, ".slice()", f"slice {what} must be non-negative (cuTile: {value})")
    if start_c is not None and stop_c is not None and stop_c < start_c:
        raise Fail(node, ".slice()", "slice stop must be greater than or equal to start")
    start = bound_scalar(t, start_v, args["start"], "start")
    stride = stride_scalar(t, arr, axis, node)
    i32 = Scalar(t.types.of_name("int32"))
    name = t.fresh(hint or f"{arr.name}_slice")
    offset = t.let(f"{name}_offset", i32, f"{start.expr} * {stride.expr}")
    offset_u64 = t.let(f"{name}_offset_u64", Tile(t.types.of_name("uint64"), ()),
                       f"exti({t.scalar_tile(offset, node).expr})")
    elem = t.rust_dtype(arr.dtype)
    base = t.let_typed(f"{arr.name}_base", f"PointerTile<*mut {elem}, {{ [] }}>",
                       f"get_tensor_base({tensor_ref(t, arr)})")
    new_base = t.let_typed(f"{name}_base", f"PointerTile<*mut {elem}, {{ [] }}>",
                           f"addptr_tile({base}, {offset_u64.expr})")
    static = ["-1"] * arr.rank
    dims = []
    for d in range(arr.rank):
        if d == axis and start_c is not None and stop_c is not None:
            static[d] = str(stop_c - start_c)
        elif d == axis:
            stop = bound_scalar(t, stop_v, args["stop"], "stop")
            extent = t.let(f"{name}_extent{d}", i32, f"{stop.expr} - {start.expr}")
            # cuTile's view assumes every dynamic extent non-negative (bounded<0, ?>)
            dims.append(t.let(f"{name}_dim{d}", i32,
                              f"unsafe {{ assume_bounds_lower::<_, 0>({extent.expr}) }}").expr)
        else:
            dims.append(t.array_dim(arr, d, None).expr)
    strides = [stride_scalar(t, arr, d, node).expr for d in range(arr.rank - 1)]
    shape_ty = f"{{ [{', '.join(static)}] }}"
    strides_ty = f"{{ [{', '.join(['-1'] * (arr.rank - 1) + ['1'])}] }}"
    # typed lets, no turbofish: cutile's generics pass reads `-1` in a type, not in an
    # expression (where the macro's node ids make it unreadable: generics.rs)
    shape = t.let_typed(f"{name}_shape", f"Shape<{shape_ty}>", f"Shape::<{shape_ty}> {{ dims: &[{', '.join(dims)}] }}")
    stride_array = t.let_typed(f"{name}_strides", f"Array<{strides_ty}>",
                               f"Array::<{strides_ty}> {{ dims: &[{', '.join(strides)}] }}")
    # no type on this let: cutile's type inference reads the view's type from the op (an
    # annotated local Tensor leaves make_partition_view(&local, ..) without a return type)
    t.raw(f"let {name} = unsafe {{ make_tensor_view({new_base}, {shape}, "
          f"{stride_array}, {arr.name}.token()) }};")
    t.state.slice_roots[name] = root_of(t, arr.name)
    return Value(ArrayRef(name, arr.rank, arr.dtype), name)


def refuse_access_after_slice_store(t, arr: ArrayRef, node, what: str) -> None:
    """A load, or a store without a slice, of an array some slice of it was stored through:
    cuTile orders them by the array's tokens, which those accesses do not take here."""
    root = root_of(t, arr.name)
    if t.state.outputs.get(root, {}).get("through_slice") and \
            (what == "ct.load" or arr.name not in t.state.slice_roots):
        raise Fail(node, what, f"a {what} of {root} after a store through a slice of it: "
                   "the drafter does not thread the tokens cuTile orders them by")


def slice_store(t, arr: ArrayRef, tile: Value, index: list[Value], latency, tma,
                node) -> None:
    """`ct.store(view, index, tile)` through a slice: the root output stays a `&Tensor`
    parameter (the view needs its base pointer); the store goes through the slice's own
    partition view, ordered by the root's last-op token (tokens.py), as cuTile orders it."""
    root = root_of(t, arr.name)
    if t.state.loop_stack:       # cuTile carries the array's token through the loop
        raise Fail(node, "ct.store", f"a store through `{arr.name}`, a slice of {root}, in a "
                   "loop: the drafter threads no loop-carried token through a slice")
    if any(root_of(t, n) == root for n in t.state.loaded):
        raise Fail(node, "ct.store", f"{root} is read and written through slices: the drafter "
                   "does not thread the tokens cuTile orders them by")
    if root in t.state.outputs and not t.state.outputs[root].get("through_slice"):
        raise Fail(node, "ct.store", f"{root} is also stored without a slice: the drafter "
                   "orders stores through its slices by a token its other stores do not take")
    out = t.state.outputs.setdefault(root, {"form": "shared", "shape": tile.kind.shape})
    out["through_slice"] = True
    t.state.store_sites.setdefault(root, []).append(False)        # the launch takes the grid
    if not t.state.unchecked:
        t.state.unchecked = True
        t.state.notes.append("unchecked_accesses: a store through a slice goes through the slice's "
                       "full view; the launcher must keep it in range")
    # cuTile orders the stores of one array (through any of its slices) by its last-op
    # token: each store takes it and gives the next one
    root_arr = ArrayRef(root, arr.rank, arr.dtype)
    token = last_op_token(t, root_arr)
    shape = ", ".join(tile.kind.shape)
    part = t.fresh(f"{arr.name}_part")
    t.raw(f"let {part}: PartitionMut<{t.rust_dtype(arr.dtype)}, {{ [{shape}] }}> = unsafe {{ "
          f"make_partition_view_mut(&{arr.name}, shape![{shape}], padding::None, {token}) }};")
    lat = "None" if latency is None else f"Some({int(latency)})"
    t.raw(f"{token} = unsafe {{ store_view_raw(&{part}, {tile.expr}, "
          f"[{', '.join(v.expr for v in index)}], Some({token}), ordering::Weak, scope::TileBlock, "
          f"tma::{'Disabled' if tma is False else 'Enabled'}, {lat}, "
          f"[{', '.join(['false'] * arr.rank)}]) }};")
    after_write(t, root_arr)
