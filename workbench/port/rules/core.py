"""The translator core: one kernel function (one entry) -> Rust statements. It keeps the
environment (Python name -> Value), the blocks being written, and dispatches statements and
expressions; the arithmetic, broadcasting and loop rules are mixins in their own modules,
and every `ct.*` call goes through the rule table (table.py)."""
from __future__ import annotations

import ast
import re

from ..drafters import Diagnostic
from ..analyze import ARRAY, SCALAR, KernelSpec, ct_name
from .arith import Arithmetic
from .branches import const_test_problem, eval_const_test
from .broadcast import Broadcasting
from .loops import Loops
from .table import RULES
from .values import (DTYPE_NAMES, RESERVED, UNSUPPORTED_DTYPES, ArrayRef, DType, Fail, Lit, Scalar,
                     Stmt, Tile, Value, literal, rust_type)


class Translator(Arithmetic, Broadcasting, Loops):
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
        self.diagnostics: list[Diagnostic] = []
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
        self.diagnostics.append(Diagnostic(line, construct, message))

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
            self.expression_statement(stmt)
        elif isinstance(stmt, ast.For):
            self.for_loop(stmt)
        elif isinstance(stmt, ast.If):
            self.if_statement(stmt)
        elif isinstance(stmt, ast.Pass):
            return
        else:
            raise Fail(stmt, type(stmt).__name__.lower(), "statement kind not ported")

    def expression_statement(self, stmt: ast.Expr):
        call = stmt.value
        if isinstance(call, ast.Constant):
            return
        if isinstance(call, ast.Call) and ct_name(call.func) == "store":
            RULES["store"].fn(self, call, None)
        elif isinstance(call, ast.Call) and ct_name(call.func) is not None:
            name = ct_name(call.func)
            raise Fail(stmt, f"ct.{name}", f"ct.{name} has no translation rule "
                                           "(only ct.store is ported as a statement)")
        else:
            raise Fail(stmt, ast.unparse(call)[:40],
                       "an expression statement other than ct.store")

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
        rule = RULES.get(name)
        if rule is None:
            raise Fail(node, f"ct.{name}", f"ct.{name} has no translation rule")
        value = rule.fn(self, node, hint)
        if value is None:
            raise Fail(node, f"ct.{name}", f"ct.{name} used as a value")
        return value

    # ---- operands the rules share
    def check_kwargs(self, call, allowed: set[str], what: str):
        for kw in call.keywords:
            if kw.arg not in allowed:
                raise Fail(call, f"{what}({kw.arg}=...)", f"keyword {kw.arg!r} is not ported")

    def scalar_i32(self, node) -> Value | str:
        v = self.expr(node)
        if isinstance(v.kind, Lit) and isinstance(v.kind.value, int):
            return literal(v.kind.value, "i32", node)
        if isinstance(v.kind, Scalar) and v.kind.dtype == "i32":
            return v
        raise Fail(node, "range bound", f"`{ast.unparse(node)}` is not an i32 scalar")

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

    def index_values(self, node, rank: int, what: str) -> list[Value]:
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
