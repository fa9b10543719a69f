"""`tl.*` functions and tile methods, one small function each, looked up by name (math
functions are mathfns.py's). A function the translator knows and does not map is in REFUSED
with the reason; anything else is an unknown construct, named as such."""
from __future__ import annotations

import ast

from .arith import broadcast, position_kind, shape_text, static_op, text_of
from .values import DType, Fail, Run, Static, Term, literal
from ..sources.module import call_argument as arg

REDUCE = {"sum": "ct.sum", "max": "ct.max", "min": "ct.min"}
DTYPES = {"float32": "ct.float32", "float16": "ct.float16", "bfloat16": "ct.bfloat16",
          "float64": "ct.float64", "int32": "ct.int32", "int64": "ct.int64",
          "int16": "ct.int16", "int8": "ct.int8", "uint8": "ct.uint8", "uint32": "ct.uint32",
          "int1": "ct.bool_", "float8e4nv": "ct.float8_e4m3fn", "float8e5": "ct.float8_e5m2"}
HINTS = {"multiple_of", "max_contiguous", "max_constancy", "assume"}
REFUSED = {
    "rand": "Philox random numbers: cuTile has no random-number generator (write the hash "
            "in integer tile arithmetic, as TileGym's cuTile dropout does)",
    "randn": "Philox random numbers: cuTile has no random-number generator",
    "randint": "Philox random numbers: cuTile has no random-number generator",
    "atomic_cas": "a compare-and-swap is not translated (the drafter has no ct.atomic_cas)",
    "inline_asm_elementwise": "inline PTX: no Tile IR equivalent",
    "histogram": "tl.histogram has no cuTile equivalent",
    "associative_scan": "tl.associative_scan with a combine function is not translated",
    "reduce": "tl.reduce with a combine function is not translated",
    "device_print": "printing from the kernel is not translated",
    "gather": "tl.gather (gathering from a tile) is not translated yet",
    "flip": "cuTile has no tile reversal: load the elements in reverse order instead "
            "(offsets BLOCK - 1 - tl.arange(0, BLOCK))",
    "sort": "cuTile has no sort of a tile",
}


def dtype_of(t, node) -> DType:
    value = t.expr(node)
    if not isinstance(value, DType):
        raise Fail(node, "dtype", f"`{ast.unparse(node)}` is not a dtype")
    return value


def shape_arg(t, node, what: str) -> tuple:
    value = t.expr(node)
    items = value if isinstance(value, tuple) else (value,)
    if not all(isinstance(v, Static) and isinstance(v.value, int) for v in items):
        raise Fail(node, what, f"the shape `{ast.unparse(node)}` is not made of constants")
    return tuple(items)


def tl_call(t, name: str, call: ast.Call):
    if name in REFUSED:
        raise Fail(call, f"tl.{name}", REFUSED[name])
    if name in HINTS:
        return t.expr(call.args[0])
    fn = TL.get(name)
    if fn is None:
        raise Fail(call, f"tl.{name}", "no cuTile mapping for this Triton function")
    return fn(t, call)


def _program_id(t, call):
    axis = t.static_int(arg(call, "axis", 0), "tl.program_id")
    grids = [getattr(c, "grid", None) for c in t.cases]
    # below the launch grid's extent on that axis, where every case gives its grid
    upper = tuple(g[axis] if axis < len(g) else 1 for g in grids) \
        if grids and all(g and all(isinstance(x, int) for x in g) for g in grids) \
        else None
    return Run(f"ct.bid({axis})", kind="bid", is_int=True, upper=upper)


def _num_programs(t, call):
    axis = t.static_int(arg(call, "axis", 0), "tl.num_programs")
    return Run(f"ct.num_blocks({axis})", kind="bid", is_int=True)


def _arange(t, call):
    start = t.static_int(arg(call, "start", 0), "tl.arange")
    end = t.expr(arg(call, "end", 1))
    begin = t.expr(arg(call, "start", 0))
    size = end if start == 0 and begin.uniform else \
        static_op(lambda e, s: e - s, f"({end.text} - {begin.text})", end, begin)
    code = f"ct.arange({size.text}, dtype=ct.int32)"
    terms = (Term((), 0, size),)
    if start:
        code = f"({begin.text} + {code})"
        terms += (Term((begin,)),)
    return Run(code, (size,), terms=terms, is_int=True)


def _zeros(t, call):
    shape = shape_arg(t, arg(call, "shape", 0), "tl.zeros")
    dtype = dtype_of(t, arg(call, "dtype", 1))
    return Run(f"ct.zeros({shape_text(shape)}, dtype={dtype.text})", shape,
               is_int="int" in dtype.text)


def _full(t, call):
    shape = shape_arg(t, arg(call, "shape", 0), "tl.full")
    value = t.expr(arg(call, "value", 1))
    dtype = dtype_of(t, arg(call, "dtype", 2))
    return Run(f"ct.full({shape_text(shape)}, {text_of(value)}, dtype={dtype.text})", shape,
               is_int="int" in dtype.text)


# where the positional arguments after `axis` sit: tl.sum(input, axis, keep_dims, dtype);
# tl.max / tl.min(input, axis, return_indices, return_indices_tie_break_left, keep_dims)
REDUCE_POSITIONS = {"sum": {"keep_dims": 2, "dtype": 3},
                    "max": {"return_indices": 2, "keep_dims": 4},
                    "min": {"return_indices": 2, "keep_dims": 4}}


def _reduce(name):
    def fn(t, call):
        at = REDUCE_POSITIONS[name]
        x = t.data(arg(call, "input", 0), f"tl.{name}")
        axis_node = arg(call, "axis", 1)
        keep = arg(call, "keep_dims", at["keep_dims"])
        indices = arg(call, "return_indices", at.get("return_indices"))
        if indices is not None and t.static_value(indices, f"tl.{name}"):
            return _with_indices(t, call, name, fn)
        dtype = arg(call, "dtype", at.get("dtype"))
        if dtype is not None and not (isinstance(dtype, ast.Constant) and dtype.value is None):
            x = t.cast(x, dtype_of(t, dtype), call)      # Triton casts before it reduces
        keep = bool(t.static_value(keep, f"tl.{name}")) if keep is not None else False
        shape = x.shape or ()
        if axis_node is None or (isinstance(axis_node, ast.Constant) and axis_node.value is None):
            code = f"{REDUCE[name]}({text_of(x)})"
            return Run(code, tuple(Static((1,) * t.n, "1") for _ in shape) if keep else None)
        axis = t.static_int(axis_node, f"tl.{name}") % max(len(shape), 1)
        code = f"{REDUCE[name]}({text_of(x)}, axis={axis}" + (", keepdims=True)" if keep else ")")
        out = list(shape)
        if keep:
            out[axis] = Static((1,) * t.n, "1")
        else:
            del out[axis]
        return Run(code, tuple(out) if out else None)
    return fn


def _where(t, call):
    cond = t.expr(call.args[0])
    a, b = t.expr(call.args[1]), t.expr(call.args[2])
    if isinstance(cond, Static):
        if not cond.uniform:
            raise Fail(call, "tl.where", "a condition on constants that differ between "
                       "cases: give cases that agree on it")
        return a if cond.value else b
    return selected(cond, a, b, call, "tl.where")


def selected(cond: Run, a, b, node, what: str) -> Run:
    """`ct.where(cond, a, b)` of two values (tl.where, and a conditional expression on a
    runtime value, whose two sides are values: nothing to skip)."""
    for v in (a, b):
        if not isinstance(v, (Run, Static)):
            raise Fail(node, what, "a choice between pointers: select the offsets instead")
    shape = broadcast(broadcast(cond.shape, getattr(a, "shape", None), node),
                      getattr(b, "shape", None), node)
    return Run(f"ct.where({text_of(cond)}, {text_of(a)}, {text_of(b)})", shape)


def _sigmoid(t, call):
    x = t.data(call.args[0], "tl.sigmoid")
    return Run(f"(1.0 / (1.0 + ct.exp(-{text_of(x)})))", getattr(x, "shape", None))


def _clamp(t, call):
    """tl.clamp(x, min, max): max(x, min) then min(.., max), as Triton defines it."""
    x, lo, hi = (t.data(arg(call, name, i), "tl.clamp") for i, name in
                 enumerate(("x", "min", "max")))
    shape = broadcast(broadcast(getattr(x, "shape", None), getattr(lo, "shape", None), call),
                      getattr(hi, "shape", None), call)
    return Run(f"ct.minimum(ct.maximum({text_of(x)}, {text_of(lo)}), {text_of(hi)})", shape)


def _cumsum(t, call):
    x = t.data(arg(call, "input", 0), "tl.cumsum")
    if not x.shape:
        raise Fail(call, "tl.cumsum", "a cumulative sum of a scalar")
    axis = t.static_int(arg(call, "axis", 1), "tl.cumsum") if arg(call, "axis", 1) is not None \
        else 0
    reverse = arg(call, "reverse", 2)
    reverse = bool(t.static_value(reverse, "tl.cumsum")) if reverse is not None else False
    return Run(f"ct.cumsum({text_of(x)}, axis={axis}, reverse={reverse})", x.shape)


def _zeros_like(t, call):
    """tl.zeros_like(x): a tile of x's shape and dtype (cuTile reads a tile's dtype)."""
    x = t.data(arg(call, "input", 0), "tl.zeros_like")
    shape = getattr(x, "shape", None)
    if not shape:
        raise Fail(call, "tl.zeros_like", "zeros like a scalar")
    return Run(f"ct.zeros({shape_text(shape)}, dtype={text_of(x)}.dtype)", shape)


def _with_indices(t, call, name: str, reduce):
    """`v, i = tl.max(x, axis, return_indices=True)`: the reduction and ct.argmax (the first
    index of the extreme value, as Triton's default tie break)."""
    tie = arg(call, "return_indices_tie_break_left", 3)
    if tie is not None and not t.static_value(tie, f"tl.{name}"):
        raise Fail(call, f"tl.{name}", "return_indices_tie_break_left=False (the last index "
                   "of a tie): cuTile's argmax/argmin return the first")
    if arg(call, "axis", 1) is None:
        raise Fail(call, f"tl.{name}", "return_indices without an axis: give the axis")
    keep = arg(call, "keep_dims", 4)
    keywords = [k for k in call.keywords if k.arg in ("input", "axis")] + \
        ([ast.keyword("keep_dims", keep)] if keep is not None else [])
    plain = ast.Call(call.func, call.args[:2], keywords)
    return reduce(t, plain), _argreduce(f"arg{name}")(t, plain)


def _argreduce(name):
    """tl.argmax / tl.argmin along one axis: the first index of the extreme value, written
    as cuTile reductions cutile can port too (`min(where(x == max(x), iota, n))`; cutile
    0.5.0 has no argmax: its reduce takes one operand)."""
    extreme = "max" if name == "argmax" else "min"

    def fn(t, call):
        x = t.data(arg(call, "input", 0), f"tl.{name}")
        axis = t.static_int(arg(call, "axis", 1), f"tl.{name}")
        keep = arg(call, "keep_dims", 3)
        keep = bool(t.static_value(keep, f"tl.{name}")) if keep is not None else False
        if not x.shape:
            raise Fail(call, f"tl.{name}", "an argmax of a scalar")
        axis %= len(x.shape)
        source = text_of(x)
        if not source.isidentifier():         # named once: read twice below
            t.state.fresh_count += 1
            t.emit(f"{name}_of{t.state.fresh_count} = {source}", call)
            source = f"{name}_of{t.state.fresh_count}"
        n = x.shape[axis].text
        dims = ["1"] * len(x.shape)
        dims[axis] = n
        iota = f"ct.arange({n}, dtype=ct.int32)"
        iota = iota if len(dims) == 1 else f"ct.reshape({iota}, ({', '.join(dims)}))"
        hit = f"{source} == ct.{extreme}({source}, axis={axis}, keepdims=True)"
        code = f"ct.min(ct.where({hit}, {iota}, {n}), axis={axis}" + \
            (", keepdims=True)" if keep else ")")
        shape = tuple(literal(1, t.n) if i == axis else d for i, d in enumerate(x.shape)) \
            if keep else tuple(d for i, d in enumerate(x.shape) if i != axis) or None
        return Run(code, shape, is_int=True)
    return fn


def _cdiv(t, call):
    a, b = t.expr(call.args[0]), t.expr(call.args[1])
    if isinstance(a, Static) and isinstance(b, Static):
        return static_op(lambda x, y: -(-x // y), f"ct.cdiv({a.text}, {b.text})", a, b)
    return Run(f"ct.cdiv({text_of(a)}, {text_of(b)})", is_int=True,
               kind=position_kind(None, True, a, b))


def _dot(t, call):
    a, b = t.data(call.args[0], "tl.dot"), t.data(call.args[1], "tl.dot")
    acc_node = arg(call, "acc", 2)
    if arg(call, "out_dtype", None) is not None or arg(call, "input_precision", None) is not None:
        t.note(call, "tl.dot: out_dtype / input_precision are left to cuTile's defaults")
    if not (a.shape and b.shape and len(a.shape) == 2 and len(b.shape) == 2):
        raise Fail(call, "tl.dot", "only 2-D operands are translated")
    shape = (a.shape[0], b.shape[1])
    if acc_node is None:
        acc = f"ct.zeros({shape_text(shape)}, dtype=ct.float32)"
    else:
        acc = text_of(t.data(acc_node, "tl.dot"))
    return Run(f"ct.mma({text_of(a)}, {text_of(b)}, {acc})", shape)


def _cast(t, call):
    return cast_call(t, t.expr(call.args[0]), call, dtype_at=1)


def cast_call(t, value, call, dtype_at: int):
    """`x.to(dtype, ..)` / `tl.cast(x, dtype, ..)`: a value conversion, or with bitcast=True a
    reinterpretation of the bits (ct.bitcast), which a conversion must never stand in for."""
    dtype = dtype_of(t, arg(call, "dtype", dtype_at))
    if arg(call, "fp_downcast_rounding", dtype_at + 1) is not None:
        raise Fail(call, ".to(fp_downcast_rounding=)", "a rounding mode of the cast is not "
                   "translated")
    bitcast = arg(call, "bitcast", dtype_at + 2)
    if bitcast is not None and t.static_value(bitcast, "bitcast"):
        if not isinstance(value, Run):
            raise Fail(call, ".to(bitcast=True)", "a bitcast of a compile-time value")
        return Run(f"ct.bitcast({value.code}, {dtype.text})", value.shape,
                   is_int="int" in dtype.text)
    return t.cast(value, dtype, call)


def _reshape(t, call):
    x = t.data(call.args[0], "tl.reshape")
    return t.reshape_value(x, shape_arg(t, arg(call, "shape", 1), "tl.reshape"), call)


def _trans(t, call):
    if len(call.args) > 1:              # tl.trans(x, 2, 0, 1): a permutation
        return _permute(t, call)
    x = t.data(call.args[0], "tl.trans")
    if not x.shape or len(x.shape) != 2:
        raise Fail(call, "tl.trans", "only 2-D tiles are transposed")
    return Run(f"ct.transpose({text_of(x)})", (x.shape[1], x.shape[0]))


def _split(t, call):
    """`a, b = tl.split(x)`, x of shape (..., 2): the two halves of its last axis, each an
    extract of shape (..., 1) reshaped to (...)."""
    x = t.data(call.args[0], "tl.split")
    shape = getattr(x, "shape", None)
    if not shape or not (shape[-1].uniform and shape[-1].value == 2):
        raise Fail(call, "tl.split", "splits a tile whose last axis has 2 elements; this one "
                   f"is {shape_text(shape)}")
    part = shape[:-1] + (literal(1, t.n),)
    halves = []
    for i in (0, 1):
        index = ", ".join(["0"] * (len(shape) - 1) + [str(i)])
        code = f"ct.extract({text_of(x)}, index=({index}), shape={shape_text(part)})"
        halves.append(Run(f"ct.reshape({code}, {shape_text(shape[:-1])})", shape[:-1] or None,
                          is_int=x.is_int))
    return tuple(halves)


def _join(t, call):
    """`tl.join(a, b)`: a and b stacked on a new last axis of 2 (both of one shape)."""
    a, b = (t.data(call.args[i], "tl.join") for i in (0, 1))
    shape = broadcast(getattr(a, "shape", None), getattr(b, "shape", None), call)
    if not shape:
        raise Fail(call, "tl.join", "joins tiles; these are scalars")
    one = shape + (literal(1, t.n),)
    parts = [f"ct.reshape({_broadcast_text(v, shape)}, {shape_text(one)})" for v in (a, b)]
    return Run(f"ct.cat(({parts[0]}, {parts[1]}), axis={len(shape)})",
               shape + (literal(2, t.n),), is_int=getattr(a, "is_int", None))


def _broadcast_text(value, shape) -> str:
    same = getattr(value, "shape", None) is not None and \
        [d.vals for d in value.shape] == [d.vals for d in shape]
    return text_of(value) if same else f"ct.broadcast_to({text_of(value)}, {shape_text(shape)})"


def _interleave(t, call):
    """`tl.interleave(a, b)`: a and b alternating along the last axis, a join reshaped."""
    joined = _join(t, call)
    shape = joined.shape[:-2] + (static_op(lambda n: 2 * n, f"2 * {joined.shape[-2].text}",
                                           joined.shape[-2]),)
    return t.reshape_value(joined, shape, call)


def _permute(t, call):
    """tl.permute(x, (1, 0, 2)) or tl.permute(x, 1, 0, 2): ct.permute (ct.transpose for
    the 2-D swap)."""
    x = t.data(call.args[0], "tl.permute")
    rest = call.args[1:]
    dims_node = rest[0] if len(rest) == 1 else ast.Tuple(list(rest), ast.Load())
    dims = t.expr(dims_node)
    dims = dims if isinstance(dims, tuple) else (dims,)
    order = [t.static_int(ast.Constant(d.value), "tl.permute") if isinstance(d, Static)
             else None for d in dims]
    shape = x.shape or ()
    if None in order or sorted(order) != list(range(len(shape))):
        raise Fail(call, "tl.permute", f"`{ast.unparse(dims_node)}` is not an order of the "
                   f"{len(shape)} axes")
    new = tuple(shape[i] for i in order)
    if order == list(range(len(shape))):
        return x
    if order == [1, 0]:
        return Run(f"ct.transpose({text_of(x)})", new, is_int=x.is_int)
    return Run(f"ct.permute({text_of(x)}, ({', '.join(map(str, order))}))", new,
               is_int=x.is_int)


def _expand_dims(t, call):
    x = t.data(call.args[0], "tl.expand_dims")
    shape = list(getattr(x, "shape", None) or ())
    axes = t.expr(arg(call, "axis", 1))
    for a in sorted(axes if isinstance(axes, tuple) else (axes,), key=lambda v: v.value):
        shape.insert(t.static_int(ast.Constant(a.value), "tl.expand_dims") % (len(shape) + 1),
                     literal(1, t.n))
    return t.reshape_value(x, tuple(shape), call)


def _ravel(t, call):
    x = t.data(call.args[0], "tl.ravel")
    size = literal(1, t.n)
    for d in x.shape or ():
        size = static_op(lambda a, b: a * b, f"{size.text} * {d.text}", size, d)
    return t.reshape_value(x, (size,), call)


def _softmax(t, call):
    """tl.softmax(x, dim=0, keep_dims=False) as Triton's standard library writes it:
    x - max(x, dim, keep_dims), exp, over its sum (division not IEEE-rounded: noted)."""
    x = t.data(call.args[0], "tl.softmax")
    dim_node, keep_node = arg(call, "dim", 1), arg(call, "keep_dims", 2)
    dim = 0 if dim_node is None or (isinstance(dim_node, ast.Constant) and
                                    dim_node.value is None) else t.static_int(dim_node, "tl.softmax")
    keep = bool(t.static_value(keep_node, "tl.softmax")) if keep_node is not None else False
    t.state.fresh_count += 1
    name = f"softmax_num{t.state.fresh_count}"
    source = text_of(x)
    kept = ", keepdims=True" if keep else ""
    t.emit(f"{name} = ct.exp({source} - ct.max({source}, axis={dim}{kept}))", call)
    t.note(call, "tl.softmax's division is fdiv (not IEEE-rounded); cuTile divides exactly")
    return Run(f"({name} / ct.sum({name}, axis={dim}{kept}))", x.shape, is_int=False)


def _broadcast_to(t, call):
    x = t.data(call.args[0], "tl.broadcast_to")
    shape = shape_arg(t, arg(call, "shape", 1), "tl.broadcast_to")
    return Run(f"ct.broadcast_to({text_of(x)}, {shape_text(shape)})", shape)


def _scalar_of(name):
    """`tl.float32(-float("inf"))`: a scalar of that dtype (a conversion of a runtime value).
    Triton 3.6's compiler does not call a dtype (`'dtype' object is not callable`): noted."""
    def fn(t, call):
        value = t.data(arg(call, "value", 0), f"tl.{name}")
        dtype = DType(DTYPES[name])
        t.note(call, f"tl.{name}(...) read as a {name} scalar of its value (Triton 3.6's compiler "
                     "refuses to call a dtype; tl.full([], value, dtype) is its own spelling)")
        if isinstance(value, Static):
            return Run(f"{dtype.text}({value.text})", is_int="int" in dtype.text)
        return t.cast(value, dtype, call)
    return fn


def _debug_barrier(t, call):
    t.note(call, "tl.debug_barrier() dropped: it makes the threads of one Triton program wait "
                 "for each other; a cuTile kernel is written per tile, with no threads to order, "
                 "and cuTile keeps a program's loads and stores of one array in order")
    return None


def _static_assert(t, call):
    t.note(call, "tl.static_assert is checked by Triton at compile time; not translated")
    return None


TL = {"program_id": _program_id, "num_programs": _num_programs, "arange": _arange,
      "zeros": _zeros, "full": _full, "where": _where, "sigmoid": _sigmoid,
      "cdiv": _cdiv, "dot": _dot, "clamp": _clamp, "cumsum": _cumsum,
      "zeros_like": _zeros_like, "argmax": _argreduce("argmax"), "argmin": _argreduce("argmin"), "cast": _cast, "reshape": _reshape, "trans": _trans,
      "broadcast_to": _broadcast_to, "split": _split, "join": _join, "permute": _permute,
      "expand_dims": _expand_dims, "ravel": _ravel, "softmax": _softmax,
      "interleave": _interleave, "static_assert": _static_assert,
      "device_assert": _static_assert, "debug_barrier": _debug_barrier,
      "load": lambda t, call: t.load(call), "store": lambda t, call: t.store(call)}
TL.update({f"atomic_{op}": (lambda op: lambda t, call: t.atomic(call, op))(op)
           for op in ("add", "max", "min", "and", "or", "xor", "xchg")})
TL.update({n: _reduce(n) for n in REDUCE})
# the tl functions a tile also has as methods (`x.sum(axis=1)`, `x.permute(1, 0)`)
TL_METHODS = {"sum", "max", "min", "argmax", "argmin", "cumsum", "permute", "trans", "ravel",
              "expand_dims", "split", "broadcast_to", "softmax", "sigmoid"}
TL.update({n: _scalar_of(n) for n in DTYPES})
