"""Arithmetic on symbolic values: Statics fold per case, runtime values build cuTile text,
and integer values keep their sum-of-products form through `+`, `-` and `*`."""
from __future__ import annotations

import ast
import operator

from .values import Bound, Fail, Run, Static, Term, atom_terms, literal_text

PY_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
          ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
          ast.Pow: operator.pow, ast.BitXor: operator.xor, ast.BitAnd: operator.and_,
          ast.BitOr: operator.or_, ast.LShift: operator.lshift, ast.RShift: operator.rshift}
OP_TEXT = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.BitXor: "^", ast.BitAnd: "&", ast.BitOr: "|",
           ast.LShift: "<<", ast.RShift: ">>"}
CMP_OPS = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
           ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}
CMP_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
            ast.NotEq: "!="}
FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def text_of(value) -> str:
    if isinstance(value, Static):
        return value.text
    if isinstance(value, Run):
        return value.code
    raise TypeError(value)


def static_op(fn, texts: str, *values: Static) -> Static:
    vals = tuple(fn(*args) for args in zip(*(v.vals for v in values)))
    result = Static(vals, "")
    text = literal_text(vals[0]) if result.uniform else texts
    return Static(vals, text)


def shape_of(value) -> tuple | None:
    return value.shape if isinstance(value, Run) else None


def broadcast(a: tuple | None, b: tuple | None, node) -> tuple | None:
    """numpy broadcasting of two shapes of Statics (None: a scalar)."""
    if a is None:
        return b
    if b is None:
        return a
    rank = max(len(a), len(b))
    a = (None,) * (rank - len(a)) + tuple(a)
    b = (None,) * (rank - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x is None or (x.uniform and x.value == 1):
            out.append(y if y is not None else x)
        elif y is None or (y.uniform and y.value == 1) or x.vals == y.vals:
            out.append(x)
        else:
            raise Fail(node, "broadcast", f"shapes {shape_text(a)} and {shape_text(b)} do "
                                          "not broadcast")
    return tuple(out)


def shape_text(shape) -> str:
    if shape is None:
        return "()"
    items = [s.text if s is not None else "?" for s in shape]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def aligned_terms(terms, rank: int, to_rank: int) -> tuple:
    """Terms of a value of `rank` axes, renumbered for a broadcast to `to_rank` axes."""
    shift = to_rank - rank
    return tuple(t.moved({t.axis: t.axis + shift}) if t.axis is not None else t for t in terms)


def float_dtype(*values) -> str | None:
    """The dtype of float arithmetic where the translator knows it: values of one dtype, or
    one and a Python number (which takes the value's dtype, as in Triton)."""
    dtypes = {v.dtype for v in values if isinstance(v, Run)}
    return dtypes.pop() if len(dtypes) == 1 else None


def binop(op: type, a, b, node, cases: int) -> Static | Run:
    if isinstance(a, Static) and isinstance(b, Static):
        return static_op(PY_OPS[op], f"({a.text} {OP_TEXT[op]} {b.text})", a, b)
    if not isinstance(a, (Static, Run)) or not isinstance(b, (Static, Run)):
        raise Fail(node, OP_TEXT.get(op, "operator"), "arithmetic on a pointer or a dtype "
                   "other than `pointer + offset`")
    shape = broadcast(shape_of(a), shape_of(b), node)
    code = f"({text_of(a)} {OP_TEXT[op]} {text_of(b)})"
    is_int = _is_int(a) and _is_int(b) and op not in (ast.Div,)
    result = Run(code, shape, is_int=is_int, kind=position_kind(shape, is_int, a, b),
                 dtype=None if is_int else float_dtype(a, b))
    if op in (ast.Add, ast.Sub, ast.Mult) and is_int:
        result.terms = _affine(op, a, b, shape, cases)
    if shape is None and is_int:
        result.case_values = _scalar_values(op, a, b)
    if op is ast.FloorDiv and isinstance(b, Static) and isinstance(a, Run) \
            and b.text in a.quotients:
        result.code, result.terms = a.quotients[b.text], None
    if op is ast.Mod and is_int and (shape is None and result.kind == "position"
                                     or shape is not None and _position_tile(a)):
        result.upper = _positive_values(b)       # a position % n lies in [0, n)
    if op is ast.BitAnd and isinstance(a, Run) and isinstance(b, Run) \
            and a.bounds is not None and b.bounds is not None:
        rank = len(shape) if shape else 0
        result.bounds = tuple(_aligned_bound(x, len(v.shape or ()), rank)
                              for v in (a, b) for x in v.bounds)
    return result


POSITIONS = ("bid", "loop", "param", "position")


def _position_tile(v) -> bool:
    """A tile of block positions: program ids, loop variables, scalar parameters and
    non-negative constants times aranges (`pid * B + tl.arange(0, B)`), so never negative."""
    terms = getattr(v, "terms", None)
    return bool(terms) and all(
        isinstance(f, Run) and f.shape is None and f.kind in POSITIONS
        or isinstance(f, Static) and all(isinstance(x, int) and x >= 0 for x in f.vals)
        for term in terms for f in term.factors)


def case_values(v) -> tuple | None:
    """A scalar's value in each case: a constant's, or a runtime scalar's the cases give."""
    return v.vals if isinstance(v, Static) else getattr(v, "case_values", None)


SCALAR_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)


def _scalar_values(op: type, a, b) -> tuple | None:
    """The per-case values of integer scalar arithmetic on scalars whose values the cases
    give (`rot_dim // 2` of a runtime `rot_dim`), so a later `x % (rot_dim // 2)` knows its
    range; None when either side's are unknown."""
    values = [case_values(a), case_values(b)]
    if None in values or op not in SCALAR_OPS or len(values[0]) != len(values[1]) or \
            not all(isinstance(x, int) and not isinstance(x, bool) for v in values for x in v):
        return None
    try:
        return tuple(PY_OPS[op](x, y) for x, y in zip(*values))
    except ZeroDivisionError:
        return None


def _positive_values(v) -> tuple | None:
    """The per-case values of a positive integer scalar, when they are known."""
    vals = case_values(v)
    if vals and all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in vals):
        return tuple(vals)
    return None


def position_kind(shape, is_int, *operands) -> str:
    """"position" for an integer scalar computed only from program ids, loop variables,
    scalar parameters and constants (a block position such as a grouped `pid_m`: the block
    idiom), else "value" (it may come from memory, with no known range)."""
    if shape is None and is_int and all(
            isinstance(v, Static) or (isinstance(v, Run) and v.shape is None
                                      and v.kind in POSITIONS) for v in operands):
        return "position"
    return "value"


def _aligned_bound(bound: Bound, rank: int, to_rank: int) -> Bound:
    return Bound(aligned_terms(bound.terms, rank, to_rank), bound.op, bound.limit)


def _is_int(v) -> bool:
    if isinstance(v, Static):
        return isinstance(v.value, int) and not isinstance(v.value, bool)
    return bool(v.is_int)


def _affine(op, a, b, shape, cases: int) -> tuple | None:
    ta, tb = atom_terms(a), atom_terms(b)
    if ta is None or tb is None:
        return None
    rank = len(shape) if shape else 0
    ta = aligned_terms(ta, len(shape_of(a) or ()), rank)
    tb = aligned_terms(tb, len(shape_of(b) or ()), rank)
    if op is ast.Add:
        return ta + tb
    if op is ast.Sub:
        minus = Static((-1,) * cases, "-1")
        return ta + tuple(t.scaled(minus) for t in tb)
    # a product: distribute when at most one side carries aranges
    if any(t.axis is not None for t in ta) and any(t.axis is not None for t in tb):
        return None
    out = []
    for x in ta:
        for y in tb:
            axis, size = (x.axis, x.size) if x.axis is not None else (y.axis, y.size)
            out.append(Term(x.factors + y.factors, axis, size))
    return tuple(out)


def compare(op: type, a, b, node) -> Static | Run:
    if isinstance(a, Static) and isinstance(b, Static):
        return static_op(CMP_OPS[op], f"({a.text} {CMP_TEXT[op]} {b.text})", a, b)
    if not isinstance(a, (Static, Run)) or not isinstance(b, (Static, Run)):
        raise Fail(node, CMP_TEXT[op], "a comparison of pointers or dtypes")
    shape = broadcast(shape_of(a), shape_of(b), node)
    result = Run(f"({text_of(a)} {CMP_TEXT[op]} {text_of(b)})", shape, is_int=False)
    text = CMP_TEXT[op]
    ta, tb = atom_terms(a), atom_terms(b)
    if text in FLIP and ta is not None and isinstance(a, Run) and a.is_tile \
            and (isinstance(b, Static) or not getattr(b, "is_tile", False)):
        result.bounds = (Bound(ta, text, b),)
    elif text in FLIP and tb is not None and isinstance(b, Run) and b.is_tile \
            and (isinstance(a, Static) or not getattr(a, "is_tile", False)):
        result.bounds = (Bound(tb, FLIP[text], a),)
    return result


def divide(value, block: Static) -> str | None:
    """cuTile text of `value // block` when `value` is provably a multiple of `block` in
    every case (a loop variable stepping by it, a product with it, a multiple of it)."""
    if block.uniform and block.value == 1:
        return text_of(value)
    if isinstance(value, Static):
        if all(isinstance(v, int) and isinstance(b, int) and b and v % b == 0
               for v, b in zip(value.vals, block.vals)):
            return static_op(operator.floordiv, f"({value.text} // {block.text})",
                             value, block).text
        return None
    if isinstance(value, Run) and block.text in value.quotients:
        return value.quotients[block.text]
    terms = atom_terms(value)
    if terms is None:
        return None
    parts = [divide_term(t, block) for t in terms]
    return None if None in parts else " + ".join(parts) if parts else "0"


def divide_term(term: Term, block: Static) -> str | None:
    if term.axis is not None:
        return None
    factors = list(term.factors)
    for i, f in enumerate(factors):
        if isinstance(f, Static) and f.vals == block.vals:
            return product_text(factors[:i] + factors[i + 1:])
        if isinstance(f, Run) and block.text in f.quotients:
            rest = factors[:i] + factors[i + 1:]
            return product_text(rest + [Run(f.quotients[block.text])])
    for i, f in enumerate(factors):
        if isinstance(f, Static) and divide(f, block) is not None:
            q = static_op(operator.floordiv, f"({f.text} // {block.text})", f, block)
            return product_text(factors[:i] + [q] + factors[i + 1:])
    return None


def product_text(factors) -> str:
    texts = [text_of(f) for f in factors if not (isinstance(f, Static) and f.uniform
                                                  and f.value == 1)]
    if any(isinstance(f, Static) and f.uniform and f.value == 0 for f in factors):
        return "0"
    return " * ".join(texts) if texts else "1"


def sum_text(terms) -> str:
    """cuTile text of a sum of scalar terms (no aranges)."""
    parts = [product_text(t.factors) for t in terms]
    parts = [p for p in parts if p != "0"]
    return " + ".join(parts) if parts else "0"
