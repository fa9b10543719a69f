"""Matrix multiply-accumulate: `ct.mma(a, b, acc)` (mixed accumulators: f16 x f16 + f32, tf32
operands after ct.astype), `ct.matmul(a, b)` / `a @ b` (cuTile's matmul_impl: mma into a zero
accumulator of the operands' first supported accumulator dtype, f32 for bf16 / tf32 / f32,
then the result converted back to the operands' dtype)."""
from __future__ import annotations

from cuda.tile import _datatype as cdt

from .dtypes import DT, cutile_dtype
from .registry import Family
from .values import Fail, Tile, shape_text

FAMILY = Family("matmul")


def check_mma(node, a, b, c=None):
    tiles = (a, b) + ((c,) if c else ())
    ranks = {len(v.kind.shape) for v in tiles if isinstance(v.kind, Tile)}
    if not all(isinstance(v.kind, Tile) for v in tiles) or ranks not in ({2}, {3}):
        raise Fail(node, "ct.mma", "the operands must be tiles of one rank, 2 (a product) or 3 "
                   "(a batch of products)")
    *batch, m, k = a.kind.shape
    *batch2, k2, n = b.kind.shape
    if k != k2 or batch != batch2 or (c is not None and tuple(c.kind.shape) != (*batch, m, n)):
        shown = f" + ({', '.join(c.kind.shape)})" if c is not None else ""
        raise Fail(node, "ct.mma", f"shapes ({', '.join(a.kind.shape)}) x "
                   f"({', '.join(b.kind.shape)}){shown} do not match")
    if a.kind.dtype != b.kind.dtype:
        raise Fail(node, "ct.mma", "a and b have different dtypes")
    if batch and not a.kind.dtype.floating:
        raise Fail(node, "ct.mma", "a batch of integer products (cutile's mmai with its "
                   "signedness) is not drafted: port it by hand")


def mma_call(a) -> str:
    """cutile's `mma` is 2-D; a batch of products is its Tile IR op itself, `mmaf` (the op
    the 2-D one writes too)."""
    return "mma" if len(a.kind.shape) == 2 else "mmaf"


@FAMILY.rule("mma")
def mma(t, node, hint):
    args = t.bind_args("mma", node)
    if "use_fast_acc" in args and t.static_bool(args["use_fast_acc"], "use_fast_acc"):
        raise Fail(node, "ct.mma(use_fast_acc=True)", "fast accumulation (cutile "
                   "mmaf_with_fast_acc) is not drafted")
    a, b, c = (t.expr(args[k]) for k in ("x", "y", "acc"))
    check_mma(node, a, b, c)
    return t.let(hint or "mma", c.kind, f"{mma_call(a)}({a.expr}, {b.expr}, {c.expr})")


@FAMILY.rule("matmul")
def matmul(t, node, hint):
    args = t.bind_args("matmul", node)
    a, b = t.expr(args["x"]), t.expr(args["y"])
    check_mma(node, a, b)
    acc_dt = mma_accumulator(a.kind.dtype)
    shape = (*a.kind.shape[:-1], b.kind.shape[-1])
    zero = t.types.literal(0, acc_dt, node)
    acc = t.let("acc", Tile(acc_dt, shape), f"constant({zero}, shape![{shape_text(shape)}])")
    product = t.let("mma" if acc_dt != a.kind.dtype else hint or "matmul", Tile(acc_dt, shape),
                    f"{mma_call(a)}({a.expr}, {b.expr}, {acc.expr})")
    return t.convert(product, a.kind.dtype, node, hint=hint)


def mma_accumulator(dt: DT) -> DT:
    """cuTile's accumulator of ct.matmul for operands of `dt`, in every dtype combination
    (cuda.tile._datatype._resolve_mma_supported_dtype with no accumulator given)."""
    def acc(name: str) -> str:
        x = cutile_dtype(name)
        return cdt._resolve_mma_supported_dtype(x, x, None).name
    return DT(tuple(acc(n) for n in dt.names))


FAMILY.refuse("mma_scaled", "block-scaled mma (cutile mmaf_scaled) takes packed scale tiles; "
              "not drafted")
