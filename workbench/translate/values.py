"""The translator's symbolic values. Triton code is pointer arithmetic over integer tiles;
cuTile's is tiles of arrays. To map one onto the other the translator keeps, next to the
cuTile text of every value, what it is made of:

- `Static`: a compile-time value (a literal, a `tl.constexpr`, arithmetic on them), with its
  value in each case, so that facts such as "N equals X.shape[1]" can be checked per case;
- `Run`: a runtime value (a scalar or a tile) with its cuTile text; integer ones also keep
  their sum-of-products form (`terms`), and comparisons keep their `bounds`;
- `Ptr`: a pointer parameter plus an offset in elements (a sum of terms), scalar or tile;
- `Desc`: a `tl.tensor_descriptor` parameter with its block shape;
- `DType`: a dtype (`tl.float32`, `Y.dtype.element_ty`).

A term is a product of factors (Statics and runtime scalars) times at most one
`tl.arange` along one axis of the value's shape.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# an array's float dtype (argspec) as cuTile spells it: what a value read from it is
FLOAT_DTYPES = {"f32": "ct.float32", "f16": "ct.float16", "bf16": "ct.bfloat16",
                "f64": "ct.float64"}

class Fail(Exception):
    """A construct the translator does not map onto cuTile; names the Triton construct."""

    def __init__(self, node, construct: str, message: str):
        super().__init__(message)
        self.node, self.line = node, getattr(node, "lineno", 0) or 0
        self.construct, self.message = construct, message
        self.file: str | None = None      # the file of `line` when not the kernel's


@dataclass(frozen=True)
class Static:
    vals: tuple                  # the value in each case
    text: str                    # cuTile text: a literal, or a constant parameter expression

    @property
    def uniform(self) -> bool:
        return len(set(map(repr, self.vals))) <= 1

    @property
    def value(self):
        return self.vals[0]


def literal(value, cases: int) -> Static:
    return Static((value,) * cases, literal_text(value))


def literal_text(value) -> str:
    if isinstance(value, float):
        if value != value:
            return 'float("nan")'
        if value in (float("inf"), float("-inf")):
            return 'float("inf")' if value > 0 else '-float("inf")'
    return repr(value)


@dataclass(frozen=True)
class Term:
    factors: tuple = ()          # Static | Run (runtime scalars), multiplied
    axis: int | None = None      # the tl.arange axis in the value's shape
    size: Static | None = None   # its length

    def key(self) -> tuple:
        return (tuple(sorted(factor_key(f) for f in self.factors)), self.axis,
                self.size.text if self.size else None)

    def scaled(self, factor) -> "Term":
        return Term(self.factors + (factor,), self.axis, self.size)

    def moved(self, axis_map: dict) -> "Term":
        return Term(self.factors, axis_map.get(self.axis, self.axis), self.size) \
            if self.axis is not None else self


def factor_key(f) -> str:
    return f"S:{f.text}" if isinstance(f, Static) else f"R:{f.code}"


@dataclass(frozen=True)
class Bound:
    """One comparison `terms < limit` (op "<" or "<="; ">" / ">=" are flipped)."""
    terms: tuple
    op: str
    limit: object                # Static | Run


@dataclass
class Run:
    code: str
    shape: tuple | None = None   # None: a scalar; else one Static per axis
    terms: tuple | None = None   # integer sum of products, when known
    bounds: tuple | None = None  # a conjunction of comparisons, when known
    quotients: dict = field(default_factory=dict)   # block-size text -> text of value // it
    kind: str = "value"          # "value" | "bid" | "loop" | "param" | "position" (arith.py)
    case_values: tuple | None = None   # runtime scalar parameters: the value in each case
    is_int: bool | None = None
    upper: tuple | None = None   # an integer scalar known below these values, per case (x % n)
    dtype: str | None = None     # a float value's cuTile dtype where known (tl.dot reads it)

    @property
    def is_tile(self) -> bool:
        return self.shape is not None


@dataclass
class Ptr:
    param: str
    terms: tuple = ()
    shape: tuple | None = None   # None: one pointer; else a tile of pointers


@dataclass
class Desc:
    param: str
    block: tuple                 # Statics


@dataclass(frozen=True)
class BlockPtr:
    """A `tl.make_block_ptr` over a whole tensor (block_ptrs.py): its block and offsets."""
    param: str
    block: tuple                 # Statics
    offsets: tuple               # Static | Run, in elements, one per view dimension
    perm: tuple = ()             # the tensor dimension each view dimension is


@dataclass(frozen=True)
class DType:
    text: str                    # cuTile text: "ct.float32", "Y.dtype"
    of_value: bool = False       # a tile's dtype (`x.dtype`): x may be rebound later


@dataclass(frozen=True)
class Unknown:
    """A name whose assignment failed: its uses report nothing more."""
    name: str


def atom_terms(value) -> tuple | None:
    """The sum-of-products form of an integer value (a Static or an integer scalar)."""
    if isinstance(value, Static):
        return (Term((value,)),) if isinstance(value.value, int) \
            and not isinstance(value.value, bool) else None
    if isinstance(value, Run):
        if value.terms is not None:
            return value.terms
        if value.is_int:             # a runtime integer, scalar or tile (read from memory)
            return (Term((value,)),)
    return None
