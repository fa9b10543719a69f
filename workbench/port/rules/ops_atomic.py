"""`ct.atomic_add` / `_max` / `_min` / `_and` / `_or` / `_xor` / `_xchg`: a read-modify-write
at `array[indices]`, lowered as cuTile Python lowers it (its atomic_rmw_impl): the pointer tile
and bounds mask of a scatter (ops_gather.pointer_and_mask), the update broadcast to the index
shape and cast to the array's dtype (implicitly; bitwise modes need the same dtype), the mode
chosen by the array's dtype (float `addf`, signed `max`/`min`, unsigned `umax`/`umin`), then
`atomic_rmw_tko` with the call's memory order and scope. It returns the old values.
`ct.atomic_cas` is lowered the same way to `atomic_cas_tko`, its expected and desired values
cast and broadcast as an update is (cuTile's _atomic_cas_core), on 32/64-bit arrays.

Tokens (cuTile's token_order.py): an atomic is ordered as a store of its array (it takes the
array's last-op token and becomes its last op and last store). A release order (ACQ_REL, the
default, or RELEASE) takes that token joined with every other array's last-op token, in the
order the kernel first touched them (every array's tokens are threaded then: tokens.py
inplace_arrays). An acquire order (ACQ_REL, ACQUIRE) makes every later access wait for the
atomic: every array's tokens are threaded then, and each access after it takes its own
token joined with the atomic's (tokens.wait_for_acquire). Inside a loop or branch the acquire
token is a `let mut` the region carries (tokens.carry_acquire: a spin lock's
`while ct.atomic_cas(lock, 0, 1) == 1` retries it at every trip)."""
from __future__ import annotations

import cuda.tile as ct

from .dtypes import DT, is_float, is_signed
from .ops_gather import implicit_cast, pointer_and_mask
from .registry import Family
from .tokens import (ACQUIRE, RELEASE_ORDERS, after_write, carry_acquire, last_op_token,
                     wait_for_acquire)
from .values import Fail, Scalar, Tile, Value, refuse_write_through_slice

FAMILY = Family("atomic")

INT_32_64 = ("int32", "int64", "uint32", "uint64")
# op -> (Rust mode for signed ints, unsigned ints, floats (None: not allowed), bitwise,
#        the array dtypes cuTile takes)
MODES = {
    "add": ("atomic::Add", "atomic::Add", "atomic::AddF", False,
            INT_32_64 + ("float32", "float64", "float16", "bfloat16")),
    "max": ("atomic::Max", "atomic::Umax", None, False, INT_32_64),
    "min": ("atomic::Min", "atomic::Umin", None, False, INT_32_64),
    "and": ("atomic::And", "atomic::And", None, True, INT_32_64),
    "or": ("atomic::Or", "atomic::Or", None, True, INT_32_64),
    "xor": ("atomic::Xor", "atomic::Xor", None, True, INT_32_64),
    "xchg": ("atomic::Xchg", "atomic::Xchg", "atomic::Xchg", False,
             INT_32_64 + ("float32", "float64")),
}
SCOPES = {ct.MemoryScope.BLOCK: "scope::TileBlock", ct.MemoryScope.DEVICE: "scope::Device",
          ct.MemoryScope.SYS: "scope::System"}


def mode_of(op: str, dtype: DT, node) -> str:
    """The Rust atomic mode for `op` on arrays of `dtype` (one mode in every case)."""
    signed_mode, unsigned_mode, float_mode, _, allowed = MODES[op]
    bad = sorted({n for n in dtype.names if n not in allowed})
    if bad:
        raise Fail(node, f"ct.atomic_{op}", f"cuTile's atomic_{op} takes arrays of "
                   f"{', '.join(allowed)}, not {', '.join(bad)}")
    modes = {float_mode if is_float(n) else signed_mode if is_signed(n) else unsigned_mode
             for n in dtype.names}
    if len(modes) != 1:
        raise Fail(node, f"ct.atomic_{op}", f"the array is {dtype.text()} over the cases, "
                   "which takes different atomic modes; one entry per mode is not drafted")
    return modes.pop()


ORDERS = {ct.MemoryOrder.RELAXED: "ordering::Relaxed", ct.MemoryOrder.ACQUIRE: "ordering::Acquire",
          ct.MemoryOrder.RELEASE: "ordering::Release", ct.MemoryOrder.ACQ_REL: "ordering::AcqRel"}
RELEASES = tuple(getattr(ct.MemoryOrder, name) for name in RELEASE_ORDERS)
ACQUIRES = (ct.MemoryOrder.ACQUIRE, ct.MemoryOrder.ACQ_REL)


def order_of(t, args, op: str, node):
    order = t.static_value(args["memory_order"], "memory_order") \
        if "memory_order" in args else ct.MemoryOrder.ACQ_REL
    if order not in ORDERS:
        raise Fail(node, f"ct.atomic_{op}(memory_order={order.name})",
                   "cuTile takes an atomic's order as RELAXED, ACQUIRE, RELEASE or ACQ_REL")
    return order


def input_token(t, arr, order) -> str:
    """The token the atomic takes: its array's last-op token, joined (release) with every
    other array's in first-touch order. Only this array's can still be the entry token (an
    array touched before has joined or replaced its own), so no token repeats."""
    own = last_op_token(t, arr)
    others = [t.state.token_vars[n] for n in t.state.token_order if n != arr.name and n in t.state.token_vars]
    if order not in RELEASES or not others:
        return wait_for_acquire(t, own)
    joined = t.fresh(f"{arr.name}_release")
    t.raw(f"let {joined}: Token = join_tokens(&[{', '.join([own] + others)}]);")
    return joined


def scope_of(t, args, op: str, node) -> str:
    scope = t.static_value(args["memory_scope"], "memory_scope") \
        if "memory_scope" in args else ct.MemoryScope.DEVICE
    if scope not in SCOPES:
        raise Fail(node, f"ct.atomic_{op}(memory_scope={scope.name})",
                   "cuTile takes an atomic's scope as BLOCK, DEVICE or SYS")
    return SCOPES[scope]


def update_of(t, value: Value, arr, shape, op: str, node) -> Value:
    """The update as cuTile casts it: to the array's dtype (implicitly), except that a bitwise
    atomic needs the array's dtype already."""
    if isinstance(value.kind, (Tile, Scalar)) and value.kind.dtype != arr.dtype:
        if MODES[op][3]:
            raise Fail(node, f"ct.atomic_{op}", f"a bitwise atomic's update must be "
                       f"{arr.dtype.text()} (the array's dtype), not {value.kind.dtype.text()}")
        implicit_cast(t, value.kind.dtype, arr.dtype, node, f"ct.atomic_{op}")
    return t.as_tile(value, arr.dtype, shape, node)


def atomic_rmw(op: str):
    def rule(t, node, hint):
        args, arr, how = bind_atomic(t, node, op, lambda arr: mode_of(op, arr.dtype, node))
        indices = t.expr(args["indices"])
        update = t.expr(args["update"])
        ptrs, mask, shape = pointer_and_mask(t, arr, indices, how["check"], None, node)
        update = update_of(t, update, arr, shape, op, node)
        return emit_atomic(t, node, hint, (arr, ptrs, mask, shape), how,
                           ("atomic_rmw_tko", f"{update.expr}, {how['mode']}"))
    return rule


for _op in MODES:
    FAMILY.rule(f"atomic_{_op}")(atomic_rmw(_op))

CAS_DTYPES = INT_32_64 + ("float32", "float64")


@FAMILY.rule("atomic_cas")
def atomic_cas(t, node, hint):
    args, arr, how = bind_atomic(t, node, "cas", lambda arr: cas_dtype(arr, node))
    indices = t.expr(args["indices"])
    expected, desired = t.expr(args["expected"]), t.expr(args["desired"])
    ptrs, mask, shape = pointer_and_mask(t, arr, indices, how["check"], None, node)
    expected = cas_operand(t, expected, arr, shape, node)
    desired = cas_operand(t, desired, arr, shape, node)
    return emit_atomic(t, node, hint, (arr, ptrs, mask, shape), how,
                       ("atomic_cas_tko", f"{expected.expr}, {desired.expr}"))


def bind_atomic(t, node, op: str, check_dtype):
    """The call's arguments, its array (`check_dtype(arr)` refuses one cuTile's atomic does
    not take, else returns what the atomic needs of the dtype: rmw's mode), and how: order,
    scope, check_bounds and the atomic mode (rmw's; None for a compare-and-swap)."""
    args = t.bind_args(f"atomic_{op}", node)
    arr = t.array_arg(args["array"], f"ct.atomic_{op}")
    refuse_write_through_slice(t, arr, node, f"ct.atomic_{op}")
    mode = check_dtype(arr)
    how = {"order": order_of(t, args, op, node), "scope": scope_of(t, args, op, node),
           "check": t.static_bool(args.get("check_bounds"), "check_bounds", True),
           "mode": mode}
    return args, arr, how


def emit_atomic(t, node, hint, target, how, call) -> Value:
    """The atomic's statement, `fn(pointers, operands, order, scope, mask, token)` for
    `call` = (fn, operands): its array's last op becomes the atomic, and an acquiring one makes
    the accesses after it wait for its token. It returns the old values."""
    (arr, ptrs, mask, shape), (fn, operands) = target, call
    carried = None
    if how["order"] in ACQUIRES and (t.state.regions or ACQUIRE in t.state.token_vars):
        carried = carry_acquire(t, [node], node.lineno, arr.name)
    token = input_token(t, arr, how["order"])
    mask_text = f"Some({mask.expr})" if mask is not None else "None"
    name = t.fresh(hint or f"{arr.name}_old")
    done = t.fresh(f"{arr.name}_{fn.split('_')[1]}_token")
    kind = Tile(arr.dtype, shape)
    stmt = t.raw(f"let ({name}, {done}): ({t.ty(kind)}, Token) = unsafe {{\n"
                 f"    {fn}({ptrs}, {operands}, {ORDERS[how['order']]}, {how['scope']}, "
                 f"{mask_text}, Some({token}))\n}};\n"
                 f"{last_op_token(t, arr)} = {done};")
    after_write(t, arr)
    t.state.scattered.add(arr.name)
    if carried is not None:
        t.raw(f"{carried} = {done};")
    elif how["order"] in ACQUIRES:
        t.state.acquired = {"line": node.lineno, "token": done}
    return Value(kind, name, stmt=stmt)


def cas_dtype(arr, node) -> None:
    bad = sorted({n for n in arr.dtype.names if n not in CAS_DTYPES})
    if bad:
        raise Fail(node, "ct.atomic_cas", f"cuTile's atomic_cas takes arrays of "
                   f"{', '.join(CAS_DTYPES)}, not {', '.join(bad)}")


def cas_operand(t, value: Value, arr, shape, node) -> Value:
    """An expected or desired value as cuTile takes it: cast to the array's dtype
    (implicitly) and broadcast to the indices' shape."""
    if isinstance(value.kind, (Tile, Scalar)) and value.kind.dtype != arr.dtype:
        implicit_cast(t, value.kind.dtype, arr.dtype, node, "ct.atomic_cas")
    return t.as_tile(value, arr.dtype, shape, node)
