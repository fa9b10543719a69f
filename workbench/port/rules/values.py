"""The drafter's values: what a Python name stands for while a kernel is translated (a tile,
a Rust scalar, a Python literal, an array parameter, a dtype), the Rust statements it writes,
and the literal / broadcast helpers every rule shares."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from .dtypes import DT


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
    dtype: DT
    shape: tuple[str, ...]     # constant names and integers


@dataclass
class Scalar:
    dtype: DT                  # a plain Rust value (i32, f32, i64, bool, ..): a 0-d tile


@dataclass
class Lit:
    value: object              # int | float | bool: a loosely typed Python constant
    early: bool = False        # computed (`-math.inf`): cuTile made its constant already
    param: str | None = None   # a bool/float ct.Constant parameter: a constant at the top
    at: object = None          # (block, the statement before) where the literal was read


@dataclass
class Const:
    """An integer expression of `ct.Constant` parameters (and literals): loosely typed like a
    literal, written in Rust with the const generics (cutile folds it)."""
    rust: str                  # e.g. "(N + T - 1i32) / T"
    python: str                # the same in Python, for compile-time evaluation
    names: tuple[str, ...]     # the constants it reads


@dataclass
class ConstFloat:
    """`+ - * /` of `ct.Constant` integers and literals with a float value (`1.0 / N`):
    loosely typed like a float literal. The port computes it on 0-d tiles of the type it
    meets, from the const generics; cutile folds that at each launch's compile as cuTile
    Python folds the Python number, so no entry is split on the constants' values."""
    fn: str                    # add, sub, mul or truediv
    operands: tuple            # two Values: Lit, Const or ConstFloat
    names: tuple[str, ...]     # the constants it reads


@dataclass
class FloatParam:
    """A float `ct.Constant` parameter that the port takes as an i32 const generic holding
    its f32 bits (`EPS_BITS`; cutile's const generics are integers): loosely typed like a
    float literal, a bitcast of the generic where it is used. cutile folds it at each
    launch's compile, as cuTile Python folds the constant, so one entry serves every value."""
    name: str                  # the Python parameter

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name,)


def bits_generic(name: str) -> str:
    """The const generic holding float constant `name`'s f32 bits."""
    return f"{name.upper()}_BITS"


def is_float_constant(c) -> bool:
    """A ct.Constant that is a Python float in every case: a bits generic (FloatParam)."""
    return bool(c.values) and all(type(v) is float for v in c.values)


@dataclass
class ArrayRef:
    name: str
    rank: int
    dtype: DT | None = None


@dataclass
class DType:
    dtype: DT


@dataclass
class Seq:
    """A Python tuple/list of values (shapes, indices, `tile.shape`)."""
    items: list


@dataclass
class Static:
    """A compile-time Python value the translator computed (enum members, None, strings,
    `math.pi`, a folded constant expression): used where cuTile wants a constant."""
    value: object


@dataclass
class Func:
    """A Python function of the kernel's module (a `@ct.function` helper), inlined at calls."""
    name: str
    node: object               # its ast.FunctionDef


@dataclass
class Value:
    kind: object               # Tile | Scalar | Lit | Const | ArrayRef | DType | Seq | Static | Func
    expr: str = ""             # a Rust variable (tiles), an expression (scalars)
    origin: str | None = None  # "bid0", "num_tiles", ...
    stmt: "Stmt | None" = None


@dataclass
class Stmt:
    kind: str                  # "let" | "assign" | "raw" | "loop" | "if"
    name: str = ""
    ty: str = ""
    expr: str = ""
    pure: bool = True
    mutable: bool = False
    text: str = ""             # raw
    header: str = ""           # loop
    body: list["Stmt"] = field(default_factory=list)
    orelse: list["Stmt"] = field(default_factory=list)     # an if's else; a while's test
    loop_var: str = ""
    op: str = ""               # "add" | "sub" | "mul" on floats: what fma fusion looks at
    args: tuple = ()           # the op's operand names
    opts: tuple = ()           # (rounding, ftz) of the op

    def defines(self) -> set[str]:
        if self.kind == "let":
            return {self.name}
        if self.kind == "raw":
            return set(RAW_LET.findall(self.text))
        if self.kind in ("loop", "if"):
            out = {self.loop_var, self.name} - {""}
            for s in self.body + self.orelse:
                out |= s.defines()
            return out
        return set()

    def source_text(self) -> str:
        if self.kind in ("loop", "if"):
            return " ".join([self.header, *self.args] + [s.source_text()
                                                         for s in self.body + self.orelse])
        return f"{self.name} {self.expr} {self.text}"

    def render(self, indent: str) -> list[str]:
        if self.kind == "let":
            mut = "mut " if self.mutable else ""
            return [f"{indent}let {mut}{self.name}: {self.ty} = {self.expr};"]
        if self.kind == "assign":
            return [f"{indent}{self.name} = {self.expr};"]
        if self.kind == "raw":
            return [indent + line for line in self.text.splitlines()]
        inner = indent + "    "
        if self.kind == "if" and self.name:      # `let x: T = if c { .. a } else { .. b };`
            then_value, else_value = self.args
            lines = [f"{indent}let {self.name}: {self.ty} = {self.header} {{"]
            lines += [line for s in self.body for line in s.render(inner)] + [inner + then_value]
            lines += [f"{indent}}} else {{"]
            lines += [line for s in self.orelse for line in s.render(inner)] + [inner + else_value]
            return lines + [f"{indent}}};"]
        lines = [f"{indent}{self.header} {{"]
        if self.kind == "loop" and self.orelse:      # `while { test; c } { body }`
            lines += [line for s in self.orelse for line in s.render(inner)] + [f"{indent}}} {{"]
        for s in self.body:
            lines += s.render(inner)
        if self.kind == "if":
            lines.append(f"{indent}}} else {{")
            for s in self.orelse:
                lines += s.render(inner)
        return lines + [f"{indent}}}"]


IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
RAW_LET = re.compile(r"^\s*let\s+(?:mut\s+)?\(?\s*([A-Za-z_]\w*)", re.M)

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
    "entry_token", "assume_div_by", "assume_bounds_lower", "make_tensor_view", "Array",
    # every other cutile function or type a rule writes
    "absf", "absi", "floor", "ceil", "sin", "cos", "tan", "sinh", "cosh", "exp2", "log2",
    "sqrt", "exti", "trunci", "bitcast", "convert_scalar", "tile_to_scalar", "addptr_tile",
    "get_tensor_base", "load_ptr_tko", "store_ptr_tko", "load_view_tko", "store_view_tko_mut",
    "permute", "cat", "extract", "scan_sum", "reduce_prod", "maxf", "minf", "maxi", "mini",
    "divi", "remi", "remf", "fpowf", "addf", "subf", "mulf", "divf", "cmpf", "cmpi", "andi",
    "ori", "xori", "shri", "negi", "get_num_tile_blocks", "atan2", "exp_with_rounding",
    "tanh_with_rounding", "Shape", "PointerTile", "Latency", "ordering", "scope", "tma",
    "predicate", "cmp_ordering", "nan", "overflow", "reverse", "const_array", "shape",
    "f16", "bf16", "f64", "i8", "i16", "i64", "u8", "u16", "u32", "u64", "tf32", "f8e4m3fn",
    "f8e5m2", "Some", "None", "unsafe_", "tensor_strides_1", "tensor_strides_2",
    "tensor_strides_3", "tensor_strides_4", "load_ptr_padded_0", "load_ptr_padded_1",
    "load_ptr_padded_2", "load_ptr_padded_3", "load_ptr_padded_4", "usize", "store_view_raw", "load_view_raw", "join_tokens", "make_partition_view_mut",
}

def is_zero(v: Value) -> bool:
    """A literal or static integer 0 (an index at the start of an axis)."""
    return isinstance(v.kind, (Lit, Static)) and type(v.kind.value) is int and v.kind.value == 0


def root_of(t, name: str) -> str:
    """The parameter an array is: itself, or the one an `Array.slice` view (of a view) is of."""
    return t.state.slice_roots.get(name, name)


def tensor_ref(t, arr: ArrayRef) -> str:
    """The `&Tensor` argument of an array: a parameter is one; a slice is a local `Tensor`
    (cutile's compiler infers no type through a reference to a local)."""
    return f"&{arr.name}" if arr.name in t.state.slice_roots else arr.name


def refuse_write_through_slice(t, arr: ArrayRef, node, what: str) -> None:
    """A store / scatter / atomic through an `Array.slice` view (ops_slice.py): refused."""
    if arr.name in t.state.slice_roots:
        raise Fail(node, what, f"{what} through `{arr.name}`, a slice of "
                   f"{t.state.slice_roots[arr.name]}: the drafter keeps an output's token and launch "
                   "form per parameter; a write through a view of it is not ported yet")


def shape_text(shape) -> str:
    return ", ".join(shape)


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


class NeedConstants(Exception):
    """A value the drafter must know at draft time depends on these `ct.Constant`s: the
    kernel is split into one entry per combination of their values in the cases."""

    def __init__(self, names, node, what: str):
        super().__init__(what)
        self.names = tuple(names)
        self.line = getattr(node, "lineno", 0)
        self.what = what


class NeedDtypes(Exception):
    """A value the drafter must spell depends on an array's dtype (a literal of a generic
    element type, `x.dtype == ct.float32`): the kernel is split into one entry per dtype
    combination of the cases, each with concrete element types."""

    def __init__(self, node, what: str):
        super().__init__(what)
        self.line = getattr(node, "lineno", 0)
        self.what = what
