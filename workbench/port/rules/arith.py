"""Python operators on tiles and scalars: unary `-`, `+ - * /` (with `a * b + c` fused into
`fma`, as cuTile Python's compiler fuses it), and comparisons."""
from __future__ import annotations

import ast

from .values import Fail, Lit, Scalar, Tile, Value, literal

COMPARE = {ast.Lt: "lt_tile", ast.LtE: "le_tile", ast.Gt: "gt_tile", ast.GtE: "ge_tile",
           ast.Eq: "eq_tile", ast.NotEq: "ne_tile"}
RUST_BINOP = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


class Arithmetic:
    """Mixed into the Translator: `self` has expr, let, operands."""

    def unary(self, node, hint) -> Value:
        v = self.expr(node.operand)
        if isinstance(node.op, ast.USub):
            if isinstance(v.kind, Lit):
                return Value(Lit(-v.kind.value))
            if isinstance(v.kind, Scalar):
                return self.let(hint or "neg", v.kind, f"-{v.expr}")
            if isinstance(v.kind, Tile) and v.kind.dtype in ("E", "f32"):
                return self.let(hint or "neg", v.kind, f"negf({v.expr})")
        if isinstance(node.op, ast.UAdd):
            return v
        raise Fail(node, type(node.op).__name__, f"`{ast.unparse(node)}` is not ported")

    def binop(self, node, hint) -> Value:
        op = type(node.op)
        if op not in RUST_BINOP:
            raise Fail(node, type(node.op).__name__,
                       f"operator in `{ast.unparse(node)}` is not ported")
        # a * b + c  ->  fma
        if op is ast.Add:
            for prod, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(prod, ast.BinOp) and isinstance(prod.op, ast.Mult):
                    fused = self.try_fma(node, prod, other, hint)
                    if fused is not None:
                        return fused
        left = self.expr(node.left)
        right = self.expr(node.right)
        return self.apply_binop(node, op, left, right, hint)

    def apply_binop(self, node, op, left, right, hint):
        sym = RUST_BINOP[op]
        kinds = (type(left.kind), type(right.kind))
        if all(k in (Lit,) for k in kinds):
            a, b = left.kind.value, right.kind.value
            value = {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(op)
            if value is None:
                raise Fail(node, "/", "division of two literals is not ported")
            return Value(Lit(value))
        if all(k in (Lit, Scalar) for k in kinds):
            dtypes = {v.kind.dtype for v in (left, right) if isinstance(v.kind, Scalar)}
            if len(dtypes) != 1:
                raise Fail(node, sym, "scalars of mixed dtypes")
            dtype = dtypes.pop()
            if op is ast.Div and dtype == "i32":
                raise Fail(node, "/", "`/` of integers is a float division in Python; not ported")
            texts = [v.expr if isinstance(v.kind, Scalar) else literal(v.kind.value, dtype, node)
                     for v in (left, right)]
            return self.let(hint or "s", Scalar(dtype), f"{texts[0]} {sym} {texts[1]}")
        (a, b), dtype, shape = self.operands([left, right], [node.left, node.right], sym)
        if op is ast.Div and dtype not in ("E", "f32"):
            raise Fail(node, "/", "division of integer tiles is not ported")
        if dtype == "bool":
            raise Fail(node, sym, "arithmetic on bool tiles")
        name = {ast.Add: "sum", ast.Sub: "diff", ast.Mult: "prod", ast.Div: "quot"}[op]
        return self.let(hint or name, Tile(dtype, shape), f"{a.expr} {sym} {b.expr}")

    def try_fma(self, node, prod, other, hint) -> Value | None:
        a = self.expr(prod.left)
        b = self.expr(prod.right)
        if not (isinstance(a.kind, Tile) or isinstance(b.kind, Tile)):
            # a scalar product: no fusion; continue as a plain add
            ab = self.apply_binop(prod, ast.Mult, a, b, None)
            c = self.expr(other)
            return self.apply_binop(node, ast.Add, ab, c, hint) if prod is node.left else \
                self.apply_binop(node, ast.Add, c, ab, hint)
        c = self.expr(other)
        (ta, tb, tc), dtype, shape = self.operands([a, b, c], [prod.left, prod.right, other],
                                                   "fma")
        if dtype not in ("E", "f32"):
            ab = self.let("prod", Tile(dtype, shape), f"{ta.expr} * {tb.expr}")
            return self.let(hint or "sum", Tile(dtype, shape), f"{ab.expr} + {tc.expr}")
        return self.let(hint or "fma", Tile(dtype, shape),
                        f"fma({ta.expr}, {tb.expr}, {tc.expr}, rounding::NearestEven, "
                        "ftz::Disabled)")

    def compare(self, node, hint) -> Value:
        if len(node.ops) != 1 or type(node.ops[0]) not in COMPARE:
            raise Fail(node, "comparison", f"`{ast.unparse(node)}` is not ported")
        left = self.expr(node.left)
        right = self.expr(node.comparators[0])
        if not (isinstance(left.kind, Tile) or isinstance(right.kind, Tile)):
            raise Fail(node, "comparison", "a scalar comparison (only tile comparisons)")
        (a, b), dtype, shape = self.operands([left, right], [node.left, node.comparators[0]],
                                             "comparison")
        return self.let(hint or "mask", Tile("bool", shape),
                        f"{COMPARE[type(node.ops[0])]}({a.expr}, {b.expr})")
