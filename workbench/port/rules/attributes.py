"""Names with a dot and calls: `ct.float32`, `ct.PaddingMode.ZERO`, `x.dtype`, `t.shape`,
`x.shape[0]`, `t[:, None]`, and the call dispatch: `cuda.tile` functions through the rule
table, Tile methods (`t.astype(..)` is `ct.astype(t, ..)`), helpers (inlined), builtins."""
from __future__ import annotations

import ast
import inspect
import math

import cuda.tile as ct
from cuda.tile._cext import DType as CtDType

from .dtypes import DT
from .loops import MEMORY_FUNCTIONS
from .tokens import refuse_after_acquire
from .module_scope import PURE_CALLS
from .ops_slice import array_slice, stride_scalar
from .table import BUILTINS, DUNDER, REFUSALS, RULES, TILE_METHODS
from .tiled_view import MARK, unfollowed_view, view_call
from .values import ArrayRef, Const, DType, Fail, Func, Lit, Scalar, Seq, Static, Tile, Value

CT_NAMES = {id(getattr(ct, n)): n for n in dir(ct) if not n.startswith("_")}
ARRAY_METHODS = {"slice": array_slice, "tiled_view": unfollowed_view}
ARRAY_ATTRIBUTES = ("dtype", "ndim", "shape", "strides")


def ct_function_name(obj) -> str | None:
    """The public cuda.tile name of a function object, or None."""
    name = CT_NAMES.get(id(obj))
    return name if name is not None and callable(obj) and not isinstance(obj, type) else None


class Attributes:
    """Mixed into the Translator."""

    def wrap_static(self, obj, node) -> Value:
        """A Python object looked up at draft time, as a translator value."""
        if isinstance(obj, CtDType):
            return Value(DType(self.types.of_name(obj.name)))
        if isinstance(obj, bool) or isinstance(obj, (int, float)):
            return Value(Lit(obj, early=True))
        return Value(Static(obj))

    def attribute(self, node: ast.Attribute, hint=None) -> Value:
        base = self.expr(node.value)
        kind = base.kind
        if isinstance(kind, Static):
            try:
                return self.wrap_static(getattr(kind.value, node.attr), node)
            except AttributeError:
                raise Fail(node, ast.unparse(node), "no such attribute") from None
        if isinstance(kind, ArrayRef):
            if node.attr == "dtype":
                return Value(DType(kind.dtype))
            if node.attr == "ndim":
                return Value(Lit(kind.rank))
            if node.attr == "shape":
                return Value(Seq([self.array_dim(kind, d, None) for d in range(kind.rank)]))
            if node.attr == "strides":
                return Value(Seq([stride_scalar(self, kind, d, node) for d in range(kind.rank)]))
        if isinstance(kind, (Tile, Scalar)):
            shape = kind.shape if isinstance(kind, Tile) else ()
            if node.attr == "dtype":
                return Value(DType(kind.dtype))
            if node.attr == "shape":
                return Value(Seq([self.dim_value(d) for d in shape]))
            if node.attr == "ndim":
                return Value(Lit(len(shape)))
        if isinstance(kind, DType) and node.attr == "bitwidth":
            return Value(Lit(getattr(ct, kind.dtype.names[0]).bitwidth))
        raise Fail(node, f".{node.attr}", f"`{ast.unparse(node)}` is not ported")

    def dim_value(self, d: str) -> Value:
        if d.isdigit():
            return Value(Lit(int(d)))
        return self.state.env.get(d) or Value(Const(d, d, (d,)), origin="constant")

    def array_dim(self, arr: ArrayRef, dim: int, hint) -> Value:
        return self.let(hint or f"{arr.name}_dim{dim}", Scalar(self.types.of_name("int32")),
                        f"get_shape_dim({arr.name}.shape(), {dim}i32)", origin="dim")

    def subscript(self, node: ast.Subscript, hint) -> Value:
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr in ("shape", "strides"):
            arr = self.expr(value.value)
            if isinstance(arr.kind, ArrayRef):
                dim = self.static_value(node.slice, f"array.{value.attr}[..]")
                if not (isinstance(dim, int) and -arr.kind.rank <= dim < arr.kind.rank):
                    raise Fail(node, "subscript", f"`{ast.unparse(node)}`: no such dimension")
                dim %= arr.kind.rank
                if value.attr == "strides":         # only the stride read (a unit one is 1)
                    return stride_scalar(self, arr.kind, dim, node)
                return self.array_dim(arr.kind, dim, hint)
        base = self.expr(value)
        if isinstance(base.kind, Seq):
            index = self.static_value(node.slice, "subscript")
            items = base.kind.items
            if isinstance(index, int) and -len(items) <= index < len(items):
                return items[index]
            if isinstance(index, slice):
                return Value(Seq(items[index]))
            raise Fail(node, "subscript", f"index {index!r} out of range")
        if isinstance(base.kind, Tile):
            return RULES["expand_dims"].fn(self, node, hint, subscript=True)
        raise Fail(node, "subscript", f"`{ast.unparse(node)}` is not ported "
                                      "(only array.shape[<int>], array.strides[<int>] and "
                                      "tile[..., None])")

    # ---- calls
    def call(self, node: ast.Call, hint, statement: bool = False) -> Value | None:
        if hasattr(node, MARK):              # a tiled view's access, rewritten (tiled_view.py)
            return view_call(self, node, hint, statement)
        func = node.func
        if isinstance(func, ast.Attribute):
            receiver = self.expr(func.value)
            if isinstance(receiver.kind, (Tile, Scalar, ArrayRef)):
                return self.method_call(node, receiver, func.attr, hint)
        callee = self.expr(func)
        kind = callee.kind
        if isinstance(kind, Func):
            return self.inline_call(kind, node, hint)
        if isinstance(kind, Static):
            name = ct_function_name(kind.value)
            if name is not None:
                return self.ct_call(name, node, hint, statement)
            builtin = builtin_name(kind.value)
            if builtin is not None:
                return BUILTINS[builtin].fn(self, node, hint)
            if kind.value in PURE_CALLS:
                return self.wrap_static(self.static_value(node, "call"), node)
        if isinstance(kind, DType):          # ct.float32(x): a dtype called as a conversion
            return RULES["astype"].fn(self, node, hint, dtype=kind)
        raise Fail(node, ast.unparse(func)[:40], "call not ported (only cuda.tile functions, "
                                                 "helpers of the module and builtins)")

    def ct_rule(self, name: str):
        """The translation rule of cuda.tile's `name` (for rules that reuse another)."""
        return RULES[name].fn

    def ct_call(self, name: str, node, hint, statement: bool):
        rule = RULES.get(name)
        if rule is None:
            refusal = REFUSALS.get(name)
            if refusal is not None:
                raise Fail(node, f"ct.{name}", refusal.reason)
            raise Fail(node, f"ct.{name}", f"ct.{name} has no translation rule")
        if self.state.acquired is not None and name in MEMORY_FUNCTIONS:
            refuse_after_acquire(self, name, node)
        value = rule.fn(self, node, hint)
        if value is None and not statement:
            raise Fail(node, f"ct.{name}", f"ct.{name} used as a value")
        return value

    def method_call(self, node: ast.Call, receiver: Value, method: str, hint):
        """`t.astype(dt)` -> ct.astype(t, dt); `t.__add__(u)` -> t + u."""
        if method in DUNDER:
            return self.dunder(node, receiver, method, hint)
        if isinstance(receiver.kind, ArrayRef) and method in ARRAY_METHODS:
            return ARRAY_METHODS[method](self, node, receiver, hint)
        rule = TILE_METHODS.get(method)
        if rule is None or isinstance(receiver.kind, ArrayRef):
            raise Fail(node, f".{method}()", f"the method `{method}` is not ported")
        rewritten = ast.Call(func=node.func, args=[node.func.value] + list(node.args),
                             keywords=node.keywords)
        ast.copy_location(rewritten, node)
        self.state.evaluated[id(node.func.value)] = receiver
        try:
            return rule.fn(self, rewritten, hint)
        finally:
            self.state.evaluated.pop(id(node.func.value), None)

    def dunder(self, node, receiver: Value, method: str, hint):
        op, reflected = DUNDER[method]
        if len(node.args) != (0 if op in UNARY_DUNDERS else 1) or node.keywords:
            raise Fail(node, f".{method}()", "wrong number of arguments")
        if op in UNARY_DUNDERS:
            fake = ast.UnaryOp(op=op(), operand=node.func.value)
            ast.copy_location(fake, node)
            self.state.evaluated[id(node.func.value)] = receiver
            return self.unary(fake, hint)
        self.state.evaluated[id(node.func.value)] = receiver
        left, right = node.func.value, node.args[0]
        if reflected:
            left, right = right, left
        fake = ast.Compare(left=left, ops=[op()], comparators=[right]) if op in COMPARE_OPS \
            else ast.BinOp(left=left, op=op(), right=right)
        ast.copy_location(fake, node)
        return self.expr(fake, hint)

    def bind_args(self, name: str, node: ast.Call, skip: int = 0) -> dict:
        """The call's arguments bound to cuda.tile's own signature of `name`: parameter ->
        AST node; defaults are not filled in (a rule asks `args.get(...)`)."""
        sig = inspect.signature(getattr(ct, name))
        if any(isinstance(a, ast.Starred) for a in node.args) or \
                any(k.arg is None for k in node.keywords):
            raise Fail(node, f"ct.{name}", "*args / **kwargs are not ported")
        try:
            bound = sig.bind_partial(*node.args[skip:], **{k.arg: k.value for k in node.keywords})
        except TypeError as e:
            raise Fail(node, f"ct.{name}", f"arguments do not match cuda.tile.{name}: {e}") from None
        return dict(bound.arguments)


BUILTIN_NAMES = ("min", "max", "int", "float", "abs", "bool", "range", "len", "print")


def builtin_name(obj) -> str | None:
    import builtins
    return next((n for n in BUILTIN_NAMES if obj is getattr(builtins, n)), None)


UNARY_DUNDERS = (ast.USub, ast.Invert, ast.UAdd)
COMPARE_OPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)
_ = (math, DT)
