"""Reductions and scans: `ct.sum`, `ct.max`, `ct.min`, `ct.prod` over one axis, a tuple of
axes or every axis (axis=None; cuTile reduces one axis after another; keepdims -> a reshape
that keeps the axes as 1), `ct.cumsum` (`scan_sum`, forward or reverse)."""
from __future__ import annotations

from .registry import Family
from .values import Fail, Scalar, Tile, shape_text

FAMILY = Family("reduce")

REDUCE = {"sum": "reduce_sum", "max": "reduce_max", "min": "reduce_min", "prod": "reduce_prod"}


def reduction(t, node, hint, fname):
    args = t.bind_args(fname, node)
    x = t.expr(args["x"])
    for flag in ("flush_to_zero", "propagate_nan"):
        if t.static_bool(args.get(flag), flag, False):
            raise Fail(node, f"ct.{fname}({flag}=True)", f"cutile 0.5.0's {REDUCE[fname]} takes "
                       f"no {flag} (its reduce region is the plain op)")
    if "rounding_mode" in args and t.static_value(args["rounding_mode"], "rounding_mode") is not None:
        raise Fail(node, f"ct.{fname}(rounding_mode=..)", f"cutile 0.5.0's {REDUCE[fname]} "
                   "takes no rounding mode")
    if isinstance(x.kind, Scalar):
        x = t.scalar_tile(x, node)
    if not isinstance(x.kind, Tile) or not x.kind.shape:
        raise Fail(node, f"ct.{fname}", "the argument must be a tile of rank >= 1")
    axes = reduced_axes(node, fname, t.static_value(args["axis"], "axis")
                        if "axis" in args else None, len(x.kind.shape))
    keepdims = t.static_bool(args.get("keepdims"), "keepdims", False)
    kept = tuple("1" if i in axes else d for i, d in enumerate(x.kind.shape))
    r = x
    for i, ax in enumerate(axes):       # cuTile: one reduce per axis, the lowest first
        shape = tuple(d for j, d in enumerate(r.kind.shape) if j != ax - i)
        last = i == len(axes) - 1
        name = (f"{hint}_red" if (hint and keepdims) else (hint or f"{fname}_red")) if last \
            else f"{fname}_part"
        r = t.let(name, Tile(x.kind.dtype, shape), f"{REDUCE[fname]}({r.expr}, {ax - i}i32)")
    if keepdims:
        r = t.let(hint or fname, Tile(x.kind.dtype, kept),
                  f"{r.expr}.reshape(shape![{shape_text(kept)}])")
    elif any(not d.isdigit() for d in r.kind.shape):
        # cutile types a reduction's result with numbers ({[64]}); an identity convert_tile
        # (no op) gives it the constants' names, so binary ops with other tiles compile
        r = t.let(f"{r.expr}_t", r.kind, f"convert_tile({r.expr})")
    return r


def reduced_axes(node, fname: str, axis, rank: int) -> list[int]:
    """cuTile's reduction axes: every axis for None, one int or a tuple of ints, sorted."""
    if axis is None:
        return list(range(rank))
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in items):
        raise Fail(node, f"ct.{fname}", "the axis must be an integer or a tuple of integers")
    axes = sorted(a % rank for a in items)
    if len(set(axes)) != len(axes):
        raise Fail(node, f"ct.{fname}", f"repeated reduction axis in {axis}")
    return axes


def make_reduction(name):
    def rule(t, node, hint):
        return reduction(t, node, hint, name)
    rule.__name__ = name
    return rule


for _name in REDUCE:
    FAMILY.rule(_name)(make_reduction(_name))


@FAMILY.rule("cumsum")
def cumsum(t, node, hint):
    args = t.bind_args("cumsum", node)
    x = t.expr(args["x"])
    if not isinstance(x.kind, Tile) or not x.kind.shape:
        raise Fail(node, "ct.cumsum", "the argument must be a tile of rank >= 1")
    for flag in ("rounding_mode", "flush_to_zero"):
        if flag in args and t.static_value(args[flag], flag) not in (None, False):
            raise Fail(node, f"ct.cumsum({flag}=..)", "cutile 0.5.0's scan_sum takes no "
                                                      f"{flag}")
    axis = t.static_int(args["axis"], node, "the axis") if "axis" in args else 0
    reverse = t.static_bool(args.get("reverse"), "reverse", False)
    identity = t.types.literal(0, x.kind.dtype, node)
    ax = axis % len(x.kind.shape)
    if ax != 0:
        raise Fail(node, "ct.cumsum", f"axis {axis} of a rank-{len(x.kind.shape)} tile: cutile "
                   "0.5.0's scan_sum (and scan) write dim = 0 whatever the argument "
                   "(cutile-compiler compile_cuda_tile_op.rs); only axis 0 is ported")
    return t.let(hint or "cumsum", x.kind, f"scan_sum({x.expr}, {ax}i32, "
                 f"reverse::{'Reverse' if reverse else 'Forward'}, {identity})")


FAMILY.refuse("argmax", "cutile 0.5.0 has no argmax (reduce takes one operand; no index "
              "reduction)")
FAMILY.refuse("argmin", "cutile 0.5.0 has no argmin (reduce takes one operand; no index "
              "reduction)")
FAMILY.refuse("cumprod", "cutile 0.5.0's scan with a closure writes the identity 0 whatever "
              "its argument (compile_cuda_tile_op.rs: identities = [0]), so a product scan "
              "cannot be written with the identity 1 cuTile uses")
FAMILY.refuse("reduce", "a user reduction function would become a Rust closure region "
              "(cutile reduce(x, dim, identity, f)), not drafted; and cutile 0.5.0 writes that "
              "reduce's identity as 0 whatever its argument (compile_cuda_tile_op.rs)")
FAMILY.refuse("scan", "a user scan function would become a Rust closure region "
              "(cutile scan(x, dim, reverse, identity, f)), not drafted; and cutile 0.5.0 "
              "writes that scan's identity as 0 whatever its argument (compile_cuda_tile_op.rs)")
