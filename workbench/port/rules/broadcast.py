"""Python's implicit broadcasting made explicit: tiles are reshaped (leading 1s) and
broadcast, scalars and literals become `scalar_to_tile` (+ `convert_tile`) tiles built after
the other operands, as cuTile Python builds them."""
from __future__ import annotations

import ast

from .values import Fail, Lit, Scalar, Tile, Value, broadcast_shape, literal, shape_text


class Broadcasting:
    """Mixed into the Translator: `self` has let."""

    def as_tile(self, v: Value, dtype: str, shape: tuple, node) -> Value:
        if isinstance(v.kind, Tile):
            return self.fit(v, shape, node)
        if isinstance(v.kind, Lit):
            text = literal(v.kind.value, dtype, node)
            # cutile takes f32::INFINITY & co only as a DSL operand such as constant()
            expr = f"constant({text}, shape![])" if "::" in text else f"scalar_to_tile({text})"
            t = self.let("lit", Tile(dtype, ()), expr)
        elif isinstance(v.kind, Scalar):
            t = self.let(f"{v.expr}_t" if v.expr.isidentifier() else "scalar",
                         Tile(v.kind.dtype, ()), f"scalar_to_tile({v.expr})")
            if v.kind.dtype != dtype:
                if dtype == "E" or dtype == "bool" or v.kind.dtype == "bool":
                    raise Fail(node, "implicit conversion",
                               f"a {v.kind.dtype} scalar mixed with a {dtype} tile: the "
                               "promotion is not ported; convert explicitly")
                t = self.let(f"{t.expr}_{dtype}", Tile(dtype, ()), f"convert_tile({t.expr})")
        else:
            raise Fail(node, "operand", f"`{ast.unparse(node)}` is not a tile or scalar")
        return self.fit(t, shape, node)

    def fit(self, v: Value, shape: tuple, node) -> Value:
        src = v.kind.shape
        if tuple(src) == tuple(shape):
            return v
        if len(src) > len(shape):
            raise Fail(node, "broadcast", f"cannot broadcast ({shape_text(src)}) to "
                                          f"({shape_text(shape)})")
        padded = ("1",) * (len(shape) - len(src)) + tuple(src)
        for a, b in zip(padded, shape):
            if a != b and a != "1":
                raise Fail(node, "broadcast", f"cannot broadcast ({shape_text(src)}) to "
                                              f"({shape_text(shape)})")
        if padded != tuple(src):
            v = self.let(f"{v.expr}_r", Tile(v.kind.dtype, padded),
                         f"{v.expr}.reshape(shape![{shape_text(padded)}])")
        if padded != tuple(shape):
            v = self.let(f"{v.expr.removesuffix('_r')}_b", Tile(v.kind.dtype, tuple(shape)),
                         f"{v.expr}.broadcast(shape![{shape_text(shape)}])")
        return v

    def operands(self, values: list[Value], nodes, what: str, want_dtype=None):
        """Tile operands of one elementwise op: a common dtype and broadcast shape."""
        tiles = [v for v in values if isinstance(v.kind, Tile)]
        if not tiles:
            raise Fail(nodes[0], what, "no tile operand")
        dtypes = {t.kind.dtype for t in tiles}
        if len(dtypes) != 1:
            raise Fail(nodes[0], what, f"operands of dtypes {sorted(dtypes)}: implicit "
                                       "promotion is not ported; ct.astype explicitly")
        dtype = want_dtype or dtypes.pop()
        shape = ()
        for t, n in zip(values, nodes):
            if isinstance(t.kind, Tile):
                shape = broadcast_shape(shape, t.kind.shape, n)
        for v, n in zip(values, nodes):
            if isinstance(v.kind, Scalar) and dtype == "E":
                raise Fail(n, what, "a scalar mixed with a tile of the arrays' dtype: "
                                    "the promotion is not ported; ct.astype the tile first")
        # tiles fitted first, then scalars/literals materialized (Python's order)
        out = list(values)
        for i, (v, n) in enumerate(zip(values, nodes)):
            if isinstance(v.kind, Tile):
                out[i] = self.fit(v, shape, n)
        for i, (v, n) in enumerate(zip(values, nodes)):
            if not isinstance(v.kind, Tile):
                out[i] = self.as_tile(v, dtype, shape, n)
        return out, dtype, shape

