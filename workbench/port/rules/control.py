"""Compile-time values and branches. cuTile Python evaluates everything that depends only on
`ct.Constant`s and literals while compiling; the drafter does the same for the entry it is
writing: a test (`if`, conditional expression, `check_bounds=`, `keepdims=`) that reads
constants whose values this entry does not fix raises NeedConstants, and the kernel is split
into one entry per combination of those constants' values in the cases (draft.py).
An `if` whose test reads runtime values is runtime_if.py's."""
from __future__ import annotations

import ast
import traceback
from pathlib import Path

from .arith import PY_FOLD
from .module_scope import NotStatic, static_eval
from .values import (ArrayRef, Const, ConstFloat, DType, FloatParam, Fail, Lit, NeedConstants, NeedDtypes, Scalar,
                     Seq, Static, Tile, Value)


class ValueView:
    """A runtime value inside a compile-time expression: only its dtype and ndim are read."""
    static_view = True

    def __init__(self, t, value: Value, node, what: str):
        self._t, self._v, self._node, self._what = t, value, node, what

    @property
    def dtype(self):
        return self._t.value_python(Value(DType(self._v.kind.dtype)), self._node, self._what)

    @property
    def ndim(self):
        kind = self._v.kind
        return kind.rank if isinstance(kind, ArrayRef) else len(getattr(kind, "shape", ()))


class Control:
    """Mixed into the Translator."""

    def guarded_statement(self, stmt):
        """One statement; an unexpected error of the drafter itself becomes a Fail at the
        statement's line (a report the user can act on), not a traceback that ends the run."""
        try:
            self.statement(stmt)
        except (Fail, NeedConstants, NeedDtypes):
            raise
        except Exception as e:                      # noqa: BLE001 (a drafter bug)
            frame = traceback.extract_tb(e.__traceback__)[-1]
            raise Fail(stmt, "drafter", f"the drafter failed on this statement "
                       f"({type(e).__name__}: {e}, at {Path(frame.filename).name}:{frame.lineno}): "
                       "a bug of the drafter, not of the kernel; port the statement by hand, "
                       "and report it with the kernel") from e

    def static_value(self, node, what: str):
        """The draft-time Python value of an AST node or a Value (Fail if it has none)."""
        if isinstance(node, Value):
            return self.value_python(node, node, what)
        static_reads = {id(a.value) for a in ast.walk(node) if isinstance(a, ast.Attribute)
                        and a.attr in ("dtype", "ndim")}
        runtime = sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                          and id(n) not in static_reads and n.id in self.state.env
                          and isinstance(self.state.env[n.id].kind, (Tile, Scalar, ArrayRef))})
        if runtime:     # never ask for constants' values when the answer depends on data
            raise Fail(node, what, f"`{ast.unparse(node)}` reads runtime value(s) "
                                   f"{', '.join(runtime)}")
        try:
            value = static_eval(node, lambda name: self.name_python(name, node, what))
            if isinstance(value, ValueView):
                raise NotStatic(ast.unparse(node))
            return value
        except NotStatic as e:
            raise Fail(node, what, f"`{ast.unparse(node)}` is not a compile-time constant "
                                   f"({e})") from None
        except (ArithmeticError, TypeError, ValueError) as e:
            raise Fail(node, what, f"`{ast.unparse(node)}`: {e}") from None

    def static_int(self, value, node, what: str) -> int:
        v = self.static_value(value, what)
        if not isinstance(v, int) or isinstance(v, bool):
            raise Fail(node, what, f"{what} must be an integer, got {v!r}")
        return v

    def static_bool(self, node, what: str, default=None):
        if node is None:
            return default
        v = self.static_value(node, what)
        return bool(v)

    def name_python(self, name: str, node, what: str):
        if name in self.state.env:
            return self.value_python(self.state.env[name], node, what)
        if name in self.scope.names:
            v = self.scope.names[name]
            if isinstance(v, (Lit, Static)):
                return v.value
        raise NotStatic(name)

    def value_python(self, v: Value, node, what: str):
        kind = v.kind
        if isinstance(kind, (Lit, Static)):
            return kind.value
        if isinstance(kind, Const):
            missing = [n for n in kind.names if n not in self.const_values]
            if missing:
                raise NeedConstants(missing, node, what)
            return eval(compile(kind.python, "<constant>", "eval"), {"__builtins__": {}},
                        dict(self.const_values))
        if isinstance(kind, FloatParam):      # this entry does not fix it: split on it
            raise NeedConstants(kind.names, node, what)
        if isinstance(kind, ConstFloat):
            return PY_FOLD[kind.fn](*(self.value_python(o, node, what) for o in kind.operands))
        if isinstance(kind, Seq):
            return tuple(self.value_python(i, node, what) for i in kind.items)
        if isinstance(kind, DType):
            import cuda.tile as ct
            if kind.dtype.uniform:
                return getattr(ct, kind.dtype.uniform)
            raise NeedDtypes(node, f"{what}: a dtype that differs over the cases")
        if isinstance(kind, (Tile, Scalar, ArrayRef)):
            return ValueView(self, v, node, what)
        raise NotStatic(v.expr or type(kind).__name__)

    # ---- branches
    def if_statement(self, stmt: ast.If):
        try:
            taken = self.static_value(stmt.test, "if")
        except Fail:
            self.runtime_if(stmt)       # runtime_if.py (it folds what is constant first)
            return
        # the branch's statements join the enclosing block: Python folds the `if` away
        self.block(stmt.body if taken else stmt.orelse)

    def if_expression(self, node: ast.IfExp, hint) -> Value:
        test = self.condition(node.test)
        if isinstance(test, bool):
            return self.expr(node.body if test else node.orelse, hint)
        return self.runtime_if_expression(node, test, hint)

    def assert_statement(self, stmt: ast.Assert):
        try:
            ok = self.static_value(stmt.test, "assert")
        except Fail:
            raise Fail(stmt, "assert", "a runtime assert (ct.assert_) is not ported") from None
        if not ok:
            raise Fail(stmt, "assert", f"`{ast.unparse(stmt.test)}` is false for this entry")


_ = NeedConstants
