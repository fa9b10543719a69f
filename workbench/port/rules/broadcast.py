"""cuTile's implicit promotion and broadcasting, made explicit: the operands of an elementwise
op get cuTile's common dtype (its own promote_dtypes, literals loosely typed) and shape; each
operand in turn is converted (`convert_tile`; a literal becomes a constant of the type) and
reshaped (leading 1s) / broadcast, as cuTile's promote_and_broadcast_to does.

Constants: an integer or boolean value cuTile's dataflow proves constant is one `constant(..)`
tile of its final shape at the top of the kernel (materialize_constants); a float literal is a
0-d constant built where it is used, then reshaped and broadcast."""
from __future__ import annotations

import re

from .arith import NAMES, OPERATOR
from .dtypes import (DT, SIGNED_OF, PromotionError, bits, literal_text, promote_dt,
                     wrapped_unsigned)
from .values import (Const, ConstFloat, Fail, FloatParam, Lit, NeedConstants, Scalar, Tile,
                     Value, bits_generic, broadcast_shape, shape_text)


class Broadcasting:
    """Mixed into the Translator."""

    def loose(self, v: Value):
        """The promotion operand of `v`: a DT, or ("loose", value) for a literal."""
        if isinstance(v.kind, Lit):
            return ("loose", v.kind.value)
        if isinstance(v.kind, Const):
            return ("loose", 1)          # an int constant: loosely typed like a literal int
        if isinstance(v.kind, (ConstFloat, FloatParam)):
            return ("loose", 1.0)
        return v.kind.dtype

    def common_dtype(self, values: list[Value], node, what: str, force_float=False) -> DT:
        typed = [v for v in values if isinstance(v.kind, (Tile, Scalar))]
        if not typed:
            raise Fail(node, what, "no tile or scalar operand")
        ops = [self.loose(v) for v in values]
        try:
            dt = ops[0]
            for other in ops[1:]:
                dt = promote_dt(dt, other, self.types.n)
            if isinstance(dt, tuple):
                raise Fail(node, what, "only literals")
        except PromotionError as e:
            raise Fail(node, what, f"cuTile rejects the promotion: {e}") from None
        if force_float and not dt.floating:
            dt = DT(tuple(n if n.startswith(("float", "bfloat")) else "float32" for n in dt.names))
        return dt

    def convert(self, v: Value, dt: DT, node, hint=None) -> Value:
        """ct.astype of a tile or scalar to `dt` (no op when the dtype is the same)."""
        if isinstance(v.kind, Tile):
            if v.kind.dtype == dt:
                return v
            name = hint or f"{v.expr}_{self.rust_dtype(dt).lower()}"
            return self.let(name, Tile(dt, v.kind.shape), self.conversion(v, dt, node))
        if isinstance(v.kind, Scalar):
            if v.kind.dtype == dt:
                return v
            t = self.scalar_tile(v, node)
            return self.convert(t, dt, node, hint)
        raise Fail(node, "astype", "astype of a non-tile")

    def conversion(self, v: Value, dt: DT, node) -> str:
        """The cutile call converting tile `v` to `dt`: exti / trunci between integers
        (cutile's convert_tile implements no integer widening), convert_tile otherwise."""
        src = v.kind.dtype
        ints = lambda d: d.integral or d.boolean      # noqa: E731
        if ints(src) and ints(dt):
            widths = [(bits(a), bits(b)) for a, b in zip(src.names, dt.names)]
            if all(a < b for a, b in widths):
                return f"exti({v.expr})"
            if all(a > b for a, b in widths):
                # cutile 0.5.0 writes overflow::None as no attribute, which its bytecode
                # writer refuses for trunci; no signed wrap is the same on every value that
                # fits (the IR diff notes the difference: diff/findings.py)
                return f"trunci({v.expr}, overflow::NoSignedWrap)"
            if all(a == b for a, b in widths):
                return f"bitcast({v.expr})"
            raise Fail(node, "astype", f"{src.text()} -> {dt.text()} widens in one case and "
                                       "narrows in another")
        return f"convert_tile({v.expr})"

    def constant_expr(self, text: str, shape, node) -> str:
        """`constant(text, shape![..])`; a bool false, which cutile 0.5.0 encodes as true in
        constant() (encode_literal_bytes takes any string but "0" as 0xFF), is
        scalar_to_tile(false) at 0-d and refused with a shape."""
        if text == "false":
            if shape:
                raise Fail(node, "constant", "a tile of False: cutile 0.5.0's constant(false, ..) "
                           "encodes true (its dense literal reads \"false\" as nonzero)")
            return "scalar_to_tile(false)"
        return f"constant({text}, shape![{shape_text(shape)}])"

    def scalar_tile(self, v: Value, node) -> Value:
        """A Rust scalar as a 0-d tile (no op in the IR)."""
        return self.let(f"{v.expr}_t" if v.expr.isidentifier() else "scalar",
                        Tile(v.kind.dtype, ()), f"scalar_to_tile({v.expr})")

    def constant_tile(self, value, dt: DT, shape: tuple, node, rust_value: str | None = None,
                      at=None) -> Value:
        """A literal as a tile of `dt` and `shape`. An integer or bool one of a shape is one
        constant at the kernel's top (cuTile's dataflow folds the broadcast); otherwise the
        0-d constant is made where the literal was read when it has the literal's own type
        (float32 / int32 / bool), else where it is used, then reshaped and broadcast."""
        wide = self.types.narrow_literal(value, dt) if rust_value is None else None
        wrapped = wrapped_unsigned(value, dt.uniform) if rust_value is None else None
        if wrapped is not None:             # the same bits as the signed type, bitcast
            signed = self.types.of_name(SIGNED_OF[dt.uniform])
            same_bits = self.let_prologue(f"c{value}bits", Tile(signed, tuple(shape)),
                                          self.constant_expr(literal_text(wrapped, signed.uniform),
                                                             shape, node))
            return self.let_prologue(f"c{value}", Tile(dt, tuple(shape)),
                                     f"bitcast({same_bits.expr})")
        if wide is not None:
            f32 = self.let("wide", Tile(self.types.of_name("float32"), ()),
                           self.constant_expr(wide, (), node))
            return self.fit(self.let("lit", Tile(dt, ()), self.conversion(f32, dt, node)),
                            shape, node)
        text = rust_value if rust_value is not None else self.types.literal(value, dt, node)
        if not dt.floating and shape:
            return self.let_prologue("c" + text.replace("-", "m"), Tile(dt, tuple(shape)),
                                     self.constant_expr(text, shape, node))
        # cutile takes f32::INFINITY & co only as a DSL operand such as constant()
        expr = self.constant_expr(text, (), node) if "::" in text or not dt.floating \
            else f"scalar_to_tile({text})"
        own = {bool: "bool_", int: "int32", float: "float32"}.get(type(value))
        if own is not None and dt.uniform == own:
            t = self.let_at(at, "lit", Tile(dt, ()), expr)
        else:
            t = self.let("lit", Tile(dt, ()), expr)
        return self.fit(t, shape, node)

    def as_tile(self, v: Value, dt: DT, shape: tuple, node) -> Value:
        """Any operand as a tile of `dt` and `shape` (promote_and_broadcast_to)."""
        if isinstance(v.kind, Tile):
            return self.fit(self.convert(v, dt, node), shape, node)
        if isinstance(v.kind, Lit) and v.kind.param and dt.uniform == (
                "float32" if isinstance(v.kind.value, float) else "int32"):
            # cuTile makes a constant parameter's typed constant at the kernel's entry
            text = self.types.literal(v.kind.value, dt, node)
            c = self.cached(("param", v.kind.param, dt), lambda: self.let_prologue(
                v.kind.param.lower(), Tile(dt, ()), self.constant_expr(text, (), node)))
            return self.fit(c, shape, node)
        if isinstance(v.kind, Lit):
            return self.constant_tile(v.kind.value, dt, shape, node, at=v.kind.at)
        if isinstance(v.kind, Const) and set(v.kind.names) <= set(self.const_values):
            # the entry fixes the value (a divisibility fact cuTile states from it split it)
            value = self.static_value(v, "a ct.Constant used as a tile value")
            return self.constant_tile(value, dt, shape, node)
        if isinstance(v.kind, Const) and not dt.floating and shape:
            return self.cached(("generic", v.kind.rust, dt, tuple(shape)),
                               lambda: self.generic_int_tile(v, dt, shape, node))
        if isinstance(v.kind, (Const, ConstFloat, FloatParam)):
            return self.fit(self.generic_tile(v, dt, node), shape, node)
        if isinstance(v.kind, Scalar):
            t = self.scalar_tile(v, node)
            if v.kind.dtype != dt:
                t = self.let(f"{t.expr}_{self.rust_dtype(dt).lower()}", Tile(dt, ()),
                             self.conversion(t, dt, node))
            return self.fit(t, shape, node)
        raise Fail(node, "operand", "not a tile, scalar or literal")

    def generic_tile(self, v: Value, dt: DT, node) -> Value:
        """An expression of const generics as a 0-d tile of `dt`, computed in the kernel:
        cutile folds it at each launch's compile, as cuTile Python folds the constant it
        stands for, so one entry serves every value of the constants."""
        if isinstance(v.kind, Const):
            i32 = self.types.of_name("int32")
            c = self.cached(("generic", v.kind.rust), lambda: self.let_prologue(
                "c_" + re.sub(r"\W+", "_", v.kind.rust).strip("_").lower(), Tile(i32, ()),
                f"scalar_to_tile({v.kind.rust})"))
            self.state.generic_ints[c.expr] = v.kind.names      # read by divisibility.py
            return self.convert(c, dt, node)
        if isinstance(v.kind, FloatParam):
            if not dt.floating or dt.uniform == "float64":
                raise NeedConstants(v.kind.names, node, f"float constant {v.kind.name} used as "
                                    f"{dt.uniform or 'a mixed dtype'} (its f32 bits do not hold it)")
            f32 = self.types.of_name("float32")
            bits = bits_generic(v.kind.name)
            word = self.generic_tile(Value(Const(bits, bits, ())), self.types.of_name("int32"), node)
            c = self.cached(("generic", v.kind.name), lambda: self.let_prologue(
                v.kind.name.lower(), Tile(f32, ()), f"bitcast({word.expr})"))
            return self.convert(c, dt, node)
        if isinstance(v.kind, ConstFloat):
            a, b = (self.generic_tile(o, dt, node) for o in v.kind.operands)
            return self.let(NAMES.get(v.kind.fn, "c"), Tile(dt, ()),
                            f"{a.expr} {OPERATOR[v.kind.fn]} {b.expr}")
        return self.constant_tile(v.kind.value, dt, (), node)

    def generic_int_tile(self, v: Value, dt: DT, shape: tuple, node) -> Value:
        """An integer of the const generics as a tile of a shape, made at the kernel's top:
        where cuTile makes an integer constant of a shape (materialize_constants)."""
        c = self.generic_tile(v, self.types.of_name("int32"), node)
        if c.kind.dtype != dt:
            c = self.let_prologue(f"{c.expr}_{self.rust_dtype(dt).lower()}", Tile(dt, ()),
                                  self.conversion(c, dt, node))
        ones = ("1",) * len(shape)
        c = self.let_prologue(f"{c.expr}_r", Tile(dt, ones),
                              f"{c.expr}.reshape(shape![{shape_text(ones)}])")
        if ones == tuple(shape):
            return c
        return self.let_prologue(f"{c.expr.removesuffix('_r')}_b", Tile(dt, tuple(shape)),
                                 f"{c.expr}.broadcast(shape![{shape_text(shape)}])")

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

    def common_shape(self, values: list[Value], nodes) -> tuple:
        shape: tuple = ()
        for v, n in zip(values, nodes):
            if isinstance(v.kind, Tile):
                shape = broadcast_shape(shape, v.kind.shape, n)
        return shape

    def operands(self, values: list[Value], nodes, what: str, want_dtype: DT | None = None,
                 force_float: bool = False):
        """Tile operands of one elementwise op: cuTile's common dtype and broadcast shape,
        each operand converted and broadcast in turn."""
        dtype = want_dtype or self.common_dtype(values, nodes[0], what, force_float)
        shape = self.common_shape(values, nodes)
        out = [self.as_tile(v, dtype, shape, n) for v, n in zip(values, nodes)]
        return out, dtype, shape

    def need_value(self, v: Value, node, what: str):
        raise NeedConstants(v.kind.names, node, what)
