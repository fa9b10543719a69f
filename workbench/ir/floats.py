"""A float constant's value as tileirdisasm prints it, for the constants the normalizer folds
(fold.py): they must read exactly as the other side's constant of the same value reads.

tileirdisasm prints as MLIR does: LLVM APFloat's `toString` with 6 significant digits in
exponent form (`1.000000e+03`) when that text reads back as the same value of the type,
otherwise APFloat's default form, with the type's full decimal precision, trailing zeros
dropped, and an exponent only beyond three places of padding (`9.99999974E-6`, `0.00130208337`).
Rounding follows APFloat: the exact decimal expansion is first cut by a power of ten
estimated from its bit length, then rounded half up to the digit count.
"""
from __future__ import annotations

from fractions import Fraction

# significand bits (with the implicit one) of each float type tileirdisasm prints
PRECISION = {"f64": 53, "f32": 24, "tf32": 11, "f16": 11, "bf16": 8, "f8E4M3FN": 4,
             "f8E5M2": 3}


# Tile IR float type -> cuda.tile's bytecode type (its own encoder decides a value's bits)
BYTECODE_TYPES = {"f16": "F16", "bf16": "BF16", "tf32": "TF32", "f32": "F32",
                  "f8E4M3FN": "F8E4M3FN", "f8E5M2": "F8E5M2"}


def rounded(value: float, dtype: str) -> float | None:
    """`value` as a constant of `dtype` holds it (cuTile's own encoding), None if unknown."""
    from cuda.tile._bytecode.float import float_from_bits, float_to_bits
    from cuda.tile._bytecode.type import SimpleType
    if dtype == "f64":
        return value
    if dtype not in BYTECODE_TYPES:
        return None
    ty = getattr(SimpleType, BYTECODE_TYPES[dtype])
    return float_from_bits(float_to_bits(value, ty), ty)


# the hex digits tileirdisasm prints an infinity's bits with (`0xFF800000` for f32 -inf)
HEX_DIGITS = {"f64": 16, "f32": 8, "tf32": 8, "f16": 4, "bf16": 4, "f8E4M3FN": 2, "f8E5M2": 2}


def parsed(text: str, dtype: str) -> float:
    """A constant's printed value: decimal, or its bits in hex (infinities, NaN)."""
    if not text.lower().startswith("0x"):
        return float(text)
    bits = int(text, 16)
    if dtype == "f64":
        import struct
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    from cuda.tile._bytecode.float import float_from_bits
    from cuda.tile._bytecode.type import SimpleType
    return float_from_bits(bits, getattr(SimpleType, BYTECODE_TYPES[dtype]))


def printed(value: float, dtype: str) -> str | None:
    """`value` (already a value of `dtype`) as tileirdisasm prints it (an infinity as its
    bits in hex). None for NaN (its bits are not one value) or an unknown type."""
    if dtype not in PRECISION or value != value:
        return None
    if value in (float("inf"), float("-inf")):
        return _hex_bits(value, dtype)
    # the short form's digits are cut before they are rounded: f32 1e-05 gives 9.999990e-06,
    # which reads back as another f32, so it prints as 9.99999974E-6
    short = to_string(value, dtype, precision=6, padding=0, truncate_zero=False)
    if rounded(float(short), dtype) == value:
        return short
    full = to_string(value, dtype, precision=0, padding=3, truncate_zero=True)
    return full if "." in full else None


def _hex_bits(value: float, dtype: str) -> str | None:
    if dtype not in BYTECODE_TYPES or dtype not in HEX_DIGITS:
        return None
    from cuda.tile._bytecode.float import float_to_bits
    from cuda.tile._bytecode.type import SimpleType
    bits = float_to_bits(value, getattr(SimpleType, BYTECODE_TYPES[dtype]))
    return f"0x{bits:0{HEX_DIGITS[dtype]}X}"


def to_string(value: float, dtype: str, precision: int, padding: int,
              truncate_zero: bool) -> str:
    """APFloat::toString of a finite `value` of `dtype`."""
    sign = "-" if value < 0 or (value == 0 and str(value).startswith("-")) else ""
    if value == 0:
        if padding:
            return sign + "0"
        return sign + ("0.0E+0" if truncate_zero else "0.0" + "0" * (precision - 1) + "e+00")
    if not precision:
        precision = 2 + PRECISION[dtype] * 59 // 196
    digits, exp = _decimal(abs(Fraction(value)), precision)
    return sign + _layout(digits, exp, precision, padding, truncate_zero)


def _decimal(value: Fraction, precision: int) -> tuple[str, int]:
    """The significant digits (most significant first) and the power of ten of the last."""
    numerator, denominator = value.numerator, value.denominator
    exp = 0
    if denominator > 1:             # a power of two: N / 2^e == N * 5^e / 10^e
        texp = denominator.bit_length() - 1
        numerator *= 5 ** texp
        exp = -texp
    required = (precision * 196 + 58) // 59
    bits = numerator.bit_length()
    if bits > required:
        removable = (bits - required) * 59 // 196
        if removable:
            numerator //= 10 ** removable
            exp += removable
    text = str(numerator)
    stripped = text.rstrip("0")
    exp += len(text) - len(stripped)
    return _round(stripped, exp, precision)


def _round(digits: str, exp: int, precision: int) -> tuple[str, int]:
    """APFloat's cut to `precision` digits: half up, trailing zeros dropped."""
    if len(digits) <= precision:
        return digits, exp
    cut = len(digits) - precision
    kept, first_dropped = digits[:precision], digits[precision]
    exp += cut
    if first_dropped < "5":
        stripped = kept.rstrip("0")
        return stripped, exp + len(kept) - len(stripped)
    up = str(int(kept) + 1)
    if len(up) > len(kept):         # carried through every digit: one digit left
        return "1", exp + len(kept)
    stripped = up.rstrip("0")
    return stripped, exp + len(up) - len(stripped)


def _layout(digits: str, exp: int, precision: int, padding: int, truncate_zero: bool) -> str:
    n = len(digits)
    if not padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > padding or n + exp > precision
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > padding
    if scientific:
        exp += n - 1
        mantissa = digits[0] + "." + (digits[1:] or ("0" if truncate_zero else ""))
        if not truncate_zero and precision > n - 1:
            mantissa += "0" * (precision - n + 1)
        power = str(abs(exp))
        if not truncate_zero and len(power) < 2:
            power = "0" + power
        return f"{mantissa}{'E' if truncate_zero else 'e'}{'+' if exp >= 0 else '-'}{power}"
    if exp >= 0:
        return digits + "0" * exp
    whole = exp + n
    if whole > 0:
        return digits[:whole] + "." + digits[whole:]
    return "0." + "0" * -whole + digits
