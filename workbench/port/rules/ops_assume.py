"""`ct.assume_divisible_by(x, D)`: the kernel's own promise that an integer scalar divides by
D, lowered as cuTile Python lowers it (ops.py assume_div_by): nothing for D = 1 or for a value
known at compile time (whose divisibility cuTile checks instead), else `assume div_by<D>` on
the value, which cutile writes as `assume_div_by::<_, D>`."""
from __future__ import annotations

from .registry import Family
from .values import Const, Fail, Lit, Scalar, Tile, Value

FAMILY = Family("assume")


@FAMILY.rule("assume_divisible_by")
def assume_divisible_by(t, node, hint):
    args = t.bind_args("assume_divisible_by", node)
    x = t.expr(args["x"])
    divisor = t.static_int(args["divisor"], node, "divisor")
    if divisor < 1:
        raise Fail(node, "ct.assume_divisible_by", f"the divisor must be positive, not {divisor}")
    if isinstance(x.kind, (Lit, Const)):
        value = t.static_value(x, "x")
        if not isinstance(value, int) or isinstance(value, bool) or value % divisor:
            raise Fail(node, "ct.assume_divisible_by", f"{value!r} is not an integer divisible "
                       f"by {divisor}: the assumption contradicts a known constant")
        return x
    scalar = isinstance(x.kind, Scalar) or (isinstance(x.kind, Tile) and not x.kind.shape)
    if not scalar or not x.kind.dtype.integral:
        raise Fail(node, "ct.assume_divisible_by", "cuTile assumes divisibility of an integer "
                   "scalar only")
    if divisor == 1:
        return x
    return t.let(hint or "divisible", x.kind, f"unsafe {{ assume_div_by::<_, {divisor}>({x.expr}) }}")
