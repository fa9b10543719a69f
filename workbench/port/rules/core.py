"""The translator core: one kernel function (one entry) -> Rust statements. It dispatches
statements and expressions; control flow, loops, helper inlining, operators and broadcasting
are mixins in their own modules, and every `cuda.tile` function goes through the rule table
(table.py). What they all read and write (the environment, the blocks being written, tokens,
loops, what the host needs) is one named object, `self.state` (state.py)."""
from __future__ import annotations

import ast
import re

from ..analyze import ARRAY, SCALAR, KernelSpec
from ..drafters import Diagnostic
from .arith import Arithmetic
from .attributes import Attributes
from .bool_ops import BoolOps
from .broadcast import Broadcasting
from .control import Control
from .early_return import EarlyReturn
from .inline import Inline
from .loop_split import LoopSplit
from .loops import Loops
from .module_scope import ModuleScope
from .runtime_if import RuntimeIf
from .state import DraftState
from .tokens import inplace_arrays
from .types import KernelTypes
from .while_loop import WhileLoops
from .values import (RESERVED, ArrayRef, Const, ConstFloat, DType, Fail, FloatParam, Func, Lit,
                     Scalar, Seq, Static, Stmt, Tile, Value, is_float_constant, shape_text)


class Translator(Control, RuntimeIf, Inline, Attributes, Arithmetic, Broadcasting, Loops,
                 LoopSplit, EarlyReturn, WhileLoops, BoolOps):
    def __init__(self, spec: KernelSpec, fn: ast.FunctionDef, scope: ModuleScope | None = None,
                 const_values: dict[str, object] | None = None, types: KernelTypes | None = None):
        self.spec = spec
        self.fn = fn
        self.scope = scope or ModuleScope()
        self.types = types or KernelTypes.of(spec)
        self.const_values = dict(const_values or {})   # this entry's constant values
        # what the rules build up (state.py); the attributes above are the entry's inputs
        self.state = DraftState(used=set(RESERVED) | {g for g, _ in self.types.generics})
        for p in spec.params:
            self.state.used.add(p.name)
            if p.kind == ARRAY:
                self.state.env[p.name] = Value(
                    ArrayRef(p.name, p.rank or 0, self.types.array[p.name]), p.name)
            elif p.kind == SCALAR:
                self.state.env[p.name] = Value(Scalar(self.scalar_dtype(p)), p.name, origin="param")
            elif p.name in self.const_values and type(self.const_values[p.name]) is not int:
                self.state.env[p.name] = Value(Lit(self.const_values[p.name], param=p.name))
            elif is_float_constant(p):
                self.state.env[p.name] = Value(FloatParam(p.name), p.name, origin="constant")
            else:
                self.state.env[p.name] = Value(Const(p.name, p.name, (p.name,)), p.name,
                                         origin="constant")

    def scalar_dtype(self, p):
        dt = self.types.scalar[p.name]
        try:
            self.types.rust(dt, p.line)
        except Fail as f:
            self.diag(p.line, "scalar parameter", f"{p.name}: {f.message}")
        return dt

    # ---- bookkeeping
    def diag(self, line, construct, message):
        self.state.diagnostics.append(Diagnostic(line, construct, message))

    def fresh(self, hint: str) -> str:
        base = re.sub(r"\W", "_", hint) or "v"
        base = "v" + base if base[0].isdigit() else base
        name, n = base, 2
        while name in self.state.used:
            name, n = f"{base}_{n}", n + 1
        self.state.used.add(name)
        return name

    def emit(self, stmt: Stmt) -> Stmt:
        self.state.blocks[-1].append(stmt)
        return stmt

    def rust_dtype(self, dt, node=0) -> str:
        return self.types.rust(dt, node)

    def ty(self, kind, node=0) -> str:
        """The Rust type of a tile or scalar kind."""
        if isinstance(kind, Tile):
            return f"Tile<{self.rust_dtype(kind.dtype, node)}, {{ [{shape_text(kind.shape)}] }}>"
        if isinstance(kind, Scalar):
            return self.rust_dtype(kind.dtype, node)
        raise Fail(node, "value", f"{type(kind).__name__} has no Rust type")

    def let(self, hint: str, kind, expr: str, pure: bool = True, origin=None, op: str = "",
            args: tuple = (), opts: tuple = ()) -> Value:
        name = self.fresh(hint)
        stmt = self.emit(Stmt("let", name=name, ty=self.ty(kind), expr=expr, pure=pure, op=op,
                              args=args, opts=opts))
        return Value(kind, name, origin=origin, stmt=stmt)

    def let_at(self, at, hint: str, kind, expr: str) -> Value:
        """A let inserted where `at` = (block, previous statement) says (else emitted)."""
        if at is None or not any(at[0] is b for b in self.state.blocks):
            return self.let(hint, kind, expr)
        block, previous = at
        index = 0 if previous is None else next(
            (i + 1 for i, s in enumerate(block) if s is previous), None)
        if index is None:
            return self.let(hint, kind, expr)
        name = self.fresh(hint)
        stmt = Stmt("let", name=name, ty=self.ty(kind), expr=expr)
        block.insert(index, stmt)
        return Value(kind, name, stmt=stmt)

    def let_prologue(self, hint: str, kind, expr: str) -> Value:
        """A constant cuTile materializes at the top of the kernel."""
        name = self.fresh(hint)
        stmt = Stmt("let", name=name, ty=self.ty(kind), expr=expr)
        self.state.prologue.append(stmt)
        return Value(kind, name, stmt=stmt)

    def let_typed(self, hint: str, ty: str, expr: str, pure: bool = True) -> str:
        """A let of a type the kinds do not describe (pointer tiles, tokens)."""
        name = self.fresh(hint)
        self.emit(Stmt("let", name=name, ty=ty, expr=expr, pure=pure))
        return name

    def raw(self, text: str) -> Stmt:
        return self.emit(Stmt("raw", text=text, pure=False))

    def cached(self, key, make) -> Value:
        hit = self.state.cache.get(key)
        if hit is not None and hit[0] in self.state.scope_ids:
            return hit[1]
        value = make()
        self.state.cache[key] = (self.state.scope_ids[-1], value)
        return value

    # ---- statements
    def run(self):
        body = self.fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        self.state.inplace = inplace_arrays(self.folded_nodes(body))
        self.state.tail = True
        self.block(body)

    def block(self, stmts):
        for stmt, tail in self.tail_positions(stmts):
            if self.state.inline_stack:          # a helper's statement: its failure fails the call
                if self.state.inline_stack[-1]["returned"]:
                    return
                self.statement(stmt)
                continue
            saved, self.state.tail = self.state.tail, tail
            try:
                self.guarded_statement(stmt)            # control.py
            except Fail as f:
                for target in getattr(stmt, "targets", [getattr(stmt, "target", None)]):
                    self.state.unported |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)} \
                        if target is not None else set()
                if not f.follows:
                    self.diag(f.line, f.construct, f.message)
                    # the draft is kept for the user to finish: say where its gap is
                    self.raw(f"// NOT DRAFTED: line {f.line}: {f.construct}: "
                             f"{' '.join(f.message.split())[:160]}")
            finally:
                self.state.tail = saved

    def statement(self, stmt):
        if isinstance(stmt, ast.Assign):
            if len(stmt.targets) != 1:
                raise Fail(stmt, "assignment", "chained assignment `a = b = ..` is not ported")
            self.assign_target(stmt.targets[0], stmt.value, stmt)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            self.assign_target(stmt.target, stmt.value, stmt)
        elif isinstance(stmt, ast.AugAssign):
            if not isinstance(stmt.target, ast.Name):
                raise Fail(stmt, "assignment", "augmented assignment to a non-name")
            value = ast.BinOp(left=ast.Name(stmt.target.id, ast.Load()), op=stmt.op,
                              right=stmt.value)
            ast.copy_location(value, stmt)
            ast.fix_missing_locations(value)
            self.assign(stmt.target.id, value, stmt)
        elif isinstance(stmt, ast.Expr):
            self.expression_statement(stmt)
        elif isinstance(stmt, (ast.For, ast.While, ast.Break, ast.Continue)):
            self.loop_statement(stmt)       # while_loop.py
        elif isinstance(stmt, ast.If):
            self.if_statement(stmt)
        elif isinstance(stmt, ast.Return):
            self.return_statement(stmt)
        elif isinstance(stmt, ast.Assert):
            self.assert_statement(stmt)
        elif not isinstance(stmt, ast.Pass):
            raise Fail(stmt, type(stmt).__name__.lower(), "statement kind not ported")

    def expression_statement(self, stmt: ast.Expr):
        node = stmt.value
        if isinstance(node, ast.Constant):
            return
        if not isinstance(node, ast.Call):
            raise Fail(stmt, ast.unparse(node)[:40], "an expression statement that is no call")
        self.call(node, None, statement=True)

    def assign_target(self, target, node, stmt):
        if isinstance(target, ast.Name):
            self.assign(target.id, node, stmt)
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            names = [e.id if isinstance(e, ast.Name) else None for e in target.elts]
            if None in names:
                raise Fail(stmt, "assignment", "only names are unpacked")
            value = self.expr(node)
            if not isinstance(value.kind, Seq) or len(value.kind.items) != len(names):
                raise Fail(stmt, "assignment", f"`{ast.unparse(node)[:40]}` does not unpack "
                                               f"into {len(names)} values")
            for name, item in zip(names, value.kind.items):
                self.bind(name, item, stmt)
            return
        raise Fail(stmt, "assignment", "only `name = expression` and `a, b = ..` are ported "
                                       "(no subscripts or attributes)")

    def assign(self, name: str, node, stmt):
        carried = self.state.loop_stack and name in self.state.loop_stack[-1]["carried"]
        hint = name if not carried else name + "_next"
        self.bind(name, self.expr(node, hint=hint), stmt)

    def bind(self, name: str, value: Value, stmt):
        carried = self.state.loop_stack and name in self.state.loop_stack[-1]["carried"]
        if carried and isinstance(value.kind, (Lit, Const)):
            value = self.carried_constant(name, value, stmt)
        if isinstance(value.kind, (ArrayRef, Lit, DType, Const, ConstFloat, FloatParam, Seq,
                                   Static, Func)):
            if carried:
                raise Fail(stmt, "assignment", f"{name} is loop-carried but assigned a "
                                               "compile-time value")
            self.state.env[name] = value
            return
        if carried:
            old = self.state.env[name]
            if self.ty(old.kind) != self.ty(value.kind):
                raise Fail(stmt, "loop-carried value",
                           f"{name} changes type in the loop: {self.ty(old.kind)} -> "
                           f"{self.ty(value.kind)}")
            self.emit(Stmt("assign", name=old.expr, expr=value.expr, pure=False))
            return
        if value.stmt is None or value.expr in self.env_names():
            # an existing value under a new name (`x = y`, a parameter, a no-op astype)
            value = self.let(name, value.kind, value.expr, origin=value.origin)
        self.state.env[name] = value

    def env_names(self) -> set[str]:
        return {v.expr for v in self.state.env.values()}

    # ---- expressions
    def expr(self, node, hint: str | None = None) -> Value:
        done = self.state.evaluated.pop(id(node), None)
        if done is not None:                   # a method's receiver, evaluated once already
            return done
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (int, float, bool)):
                # cuTile makes a literal's constant where it reads it: remember the place
                block = self.state.blocks[-1]
                return Value(Lit(node.value, at=(block, block[-1] if block else None)))
            return Value(Static(node.value))
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Attribute):
            return self.attribute(node, hint)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, hint)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node, hint)
        if isinstance(node, ast.BinOp):
            return self.binop(node, hint)
        if isinstance(node, ast.BoolOp):
            return self.boolop(node, hint)
        if isinstance(node, ast.Compare):
            return self.compare(node, hint)
        if isinstance(node, ast.IfExp):
            return self.if_expression(node, hint)
        if isinstance(node, ast.Call):
            return self.call(node, hint)
        if isinstance(node, (ast.Tuple, ast.List)):
            return Value(Seq([self.expr(e) for e in node.elts]))
        raise Fail(node, type(node).__name__, f"`{ast.unparse(node)[:40]}` is not ported")

    def name(self, node: ast.Name) -> Value:
        if node.id in self.state.env:
            return self.state.env[node.id]
        if node.id in self.state.unported:
            raise Fail(node, node.id, f"`{node.id}` was not ported", follows=True)
        module_value = self.scope.names.get(node.id)
        if module_value is not None:
            return Value(module_value)
        if node.id in ("range", "min", "max", "int", "float", "abs", "len", "bool", "print"):
            return Value(Static(__builtins__[node.id] if isinstance(__builtins__, dict)
                                else getattr(__builtins__, node.id)))
        raise Fail(node, node.id, f"unknown name `{node.id}`")

    # ---- operands the rules share
    def scalar_i32(self, node) -> Value | str:
        v = self.expr(node)
        if isinstance(v.kind, Lit) and isinstance(v.kind.value, int):
            return self.types.literal(v.kind.value, self.types.of_name("int32"), node)
        if isinstance(v.kind, Const):
            return v.kind.rust
        if isinstance(v.kind, Scalar) and v.kind.dtype.uniform == "int32":
            return v
        if isinstance(v.kind, Tile) and v.kind.shape == () and v.kind.dtype.uniform == "int32":
            return self.let(f"{v.expr}_s", Scalar(v.kind.dtype), f"tile_to_scalar({v.expr})")
        raise Fail(node, "range bound", f"`{ast.unparse(node)}` is not an i32 scalar")

    def i32_text(self, v: Value, node, what: str) -> str:
        """A literal, constant or i32 scalar as Rust i32 expression text."""
        if isinstance(v.kind, Lit) and type(v.kind.value) is int:
            return self.types.literal(v.kind.value, self.types.of_name("int32"), node)
        if isinstance(v.kind, Const):
            return v.kind.rust
        if isinstance(v.kind, Scalar) and v.kind.dtype.uniform == "int32":
            return v.expr
        if isinstance(v.kind, Tile) and v.kind.shape == () and v.kind.dtype.uniform == "int32":
            return self.let(f"{v.expr}_s", Scalar(v.kind.dtype), f"tile_to_scalar({v.expr})").expr
        raise Fail(node, what, f"`{v.expr or v.kind}` is not an i32 scalar")

    def const_shape(self, node, what: str) -> tuple[str, ...]:
        """A tile shape: integers and `ct.Constant` names (an expression of constants is
        evaluated for this entry)."""
        value = self.expr(node)
        items = value.kind.items if isinstance(value.kind, Seq) else [value]
        shape = []
        for item in items:
            kind = item.kind
            if isinstance(kind, Lit) and isinstance(kind.value, int) and not isinstance(kind.value, bool):
                shape.append(str(kind.value))
            elif isinstance(kind, Const) and kind.rust in self.const_values:
                shape.append(str(self.const_values[kind.rust]))      # fixed by this entry
            elif isinstance(kind, Const) and kind.rust in self.spec_constant_names():
                shape.append(kind.rust)
            elif isinstance(kind, Const):
                shape.append(str(self.static_int(item, node, what)))
            else:
                raise Fail(node, what, f"shape entry `{ast.unparse(node)}` is neither an "
                                       "integer nor a ct.Constant parameter")
        return tuple(shape)

    def array_arg(self, node, what: str) -> ArrayRef:
        v = self.expr(node)
        if not isinstance(v.kind, ArrayRef):
            raise Fail(node, what, f"`{ast.unparse(node)}` is not an array parameter")
        return v.kind

    def index_values(self, node, rank: int, what: str) -> list[Value]:
        value = node if isinstance(node, Value) else self.expr(node)
        items = value.kind.items if isinstance(value.kind, Seq) else [value]
        if len(items) != rank:
            raise Fail(node, what, f"index has {len(items)} entries, the array rank is {rank}")
        return [self.index_scalar(v, node, what) for v in items]

    def index_scalar(self, v: Value, node, what: str) -> Value:
        if isinstance(v.kind, Lit) and isinstance(v.kind.value, int) \
                and not isinstance(v.kind.value, bool):
            lit = v.kind.value
            return self.cached(("index", lit), lambda: self.let(
                "zero" if lit == 0 else f"idx{lit}", Scalar(self.types.of_name("int32")),
                self.types.literal(lit, self.types.of_name("int32"), node), origin=f"literal{lit}"))
        if isinstance(v.kind, Const):
            return Value(Scalar(self.types.of_name("int32")), v.kind.rust)
        if isinstance(v.kind, Scalar) and v.kind.dtype.uniform == "int32":
            return v
        if isinstance(v.kind, Tile) and v.kind.shape == () and v.kind.dtype.uniform == "int32":
            return self.let("idx", Scalar(v.kind.dtype), f"tile_to_scalar({v.expr})",
                            origin="tile")
        raise Fail(node, what, f"index entry `{ast.unparse(node) if isinstance(node, ast.AST) else v.expr}`"
                               " is not an i32 scalar")

    def spec_constant_names(self) -> list[str]:
        return [p.name for p in self.spec.constants]

    def generic_constants(self) -> list:
        """The ct.Constant parameters that are `const NAME: i32` generics (integers)."""
        return [p for p in self.spec.constants if all(type(v) is int for v in p.values)]

    def bits_constants(self) -> list:
        """The float ct.Constant parameters this entry takes as `const NAME_BITS: i32`
        generics (those no entry split fixes)."""
        return [p for p in self.spec.constants
                if is_float_constant(p) and p.name not in self.const_values]
