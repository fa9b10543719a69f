"""Element types: cuTile Python's dtypes, their cutile-rs spellings, and cuTile's own promotion
rules (called, not re-implemented: `cuda.tile._ir.ops_utils.promote_dtypes`, cuda-tile 1.7.0).

A value's dtype is a `DT`: its cuTile dtype in each dtype combination the kernel's cases use
(one combination per distinct assignment of dtypes to the arrays and scalars). An array whose
dtype varies over the combinations is a generic element type of the entry (`E`, `E1`, ..);
one that never varies is a concrete Rust type (`f32`, `i8`, ..). KernelTypes decides which.
"""
from __future__ import annotations

from dataclasses import dataclass

import cuda.tile as ct
from cuda.tile import _datatype as cdt
from cuda.tile._ir.ops_utils import promote_dtypes
from cuda.tile._ir.type import LooselyTypedScalar

# cuTile dtype name -> the cutile-rs element type (cutile::core re-exports every one)
RUST_NAMES = {
    "float64": "f64", "float32": "f32", "tfloat32": "tf32", "float16": "f16", "bfloat16": "bf16",
    "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2", "int64": "i64", "int32": "i32",
    "int16": "i16", "int8": "i8", "uint64": "u64", "uint32": "u32", "uint16": "u16",
    "uint8": "u8", "bool_": "bool",
}
# cuTile dtypes a port cannot take as an array (cutile 0.5.0, and the C ABI's dtype codes)
NO_RUST_TYPE = {"float8_e8m0fnu": "has f8e8m0fnu, but the workbench's C ABI (wb_ffi) has no "
                                  "dtype code for it",
                "float4_e2m1fn": "has no Tensor storage for f4e2m1fn (only packed f4e2m1fnx2)"}
# types a Rust literal can be written in (cutile compiles the literal as a constant of it)
LITERAL_SUFFIX = {"float64": "f64", "float32": "f32", "int64": "i64", "int32": "i32",
                  "int16": "i16", "int8": "i8", "uint64": "u64", "uint32": "u32",
                  "uint16": "u16", "uint8": "u8"}
# Rust scalars (a 0-d value kept as a plain Rust value)
RUST_SCALARS = {"float64", "float32", "int64", "int32", "int16", "int8", "uint64", "uint32",
                "uint16", "uint8", "bool_"}
# argspec names (workbench/argspec.py) -> cuTile dtype names
ARGSPEC = {"f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16",
           "f8e4m3": "float8_e4m3fn", "f8e5m2": "float8_e5m2", "i64": "int64", "i32": "int32",
           "i16": "int16", "i8": "int8", "u8": "uint8", "u16": "uint16", "u32": "uint32",
           "u64": "uint64", "bool": "bool_"}
ARGSPEC_OF = {v: k for k, v in ARGSPEC.items()}


def cutile_dtype(name: str):
    return getattr(ct, name)


def is_float(name: str) -> bool:
    return cdt.is_float(cutile_dtype(name))


def is_int(name: str) -> bool:
    return cdt.is_integral(cutile_dtype(name))


def is_signed(name: str) -> bool:
    return cdt.is_signed(cutile_dtype(name))


def bits(name: str) -> int:
    return 1 if name == "bool_" else cutile_dtype(name).bitwidth


def is_bool(name: str) -> bool:
    return name == "bool_"


@dataclass(frozen=True)
class DT:
    """A value's cuTile dtype per dtype combination of the kernel."""
    names: tuple[str, ...]

    @classmethod
    def of(cls, name: str, n: int) -> "DT":
        return cls((name,) * n)

    @property
    def uniform(self) -> str | None:
        return self.names[0] if len(set(self.names)) == 1 else None

    def all(self, test) -> bool:
        return all(test(n) for n in self.names)

    @property
    def floating(self) -> bool:
        return self.all(is_float)

    @property
    def integral(self) -> bool:
        return self.all(is_int)

    @property
    def boolean(self) -> bool:
        return self.all(is_bool)

    def text(self) -> str:
        u = self.uniform
        return u if u else "/".join(self.names)


class PromotionError(Exception):
    pass


def promote(a, b) -> str:
    """cuTile's promotion of two operand dtypes: each a dtype name or a Python literal
    (`("loose", value)`); raises PromotionError with cuTile's own message."""
    def ty(x):
        if isinstance(x, tuple) and x and x[0] == "loose":
            return LooselyTypedScalar(x[1])
        return cutile_dtype(x)
    try:
        return promote_dtypes(ty(a), ty(b)).name
    except Exception as e:      # cuTile raises TileTypeError / InvalidValueError
        raise PromotionError(str(e).splitlines()[0]) from None


def promote_dt(a: "DT | tuple", b: "DT | tuple", n: int) -> DT:
    """promote() in every combination; a literal is `("loose", value)`."""
    def at(x, i):
        return x if isinstance(x, tuple) and x and x[0] == "loose" else x.names[i]
    return DT(tuple(promote(at(a, i), at(b, i)) for i in range(n)))


# half types have no Rust literal; cutile's constant() takes these associated constants of a
# type (its dense_const_path_parts: ZERO, ONE, NEG_INFINITY, INFINITY, E)
NAMED_VALUES = {0.0: "ZERO", 1.0: "ONE", float("-inf"): "NEG_INFINITY", float("inf"): "INFINITY"}


SIGNED_OF = {"uint8": "int8", "uint16": "int16", "uint32": "int32", "uint64": "int64"}


def wrapped_unsigned(value, dtype: str) -> int | None:
    """An unsigned literal above its signed twin's largest value (2654435761 as uint32), as
    that twin's value of the same bits; None for any other literal. cutile 0.5.0 writes such
    a literal as the constant 0 (seen: `constant(2654435761u32, ..)` -> `<i32: 0>`)."""
    if dtype not in SIGNED_OF or isinstance(value, (bool, float)):
        return None
    width = bits(dtype)
    return int(value) - 2 ** width if int(value) >= 2 ** (width - 1) else None


def literal_text(value, dtype: str) -> str | None:
    """A Python literal as a Rust literal of the cuTile dtype, or None when cutile-rs cannot
    spell one (f16 / bf16 only 0, 1, +-inf and e, as associated constants; fp8: none)."""
    import math
    if dtype in ("float16", "bfloat16"):
        v = float(value)
        name = NAMED_VALUES.get(v) if not math.isnan(v) else None
        if v == math.e:
            name = "E"
        if dtype == "bfloat16" and v != 0.0:
            # cutile 0.5.0 writes bf16::ONE & co as 4 hex digits, which its constant parser
            # reads as f16 bits (compile_expression.rs parse_float_or_hex): bf16 -inf
            # becomes a NaN, 1.0 becomes 1.875; an f32 constant converted is exact
            return None
        return f"{RUST_NAMES[dtype]}::{name}" if name else None
    if dtype == "bool_":
        return "true" if value else "false"
    suffix = LITERAL_SUFFIX.get(dtype)
    if suffix is None:
        return None
    if is_float(dtype):
        value = float(value)
        if math.isnan(value):
            return f"{suffix}::NAN"
        if math.isinf(value):
            return f"{suffix}::INFINITY" if value > 0 else f"{suffix}::NEG_INFINITY"
        text = repr(value)
        return (text if any(c in text for c in ".e") else text + ".0") + suffix
    if isinstance(value, float) and not value.is_integer():
        return None
    return f"{int(value)}{suffix}"


# narrow floats cutile-rs spells no literal of: a literal of one is an f32 constant of the
# value cuTile encodes (its own rounding, cuda.tile/_bytecode/float.py), converted
NARROW_FLOATS = {"float16": "F16", "bfloat16": "BF16", "tfloat32": "TF32",
                 "float8_e4m3fn": "F8E4M3FN", "float8_e5m2": "F8E5M2"}


def narrow_value(value, dtype: str) -> float | None:
    """The value cuTile Python's constant of `dtype` holds for a Python literal (every such
    value is exact in f32), or None for a dtype that needs no detour."""
    if dtype not in NARROW_FLOATS:
        return None
    from cuda.tile._bytecode.float import float_from_bits, float_to_bits
    from cuda.tile._bytecode.type import SimpleType
    ty = getattr(SimpleType, NARROW_FLOATS[dtype])
    return float_from_bits(float_to_bits(float(value), ty), ty)
