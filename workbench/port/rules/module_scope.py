"""What the kernel's module gives it: imports (`import cuda.tile as ct`, `from cuda.tile import
RoundingMode as RMd`, `import math`), module constants (`_OCC = 2`, `LOG2E = math.log2(math.e)`,
`ConstInt = ct.Constant[int]`) and helper functions (`@ct.function` or plain `def`), read from
the AST: nothing of the module is executed, only `cuda.tile` and `math` are looked up.

    scope = ModuleScope.of(tree)
    scope.names["ct"]          # Static(<module cuda.tile>)
    scope.names["_OCC"]        # Lit(2)
    scope.names["_helper"]     # Func("_helper", <ast.FunctionDef>)
"""
from __future__ import annotations

import ast
import math
import operator
from dataclasses import dataclass, field
from pathlib import Path

import cuda.tile as ct

from ...sources.package import package_constants
from .values import Func, Lit, Static

# modules a kernel may name; their attributes are looked up for real
KNOWN_MODULES = {"cuda.tile": ct, "math": math}
# pure functions a constant expression may call at draft time
PURE_CALLS = {getattr(math, n) for n in dir(math) if callable(getattr(math, n))} | {
    abs, min, max, int, float, bool, round}

BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
          ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
          ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
          ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor}
CMPOPS = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
          ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.is_,
          ast.IsNot: operator.is_not}
UNOPS = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_,
         ast.Invert: operator.invert}


class NotStatic(Exception):
    """The expression is not a draft-time constant."""


def static_eval(node: ast.AST, lookup) -> object:
    """Evaluate a constant expression; `lookup(name)` gives a name's Python value or raises
    NotStatic. Literals, names, attributes of known modules, arithmetic, comparisons,
    `and`/`or`/`not`, conditional expressions, tuples and calls of pure math functions."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return lookup(node.id)
    if isinstance(node, ast.Attribute):
        base = static_eval(node.value, lookup)
        if not (any(base is m for m in KNOWN_MODULES.values()) or isinstance(base, type)
                or isinstance(base, _CudaPackage) or hasattr(base, "static_view")):
            raise NotStatic(ast.unparse(node))
        try:
            return getattr(base, node.attr)
        except AttributeError:
            raise NotStatic(ast.unparse(node)) from None
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(static_eval(e, lookup) for e in node.elts)
    if isinstance(node, ast.BinOp) and type(node.op) in BINOPS:
        return BINOPS[type(node.op)](static_eval(node.left, lookup), static_eval(node.right, lookup))
    if isinstance(node, ast.UnaryOp) and type(node.op) in UNOPS:
        return UNOPS[type(node.op)](static_eval(node.operand, lookup))
    if isinstance(node, ast.BoolOp):
        values = (static_eval(v, lookup) for v in node.values)
        if isinstance(node.op, ast.And):
            out = True
            for v in values:
                out = v
                if not v:
                    return v
            return out
        out = False
        for v in values:
            out = v
            if v:
                return v
        return out
    if isinstance(node, ast.Compare):
        left = static_eval(node.left, lookup)
        for op, right_node in zip(node.ops, node.comparators):
            right = static_eval(right_node, lookup)
            if type(op) not in CMPOPS or not CMPOPS[type(op)](left, right):
                if type(op) not in CMPOPS:
                    raise NotStatic(ast.unparse(node))
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        test = static_eval(node.test, lookup)
        return static_eval(node.body if test else node.orelse, lookup)
    if isinstance(node, ast.Call) and not node.keywords:
        fn = static_eval(node.func, lookup)
        if fn in PURE_CALLS:
            return fn(*(static_eval(a, lookup) for a in node.args))
    raise NotStatic(ast.unparse(node))


@dataclass
class ModuleScope:
    names: dict[str, object] = field(default_factory=dict)    # name -> Static | Lit | Func

    @classmethod
    def of(cls, tree: ast.Module, path: Path | None = None) -> "ModuleScope":
        """`path`, the module's file: the literal constants it imports from its own package
        (`from .utils import LOG2E`) are read there."""
        scope = cls()
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module not in KNOWN_MODULES and \
                    node.module != "cuda":
                for name, text in package_constants(node, path).items():
                    scope.bind_constant(name, ast.parse(text, mode="eval").body)
            scope.bind(node)
        return scope

    def python_value(self, name: str):
        v = self.names.get(name)
        if isinstance(v, (Static, Lit)):
            return v.value
        raise NotStatic(name)

    def bind(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in ("torch", "numpy"):
                    self.names[a.asname or a.name] = Static(DtypeNamespace(a.name))
                if a.name in KNOWN_MODULES:
                    if a.asname:
                        self.names[a.asname] = Static(KNOWN_MODULES[a.name])
                    elif "." not in a.name:
                        self.names[a.name] = Static(KNOWN_MODULES[a.name])
                if a.name == "cuda.tile" and not a.asname:
                    self.names["cuda"] = Static(_CudaPackage())
        elif isinstance(node, ast.ImportFrom) and node.module in KNOWN_MODULES:
            module = KNOWN_MODULES[node.module]
            for a in node.names:
                if hasattr(module, a.name):
                    self.names[a.asname or a.name] = Static(getattr(module, a.name))
        elif isinstance(node, ast.ImportFrom) and node.module == "cuda":
            for a in node.names:
                if a.name == "tile":
                    self.names[a.asname or "tile"] = Static(ct)
        elif isinstance(node, ast.FunctionDef):
            self.names[node.name] = Func(node.name, node)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            self.bind_constant(node.targets[0].id, node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            self.bind_constant(node.target.id, node.value)

    def bind_constant(self, name: str, value: ast.AST) -> None:
        try:
            v = static_eval(value, self.python_value)
        except (NotStatic, ArithmeticError, TypeError, ValueError):
            self.names.pop(name, None)       # rebound to something the drafter cannot read
            return
        if isinstance(v, (bool, int, float)):
            self.names[name] = Lit(v)
        else:
            self.names[name] = Static(v)


class DtypeNamespace:
    """`torch` / `numpy` in a kernel: their dtype names are read as cuda.tile's dtypes of
    the same name (cuda-tile accepts them where it takes its own), and numpy's constants
    (`np.inf`, `np.nan`, `np.pi`, `np.e`) as the Python floats they are, as cuda-tile reads
    them."""
    static_view = True
    ALIASES = {"bool": "bool_", "float": "float32", "half": "float16", "int": "int32"}

    def __init__(self, module: str):
        self.module = module

    def __getattr__(self, name: str):
        if self.module == "numpy" and not name.startswith("_"):
            import numpy
            if type(getattr(numpy, name, None)) is float:
                return getattr(numpy, name)
        target = self.ALIASES.get(name, name)
        if name.startswith("_") or not hasattr(ct, target) or not isinstance(
                getattr(ct, target), type(ct.float32)):
            raise AttributeError(f"{self.module}.{name}")
        return getattr(ct, target)


class _CudaPackage:
    """`import cuda.tile` binds `cuda`: `cuda.tile` is then cuda.tile."""
    tile = ct
