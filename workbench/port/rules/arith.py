"""Python operators and cuTile's elementwise functions on tiles, scalars and constants, with
cuTile's semantics: `//` floors and `%` takes the divisor's sign (cuTile lowers them to
divi rounding<negative_inf> / remi + a sign fix-up), `/` is a float division, literals fold,
integer expressions of `ct.Constant`s stay symbolic (cutile folds the const generics).

    binary(t, "add", a, b, node, hint, rounding="approx", ftz=True)

Each op is written the way cutile lowers it to the same Tile IR op: operators (`a + b`) for the
defaults, the Tile IR function (`addf(a, b, rounding::Approx, ftz::Enabled)`) when a rounding
mode, flush-to-zero or NaN propagation is given."""
from __future__ import annotations

import ast
import operator

from .dtypes import is_signed
from .values import (Const, ConstFloat, Fail, FloatParam, Lit, NeedConstants, Scalar, Seq,
                     Static, Tile, Value)

AST_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv",
              ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow",
              ast.BitAnd: "bitwise_and", ast.BitOr: "bitwise_or", ast.BitXor: "bitwise_xor",
              ast.LShift: "bitwise_lshift", ast.RShift: "bitwise_rshift"}
PY_FOLD = {"cdiv": lambda a, b: -(-a // b), "add": operator.add, "sub": operator.sub, "mul": operator.mul,
           "truediv": operator.truediv, "floordiv": operator.floordiv, "mod": operator.mod,
           "pow": operator.pow, "bitwise_and": operator.and_, "bitwise_or": operator.or_,
           "bitwise_xor": operator.xor, "bitwise_lshift": operator.lshift,
           "bitwise_rshift": operator.rshift, "maximum": max, "minimum": min}
CONST_RUST = {"add": "+", "sub": "-", "mul": "*", "floordiv": "/", "mod": "%",
              "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^",
              "bitwise_lshift": "<<", "bitwise_rshift": ">>"}
CONST_PY = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%",
            "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^",
            "bitwise_lshift": "<<", "bitwise_rshift": ">>"}
GENERIC = (Const, ConstFloat, FloatParam)     # values of the const generics
OPERATOR = {"add": "+", "sub": "-", "mul": "*", "truediv": "/"}
FUSABLE = {"float16", "bfloat16", "float32", "float64"}     # cuTile's unrestricted floats
FLOAT_FN = {"add": "addf", "sub": "subf", "mul": "mulf", "truediv": "divf"}
ROUNDING = {"RN": "NearestEven", "RZ": "Zero", "RM": "NegativeInf", "RP": "PositiveInf",
            "APPROX": "Approx", "FULL": "Full", "RZI": "NearestIntToZero", "RA": "NearestAway"}
NAMES = {"add": "sum", "sub": "diff", "mul": "prod", "truediv": "quot", "floordiv": "fdiv",
         "mod": "rem", "pow": "pow", "maximum": "maximum", "minimum": "minimum"}
COMPARE = {ast.Lt: ("lt_tile", "LessThan", operator.lt), ast.LtE: ("le_tile", "LessThanOrEqual", operator.le),
           ast.Gt: ("gt_tile", "GreaterThan", operator.gt), ast.GtE: ("ge_tile", "GreaterThanOrEqual", operator.ge),
           ast.Eq: ("eq_tile", "Equal", operator.eq), ast.NotEq: ("ne_tile", "NotEqual", operator.ne)}


def rounding_name(mode) -> str | None:
    """A cuda.tile RoundingMode (or None) as a cutile `rounding::` marker."""
    if mode is None:
        return None
    return ROUNDING[mode.name]


def const_fold(fn: str, a: Value, b: Value, node) -> Value:
    """Both operands compile-time: a literal, or an integer expression of constants."""
    if isinstance(a.kind, Lit) and isinstance(b.kind, Lit):
        try:
            return Value(Lit(PY_FOLD[fn](a.kind.value, b.kind.value), early=True))
        except (ArithmeticError, KeyError) as e:
            raise Fail(node, fn, f"constant folding failed: {e}") from None
    ints = all(isinstance(v.kind, Const) or (isinstance(v.kind, Lit) and type(v.kind.value) is int)
               for v in (a, b))
    if ints and fn in CONST_RUST:
        def parts(v):
            if isinstance(v.kind, Const):
                return v.kind.rust, v.kind.python, v.kind.names
            return f"{v.kind.value}i32", repr(v.kind.value), ()
        (ra, pa, na), (rb, pb, nb) = parts(a), parts(b)
        return Value(Const(f"({ra} {CONST_RUST[fn]} {rb})", f"({pa} {CONST_PY[fn]} {pb})",
                           tuple(dict.fromkeys(na + nb))))
    names = tuple(dict.fromkeys(sum((v.kind.names for v in (a, b)
                                     if isinstance(v.kind, GENERIC)), ())))
    if fn in OPERATOR and all(isinstance(v.kind, GENERIC) or
                              type(getattr(v.kind, "value", None)) in (int, float)
                              for v in (a, b)):
        return Value(ConstFloat(fn, (a, b), names))
    raise NeedConstants(names, node, f"`{fn}` of constants gives a non-integer value")


class Arithmetic:
    """Mixed into the Translator."""

    def unary(self, node: ast.UnaryOp, hint) -> Value:
        v = self.expr(node.operand)
        op = type(node.op)
        if op is ast.UAdd:
            return v
        if isinstance(v.kind, (Lit, Static)):
            return Value(Lit({ast.USub: operator.neg, ast.Not: operator.not_,
                              ast.Invert: operator.invert}[op](v.kind.value), early=True))
        if isinstance(v.kind, Const):
            if op is ast.USub:
                return Value(Const(f"(-{v.kind.rust})", f"(-{v.kind.python})", v.kind.names))
            return Value(Lit(self.static_value(v, "a constant expression")))
        if isinstance(v.kind, (ConstFloat, FloatParam)) and op is ast.USub:
            return Value(ConstFloat("mul", (Value(Lit(-1.0)), v), v.kind.names))
        if op is ast.USub:
            return self.negate(v, node, hint)
        if op is ast.Invert:
            return self.bitwise_not(v, node, hint)
        if op is ast.Not and isinstance(v.kind, (Scalar, Tile)) and v.kind.dtype.boolean \
                and getattr(v.kind, "shape", ()) == ():
            return self.bitwise_not(v, node, hint or "not")     # cuTile: xori(x, true)
        raise Fail(node, type(node.op).__name__, f"`{ast.unparse(node)}` is not ported")

    def negate(self, v: Value, node, hint) -> Value:
        if isinstance(v.kind, Scalar) and (v.origin or "").startswith("literal"):
            return self.let(hint or "neg", v.kind, f"-{v.expr}")
        if isinstance(v.kind, Scalar):      # cutile negates no runtime scalar: a 0-d tile,
            return self.negate(self.scalar_tile(v, node), node, hint)   # as cuTile's negf
        if isinstance(v.kind, Tile) and v.kind.dtype.floating:
            return self.let(hint or "neg", v.kind, f"negf({v.expr})")
        if isinstance(v.kind, Tile) and v.kind.dtype.integral:
            return self.let(hint or "neg", v.kind, f"negi({v.expr}, overflow::None)")
        raise Fail(node, "-", "negation of a non-numeric value")

    def bitwise_not(self, v: Value, node, hint) -> Value:
        t = v if isinstance(v.kind, Tile) else self.scalar_tile(v, node)
        if not (t.kind.dtype.integral or t.kind.dtype.boolean):
            raise Fail(node, "~", "bitwise not of a non-integer")
        # cuTile lowers ~x to xori with an all-ones constant built in place (cutile's noti
        # has no lowering in 0.4.0)
        ones = self.let("ones", t.kind, f"constant({self.types.literal(True if t.kind.dtype.boolean else -1, t.kind.dtype, node)}, "
                                        f"shape![{', '.join(t.kind.shape)}])")
        return self.let(hint or "inv", t.kind, f"xori({t.expr}, {ones.expr})")

    def binop(self, node: ast.BinOp, hint) -> Value:
        op = type(node.op)
        if op is ast.MatMult:
            fake = ast.Call(func=ast.Name("matmul", ast.Load()), args=[node.left, node.right],
                            keywords=[])
            ast.copy_location(fake, node)
            return self.ct_rule("matmul")(self, fake, hint)
        if op not in AST_BINOPS:
            raise Fail(node, type(node.op).__name__,
                       f"operator in `{ast.unparse(node)}` is not ported")
        left = self.expr(node.left)
        right = self.expr(node.right)
        return self.binary(AST_BINOPS[op], left, right, node, hint, nodes=(node.left, node.right))

    def binary(self, fn: str, a: Value, b: Value, node, hint=None, rounding=None, ftz=False,
               nan=False, nodes=None) -> Value:
        nodes = nodes or (node, node)
        static = (Lit, *GENERIC)
        if isinstance(a.kind, static) and isinstance(b.kind, static):
            return const_fold(fn, a, b, node)
        force_float = fn == "truediv"
        if fn == "pow":
            force_float = True
        if isinstance(a.kind, Seq) or isinstance(b.kind, Seq):
            raise Fail(node, fn, "arithmetic on a tuple")
        if not any(isinstance(v.kind, Tile) for v in (a, b)) and fn in OPERATOR \
                and rounding is None and not ftz:
            scalar = self.scalar_binary(fn, a, b, node, hint, force_float)
            if scalar is not None:
                return scalar
        b_value = self.static_value(b, "a constant operand") if fn == "mod" and \
            isinstance(b.kind, (Lit, Const)) else None
        (ta, tb), dtype, shape = self.operands([a, b], list(nodes), fn, force_float=force_float)
        return self.tile_binary(fn, ta, tb, Tile(dtype, shape), node, hint, rounding, ftz, nan,
                                b_value)

    def scalar_binary(self, fn, a: Value, b: Value, node, hint, force_float) -> Value | None:
        """`+ - * /` of Rust scalars (and literals/constants): a Rust expression."""
        dt = self.common_dtype([a, b], node, fn, force_float)
        if dt.boolean or (fn == "truediv" and not dt.floating):
            return None
        texts = []
        for v in (a, b):
            if isinstance(v.kind, (ConstFloat, FloatParam)):
                return None          # computed on tiles (as_tile)
            if isinstance(v.kind, Scalar):
                if v.kind.dtype != dt:
                    return None
                texts.append(v.expr)
                continue
            if isinstance(v.kind, Const):
                if dt.uniform != "int32":
                    return None
                other = b if v is a else a
                if other.origin in ("dim", "param"):
                    # cutile defines a const generic's constant before the tensor views, cuTile
                    # Python after: with an entry value as the other operand the commutative
                    # order differs, so write the entry's value (split on the constant)
                    text = self.types.literal(self.static_value(v, "a constant with an "
                                              "entry value"), dt, node)
                else:
                    # a constant parameter's typed constant is made at the kernel's entry
                    text = self.cached(("const", v.kind.rust), lambda: self.let_prologue(
                        "c" + v.kind.rust.replace("-", "m").strip("()"), Scalar(dt),
                        v.kind.rust)).expr if v.kind.rust.isidentifier() else v.kind.rust
            else:
                text = self.types.literal(v.kind.value, dt, node)
            texts.append(text)
        return self.let(hint or "s", Scalar(dt), f"{texts[0]} {OPERATOR[fn]} {texts[1]}")

    def tile_binary(self, fn, a: Value, b: Value, kind: Tile, node, hint, rounding, ftz, nan,
                    b_value=None):
        name = hint or NAMES.get(fn, fn.removeprefix("bitwise_"))
        dt = kind.dtype
        rm = rounding_name(rounding)
        ftz_text = "ftz::Enabled" if ftz else "ftz::Disabled"
        if dt.boolean and fn not in ("bitwise_and", "bitwise_or", "bitwise_xor"):
            raise Fail(node, fn, "arithmetic on bool tiles")
        if dt.floating:
            if fn in OPERATOR:
                meta = dict(op=fn, args=(a.expr, b.expr), opts=(rm or "NearestEven", ftz)) \
                    if dt.all(lambda n: n in FUSABLE) else {}
                if rm is None and not ftz:
                    return self.let(name, kind, f"{a.expr} {OPERATOR[fn]} {b.expr}", **meta)
                return self.let(name, kind, f"{FLOAT_FN[fn]}({a.expr}, {b.expr}, "
                                            f"rounding::{rm or 'NearestEven'}, {ftz_text})", **meta)
            if fn == "floordiv":
                q = self.let(f"{name}_q", kind, f"{a.expr} / {b.expr}")
                return self.let(name, kind, f"floor({q.expr})")
            if fn == "mod":
                return self.float_mod(a, b, kind, node, name, b_value)
            if fn == "pow":
                return self.let(name, kind, f"unsafe {{ fpowf({a.expr}, {b.expr}) }}")
            if fn in ("maximum", "minimum"):
                if not nan and not ftz:
                    return self.let(name, kind, f"{fn[:3]}_tile({a.expr}, {b.expr})")
                return self.let(name, kind, f"{fn[:3]}f({a.expr}, {b.expr}, "
                                            f"nan::{'Enabled' if nan else 'Disabled'}, {ftz_text})")
            if fn == "atan2":
                return self.let(name, kind, f"atan2({a.expr}, {b.expr})")
        elif dt.integral or dt.boolean:
            if rm is not None or ftz:
                raise Fail(node, fn, "rounding_mode / flush_to_zero on integers")
            if fn in ("add", "sub", "mul"):
                return self.let(name, kind, f"{a.expr} {OPERATOR[fn]} {b.expr}")
            if fn == "floordiv":
                mode = "NegativeInf" if dt.all(is_signed) else "Zero"
                return self.let(name, kind, f"divi({a.expr}, {b.expr}, rounding::{mode})")
            if fn == "cdiv":
                return self.let(name, kind, f"divi({a.expr}, {b.expr}, rounding::PositiveInf)")
            if fn == "mod":
                if not dt.all(is_signed):
                    return self.let(name, kind, f"remi({a.expr}, {b.expr})")
                return self.int_mod(a, b, kind, node, name, b_value)
            simple = {"bitwise_and": "andi", "bitwise_or": "ori", "bitwise_xor": "xori",
                      "bitwise_rshift": "shri", "maximum": "maxi", "minimum": "mini"}
            if fn in simple:
                return self.let(name, kind, f"{simple[fn]}({a.expr}, {b.expr})")
            if fn == "bitwise_lshift":   # the operator: cutile's shli(.., overflow::None) has
                # no bytecode attribute and fails to serialize in 0.4.0
                return self.let(name, kind, f"{a.expr} << {b.expr}")
        raise Fail(node, fn, f"`{fn}` on {dt.text()} tiles is not ported")

    def mod_fixup(self, rem: Value, b: Value, kind: Tile, node, name, floating: bool,
                  b_value=None) -> Value:
        """Python's sign rule after remi/remf: r + b where r != 0 and sign(r) != sign(b).
        With a constant divisor, `b < 0` is a constant (cuTile's dataflow folds it)."""
        zero = self.constant_zero(kind, node) if not floating else \
            self.let(f"{name}_zero", kind, f"constant({self.types.literal(0.0, kind.dtype, node)}, "
                                          f"shape![{', '.join(kind.shape)}])")
        bool_kind = Tile(self.types.of_name("bool_"), kind.shape)
        if floating:
            lt = lambda x: f"cmpf({x}, {zero.expr}, predicate::LessThan, cmp_ordering::Ordered)"
            ne = f"cmpf({rem.expr}, {zero.expr}, predicate::NotEqual, cmp_ordering::Unordered)"
        else:
            lt = lambda x: f"lt_tile({x}, {zero.expr})"
            ne = f"ne_tile({rem.expr}, {zero.expr})"
        r_neg = self.let(f"{name}_neg", bool_kind, lt(rem.expr))
        if b_value is not None and not kind.shape:     # cuTile folds it only at 0-d
            b_neg = self.let(f"{b.expr}_neg", bool_kind, self.constant_expr(
                "true" if b_value < 0 else "false", kind.shape, node))
        else:
            b_neg = self.let(f"{b.expr}_neg", bool_kind, lt(b.expr))
        signs = self.let(f"{name}_signs", bool_kind, f"xori({r_neg.expr}, {b_neg.expr})")
        nonzero = self.let(f"{name}_nonzero", bool_kind, ne)
        fix = self.let(f"{name}_fix", bool_kind, f"andi({signs.expr}, {nonzero.expr})")
        shifted = self.let(f"{name}_shifted", kind, f"{rem.expr} + {b.expr}")
        return self.let(name, kind, f"select({fix.expr}, {shifted.expr}, {rem.expr})")

    def constant_zero(self, kind: Tile, node) -> Value:
        return self.let("zeros", kind, f"constant({self.types.literal(0, kind.dtype, node)}, "
                                       f"shape![{', '.join(kind.shape)}])")

    def int_mod(self, a, b, kind, node, name, b_value=None):
        rem = self.let(f"{name}_raw", kind, f"remi({a.expr}, {b.expr})")
        return self.mod_fixup(rem, b, kind, node, name, False, b_value)

    def float_mod(self, a, b, kind, node, name, b_value=None):
        rem = self.let(f"{name}_raw", kind, f"remf({a.expr}, {b.expr})")
        return self.mod_fixup(rem, b, kind, node, name, True, b_value)

    def boolop(self, node: ast.BoolOp, hint) -> Value:
        try:
            return Value(Lit(self.static_value(node, "and/or")))
        except Fail:
            return self.bool_value(node)        # bool_ops.py: cuTile's short-circuit `if`

    def compare(self, node: ast.Compare, hint) -> Value:
        if len(node.ops) != 1 or type(node.ops[0]) not in COMPARE:
            try:
                return Value(Lit(self.static_value(node, "comparison")))
            except Fail:
                raise Fail(node, "comparison", f"`{ast.unparse(node)}` is not ported") from None
        left = self.expr(node.left)
        right = self.expr(node.comparators[0])
        return self.comparison(type(node.ops[0]), left, right, node, hint,
                               nodes=(node.left, node.comparators[0]))

    def comparison(self, op, left: Value, right: Value, node, hint, nodes=None) -> Value:
        nodes = nodes or (node, node)
        if isinstance(left.kind, (Lit, Const, Static)) and isinstance(right.kind, (Lit, Const, Static)):
            names = tuple(dict.fromkeys(n for v in (left, right) if isinstance(v.kind, Const)
                                        for n in v.kind.names))
            if names and not all(n in self.const_values for n in names):
                return Value(Const(f"({self.rust_text(left)} {RUST_CMP[op]} {self.rust_text(right)})",
                                   f"({self.py_text(left)} {RUST_CMP[op]} {self.py_text(right)})",
                                   names))
            return Value(Lit(COMPARE[op][2](self.static_value(left, "comparison"),
                                            self.static_value(right, "comparison"))))
        (a, b), dtype, shape = self.operands([left, right], list(nodes), "comparison")
        kind = Tile(self.types.of_name("bool_"), shape)
        if op is ast.NotEq and dtype.floating:   # cuTile: unordered (NaN != x); ne_tile: ordered
            return self.let(hint or "mask", kind, f"cmpf({a.expr}, {b.expr}, predicate::NotEqual, "
                                                  "cmp_ordering::Unordered)")
        return self.let(hint or "mask", kind, f"{COMPARE[op][0]}({a.expr}, {b.expr})")

    def rust_text(self, v: Value) -> str:
        return v.kind.rust if isinstance(v.kind, Const) else repr(v.kind.value)

    def py_text(self, v: Value) -> str:
        return v.kind.python if isinstance(v.kind, Const) else repr(v.kind.value)


RUST_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
