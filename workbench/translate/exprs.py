"""Expressions: names, literals, operators, attributes, subscripts and calls, evaluated to
symbolic values (values.py). Mixed into the Translator."""
from __future__ import annotations

import ast

from .arith import (CMP_OPS, aligned_terms, binop, broadcast, compare, position_kind,
                    shape_text, static_op, text_of)
from .block_ptrs import CALLS as BLOCK_PTR_CALLS
from .calls import DTYPES, TL_METHODS, cast_call, selected, shape_arg, tl_call
from .mathfns import is_math, math_call
from .helpers import inline_helper
from .values import Bound, DType, Desc, Fail, Ptr, Run, Static, Term, Unknown, atom_terms, literal


class Exprs:
    def expr(self, node):
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            raise Fail(node, type(node).__name__, f"`{ast.unparse(node)}` is not translated")
        return method(node)

    def _Constant(self, node):
        return literal(node.value, self.n)

    def _Name(self, node):
        if node.id in self.state.env:
            value = self.state.env[node.id]
            if isinstance(value, Unknown):
                raise _Quiet(node)
            return value
        if node.id in self.src.constants:
            return literal(self.src.constants[node.id], self.n)
        if node.id in ("True", "False", "None"):
            return literal({"True": True, "False": False, "None": None}[node.id], self.n)
        if node.id in self.src.helpers:
            raise Fail(node, f"{node.id}(...)", "a call of another @triton.jit function: "
                       "helpers are not inlined yet")
        raise Fail(node, "name", f"`{node.id}` is not defined in the kernel")

    def _Tuple(self, node):
        return tuple(self.expr(e) for e in node.elts)

    _List = _Tuple

    def _BinOp(self, node):
        return self.binary(node.op, self.expr(node.left), self.expr(node.right), node)

    def binary(self, op, a, b, node):
        op = type(op)
        if any(isinstance(v, Static) and v.uniform and v.value is None for v in (a, b)):
            raise Fail(node, "None operand", f"`{ast.unparse(node)}` computes with None (an "
                       "argument passed as None is a compile-time None, which Triton would "
                       "not compile here either): guard the line with `if NAME is not None:` "
                       "or a tl.constexpr flag, or pass a tensor")
        if isinstance(a, Ptr) or isinstance(b, Ptr):
            return self._pointer_add(op, a, b, node)
        return binop(op, a, b, node, self.n)

    def _pointer_add(self, op, a, b, node):
        ptr, offset = (a, b) if isinstance(a, Ptr) else (b, a)
        if op is not ast.Add or isinstance(offset, Ptr):
            raise Fail(node, "pointer arithmetic", "only `pointer + offset` is translated")
        terms = atom_terms(offset)
        if terms is None:
            terms = (Term((offset,)),) if isinstance(offset, Run) and not offset.is_tile \
                else None
        if terms is None:
            return Ptr(ptr.param, ptr.terms + (_opaque_term(offset),), offset.shape)
        shape = _broadcast(ptr.shape, getattr(offset, "shape", None), node)
        rank = len(shape or ())
        mine = aligned_terms(ptr.terms, len(ptr.shape or ()), rank)
        theirs = aligned_terms(terms, len(getattr(offset, "shape", None) or ()), rank)
        return Ptr(ptr.param, mine + theirs, shape)

    def _UnaryOp(self, node):
        value = self.expr(node.operand)
        if isinstance(value, Static):
            fn = {ast.USub: lambda v: -v, ast.Not: lambda v: not v, ast.UAdd: lambda v: v,
                  ast.Invert: lambda v: ~v}[type(node.op)]
            return static_op(fn, f"({_UNARY[type(node.op)]}{value.text})", value)
        if isinstance(value, Run) and isinstance(node.op, ast.USub):
            return binop(ast.Mult, literal(-1, self.n), value, node, self.n) if value.is_int \
                else Run(f"(-{value.code})", value.shape)
        if isinstance(value, Run) and isinstance(node.op, ast.Invert):
            return Run(f"(~{value.code})", value.shape, is_int=value.is_int)
        raise Fail(node, "unary operator", f"`{ast.unparse(node)}`")

    def _Compare(self, node):
        if len(node.ops) != 1:
            raise Fail(node, "comparison", "chained comparisons")
        op = type(node.ops[0])
        if op in (ast.Is, ast.IsNot):
            return self.identity_test(node, op is ast.Is)
        if op not in CMP_OPS:
            raise Fail(node, "comparison", f"`{ast.unparse(node)}`")
        return compare(op, self.expr(node.left), self.expr(node.comparators[0]), node)

    def identity_test(self, node, is_: bool):
        """`X is None` / `X is not None`, decided at compile time: on constexprs by their
        value in each case; a tensor or runtime value is never None."""
        left, right = self.expr(node.left), self.expr(node.comparators[0])
        if isinstance(left, Static) and isinstance(right, Static):
            return static_op(lambda a, b: (a is b) == is_, f"`{ast.unparse(node)}`", left, right)
        if any(isinstance(v, Static) and v.uniform and v.value is None for v in (left, right)):
            return literal(not is_, self.n)
        raise Fail(node, "comparison", f"`{ast.unparse(node)}`: `is` compares with None only")

    def _BoolOp(self, node):
        values = [self.expr(v) for v in node.values]
        if all(isinstance(v, Static) for v in values):
            fn = all if isinstance(node.op, ast.And) else any
            return static_op(lambda *vs: fn(vs), "(" + f" {'and' if fn is all else 'or'} ".join(
                v.text for v in values) + ")", *values)
        if not all(isinstance(v, (ast.Compare, ast.BoolOp)) or
                   isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not) for v in node.values):
            raise Fail(node, "and/or", "`and` / `or` on runtime values other than comparisons: "
                       "use & and |")
        # of conditions (no side effects to skip): the same as & / |, which cuTile has
        op = ast.BitAnd() if isinstance(node.op, ast.And) else ast.BitOr()
        result = values[0]
        for value in values[1:]:
            result = self.binary(op, result, value, node)
        return result

    def _IfExp(self, node):
        test = self.expr(node.test)
        if isinstance(test, Static) and test.uniform:
            return self.expr(node.body if test.value else node.orelse)
        if isinstance(test, Static):
            a, b = self.expr(node.body), self.expr(node.orelse)
            if isinstance(a, Static) and isinstance(b, Static):
                vals = tuple(x if t else y for t, x, y in zip(test.vals, a.vals, b.vals))
                return Static(vals, f"({a.text} if {test.text} else {b.text})")
        if isinstance(test, Run):
            return selected(test, self.expr(node.body), self.expr(node.orelse), node,
                            "conditional expression")
        raise Fail(node, "conditional expression", "a conditional on a runtime value")

    def _Attribute(self, node):
        dotted = ast.unparse(node)
        named = self.triton_name(node)
        if named is not None:
            leaf = named[1]
            if leaf in DTYPES:
                return DType(DTYPES[leaf])
            if leaf == "tensor_descriptor":
                return _TENSOR_DESCRIPTOR
            raise Fail(node, dotted, "no cuTile mapping for this Triton attribute")
        base = self.expr(node.value)
        if node.attr == "element_ty" and isinstance(base, DType):
            return base
        if node.attr in ("dtype", "type") and isinstance(base, Ptr):   # X.type.element_ty too
            return DType(f"{base.param}.dtype")
        if node.attr == "dtype" and isinstance(base, Desc):
            return DType(f"{base.param}.dtype")
        if node.attr == "dtype" and isinstance(base, Run):
            return DType(f"{base.code}.dtype", of_value=True)
        if isinstance(base, Desc) and node.attr in ("type", "block_type"):
            return base if node.attr == "type" else DType(f"{base.param}.dtype")
        if node.attr == "T" and isinstance(base, Run) and base.shape and len(base.shape) == 2:
            return Run(f"ct.transpose({base.code})", (base.shape[1], base.shape[0]),
                       dtype=base.dtype)
        raise Fail(node, f".{node.attr}", f"`{dotted}` is not translated")

    def _Subscript(self, node):
        value = self.expr(node.value)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if isinstance(value, tuple):
            return value[self.static_int(node.slice, "subscript")]
        if not all(_is_full_slice(i) or _is_none(i) for i in items):
            raise Fail(node, "subscript", "only `[:, None]`-style broadcasting subscripts")
        shape = list(getattr(value, "shape", None) or ())
        if sum(_is_full_slice(i) for i in items) != len(shape):
            raise Fail(node, "subscript", "the subscript does not name every axis")
        out, axis_map, source = [], {}, 0
        for item in items:
            if _is_none(item):
                out.append(literal(1, self.n))
            else:
                axis_map[source] = len(out)
                out.append(shape[source])
                source += 1
        return self.reshape_value(value, tuple(out), node, axis_map)

    def reshape_value(self, value, shape: tuple, node, axis_map: dict | None = None):
        if isinstance(value, Ptr):
            if axis_map is None:
                raise Fail(node, "reshape", "reshaping a tile of pointers")
            return Ptr(value.param, tuple(t.moved(axis_map) for t in value.terms), shape)
        if not isinstance(value, Run):
            raise Fail(node, "reshape", "reshaping a value that is not a tile")
        code = f"ct.reshape({value.code}, {shape_text(shape)})"
        result = Run(code, shape, is_int=value.is_int, dtype=value.dtype)
        if axis_map is not None:
            if value.terms is not None:
                result.terms = tuple(t.moved(axis_map) for t in value.terms)
            if value.bounds is not None:
                result.bounds = tuple(Bound(tuple(t.moved(axis_map) for t in b.terms), b.op,
                                            b.limit) for b in value.bounds)
        return result

    def triton_name(self, node) -> tuple[str, str] | None:
        """("tl", NAME) for `triton.language.NAME`, ("math", NAME) for a function of Triton's
        math or libdevice modules, however the module imported it (`tl.X`, `libdevice.X`,
        `tl.extra.libdevice.X`, `X` from `from ... import X`), else None. Imports that
        depend on the Triton version must agree on what the name is."""
        paths = self.module_paths(node)
        found = {_classify(p) for p in paths} - {None}
        if len(found) > 1:
            raise Fail(node, ast.unparse(node), "the module's version-dependent imports bind "
                       f"it to different functions ({', '.join(paths)}): import one of them")
        return found.pop() if found else None

    def module_paths(self, node) -> list[str]:
        """The dotted names `a.b.c` may stand for, from the module's imports (one per
        alternative of a `try`/`if` at module level); [] for a kernel's own names."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id in self.state.env or node.id in self.src.helpers:
            return []
        rest = "".join("." + p for p in reversed(parts))
        roots = self.src.imports.get(node.id) or DEFAULT_IMPORTS.get(node.id, ())
        return [root + rest for root in roots]

    def _Call(self, node):
        func = node.func
        dotted = ast.unparse(func)
        named = self.triton_name(func)
        if named is not None and named[0] == "math":      # mathfns.py
            return math_call(self, named[1], node, dotted)
        if named is not None:
            if named[1] in BLOCK_PTR_CALLS:               # block_ptrs.py
                return BLOCK_PTR_CALLS[named[1]](self, node)
            return tl_call(self, named[1], node)
        if dotted == "isinstance":
            value, kind = self.expr(node.args[0]), self.expr(node.args[1])
            is_desc = isinstance(value, Desc)
            return literal(is_desc if kind is _TENSOR_DESCRIPTOR else not is_desc, self.n)
        if dotted in ("float", "int") and len(node.args) == 1 and not node.keywords:
            return self.cast_builtin(dotted, node)
        if dotted in ("min", "max") and len(node.args) >= 2 and not node.keywords:
            return self.min_max_builtin(dotted, node)
        if isinstance(func, ast.Attribute):
            base = self.expr(func.value)
            return self._method(base, func.attr, node)
        if isinstance(func, ast.Name) and func.id in self.src.helpers:
            return inline_helper(self, self.src.helpers[func.id], node,      # helpers.py
                                 self.src.helper_files.get(func.id))
        raise Fail(node, f"{dotted}(...)", "a call the translator does not know")

    def min_max_builtin(self, name: str, node):
        """Python's min/max: folded on constants, ct.minimum / ct.maximum on runtime
        scalars (a grouped matmul's `min(num_pid_m - first_pid_m, GROUP_M)`)."""
        values = [self.expr(a) for a in node.args]
        if all(isinstance(v, Static) for v in values):
            return static_op(min if name == "min" else max, f"{name}(...)", *values)
        if not all(isinstance(v, (Run, Static)) and getattr(v, "shape", None) is None
                   for v in values):
            raise Fail(node, f"{name}(...)", f"Python's {name} of tiles: use tl.{name}imum")
        result = values[0]
        for value in values[1:]:
            is_int = all(v.is_int if isinstance(v, Run) else isinstance(v.value, int)
                         for v in (result, value))
            result = Run(f"ct.{name}imum({text_of(result)}, {text_of(value)})", is_int=is_int,
                         kind=position_kind(None, is_int, result, value))
        return result

    def cast_builtin(self, name: str, node):
        """`float("inf")`, `float("-inf")`, `float("nan")` (the usual padding values),
        `float(C)` / `int(C)` of a compile-time value: a literal."""
        arg = node.args[0]
        cast = float if name == "float" else int
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            try:
                return literal(cast(arg.value), self.n)
            except ValueError:
                raise Fail(node, f"{name}(...)", f"`{ast.unparse(node)}` is not a number") from None
        value = self.expr(arg)
        if not isinstance(value, Static):
            raise Fail(node, f"{name}(...)", f"`{ast.unparse(node)}` converts a runtime value: "
                       "write `.to(tl.float32)` (or the dtype) instead")
        return static_op(cast, f"{name}({value.text})", value)

    def _method(self, base, name: str, node):
        if isinstance(base, Desc) and name == "load":
            return self.desc_load(base, node)
        if isinstance(base, Desc) and name == "store":
            return self.desc_store(base, node)
        if name in ("to", "cast"):
            return cast_call(self, base, node, dtype_at=0)
        if name == "reshape" and isinstance(base, Run):
            shape_node = node.args[0] if len(node.args) == 1 else ast.Tuple(node.args)
            return self.reshape_value(base, shape_arg(self, shape_node, "reshape"), node)
        if name in TL_METHODS and isinstance(base, Run):      # x.sum(1): tl.sum(x, 1)
            return tl_call(self, name, ast.Call(node.func, [node.func.value] + node.args,
                                                node.keywords))
        if isinstance(base, Ptr) and name in ("load", "store"):
            raise Fail(node, f".{name}(...)", f"`{ast.unparse(node.func)}`: {base.param} is an "
                       "array in this case, not a tensor descriptor: give its argument a block "
                       "(DTYPE[SHAPE]:block=(..))")
        raise Fail(node, f".{name}(...)", f"the method `{name}` is not translated")

    def cast(self, value, dtype: DType, node):
        if isinstance(value, Static):
            return value
        if not isinstance(value, Run):
            raise Fail(node, ".to()", "casting a value that is not a tile or scalar")
        if value.kind in ("bid", "loop", "param", "position") or (value.terms is not None
                                                     and "int" in dtype.text):
            if "int64" in dtype.text:
                self.note(node, ".to(tl.int64) on an index: cuTile indexes tiles and computes "
                                "element offsets itself, so the overflow it guards against "
                                "does not arise; kept as an int32 index")
                return value
        if value.terms is not None and dtype.text == "ct.int32":
            return value                  # index arithmetic is int32 already
        is_int = "int" in dtype.text
        result = Run(f"ct.astype({value.code}, {dtype.text})", value.shape, is_int=is_int,
                     dtype=dtype.text)
        if is_int and value.terms is not None:
            result.terms = value.terms
        return result

    def data(self, node, what: str):
        value = self.expr(node)
        if not isinstance(value, (Run, Static)):
            raise Fail(node, what, f"`{ast.unparse(node)}` is not a tile or a scalar")
        return value

    def static_value(self, node, what: str):
        value = self.expr(node)
        if not isinstance(value, Static) or not value.uniform:
            raise Fail(node, what, f"`{ast.unparse(node)}` must be a constant")
        return value.value

    def static_int(self, node, what: str) -> int:
        value = self.static_value(node, what)
        if not isinstance(value, int):
            raise Fail(node, what, f"`{ast.unparse(node)}` must be an integer constant")
        return value


TL_MODULE = "triton.language"
MATH_MODULES = ("triton.language.math", "triton.language.extra.libdevice",
                "triton.language.extra.cuda.libdevice", "triton.language.extra.hip.libdevice")
DEFAULT_IMPORTS = {"tl": ("triton.language",), "triton": ("triton",)}


def _classify(path: str) -> tuple[str, str] | None:
    module, _, name = path.rpartition(".")
    if module in MATH_MODULES or module == TL_MODULE and is_math(name):
        return "math", name
    return ("tl", name) if module == TL_MODULE else None


class _Quiet(Fail):
    """A use of a name whose assignment already failed: reported once, at the assignment."""

    def __init__(self, node):
        super().__init__(node, "", "")


_TENSOR_DESCRIPTOR = object()
_UNARY = {ast.USub: "-", ast.Not: "not ", ast.UAdd: "+", ast.Invert: "~"}


def _is_none(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _is_full_slice(node) -> bool:
    return isinstance(node, ast.Slice) and node.lower is None and node.upper is None \
        and node.step is None


def _broadcast(a, b, node):
    return broadcast(a, b, node)


def _opaque_term(offset) -> Term:
    return Term((offset,), None, None)
