"""The drafter's values: what a Python name stands for while a kernel is translated (a tile,
a Rust scalar, a Python literal, an array parameter, a dtype), the Rust statements it writes,
and the literal / broadcast helpers every rule shares."""
from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field


class Fail(Exception):
    """A construct the drafter does not translate: it becomes one Diagnostic."""

    def __init__(self, node, construct: str, message: str, follows: bool = False):
        super().__init__(message)
        self.line = getattr(node, "lineno", 0) if not isinstance(node, int) else node
        self.construct = construct
        self.message = message
        self.follows = follows        # caused by an earlier failure: not worth reporting


@dataclass
class Tile:
    dtype: str                 # "E", "f32", "i32", "bool"
    shape: tuple[str, ...]


@dataclass
class Scalar:
    dtype: str                 # "i32", "f32", "bool"


@dataclass
class Lit:
    value: object              # int | float | bool


@dataclass
class ArrayRef:
    name: str
    rank: int


@dataclass
class DType:
    dtype: str


@dataclass
class Value:
    kind: object               # Tile | Scalar | Lit | ArrayRef | DType
    expr: str = ""             # a Rust variable (tiles), an expression (scalars)
    origin: str | None = None  # "bid0", "num_tiles", ...
    stmt: "Stmt | None" = None


@dataclass
class Stmt:
    kind: str                  # "let" | "assign" | "raw" | "loop"
    name: str = ""
    ty: str = ""
    expr: str = ""
    pure: bool = True
    mutable: bool = False
    text: str = ""             # raw
    header: str = ""           # loop
    body: list["Stmt"] = field(default_factory=list)
    loop_var: str = ""

    def defines(self) -> set[str]:
        if self.kind == "let":
            return {self.name}
        if self.kind == "loop":
            out = {self.loop_var}
            for s in self.body:
                out |= s.defines()
            return out
        return set()

    def source_text(self) -> str:
        if self.kind == "loop":
            return self.header + " ".join(s.source_text() for s in self.body)
        return f"{self.name} {self.expr} {self.text}"

    def render(self, indent: str) -> list[str]:
        if self.kind == "let":
            mut = "mut " if self.mutable else ""
            return [f"{indent}let {mut}{self.name}: {self.ty} = {self.expr};"]
        if self.kind == "assign":
            return [f"{indent}{self.name} = {self.expr};"]
        if self.kind == "raw":
            return [indent + line for line in self.text.splitlines()]
        lines = [f"{indent}{self.header} {{"]
        for s in self.body:
            lines += s.render(indent + "    ")
        return lines + [f"{indent}}}"]


IDENT = re.compile(r"\b[A-Za-z_]\w*\b")

RUST_KEYWORDS = {
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
    "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final",
    "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
}
# cutile functions a generated body may call: locals must not shadow them
RESERVED = RUST_KEYWORDS | {
    "E", "Tile", "Tensor", "Partition", "PartitionMut", "Token", "shape", "const_shape",
    "exp", "log", "rsqrt", "tanh", "negf", "fma", "mma", "iota", "select", "constant",
    "scalar_to_tile", "convert_tile", "reduce_sum", "reduce_max", "reduce_min",
    "max_tile", "min_tile", "lt_tile", "le_tile", "gt_tile", "ge_tile", "eq_tile", "ne_tile",
    "get_tile_block_id", "get_shape_dim", "ceil_div", "num_tiles", "make_partition_view",
    "padding", "dim_map", "rounding", "ftz", "broadcast_scalar", "f32", "i32", "bool",
    "entry_token",
}

DTYPE_NAMES = {"float32": "f32", "int32": "i32", "bool_": "bool"}
UNSUPPORTED_DTYPES = {"float16", "bfloat16", "float64", "int64", "int16", "int8", "uint8",
                      "float8_e4m3fn", "float8_e5m2", "tfloat32"}


def shape_text(shape) -> str:
    return ", ".join(shape)


def tile_type(t: Tile) -> str:
    return f"Tile<{t.dtype}, {{ [{shape_text(t.shape)}] }}>"


def rust_type(kind) -> str:
    return tile_type(kind) if isinstance(kind, Tile) else kind.dtype


def literal(value, dtype: str, node) -> str:
    """A Python literal as a Rust literal of `dtype`."""
    if dtype == "f32":
        value = float(value)
        if math.isnan(value):
            return "f32::NAN"
        if math.isinf(value):
            return "f32::INFINITY" if value > 0 else "f32::NEG_INFINITY"
        text = repr(value)
        return (text if any(c in text for c in ".e") else text + ".0") + "f32"
    if dtype == "i32":
        if isinstance(value, float) and not value.is_integer():
            raise Fail(node, "literal", f"{value} is not an integer, the operand is i32")
        return f"{int(value)}i32"
    if dtype == "bool":
        return "true" if value else "false"
    raise Fail(node, "literal", f"a Python literal in a tile of the arrays' dtype ({dtype}) "
                                "has no generic Rust spelling; ct.astype the tile to "
                                "float32 first")


def broadcast_shape(a: tuple, b: tuple, node) -> tuple:
    """NumPy broadcasting of two symbolic shapes."""
    n = max(len(a), len(b))
    a = ("1",) * (n - len(a)) + tuple(a)
    b = ("1",) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x == y or y == "1":
            out.append(x)
        elif x == "1":
            out.append(y)
        else:
            raise Fail(node, "broadcast", f"shapes ({shape_text(a)}) and ({shape_text(b)}) "
                                          "do not broadcast (symbolically)")
    return tuple(out)


def assigned_names(nodes) -> set[str]:
    names = set()
    for stmt in nodes:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)
    return names
