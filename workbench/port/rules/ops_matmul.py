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
    if not all(isinstance(v.kind, Tile) and len(v.kind.shape) == 2 for v in (a, b) + ((c,) if c else ())):
        raise Fail(node, "ct.mma", "the operands must be 2-D tiles (batched mma is not ported)")
    (m, k), (k2, n) = a.kind.shape, b.kind.shape
    if k != k2 or (c is not None and tuple(c.kind.shape) != (m, n)):
        shown = f" + ({', '.join(c.kind.shape)})" if c is not None else ""
        raise Fail(node, "ct.mma", f"shapes ({m}, {k}) x ({k2}, {n}){shown} do not match")
    if a.kind.dtype != b.kind.dtype:
        raise Fail(node, "ct.mma", "a and b have different dtypes")


@FAMILY.rule("mma")
def mma(t, node, hint):
    args = t.bind_args("mma", node)
    if "use_fast_acc" in args and t.static_bool(args["use_fast_acc"], "use_fast_acc"):
        raise Fail(node, "ct.mma(use_fast_acc=True)", "fast accumulation (cutile "
                   "mmaf_with_fast_acc) is not drafted")
    a, b, c = (t.expr(args[k]) for k in ("x", "y", "acc"))
    check_mma(node, a, b, c)
    return t.let(hint or "mma", c.kind, f"mma({a.expr}, {b.expr}, {c.expr})")


@FAMILY.rule("matmul")
def matmul(t, node, hint):
    args = t.bind_args("matmul", node)
    a, b = t.expr(args["x"]), t.expr(args["y"])
    check_mma(node, a, b)
    acc_dt = mma_accumulator(a.kind.dtype)
    shape = (a.kind.shape[0], b.kind.shape[1])
    zero = t.types.literal(0, acc_dt, node)
    acc = t.let("acc", Tile(acc_dt, shape), f"constant({zero}, shape![{shape_text(shape)}])")
    product = t.let("mma" if acc_dt != a.kind.dtype else hint or "matmul", Tile(acc_dt, shape),
                    f"mma({a.expr}, {b.expr}, {acc.expr})")
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
