"""`and` / `or` on runtime values, the way cuTile Python lowers them (ast2hir.py, _boolop_expr):
short-circuit, as an `if` that yields the second operand or the first one:

    a and b   ->  c0 = bool(a); c = if c0 { yield bool(b) } else { yield c0 }
    a or b    ->  c0 = bool(a); c = if c0 { yield c0 } else { yield bool(b) }

(`a and b and c` nests: the branch that evaluates the rest holds `b and c`). A compile-time
first operand folds the `if` away, as cuTile's if_else on a constant does. The port writes the
same `if` as a Rust if-expression, `let c: bool = if c0 { ..; b } else { c0 };`: cutile's
`&&` / `||` would yield a constant `false` / `true` where cuTile yields `c0`
(compile_binary_op.rs, compile_short_circuit_op), and accept only scalar bools."""
from __future__ import annotations

import ast

from .values import Lit, Scalar, Stmt, Value


class BoolOps:
    """Mixed into the Translator."""

    def bool_chain(self, node: ast.BoolOp):
        """True / False when decided at compile time, else the name of the Rust bool."""
        is_and = isinstance(node.op, ast.And)
        first = self.condition(node.values[0])
        rest = node.values[1] if len(node.values) == 2 else \
            ast.copy_location(ast.BoolOp(op=node.op, values=node.values[1:]), node.values[1])
        if isinstance(first, bool):
            return first if first is not is_and else self.condition(rest)
        bool_kind = Scalar(self.types.of_name("bool_"))
        c0 = self.let("cond", bool_kind, first)
        branch: list[Stmt] = []
        self.enter_region(branch)
        try:
            second = self.condition(rest)
        finally:
            self.leave_region()
        second = ("true" if second else "false") if isinstance(second, bool) else second
        name = self.fresh("cond")
        then_body, else_body = (branch, []) if is_and else ([], branch)
        values = (second, c0.expr) if is_and else (c0.expr, second)
        self.emit(Stmt("if", name=name, ty=self.ty(bool_kind), header=f"if {c0.expr}",
                       body=then_body, orelse=else_body, args=values, pure=False))
        return name

    def bool_value(self, node: ast.BoolOp) -> Value:
        """`a and b` as a value (`m = a and b`): a bool scalar, or the folded constant."""
        result = self.bool_chain(node)
        if isinstance(result, bool):
            return Value(Lit(result))
        return Value(Scalar(self.types.of_name("bool_")), result)

