"""The rule-based drafter: a cuTile Python kernel -> the four files of a cuTile Rust port
(`cutile` =0.4.0), offline, by translating the kernel's AST statement by statement.

    spec = analyze(source, filename, kernel_name, list(op.cases))
    draft = draft(spec, source, op.name)
    draft.files["src/kernel.rs"], draft.ok, draft.diagnostics

Rules (each chosen so that the port's Tile IR lines up with the Python kernel's under
`workbench diff`; the hand ports in kernels_src/<op>/port are the reference):
  * types are tracked per value: a tile (dtype E = the arrays' element type, f32, i32 or
    bool; a symbolic shape of constant names and integers), a Rust scalar (i32/f32), a Python
    literal, an array parameter. Every op is one `let` with its type written out.
  * Python's implicit broadcasting becomes explicit `reshape` (leading 1s, kept dims) and
    `broadcast`; scalars and literals become `scalar_to_tile` (+ `convert_tile` to the
    tile's dtype) + reshape/broadcast, built after the other operand, as Python does.
  * `a * b + c` (inline product, floating tiles) is one `fma(.., NearestEven, Disabled)`,
    as cuTile Python's compiler fuses it.
  * loads: ZERO padding -> `partition`, other padding -> `make_partition_view(.., padding::X,
    dim_map::Identity, x.token())`; literal indices are bound first (their constant
    precedes the partition's shape constants, as in the Python IR); partitions are reused.
  * stores: index == (bid(0), bid(1), ..) -> a statically tiled `&mut` output and
    `out.store(tile)`; otherwise the same output stored at the explicit index through
    `partition_full_mut(shape)`, in an `unchecked_accesses` entry (a launch checks that
    `&mut` outputs come partitioned by the kernel's tile shape, so a dynamic-shape output
    cannot be launched).
  * `for v in range(n)` -> `for v in 0i32..n`, loop-carried values are `let mut` and
    assigned; pure loop-invariant lets are hoisted before the loop (Python's compiler
    hoists them too). A loop whose bound is not `ct.num_tiles` and whose loads index with
    the loop variable makes the entry `unsafe` with `unchecked_accesses = true` (cutile
    would otherwise guard those loads with runtime asserts the Python kernel lacks).
  * kernels without loops share one ordering token across all arrays (`set_token`), as
    cuTile Python threads its entry token through every load and store.
  * `if` / `if-else` whose test reads only `ct.Constant` parameters and literals is split
    into entries, as cuTile Python specializes it away: one `#[cutile::entry]` per distinct
    combination of the tested constants' values in the spec's cases, named
    `<kernel>_<const>_<value>[_<const>_<value>..]` (lowercase, `-` -> `m`), each translating
    only the branch the test (evaluated in Python with those values) selects. Every entry
    keeps all the generics. port.toml's `[entries]` maps `"NAME=V[,NAME=V]"` to the entry
    (`entry` is the first one) and the launcher dispatches on the constants' values (a
    value with no entry is a bad argument). A test that also reads a runtime value, or
    anything but names, literals, comparisons, `and`/`or`/`not` and arithmetic, stays
    Unsupported.
Anything else is an `Unsupported(line, construct, message)`; the draft then has `ok` False.
"""
from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field

from .analyze import ARRAY, CONSTANT, SCALAR, KernelSpec, analyze, ct_name, keyword  # noqa: F401


@dataclass
class Unsupported:
    line: int
    construct: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.construct}: {self.message}"


@dataclass
class Draft:
    files: dict[str, str]
    diagnostics: list[Unsupported] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.diagnostics


class Fail(Exception):
    def __init__(self, node, construct: str, message: str, follows: bool = False):
        super().__init__(message)
        self.line = getattr(node, "lineno", 0) if not isinstance(node, int) else node
        self.construct = construct
        self.message = message
        self.follows = follows        # caused by an earlier failure: not worth reporting


# ------------------------------------------------------------------------------ values

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
PADDING = {"ZERO": "Zero", "NEG_INF": "NegInf", "POS_INF": "PosInf", "NAN": "Nan",
           "NEG_ZERO": "NegZero", "UNDETERMINED": "None", None: "None"}
UNARY_MATH = {"exp": "exp({})", "log": "log({})", "tanh": "tanh({})",
              "rsqrt": "rsqrt({}, ftz::Disabled)"}
REDUCE = {"sum": "reduce_sum", "max": "reduce_max", "min": "reduce_min"}
COMPARE = {ast.Lt: "lt_tile", ast.LtE: "le_tile", ast.Gt: "gt_tile", ast.GtE: "ge_tile",
           ast.Eq: "eq_tile", ast.NotEq: "ne_tile"}
RUST_BINOP = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
FFI_DTYPES = {"f32": ("DTYPE_F32", "f32"), "f16": ("DTYPE_F16", "f16"),
              "bf16": ("DTYPE_BF16", "bf16")}


def shape_text(shape) -> str:
    return ", ".join(shape)


def tile_type(t: Tile) -> str:
    return f"Tile<{t.dtype}, {{ [{shape_text(t.shape)}] }}>"


def rust_type(kind) -> str:
    return tile_type(kind) if isinstance(kind, Tile) else kind.dtype


def literal(value, dtype: str, node) -> str:
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


# ------------------------------------------------------------------------------ constant branches

CONST_TEST_NODES = (ast.Expression, ast.Name, ast.Load, ast.Constant, ast.Compare, ast.BoolOp,
                    ast.UnaryOp, ast.BinOp, ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd,
                    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Add, ast.Sub,
                    ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr, ast.BitXor)


def const_test_problem(test: ast.AST) -> str | None:
    """Why `test` cannot be evaluated from constant values alone, or None."""
    for n in ast.walk(test):
        if not isinstance(n, CONST_TEST_NODES):
            return f"`{type(n).__name__}` in the test is not evaluated by the drafter"
        if isinstance(n, ast.Constant) and not isinstance(n.value, (int, float, bool)):
            return f"literal {n.value!r} in the test"
    return None


def eval_const_test(test: ast.AST, values: dict[str, object]) -> bool:
    """The test's truth for the constants' values (checked by const_test_problem first)."""
    code = compile(ast.Expression(body=test), "<constant test>", "eval")
    return bool(eval(code, {"__builtins__": {}}, dict(values)))


def const_branch_names(fn: ast.FunctionDef, constants: list[str]) -> list[str]:
    """The constants tested by `if` statements that the drafter splits into entries."""
    shadowed = assigned_names(fn.body)
    tested: list[str] = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.If):
            continue
        names = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
        if names and names <= set(constants) - shadowed and const_test_problem(node.test) is None:
            tested += [c for c in constants if c in names and c not in tested]
    return [c for c in constants if c in tested]


def entry_combinations(spec: KernelSpec, tested: list[str]) -> list[dict[str, object]]:
    """The distinct values of the tested constants over the cases, in case order."""
    out: list[dict[str, object]] = []
    for s in spec.specializations:
        combo = {c: s.constants.get(c) for c in tested}
        if all(v is not None for v in combo.values()) and combo not in out:
            out.append(combo)
    return out


def entry_name(kernel: str, combo: dict[str, object]) -> str:
    parts = [kernel] + [f"{c}_{str(v).replace('-', 'm')}" for c, v in combo.items()]
    return re.sub(r"\W", "_", "_".join(parts).lower())


def entry_key(combo: dict[str, object]) -> str:
    return ",".join(f"{c}={v}" for c, v in combo.items())


# ------------------------------------------------------------------------------ translator

class Translator:
    def __init__(self, spec: KernelSpec, fn: ast.FunctionDef,
                 const_values: dict[str, object] | None = None):
        self.spec = spec
        self.fn = fn
        self.const_values = dict(const_values or {})   # this entry's constant-branch values
        self.env: dict[str, Value] = {}
        self.blocks: list[list[Stmt]] = [[]]
        self.scope_ids: list[int] = [0]
        self.next_scope = 1
        self.used: set[str] = set(RESERVED)
        self.cache: dict[tuple, tuple[int, Value]] = {}
        self.diagnostics: list[Unsupported] = []
        self.loops = 0
        self.unchecked = False
        self.outputs: dict[str, dict] = {}     # name -> {"form", "shape"}
        self.loaded: set[str] = set()
        self.store_shapes: dict[int, list[str]] = {}
        self.notes: list[str] = []
        self.loop_stack: list[dict] = []
        self.unported: set[str] = set()      # names whose assignment failed
        for p in spec.params:
            self.used.add(p.name)
            if p.kind == ARRAY:
                self.env[p.name] = Value(ArrayRef(p.name, p.rank or 0), p.name)
            elif p.kind == SCALAR:
                self.env[p.name] = Value(Scalar(self.scalar_dtype(p)), p.name)
            else:
                self.env[p.name] = Value(Scalar("i32"), p.name, origin="constant")

    def scalar_dtype(self, p) -> str:
        kinds = {"f32": "f32", "f64": "f32", "f16": "f32", "bf16": "f32",
                 "i32": "i32", "i64": "i32", "bool": "bool"}
        if len(p.dtypes) != 1 or p.dtypes[0] not in ("f32", "i32"):
            self.diag(p.line, "scalar parameter",
                      f"{p.name} has dtypes {p.dtypes}; only one of f32 or i32 is ported")
        return kinds.get(p.dtypes[0] if p.dtypes else "f32", "f32")

    # ---- bookkeeping
    def diag(self, line, construct, message):
        self.diagnostics.append(Unsupported(line, construct, message))

    def fresh(self, hint: str) -> str:
        base = re.sub(r"\W", "_", hint) or "v"
        if base[0].isdigit():
            base = "v" + base
        name, n = base, 2
        while name in self.used:
            name, n = f"{base}_{n}", n + 1
        self.used.add(name)
        return name

    def emit(self, stmt: Stmt) -> Stmt:
        self.blocks[-1].append(stmt)
        return stmt

    def let(self, hint: str, kind, expr: str, pure: bool = True, origin=None) -> Value:
        name = self.fresh(hint)
        stmt = self.emit(Stmt("let", name=name, ty=rust_type(kind), expr=expr, pure=pure))
        return Value(kind, name, origin=origin, stmt=stmt)

    def cached(self, key, make) -> Value:
        hit = self.cache.get(key)
        if hit is not None and hit[0] in self.scope_ids:
            return hit[1]
        value = make()
        self.cache[key] = (self.scope_ids[-1], value)
        return value

    # ---- statements
    def run(self):
        body = self.fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        self.block(body)

    def block(self, stmts):
        for stmt in stmts:
            try:
                self.statement(stmt)
            except Fail as f:
                if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                    self.unported.add(stmt.targets[0].id)
                if not f.follows:
                    self.diag(f.line, f.construct, f.message)

    def statement(self, stmt):
        if isinstance(stmt, ast.Assign):
            if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
                raise Fail(stmt, "assignment", "only `name = expression` is ported "
                                               "(no tuple unpacking or subscripts)")
            self.assign(stmt.targets[0].id, stmt.value, stmt)
        elif isinstance(stmt, ast.AugAssign):
            if not isinstance(stmt.target, ast.Name):
                raise Fail(stmt, "assignment", "augmented assignment to a non-name")
            value = ast.BinOp(left=ast.Name(stmt.target.id, ast.Load()), op=stmt.op,
                              right=stmt.value)
            ast.copy_location(value, stmt)
            self.assign(stmt.target.id, value, stmt)
        elif isinstance(stmt, ast.Expr):
            call = stmt.value
            if isinstance(call, ast.Constant):
                return
            if isinstance(call, ast.Call) and ct_name(call.func) == "store":
                self.store(call)
            elif isinstance(call, ast.Call) and ct_name(call.func) is not None:
                name = ct_name(call.func)
                raise Fail(stmt, f"ct.{name}", f"ct.{name} has no translation rule "
                                               "(only ct.store is ported as a statement)")
            else:
                raise Fail(stmt, ast.unparse(call)[:40],
                           "an expression statement other than ct.store")
        elif isinstance(stmt, ast.For):
            self.for_loop(stmt)
        elif isinstance(stmt, ast.If):
            self.if_statement(stmt)
        elif isinstance(stmt, ast.Pass):
            return
        else:
            raise Fail(stmt, type(stmt).__name__.lower(), "statement kind not ported")

    def if_statement(self, stmt: ast.If):
        consts = set(self.spec_constant_names())
        names = sorted({n.id for n in ast.walk(stmt.test) if isinstance(n, ast.Name)})
        tested = [n for n in names if n in consts and self.env.get(n) is not None
                  and self.env[n].origin == "constant"]
        if not tested:
            raise Fail(stmt, "if", f"runtime branch `{ast.unparse(stmt.test)}` is not ported")
        other = [n for n in names if n not in tested]
        if other:
            raise Fail(stmt, "if", f"branch on constant(s) {', '.join(tested)} mixed with "
                       f"runtime value(s) {', '.join(other)} (`{ast.unparse(stmt.test)}`): "
                       "only a test of constants and literals is split into entries")
        bad = const_test_problem(stmt.test)
        if bad:
            raise Fail(stmt, "if", f"branch on constant(s) {', '.join(tested)} "
                       f"(`{ast.unparse(stmt.test)}`): {bad}; not split into entries")
        missing = [n for n in tested if n not in self.const_values]
        if missing:
            raise Fail(stmt, "if", f"branch on constant(s) {', '.join(missing)} "
                       f"(`{ast.unparse(stmt.test)}`): no value for this entry")
        taken = eval_const_test(stmt.test, self.const_values)
        # the branch's statements join the enclosing block: Python folds the `if` away
        self.block(stmt.body if taken else stmt.orelse)

    def spec_constant_names(self) -> list[str]:
        return [p.name for p in self.spec.constants]

    def assign(self, name: str, node, stmt):
        carried = self.loop_stack and name in self.loop_stack[-1]["carried"]
        hint = name if not carried else name + "_next"
        value = self.expr(node, hint=hint)
        if isinstance(value.kind, ArrayRef):
            self.env[name] = value
            return
        if isinstance(value.kind, (Lit, DType)):
            if carried:
                raise Fail(stmt, "assignment", f"{name} is loop-carried but assigned a literal")
            self.env[name] = value
            return
        if carried:
            old = self.env[name]
            if rust_type(old.kind) != rust_type(value.kind):
                raise Fail(stmt, "loop-carried value",
                           f"{name} changes type in the loop: {rust_type(old.kind)} -> "
                           f"{rust_type(value.kind)}")
            self.emit(Stmt("assign", name=old.expr, expr=value.expr, pure=False))
            return
        if value.stmt is None or value.expr in self.env_names():
            # an existing value under a new name (`x = y`, a parameter, a no-op astype)
            value = self.let(name, value.kind, value.expr, origin=value.origin)
        self.env[name] = value

    def env_names(self) -> set[str]:
        return {v.expr for v in self.env.values()}

    def for_loop(self, stmt: ast.For):
        if stmt.orelse:
            raise Fail(stmt, "for-else", "a for loop with an else clause")
        if not isinstance(stmt.target, ast.Name):
            raise Fail(stmt, "for", "the loop variable must be one name")
        it = stmt.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and it.func.id == "range" and 1 <= len(it.args) <= 2 and not it.keywords):
            raise Fail(stmt, "for", "only `for v in range(n)` / `range(a, b)` loops are ported")
        bounds = [self.scalar_i32(a) for a in it.args]
        start, stop = (("0i32", bounds[0]) if len(bounds) == 1 else bounds)
        start = start if isinstance(start, str) else start.expr
        stop_value = stop
        self.loops += 1
        carried = {n for n in assigned_names(stmt.body) if n in self.env
                   and not isinstance(self.env[n].kind, (ArrayRef, Lit, DType))}
        for n in sorted(carried):
            value = self.env[n]
            if value.stmt is None or value.stmt.kind != "let" or isinstance(value.kind, Scalar) \
                    and value.origin in ("constant",) or value.expr in {p.name for p in self.spec.params}:
                raise Fail(stmt, "loop-carried value", f"{n} is reassigned in the loop but is "
                                                       "not a local value")
            value.stmt.mutable = True
            value.stmt.pure = False
        var = self.fresh(stmt.target.id)
        body: list[Stmt] = []
        self.blocks.append(body)
        self.scope_ids.append(self.next_scope)
        self.next_scope += 1
        saved = self.env.get(stmt.target.id)
        self.env[stmt.target.id] = Value(Scalar("i32"), var, origin="loop")
        self.loop_stack.append({"carried": carried, "var": var, "bound": stop_value,
                                "loads": []})
        try:
            self.block(stmt.body)
        finally:
            frame = self.loop_stack.pop()
            self.blocks.pop()
            self.scope_ids.pop()
        if saved is not None:
            self.env[stmt.target.id] = saved
        if frame["loads"] and getattr(stop_value, "origin", None) != "num_tiles":
            self.unchecked = True
            self.notes.append(
                f"line {stmt.lineno}: loads indexed by `{stmt.target.id}` run to a bound "
                "cutile cannot relate to the arrays, so the entry is unsafe with "
                "unchecked_accesses = true; the launcher must keep every index in range")
        # hoist pure loop invariants (Python's compiler does the same)
        variant = {var} | {self.env[n].expr for n in carried}
        hoisted, kept = [], []
        for s in body:
            uses = set(IDENT.findall(s.source_text()))
            if s.kind == "let" and s.pure and not (uses & variant):
                hoisted.append(s)
            else:
                kept.append(s)
                variant |= s.defines()
        for s in hoisted:
            self.emit(s)
        stop_expr = stop_value if isinstance(stop_value, str) else stop_value.expr
        self.emit(Stmt("loop", header=f"for {var} in {start}..{stop_expr}", body=kept,
                       loop_var=var, pure=False))

    def scalar_i32(self, node) -> Value | str:
        v = self.expr(node)
        if isinstance(v.kind, Lit) and isinstance(v.kind.value, int):
            return literal(v.kind.value, "i32", node)
        if isinstance(v.kind, Scalar) and v.kind.dtype == "i32":
            return v
        raise Fail(node, "range bound", f"`{ast.unparse(node)}` is not an i32 scalar")

    # ---- tile access
    def index_values(self, node, rank: int, what: str) -> list[str]:
        items = node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]
        if len(items) != rank:
            raise Fail(node, what, f"index has {len(items)} entries, the array rank is {rank}")
        out = []
        for item in items:
            v = self.expr(item)
            if isinstance(v.kind, Lit) and isinstance(v.kind.value, int) \
                    and not isinstance(v.kind.value, bool):
                key = ("index", v.kind.value)
                lit = v.kind.value
                v = self.cached(key, lambda: self.let("zero" if lit == 0 else f"idx{lit}",
                                                      Scalar("i32"), literal(lit, "i32", item)))
            elif not (isinstance(v.kind, Scalar) and v.kind.dtype == "i32"):
                raise Fail(item, what, f"index entry `{ast.unparse(item)}` is not an i32 scalar")
            out.append(v)
        return out

    def const_shape(self, node, what: str) -> tuple[str, ...]:
        items = node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]
        shape = []
        for item in items:
            if isinstance(item, ast.Constant) and isinstance(item.value, int):
                shape.append(str(item.value))
            elif isinstance(item, ast.Name) and self.env.get(item.id) is not None \
                    and self.env[item.id].origin == "constant":
                shape.append(item.id)
            else:
                raise Fail(item, what, f"shape entry `{ast.unparse(item)}` is neither an "
                                       "integer nor a ct.Constant parameter")
        return tuple(shape)

    def array_arg(self, node, what: str) -> ArrayRef:
        v = self.expr(node)
        if not isinstance(v.kind, ArrayRef):
            raise Fail(node, what, f"`{ast.unparse(node)}` is not an array parameter")
        return v.kind

    def check_kwargs(self, call, allowed: set[str], what: str):
        for kw in call.keywords:
            if kw.arg not in allowed:
                raise Fail(call, f"{what}({kw.arg}=...)", f"keyword {kw.arg!r} is not ported")

    def load(self, call) -> Value:
        self.check_kwargs(call, {"index", "shape", "padding_mode"}, "ct.load")
        arr = self.array_arg(keyword(call, "array", 0), "ct.load")
        if arr.name in self.outputs:
            raise Fail(call, "ct.load", f"{arr.name} is loaded after being stored")
        self.loaded.add(arr.name)
        index_node, shape_node = keyword(call, "index", 1), keyword(call, "shape", 2)
        if index_node is None or shape_node is None:
            raise Fail(call, "ct.load", "index and shape are required")
        shape = self.const_shape(shape_node, "ct.load")
        if len(shape) != arr.rank:
            raise Fail(call, "ct.load", f"tile rank {len(shape)} != array rank {arr.rank}")
        pad_node = keyword(call, "padding_mode", None)
        pad = None
        if pad_node is not None:
            pad = (ct_name(pad_node) or "").removeprefix("PaddingMode.")
            if pad not in PADDING:
                raise Fail(pad_node, "padding_mode", f"`{ast.unparse(pad_node)}` is not ported")
        index = self.index_values(index_node, arr.rank, "ct.load")
        part = self.partition(arr, shape, pad)
        if self.loop_stack and any(v.origin == "loop" for v in index):
            self.loop_stack[-1]["loads"].append(call.lineno)
        return self.let(f"{arr.name}_tile", Tile("E", shape),
                        f"{part}.load([{', '.join(v.expr for v in index)}])", pure=False)

    def partition(self, arr: ArrayRef, shape, pad) -> str:
        def make():
            ty = f"Partition<E, {{ [{shape_text(shape)}] }}>"
            if pad == "ZERO":
                expr = f"{arr.name}.partition(shape![{shape_text(shape)}])"
            else:
                expr = (f"unsafe {{ make_partition_view({arr.name}, shape![{shape_text(shape)}], "
                        f"padding::{PADDING[pad]}, dim_map::Identity, {arr.name}.token()) }}")
            name = self.fresh(f"{arr.name}_part" if pad != "UNDETERMINED-view" else arr.name)
            stmt = self.emit(Stmt("let", name=name, ty=ty, expr=expr))
            return Value(ArrayRef(arr.name, arr.rank), name, stmt=stmt)
        return self.cached(("partition", arr.name, shape, pad), make).expr

    def store(self, call):
        self.check_kwargs(call, {"index", "tile"}, "ct.store")
        if self.loop_stack:
            raise Fail(call, "ct.store", "a store inside a loop is not ported")
        arr = self.array_arg(keyword(call, "array", 0), "ct.store")
        if arr.name in self.outputs:
            raise Fail(call, "ct.store", f"{arr.name} is stored twice")
        if arr.name in self.loaded:
            raise Fail(call, "ct.store", f"{arr.name} is both loaded and stored (in place)")
        index_node, tile_node = keyword(call, "index", 1), keyword(call, "tile", 2)
        if index_node is None or tile_node is None:
            raise Fail(call, "ct.store", "index and tile are required")
        tile = self.expr(tile_node, hint="result")
        if not isinstance(tile.kind, Tile):
            raise Fail(tile_node, "ct.store", "the stored value is not a tile")
        if tile.kind.dtype != "E":
            raise Fail(tile_node, "ct.store", f"the stored tile is {tile.kind.dtype}, the array "
                       "holds the arrays' dtype: ct.astype(tile, out.dtype) first")
        if len(tile.kind.shape) != arr.rank:
            raise Fail(tile_node, "ct.store", f"tile rank {len(tile.kind.shape)} != array rank "
                                              f"{arr.rank}")
        shape = tile.kind.shape
        self.store_shapes[call.lineno] = list(shape)
        bids = isinstance(index_node, (ast.Tuple, ast.List)) and len(index_node.elts) == arr.rank
        index = None
        if bids:
            index = [self.expr(e) for e in index_node.elts]
            bids = all(v.origin == f"bid{i}" for i, v in enumerate(index))
        if bids and arr.rank <= 3:
            self.outputs[arr.name] = {"form": "static", "shape": shape}
            self.emit(Stmt("raw", text=f"{arr.name}.store({tile.expr});", pure=False))
            return
        index = self.index_values(index_node, arr.rank, "ct.store")
        # A launch passes every `&mut` output as a partition of the kernel's tile shape
        # (cutile checks it), so an explicit index goes through the full view, unchecked:
        # the launcher's shape checks keep it in range.
        self.outputs[arr.name] = {"form": "indexed", "shape": shape}
        if not self.unchecked:
            self.unchecked = True
            self.notes.append("unchecked_accesses: the store at an explicit index goes through "
                              "the full output view; the launcher must keep it in range")
        part = self.fresh(f"{arr.name}_part")
        self.emit(Stmt("raw", pure=False, text=(
            f"let mut {part}: PartitionMut<E, {{ [{shape_text(shape)}] }}> =\n"
            f"    unsafe {{ {arr.name}.partition_full_mut(shape![{shape_text(shape)}]) }};\n"
            f"{part}.store({tile.expr}, [{', '.join(v.expr for v in index)}]);")))

    # ---- expressions
    def expr(self, node, hint: str | None = None) -> Value:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (int, float, bool)):
                return Value(Lit(node.value))
            raise Fail(node, "constant", f"literal {node.value!r} is not ported")
        if isinstance(node, ast.Name):
            if node.id in self.unported and node.id not in self.env:
                raise Fail(node, node.id, f"`{node.id}` was not ported", follows=True)
            if node.id not in self.env:
                raise Fail(node, node.id, f"unknown name `{node.id}` (globals are not ported)")
            return self.env[node.id]
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, hint)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node, hint)
        if isinstance(node, ast.BinOp):
            return self.binop(node, hint)
        if isinstance(node, ast.Compare):
            return self.compare(node, hint)
        if isinstance(node, ast.Call):
            return self.call(node, hint)
        raise Fail(node, type(node).__name__, f"`{ast.unparse(node)[:40]}` is not ported")

    def attribute(self, node) -> Value:
        name = ct_name(node)
        if name is not None:
            if name in DTYPE_NAMES:
                return Value(DType(DTYPE_NAMES[name]))
            if name in UNSUPPORTED_DTYPES:
                raise Fail(node, f"ct.{name}", "only float32, int32, bool and the arrays' own "
                                               "dtype (x.dtype) are ported as tile dtypes")
            raise Fail(node, f"ct.{name}", "not ported")
        base = self.expr(node.value)
        if isinstance(base.kind, ArrayRef) and node.attr == "dtype":
            return Value(DType("E"))
        if isinstance(base.kind, Tile) and node.attr == "dtype":
            return Value(DType(base.kind.dtype))
        raise Fail(node, f".{node.attr}", f"`{ast.unparse(node)}` is not ported")

    def subscript(self, node, hint) -> Value:
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "shape":
            base = self.expr(value.value)
            if isinstance(base.kind, ArrayRef) and isinstance(node.slice, ast.Constant) \
                    and isinstance(node.slice.value, int):
                dim = node.slice.value % max(base.kind.rank, 1)
                return self.let(hint or f"{base.kind.name}_dim{dim}", Scalar("i32"),
                                f"get_shape_dim({base.kind.name}.shape(), {dim}i32)")
        raise Fail(node, "subscript", f"`{ast.unparse(node)}` is not ported "
                                      "(only array.shape[<int>])")

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

    # scalars and literals -> tiles
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

    def call(self, node, hint) -> Value:
        name = ct_name(node.func)
        if name is None:
            if isinstance(node.func, ast.Name) and node.func.id == "float" and len(node.args) == 1 \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                try:
                    return Value(Lit(float(node.args[0].value)))
                except ValueError:
                    pass
            raise Fail(node, ast.unparse(node.func), "call not ported (only ct.* functions)")
        handler = getattr(self, "ct_" + name, None)
        if handler is None:
            raise Fail(node, f"ct.{name}", f"ct.{name} has no translation rule")
        return handler(node, hint)

    # ---- ct.* rules
    def ct_bid(self, node, hint):
        axis = keyword(node, "axis", 0)
        if not (isinstance(axis, ast.Constant) and axis.value in (0, 1, 2)):
            raise Fail(node, "ct.bid", "the axis must be 0, 1 or 2")
        return self.let(hint or f"bid{axis.value}", Scalar("i32"),
                        f"get_tile_block_id().{axis.value}", origin=f"bid{axis.value}")

    def ct_load(self, node, hint):
        v = self.load(node)
        return v

    def ct_store(self, node, hint):
        raise Fail(node, "ct.store", "ct.store used as a value")

    def ct_astype(self, node, hint):
        self.check_kwargs(node, set(), "ct.astype")
        x = self.expr(keyword(node, "x", 0))
        dt = self.expr(keyword(node, "dtype", 1))
        if not isinstance(dt.kind, DType):
            raise Fail(node, "ct.astype", "the dtype must be ct.float32/int32 or array.dtype")
        if not isinstance(x.kind, Tile):
            raise Fail(node, "ct.astype", "astype of a non-tile")
        if x.kind.dtype == dt.kind.dtype:
            return x
        return self.let(hint or f"{x.expr}_{dt.kind.dtype.lower()}", Tile(dt.kind.dtype, x.kind.shape),
                        f"convert_tile({x.expr})")

    def unary_math(self, node, hint, fname):
        if len(node.args) != 1 or node.keywords:
            raise Fail(node, f"ct.{fname}", "only the one-argument form is ported")
        x = self.expr(node.args[0])
        if not isinstance(x.kind, Tile) or x.kind.dtype not in ("E", "f32"):
            raise Fail(node, f"ct.{fname}", "the argument must be a floating tile")
        return self.let(hint or fname, x.kind, UNARY_MATH[fname].format(x.expr))

    def ct_exp(self, node, hint):
        return self.unary_math(node, hint, "exp")

    def ct_log(self, node, hint):
        return self.unary_math(node, hint, "log")

    def ct_tanh(self, node, hint):
        return self.unary_math(node, hint, "tanh")

    def ct_rsqrt(self, node, hint):
        return self.unary_math(node, hint, "rsqrt")

    def reduce(self, node, hint, fname):
        self.check_kwargs(node, {"axis", "keepdims"}, f"ct.{fname}")
        x = self.expr(keyword(node, "x", 0))
        axis = keyword(node, "axis", 1)
        keep = keyword(node, "keepdims", 2)
        if not isinstance(x.kind, Tile) or not x.kind.shape:
            raise Fail(node, f"ct.{fname}", "the argument must be a tile of rank >= 1")
        if not (isinstance(axis, ast.Constant) and isinstance(axis.value, int)):
            raise Fail(node, f"ct.{fname}", "only one integer axis is ported")
        keepdims = False
        if keep is not None:
            if not isinstance(keep, ast.Constant):
                raise Fail(node, f"ct.{fname}", "keepdims must be a literal")
            keepdims = bool(keep.value)
        rank = len(x.kind.shape)
        ax = axis.value % rank
        reduced = tuple(d for i, d in enumerate(x.kind.shape) if i != ax)
        kept = tuple("1" if i == ax else d for i, d in enumerate(x.kind.shape))
        r = self.let(f"{hint}_red" if (hint and keepdims) else (hint or f"{fname}_red"),
                     Tile(x.kind.dtype, reduced), f"{REDUCE[fname]}({x.expr}, {ax}i32)")
        if keepdims:
            r = self.let(hint or fname, Tile(x.kind.dtype, kept),
                         f"{r.expr}.reshape(shape![{shape_text(kept)}])")
        return r

    def ct_sum(self, node, hint):
        return self.reduce(node, hint, "sum")

    def ct_max(self, node, hint):
        return self.reduce(node, hint, "max")

    def ct_min(self, node, hint):
        return self.reduce(node, hint, "min")

    def binary_fn(self, node, hint, fname):
        if len(node.args) != 2 or node.keywords:
            raise Fail(node, f"ct.{fname}", "only the two-argument form is ported")
        a, b = self.expr(node.args[0]), self.expr(node.args[1])
        (ta, tb), dtype, shape = self.operands([a, b], node.args, f"ct.{fname}")
        return self.let(hint or fname, Tile(dtype, shape), f"{fname}_tile({ta.expr}, {tb.expr})"
                        .replace("maximum_tile", "max_tile").replace("minimum_tile", "min_tile"))

    def ct_maximum(self, node, hint):
        return self.binary_fn(node, hint, "maximum")

    def ct_minimum(self, node, hint):
        return self.binary_fn(node, hint, "minimum")

    def ct_where(self, node, hint):
        if len(node.args) != 3 or node.keywords:
            raise Fail(node, "ct.where", "only ct.where(cond, x, y) is ported")
        cond, x, y = (self.expr(a) for a in node.args)
        if not isinstance(cond.kind, Tile) or cond.kind.dtype != "bool":
            raise Fail(node, "ct.where", "the condition must be a bool tile")
        (tx, ty), dtype, shape = self.operands([x, y], node.args[1:], "ct.where")
        shape = broadcast_shape(shape, cond.kind.shape, node)
        tx, ty = self.fit(tx, shape, node), self.fit(ty, shape, node)
        tc = self.fit(cond, shape, node)
        return self.let(hint or "selected", Tile(dtype, shape),
                        f"select({tc.expr}, {tx.expr}, {ty.expr})")

    def dtype_kw(self, node, what, default=None) -> str:
        dt = keyword(node, "dtype", None)
        if dt is None:
            if default is None:
                raise Fail(node, what, "dtype= is required")
            return default
        v = self.expr(dt)
        if not isinstance(v.kind, DType):
            raise Fail(node, what, "dtype must be ct.float32, ct.int32 or ct.bool_")
        if v.kind.dtype == "E":
            raise Fail(node, what, "a constant of the arrays' dtype has no generic Rust "
                                   "spelling; build it in float32 and ct.astype it")
        return v.kind.dtype

    def ct_full(self, node, hint, value_node=None):
        self.check_kwargs(node, {"shape", "fill_value", "dtype"}, "ct.full")
        shape = self.const_shape(keyword(node, "shape", 0), "ct.full")
        value_node = value_node or keyword(node, "fill_value", 1)
        value = self.expr(value_node)
        if not isinstance(value.kind, Lit):
            raise Fail(node, "ct.full", "the fill value must be a literal")
        dtype = self.dtype_kw(node, "ct.full")
        return self.let(hint or "full", Tile(dtype, shape),
                        f"constant({literal(value.kind.value, dtype, node)}, "
                        f"shape![{shape_text(shape)}])")

    def ct_zeros(self, node, hint):
        self.check_kwargs(node, {"shape", "dtype"}, "ct.zeros")
        zero = ast.Constant(0)
        ast.copy_location(zero, node)
        return self.ct_full(node, hint, value_node=zero)

    def ct_arange(self, node, hint):
        self.check_kwargs(node, {"dtype"}, "ct.arange")
        if len(node.args) != 1:
            raise Fail(node, "ct.arange", "only ct.arange(N, dtype=ct.int32) is ported")
        shape = self.const_shape(node.args[0], "ct.arange")
        dtype = self.dtype_kw(node, "ct.arange", default="i32")
        if dtype != "i32":
            raise Fail(node, "ct.arange", "only int32 ranges are ported")
        return self.let(hint or "iota", Tile("i32", shape), f"iota(shape![{shape_text(shape)}])")

    def ct_mma(self, node, hint):
        if len(node.args) != 3 or node.keywords:
            raise Fail(node, "ct.mma", "only ct.mma(a, b, acc) is ported")
        a, b, c = (self.expr(x) for x in node.args)
        if not all(isinstance(v.kind, Tile) and len(v.kind.shape) == 2 for v in (a, b, c)):
            raise Fail(node, "ct.mma", "the operands must be 2-D tiles")
        (m, k), (k2, n), (m2, n2) = a.kind.shape, b.kind.shape, c.kind.shape
        if (k, m, n) != (k2, m2, n2):
            raise Fail(node, "ct.mma", f"shapes ({m}, {k}) x ({k2}, {n}) + ({m2}, {n2}) "
                                       "do not match")
        if a.kind.dtype != b.kind.dtype:
            raise Fail(node, "ct.mma", "a and b have different dtypes")
        return self.let(hint or "mma", c.kind, f"mma({a.expr}, {b.expr}, {c.expr})")

    def ct_transpose(self, node, hint):
        if len(node.args) != 1 or node.keywords:
            raise Fail(node, "ct.transpose", "only the 2-D ct.transpose(x) is ported")
        x = self.expr(node.args[0])
        if not isinstance(x.kind, Tile) or len(x.kind.shape) != 2:
            raise Fail(node, "ct.transpose", "only 2-D tiles")
        return self.let(hint or f"{x.expr}_t", Tile(x.kind.dtype, tuple(reversed(x.kind.shape))),
                        f"{x.expr}.transpose()")

    def ct_reshape(self, node, hint):
        if len(node.args) != 2 or node.keywords:
            raise Fail(node, "ct.reshape", "only ct.reshape(x, shape) is ported")
        x = self.expr(node.args[0])
        shape = self.const_shape(node.args[1], "ct.reshape")
        if not isinstance(x.kind, Tile):
            raise Fail(node, "ct.reshape", "reshape of a non-tile")
        return self.let(hint or f"{x.expr}_r", Tile(x.kind.dtype, shape),
                        f"{x.expr}.reshape(shape![{shape_text(shape)}])")

    def ct_num_tiles(self, node, hint):
        self.check_kwargs(node, {"axis", "shape"}, "ct.num_tiles")
        arr = self.array_arg(keyword(node, "array", 0), "ct.num_tiles")
        axis = keyword(node, "axis", 1)
        shape = self.const_shape(keyword(node, "shape", 2), "ct.num_tiles")
        if not (isinstance(axis, ast.Constant) and isinstance(axis.value, int)):
            raise Fail(node, "ct.num_tiles", "the axis must be an integer literal")
        if len(shape) != arr.rank:
            raise Fail(node, "ct.num_tiles", "tile rank != array rank")
        view = self.partition(arr, shape, "UNDETERMINED")
        return self.let(hint or "n_tiles", Scalar("i32"),
                        f"num_tiles(&{view}, {axis.value % arr.rank}i32)", origin="num_tiles")

    def ct_cdiv(self, node, hint):
        if len(node.args) != 2 or node.keywords:
            raise Fail(node, "ct.cdiv", "only ct.cdiv(a, b) is ported")
        a, b = (self.scalar_i32(x) for x in node.args)
        texts = [x if isinstance(x, str) else x.expr for x in (a, b)]
        return self.let(hint or "cdiv", Scalar("i32"), f"ceil_div({texts[0]}, {texts[1]})")


# ------------------------------------------------------------------------------ rendering

def render_entry(t: Translator, spec: KernelSpec, name: str) -> list[str]:
    """One `#[cutile::entry]` fn, indented for the module."""
    consts = [p.name for p in spec.constants]
    generics = ", ".join(["E: ElementType"] + [f"const {c}: i32" for c in consts])
    params = []
    for p in spec.params:
        if p.kind == ARRAY:
            out = t.outputs.get(p.name)
            if out is None:
                params.append(f"{p.name}: &Tensor<E, {{ [{', '.join(['-1'] * (p.rank or 0))}] }}>")
            else:       # static and indexed: a launch partitions it by the tile shape
                params.append(f"{p.name}: &mut Tensor<E, {{ [{shape_text(out['shape'])}] }}>")
        elif p.kind == SCALAR:
            params.append(f"{p.name}: {t.env[p.name].kind.dtype}")
    body: list[str] = []
    arrays = [p.name for p in spec.arrays]
    if t.loops == 0 and len(arrays) > 1:
        body.append("// One ordering token for every array, as cuTile Python threads its entry")
        body.append("// token through all loads and stores.")
        body.append(f"let entry_token: Token = {arrays[0]}.token();")
        body.append("unsafe {")
        body += [f"    {a}.set_token(entry_token);" for a in arrays[1:]]
        body.append("}")
    for s in t.blocks[0]:
        body += s.render("")
    attr = entry_attribute(t.unchecked, spec.hints)
    fn = "pub unsafe fn" if t.unchecked else "pub fn"
    lines = [f"    // NOTE {note}" for note in t.notes]
    if t.const_values:
        lines.append(f"    // The specialization {entry_key(t.const_values)}: its constant branches "
                     "folded away.")
    lines.append(f"    {attr}")
    lines.append(f"    {fn} {name}<{generics}>(")
    lines += [f"        {p}," for p in params]
    lines.append("    ) {")
    lines += ["        " + b if b else "" for b in body]
    lines.append("    }")
    return lines


HINT_GPUS = ("sm_90", "sm_100")   # cuTile Python's hints apply to every GPU; cutile names each


def entry_attribute(unchecked: bool, hints: dict[str, int]) -> str:
    parts = ["unchecked_accesses = true"] if unchecked else []
    if hints:
        per_gpu = "(" + ", ".join(f"{k} = {v}" for k, v in sorted(hints.items())) + ",)"
        parts.append("optimization_hints = (" + ", ".join(f"{gpu} = {per_gpu}"
                                                          for gpu in HINT_GPUS) + ",)")
    return f"#[cutile::entry({', '.join(parts)})]"


def render_kernel(entries: list[tuple[str, Translator]], spec: KernelSpec, op_name: str) -> str:
    lines = [
        f"//! Drafted by workbench/port/rules.py from {spec.filename} ({spec.kernel_name}); "
        "review before use.",
        "#![allow(unused_unsafe, unused_variables, unused_mut)]",
        "#[cutile::module]",
        f"pub mod {op_name}_port {{",
        "    use cutile::core::*;",
        "",
    ]
    for i, (name, t) in enumerate(entries):
        if i:
            lines.append("")
        lines += render_entry(t, spec, name)
    lines += ["}", ""]
    return "\n".join(lines)


def render_cargo(op_name: str) -> str:
    return f"""[package]
name = "port_{op_name}"
description = "cuTile Rust port of kernels_src/{op_name}/kernel.py (drafted by workbench/port/rules.py)"
edition.workspace = true
version.workspace = true
publish.workspace = true

[lib]
crate-type = ["rlib", "cdylib"]

[dependencies]
cutile.workspace = true
wb_ffi.workspace = true
"""


def case_dtypes(spec: KernelSpec) -> list[str]:
    order = []
    for s in spec.specializations:
        for p in spec.arrays:
            d = s.dtypes.get(p.name)
            if d and d not in order:
                order.append(d)
    canonical = ["f32", "f16", "bf16"]
    return sorted(order, key=lambda d: canonical.index(d) if d in canonical else len(canonical))


def render_port_toml(spec: KernelSpec, op_name: str,
                     entries: list[tuple[str, dict]] | None = None) -> str:
    """`entries`: (entry name, constant assignment) per split entry; None: one entry."""
    arrays = spec.arrays
    generics = [f'"dtype({arrays[0].name})"'] + [f'"{c.name}"' for c in spec.constants]
    dtypes = ", ".join(f'"{d}"' for d in case_dtypes(spec))
    entry = entries[0][0] if entries else spec.kernel_name
    lines = ["# How catalog cases map onto the Rust entry (see workbench/port/manifest.py).",
             "# Drafted by workbench/port/rules.py.",
             f'module = "{op_name}_port"', f'entry = "{entry}"',
             f"generics = [{', '.join(generics)}]"]
    for p in arrays:
        lines += ["", f"[tensors.{p.name}]", f"rank = {p.rank}", f"dtypes = [{dtypes}]",
                  f"unit_stride = [{(p.rank or 1) - 1}]"]
    if entries:
        lines += ["", "# one entry per specialization of the constant branches", "[entries]"]
        lines += [f'"{entry_key(combo)}" = "{name}"' for name, combo in entries]
    return "\n".join(lines) + "\n"


def render_launch(t: Translator, spec: KernelSpec, op_name: str, fn_name: str, entry: str,
                  cparams: str) -> str:
    """A `fn <fn_name><T>(call, constants..)` launching `entry` (the translator's outputs)."""
    arrays, scalars, consts = spec.arrays, spec.scalars, spec.constants
    cvars = [c.name.lower() for c in consts]
    mod = f"{op_name}_port"
    loads = []
    args = []
    for i, p in enumerate(arrays):
        if p.name in t.outputs:
            loads.append(f"    let {p.name} = call.output::<T>({i})?;")
            dims = ", ".join(d.lower() if not d.isdigit() else d
                             for d in t.outputs[p.name]["shape"])
            args.append((p.name, f"{p.name}.partition([{dims}])"))
        else:
            loads.append(f"    let {p.name} = call.input::<T>({i})?;")
            args.append((p.name, p.name))
    for k, p in enumerate(scalars):
        rust = t.env[p.name].kind.dtype
        loads.append(f"    let {p.name} = call.scalars[{k}] as {rust};")
        args.append((p.name, p.name))
    order = {p.name: i for i, p in enumerate(spec.params)}
    args.sort(key=lambda a: order[a[0]])
    generics = ", ".join(["T::DTYPE.as_str().to_string()"] + [f"{c}.to_string()" for c in cvars])
    outs = [p for p in arrays if p.name in t.outputs]
    grid = (f"    // {outs[0].name} partitioned by its stored tile: the grid is its tile count "
            "(check it against kernel.py's grid())") if outs else "    // no output"
    return f"""fn {fn_name}<T: DType>(call: &Call{cparams}) -> Result<(), Error> {{
{chr(10).join(loads)}
    let generics = vec![{generics}];
{grid}
    unsafe {{
        {mod}::{entry}({', '.join(a[1] for a in args)})
            .generics(generics)
            .async_on(&call.stream)
    }}
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}}"""


def render_dispatch(entries: list[tuple[str, Translator, dict]], spec: KernelSpec,
                    op_name: str, cparams: str, cargs: str) -> str:
    """`launch<T>` choosing the split entry by the tested constants' values."""
    index = {c.name: i for i, c in enumerate(spec.constants)}
    tested = list(entries[0][2])
    key = "(" + ", ".join(f"call.consts[{index[c]}]" for c in tested) + ",)"
    arms = []
    for name, _, combo in entries:
        pattern = "(" + ", ".join(f"{int(combo[c])}" for c in tested) + ",)"
        arms.append(f"        {pattern} => launch_{name}::<T>(call{cargs}),")
    shown = ", ".join(f"{c}={{}}" for c in tested)
    values = ", ".join(f"call.consts[{index[c]}]" for c in tested)
    return f"""/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch<T: DType>(call: &Call{cparams}) -> Result<(), Error> {{
    match {key} {{
{chr(10).join(arms)}
        _ => Err(set_error(Error::BadArgument, format!("{op_name}: {shown} has no entry in the port", {values}))),
    }}
}}"""


def render_lib(entries: list[tuple[str, Translator, dict]], spec: KernelSpec,
               op_name: str) -> str:
    """`entries`: (entry name, translator, constant assignment); one with {} when unsplit."""
    t = entries[0][1]
    arrays, scalars, consts = spec.arrays, spec.scalars, spec.constants
    cvars = [c.name.lower() for c in consts]
    power_of_two = all(isinstance(v, int) and v > 0 and v & (v - 1) == 0
                       for c in consts for v in c.values)
    mod = f"{op_name}_port"
    sig = ", ".join(p.name for p in spec.params)
    checks = [f"        call.rank({i}, {p.rank})?;" for i, p in enumerate(arrays)]
    if consts:
        if power_of_two:
            reads = ", ".join(f"call.tile({i})?" for i in range(len(consts)))
        else:
            reads = ", ".join(f"call.consts[{i}] as usize" for i in range(len(consts)))
        if len(consts) == 1:
            checks.append(f"        let {cvars[0]} = {reads};")
        else:
            checks.append(f"        let ({', '.join(cvars)}) = ({reads});")
    cargs = "".join(f", {c}" for c in cvars)
    cparams = "".join(f", {c}: usize" for c in cvars)
    arms = []
    for d in case_dtypes(spec):
        if d in FFI_DTYPES:
            const, rust = FFI_DTYPES[d]
            arms.append(f"            {const} => launch::<{rust}>(&call{cargs}),")
    if len(entries) == 1 and not entries[0][2]:
        launchers = render_launch(t, spec, op_name, "launch", spec.kernel_name, cparams)
    else:
        launchers = "\n\n".join(
            [render_dispatch(entries, spec, op_name, cparams, cargs)]
            + [render_launch(et, spec, op_name, f"launch_{name}", name, cparams)
               for name, et, _ in entries])
    return f"""//! The {op_name} port and its C ABI: `wb_{op_name}` launches, `wb_{op_name}_emit` compiles Tile IR.
//! Drafted by workbench/port/rules.py: the launcher checks ranks and dtypes only.

mod kernel;

use std::ffi::c_void;

#[allow(unused_imports)]
use cutile::half::{{bf16, f16}};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, WbTensor, set_error}};

pub use kernel::{mod};

/// {spec.kernel_name}({sig}): tensors [{', '.join(p.name for p in arrays)}], scalars [{', '.join(p.name for p in scalars)}], constants [{', '.join(c.name for c in consts)}].
///
/// # Safety
/// Pointers valid for their counts; tensors live device memory; `stream` a live CUstream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wb_{op_name}(
    tensors: *const WbTensor, n_tensors: i32, scalars: *const f64, n_scalars: i32,
    consts: *const i64, n_consts: i32, stream: *mut c_void,
) -> i32 {{
    wb_ffi::guard(|| {{
        let call = unsafe {{
            Call::new("{op_name}", tensors, n_tensors, {len(arrays)}, scalars, n_scalars, {len(scalars)}, consts, n_consts, {len(consts)}, stream)?
        }};
{chr(10).join(checks)}
        match call.dtype()? {{
{chr(10).join(arms)}
            other => Err(set_error(Error::BadArgument, format!("{op_name}: dtype code {{other}}"))),
        }}
    }})
}}

{launchers}

wb_ffi::port_exports!(wb_{op_name}_emit, wb_{op_name}_build_id, {mod});
"""


# ------------------------------------------------------------------------------ entry points

def check_spec(spec: KernelSpec, diag, if_lines: set[int] = frozenset()) -> None:
    for problem in spec.problems:
        diag(problem["line"], problem["construct"], problem["message"])
    if not spec.arrays:
        diag(spec.line, "parameters", "the kernel has no array parameter")
    for c in spec.constants:
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in c.values):
            diag(c.line, "ct.Constant", f"{c.name} is not an integer in every case "
                                        f"({c.values}); only integer constants are ported")
    for s in spec.specializations:
        dtypes = {s.dtypes[p.name] for p in spec.arrays if p.name in s.dtypes}
        if len(dtypes) > 1:
            diag(spec.line, "dtypes", f"case {s.case} mixes array dtypes {sorted(dtypes)}; the "
                                      "port has one element type E")
        for d in dtypes - set(FFI_DTYPES):
            diag(spec.line, "dtypes", f"case {s.case} uses {d}; the C ABI ports f32/f16/bf16")
    # constant branches: `if` statements are split into entries (or reported) by the
    # translator; a conditional expression is not
    for b in spec.const_branches:
        if b.line in if_lines:
            continue
        diag(b.line, "if", f"branch on constant(s) {', '.join(b.constants)} (`{b.condition}`): "
                           "a conditional expression is not split into entries")


def kernel_fn(spec: KernelSpec, source: str) -> ast.FunctionDef:
    tree = ast.parse(source, spec.filename)
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef)
               and n.name == spec.kernel_name), None)
    if fn is None:
        raise ValueError(f"{spec.filename}: no function {spec.kernel_name!r}")
    return fn


def translate_entries(spec: KernelSpec, source: str) -> list[tuple[str, Translator, dict]]:
    """(entry name, translator, constant assignment) per entry: one, named after the kernel
    and with {}, unless `if` statements test constants; then one per value combination."""
    fn = kernel_fn(spec, source)
    tested = const_branch_names(fn, [c.name for c in spec.constants])
    combos = entry_combinations(spec, tested) if tested else []
    out = []
    for combo in combos or [{}]:
        t = Translator(spec, fn, combo)
        t.run()
        out.append((entry_name(spec.kernel_name, combo) if combo else spec.kernel_name, t, combo))
    return out


def translate(spec: KernelSpec, source: str) -> Translator:
    """The first entry's translation (the only one for a kernel without constant branches)."""
    return translate_entries(spec, source)[0][1]


def draft(spec: KernelSpec, source: str, op_name: str) -> Draft:
    diagnostics: list[Unsupported] = []
    fn = kernel_fn(spec, source)
    if_lines = {n.lineno for n in ast.walk(fn) if isinstance(n, ast.If)}
    check_spec(spec, lambda line, c, m: diagnostics.append(Unsupported(line, c, m)), if_lines)
    entries = translate_entries(spec, source)
    seen = {(d.line, d.construct) for d in diagnostics}
    notes: list[str] = []
    for name, t, combo in entries:
        for d in t.diagnostics:
            if (d.line, d.construct) not in seen:
                seen.add((d.line, d.construct))
                diagnostics.append(d)
        where = f" (entry {name})" if combo else ""
        if not t.outputs and not t.diagnostics and (spec.line, "ct.store") not in seen:
            seen.add((spec.line, "ct.store"))
            diagnostics.append(Unsupported(spec.line, "ct.store",
                                           f"the kernel stores nothing{where}"))
        if len(t.outputs) > 1 and (spec.line, "ct.store") not in seen:
            seen.add((spec.line, "ct.store"))
            diagnostics.append(Unsupported(spec.line, "ct.store",
                                           f"{len(t.outputs)} outputs{where}; the launcher "
                                           "takes its grid from one"))
        notes += [n for n in t.notes if n not in notes]
    diagnostics.sort(key=lambda d: d.line)
    split = [(name, combo) for name, _, combo in entries if combo] or None
    files = {"Cargo.toml": render_cargo(op_name),
             "port.toml": render_port_toml(spec, op_name, split) if spec.arrays else "",
             "src/kernel.rs": render_kernel([(name, t) for name, t, _ in entries], spec,
                                            op_name)}
    try:
        files["src/lib.rs"] = render_lib(entries, spec, op_name)
    except Exception as e:      # a partial draft still comes back, with its diagnostics
        diagnostics.append(Unsupported(spec.line, "lib.rs", f"not rendered: {e}"))
    return Draft(files=files, diagnostics=diagnostics, notes=notes)


def store_shapes(spec: KernelSpec, source: str) -> dict[int, list[str]]:
    """The tile shape of each ct.store (by line), from the drafter's type inference (over
    every entry when constant branches split the kernel)."""
    try:
        shapes: dict[int, list[str]] = {}
        for _, t, _ in translate_entries(spec, source):
            for line, shape in t.store_shapes.items():
                shapes.setdefault(line, shape)
        return shapes
    except Exception:
        return {}
