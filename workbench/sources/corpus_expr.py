"""The launch rules' expression language: what a TileGym launcher computes from its
tensors, written as data in the corpus manifest.

    evaluate("min(NUM_SM * occupancy, x.shape[0])", {"NUM_SM": 132, "occupancy": 2, "x": view})

Python expression syntax, restricted to numbers, strings (dtype names), names, `a.shape[i]`-style reads of the
kernel's array arguments, arithmetic, comparisons, `and`/`or`/`not`, `x if c else y` and the
functions in FUNCTIONS. Anything else is a WorkbenchError naming the expression.
"""
from __future__ import annotations

import ast
import math
import operator
from dataclasses import dataclass

from ..argspec import ArgSpec
from ..errors import WorkbenchError


def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n (1 for n <= 1)."""
    return 1 if n <= 1 else 1 << (int(n) - 1).bit_length()


def cdiv(a: int, b: int) -> int:
    return -(-int(a) // int(b))


FUNCTIONS = {"min": min, "max": max, "cdiv": cdiv, "next_power_of_2": next_power_of_2,
             "int": int, "float": float, "abs": abs, "log2": lambda n: int(math.log2(n))}
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Div: operator.truediv, ast.Mod: operator.mod,
           ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
           ast.BitAnd: operator.and_, ast.BitOr: operator.or_}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
            ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}


@dataclass(frozen=True)
class ArrayView:
    """What a rule may read of an array argument."""
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    dtype: str
    itemsize: int

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @classmethod
    def of(cls, spec: ArgSpec) -> "ArrayView":
        return cls(spec.shape, spec.effective_strides(), spec.dtype, spec.itemsize)


ATTRIBUTES = ("shape", "strides", "dtype", "itemsize", "ndim")


def evaluate(text: str, names: dict):
    """The value of `text` with `names` bound."""
    try:
        tree = ast.parse(str(text).strip(), mode="eval")
    except SyntaxError as e:
        raise WorkbenchError(f"rule {text!r}: not an expression ({e.msg})",
                             "write a Python expression over the case's names")
    try:
        return _eval(tree.body, names, text)
    except (ArithmeticError, TypeError, IndexError, ValueError) as e:
        raise WorkbenchError(f"rule {text!r}: {type(e).__name__}: {e}",
                             "check the rule against the case's arguments")


def _eval(node: ast.expr, names: dict, text: str):
    ev = lambda n: _eval(n, names, text)          # noqa: E731
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool, str)):
        return node.value                # a string only to compare a dtype: x.dtype == "bf16"
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise WorkbenchError(f"rule {text!r}: unknown name {node.id!r}",
                                 "known names: " + ", ".join(sorted(names)))
        return names[node.id]
    if isinstance(node, ast.Attribute) and node.attr in ATTRIBUTES:
        value = ev(node.value)
        if isinstance(value, ArrayView):
            return getattr(value, node.attr)
    if isinstance(node, ast.Subscript):
        return ev(node.value)[ev(node.slice)]
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](ev(node.left), ev(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](ev(node.operand))
    if isinstance(node, ast.BoolOp):
        values = [ev(v) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Compare):
        left = ev(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = ev(right_node)
            if type(op) not in _COMPARE or not _COMPARE[type(op)](left, right):
                return False if type(op) in _COMPARE else _unsupported(node, text)
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return ev(node.body) if ev(node.test) else ev(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in FUNCTIONS and not node.keywords:
        return FUNCTIONS[node.func.id](*(ev(a) for a in node.args))
    return _unsupported(node, text)


def _unsupported(node: ast.expr, text: str):
    raise WorkbenchError(f"rule {text!r}: `{ast.unparse(node)}` is not allowed in a rule",
                         "rules use numbers, names, ARRAY.shape[i], arithmetic, comparisons, "
                         "`a if c else b` and " + ", ".join(FUNCTIONS))
