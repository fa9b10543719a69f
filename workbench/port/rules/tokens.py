"""Memory ordering tokens, the way cuTile Python's token_order pass threads them. Every array
has a last-store and a last-op token (both the entry token at first): a load takes the
last-store token and is joined into last-op; a store takes last-op and becomes both. Arrays
only read keep the entry token (their joins are dead code); arrays only written need one
token (`let mut x_token`); arrays both read and written (in place) need both
(last op and last store). Loops carry the `let mut` tokens.

cuTile puts a loop's (and an `if`'s) tokens after the kernel's own carried values, per array in
the order the body first touches the arrays, last op before last store (token_order.py:
append_new_carried_var after the loop's own values). cutile carries a loop's mutated variables
in name order (collect_mutated_variables returns a BTreeSet), so a token's name sorts after
any value's name: `zt<N>_<array>` (N: the order the kernel first touches the array) for the
last op and `zt<N>_<array>_st` for the last store. Tokens nothing waits for are dropped
afterwards (token_dce.py), as cuTile's dead code elimination drops them."""
from __future__ import annotations

import ast

from .values import ArrayRef, Fail, Stmt, Value

READS = {"load", "gather"}
WRITES = {"store", "scatter", "atomic_add", "atomic_max", "atomic_min", "atomic_and",
          "atomic_or", "atomic_xor", "atomic_xchg", "atomic_cas",   # an atomic is a store to cuTile
          # a tiled view's atomics (tiled_view.py rewrites them to these names): relaxed
          "atomic_store_add", "atomic_store_max", "atomic_store_min", "atomic_store_and",
          "atomic_store_or", "atomic_store_xor"}


def inplace_arrays(nodes) -> set[str]:
    """Array names whose tokens the port threads: those the kernel both reads and writes
    (first argument of a memory call) among `nodes` (the kernel's AST nodes, branches folded
    away at compile time left out); every array it accesses when an atomic has a release
    order (cuTile joins every array's last-op token into it) or an acquire order (every
    access after it waits for its token)."""
    reads, writes, ordered = set(), set(), False
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args \
                and isinstance(node.args[0], ast.Name):
            if node.func.attr in READS:
                reads.add(node.args[0].id)
            elif node.func.attr in WRITES:
                writes.add(node.args[0].id)
                ordered |= atomic_order(node) not in (None, "RELAXED")
    return reads | writes if ordered else reads & writes


RELEASE_ORDERS = ("RELEASE", "ACQ_REL")     # ct.MemoryOrder names; ACQ_REL is the default


def atomic_order(call: ast.Call) -> str | None:
    """The ct.MemoryOrder name an ordered atomic call (not a tiled view's atomic_store_*) is
    spelled with: ACQ_REL when none is given, "?" when not spelled as a name (it counts as
    releasing and acquiring: tokens are threaded); None for any other call."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr.startswith("atomic_")
            and not call.func.attr.startswith("atomic_store_")):
        return None
    order = next((k.value for k in call.keywords if k.arg == "memory_order"), None)
    return "ACQ_REL" if order is None else order.attr if isinstance(order, ast.Attribute) else "?"


def declare(t, var: str, start: str, why: str) -> None:
    """`let mut var: Token = start;` before the outermost loop or branch around this
    access (the loop then carries it after the kernel's own values, as cuTile orders its loop
    results), or here when none is."""
    outer = t.state.blocks[t.state.regions[0]] if t.state.regions else t.state.blocks[-1]
    outer.append(Stmt("raw", text=f"let mut {var}: Token = {start};  // {why}", pure=False))


def token_prefix(t, arr: ArrayRef) -> str:
    """`zt<N>`: N orders the kernel's arrays by their first token (two digits, so that
    names sort as numbers do)."""
    order = t.state.token_order.setdefault(arr.name, len(t.state.token_order))
    return f"zt{order:02d}"


def last_op_token(t, arr: ArrayRef) -> str:
    """The `let mut` token a write to `arr` takes and replaces."""
    if arr.name not in t.state.token_vars:
        t.state.token_vars[arr.name] = t.fresh(f"{token_prefix(t, arr)}_{arr.name}")
        declare(t, t.state.token_vars[arr.name], f"{arr.name}.token()",
                "ordered as cuTile orders its writes")
    return t.state.token_vars[arr.name]


def last_store_token(t, arr: ArrayRef) -> str:
    """The token a read of `arr` takes: its last store's (in place), else the array's own."""
    if arr.name in t.state.inplace:
        last_op_token(t, arr)
        if arr.name not in t.state.stored_vars:
            t.state.stored_vars[arr.name] = t.fresh(f"{token_prefix(t, arr)}_{arr.name}_st")
            declare(t, t.state.stored_vars[arr.name], f"{arr.name}.token()",
                    "its last store, which reads wait for")
        return t.state.stored_vars[arr.name]
    return t.cached(("token", arr.name),
                    lambda: Value(arr, t.let_typed(f"{arr.name}_token", "Token",
                                                   f"{arr.name}.token()", pure=False))).expr


def after_read(t, arr: ArrayRef, token: str) -> None:
    """A read of an in-place array joins its token into the array's last-op token."""
    if arr.name in t.state.inplace:
        last = last_op_token(t, arr)
        t.raw(f"{last} = join_tokens(&[{last}, {token}]);")


def after_write(t, arr: ArrayRef) -> None:
    """A write is the array's last store too."""
    if arr.name in t.state.inplace:
        last_store_token(t, arr)
        t.raw(f"{t.state.stored_vars[arr.name]} = {t.state.token_vars[arr.name]};")


ACQUIRE = "(acquire)"        # token_vars' key of a carried acquire token (no array's name)


def refuse_after_acquire(t, name: str, node) -> None:
    """After an acquiring atomic, cuTile makes every access wait for its token: the drafter
    threads it into the accesses of threaded arrays (every array the kernel names, once an
    atomic acquires: inplace_arrays); an array it does not thread is refused."""
    acquired = t.state.acquired
    arg = node.args[0] if node.args else None
    if isinstance(arg, ast.Name) and arg.id not in t.state.inplace:
        raise Fail(node, f"ct.{name}", f"an access to {arg.id}, whose tokens are not threaded, "
                   f"after the acquiring atomic of line {acquired['line']}: cuTile makes it "
                   "wait for the atomic's token, which the drafter does not thread there; port "
                   "it by hand, or give that atomic memory_order=ct.MemoryOrder.RELAXED or "
                   "RELEASE")


def carry_acquire(t, nodes, line: int, entry: str) -> str:
    """The `let mut` acquire token a loop or branch carries, declared before the outermost
    one: cuTile carries its acquire token through a loop whose body has an acquiring
    atomic (token_order.py's ACQUIRE_TOKEN_KEY: every access of the body, the ones before the
    atomic too, waits for the previous trip's), after the tokens of the arrays the body
    touches; the atomic sets it. It starts as the last acquire's token, or the entry token.
    `nodes`: the region's AST nodes, whose arrays are ordered before it; `entry`: an array
    whose token is the entry token."""
    if ACQUIRE not in t.state.token_vars:
        arrays = [n.args[0].id for n in nodes if isinstance(n, ast.Call)
                  and isinstance(n.func, ast.Attribute) and n.func.attr in READS | WRITES
                  and n.args and isinstance(n.args[0], ast.Name)]
        for name in arrays:
            t.state.token_order.setdefault(name, len(t.state.token_order))
        order = t.state.token_order.setdefault(ACQUIRE, len(t.state.token_order))
        var = t.state.token_vars[ACQUIRE] = t.fresh(f"zt{order:02d}_acquire")
        start = t.state.acquired["token"] if t.state.acquired else f"{entry}.token()"
        declare(t, var, start, "the last acquiring atomic's token, which later accesses wait for")
    t.state.acquired = {"line": line, "token": t.state.token_vars[ACQUIRE]}
    return t.state.token_vars[ACQUIRE]


def carry_acquire_through(t, nodes) -> None:
    """Before a loop: its acquire token, when its body has an acquiring atomic."""
    nodes = list(nodes)
    atomic = next((n for n in nodes if isinstance(n, ast.Call)
                   and atomic_order(n) not in (None, "RELAXED", "RELEASE")), None)
    if atomic is not None and atomic.args and isinstance(atomic.args[0], ast.Name):
        carry_acquire(t, nodes, atomic.lineno, atomic.args[0].id)


def wait_for_acquire(t, token: str) -> str:
    """`token` joined with the last acquiring atomic's, as cuTile joins its acquire token
    into every later access's (token_order._collect_join_tokens: own token first)."""
    acquired = t.state.acquired
    if acquired is None or token == acquired["token"]:
        return token
    joined = t.fresh("after_acquire")
    t.raw(f"let {joined}: Token = join_tokens(&[{token}, {acquired['token']}]);")
    return joined
