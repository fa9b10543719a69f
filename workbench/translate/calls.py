"""`tl.*` functions and tile methods, one small function each, looked up by name (math
functions are mathfns.py's). A function the translator knows and does not map is in REFUSED
with the reason; anything else is an unknown construct, named as such."""
from __future__ import annotations

import ast

from .arith import broadcast, float_dtype, position_kind, shape_text, static_op, text_of
from .values import DType, Fail, Run, Static, Term
from ..sources.module import call_argument as arg
from .reductions import REDUCE_CALLS
from .shapes import SHAPE_CALLS, dtype_of, shape_arg

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
    "inline_asm_elementwise": "inline PTX: no Tile IR equivalent",
    "histogram": "tl.histogram has no cuTile equivalent",
    "associative_scan": "a scan with a combine function: cutile 0.5.0 (the Rust side) writes "
                        "a scan region's identity as 0 whatever it is given, so no port of "
                        "it is faithful; a sum is tl.cumsum, a product tl.cumprod",
    "reduce": "a reduction with a combine function: cutile 0.5.0 (the Rust side) writes a "
              "reduction region's identity as 0 whatever it is given, so no port of it is "
              "faithful; write tl.sum / tl.max / tl.min / tl.argmax where the function is one",
    "device_print": "printing from the kernel is not translated",
    "gather": "gathering from a tile: cuTile's gather reads an array in memory, not a tile; "
              "load the values at the indices from memory instead (tl.load(ptr + idx))",
    "flip": "cuTile has no tile reversal: load the elements in reverse order instead "
            "(offsets BLOCK - 1 - tl.arange(0, BLOCK))",
    "sort": "cuTile has no sort of a tile",
}


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
               is_int="int" in dtype.text, dtype=dtype.text)


def _full(t, call):
    shape = shape_arg(t, arg(call, "shape", 0), "tl.full")
    value = t.expr(arg(call, "value", 1))
    dtype = dtype_of(t, arg(call, "dtype", 2))
    return Run(f"ct.full({shape_text(shape)}, {text_of(value)}, dtype={dtype.text})", shape,
               is_int="int" in dtype.text, dtype=dtype.text)


# where the positional arguments after `axis` sit: tl.sum(input, axis, keep_dims, dtype);
# tl.max / tl.min(input, axis, return_indices, return_indices_tie_break_left, keep_dims)
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
    return Run(f"ct.where({text_of(cond)}, {text_of(a)}, {text_of(b)})", shape,
               dtype=float_dtype(a, b))


def _sigmoid(t, call):
    x = t.data(call.args[0], "tl.sigmoid")
    return Run(f"(1.0 / (1.0 + ct.exp(-{text_of(x)})))", getattr(x, "shape", None),
               dtype=float_dtype(x))


def _clamp(t, call):
    """tl.clamp(x, min, max): max(x, min) then min(.., max), as Triton defines it."""
    x, lo, hi = (t.data(arg(call, name, i), "tl.clamp") for i, name in
                 enumerate(("x", "min", "max")))
    shape = broadcast(broadcast(getattr(x, "shape", None), getattr(lo, "shape", None), call),
                      getattr(hi, "shape", None), call)
    return Run(f"ct.minimum(ct.maximum({text_of(x)}, {text_of(lo)}), {text_of(hi)})", shape,
               dtype=float_dtype(x, lo, hi))


def _zeros_like(t, call):
    """tl.zeros_like(x): a tile of x's shape and dtype (cuTile reads a tile's dtype)."""
    x = t.data(arg(call, "input", 0), "tl.zeros_like")
    shape = getattr(x, "shape", None)
    if not shape:
        raise Fail(call, "tl.zeros_like", "zeros like a scalar")
    return Run(f"ct.zeros({shape_text(shape)}, dtype={text_of(x)}.dtype)", shape)


def _cdiv(t, call):
    a, b = t.expr(call.args[0]), t.expr(call.args[1])
    if isinstance(a, Static) and isinstance(b, Static):
        return static_op(lambda x, y: -(-x // y), f"ct.cdiv({a.text}, {b.text})", a, b)
    return Run(f"ct.cdiv({text_of(a)}, {text_of(b)})", is_int=True,
               kind=position_kind(None, True, a, b))


def _dot(t, call):
    a, b = t.data(call.args[0], "tl.dot"), t.data(call.args[1], "tl.dot")
    acc_node = arg(call, "acc", 2)
    if arg(call, "out_dtype", 6) is not None:
        t.note(call, "tl.dot: out_dtype is left to cuTile's default (f32 for float operands)")
    if not (a.shape and b.shape and len(a.shape) == len(b.shape) and len(a.shape) in (2, 3)):
        raise Fail(call, "tl.dot", "operands of 2 dimensions, or 3 (a batch of products): "
                   f"not {shape_text(a.shape or ())} x {shape_text(b.shape or ())}")
    if shape_text(a.shape[:-2]) != shape_text(b.shape[:-2]):
        raise Fail(call, "tl.dot", f"a batch of {shape_text(a.shape[:1])} products times one of "
                   f"{shape_text(b.shape[:1])}: tl.dot takes equal batches")
    shape = (*a.shape[:-1], b.shape[-1])
    if acc_node is None:
        acc = f"ct.zeros({shape_text(shape)}, dtype=ct.float32)"
    else:
        acc = text_of(t.data(acc_node, "tl.dot"))
    a_text, b_text = _dot_operands(t, call, a, b)
    return Run(f"ct.mma({a_text}, {b_text}, {acc})", shape, dtype="ct.float32")


def _dot_operands(t, call, a, b) -> tuple[str, str]:
    """The operands as cuTile multiplies them. Triton multiplies f32 tiles in tf32 unless
    told otherwise (input_precision, or allow_tf32=False): so does the port, by converting
    them, or it would compute another product (more exact, and slower) than the kernel."""
    precision = _dot_precision(t, call)
    texts = text_of(a), text_of(b)
    if a.dtype == b.dtype == "ct.float32" and precision == "tf32":
        t.state.tf32_products = True
        t.note(call, "tl.dot of f32 tiles: Triton multiplies them in tf32 (its default "
                     "input_precision); so does the port (ct.astype(.., ct.tfloat32)), and "
                     "the check compares with tf32's tolerance")
        return tuple(f"ct.astype({x}, ct.tfloat32)" for x in texts)
    if precision == "tf32x3" and "ct.float32" in (a.dtype, b.dtype):
        t.note(call, "tl.dot(input_precision='tf32x3'): the port multiplies in f32, which "
                     "three tf32 products approximate")
    elif precision != "ieee" and (a.dtype is None or b.dtype is None):
        t.note(call, "tl.dot: the translator does not know its operands' dtypes; where they "
                     "are f32, Triton multiplies them in tf32 and the port in f32 (load them "
                     "from an array, or .to() a dtype, for the port to follow Triton)")
    return texts


def _dot_precision(t, call) -> str:
    """Triton's input_precision of a tl.dot: given, or from allow_tf32, else tf32 (its
    default on NVIDIA GPUs)."""
    given = arg(call, "input_precision", 3)
    if given is not None:
        value = t.expr(given)
        if isinstance(value, Static) and isinstance(value.value, str) and value.uniform:
            return value.value.lower()
        if not (isinstance(value, Static) and value.value is None):
            raise Fail(call, "tl.dot(input_precision=)", "a precision that is not one string "
                       "in every case: give \"tf32\", \"tf32x3\" or \"ieee\"")
    allow = arg(call, "allow_tf32", 4)
    if allow is not None:
        value = t.expr(allow)
        if isinstance(value, Static) and value.value is not None:
            return "tf32" if value.value else "ieee"
    return "tf32"


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
      "cdiv": _cdiv, "dot": _dot, "clamp": _clamp, "zeros_like": _zeros_like, "cast": _cast,
      "static_assert": _static_assert, "device_assert": _static_assert,
      "debug_barrier": _debug_barrier,
      "load": lambda t, call: t.load(call), "store": lambda t, call: t.store(call),
      **SHAPE_CALLS, **REDUCE_CALLS}
TL.update({f"atomic_{op}": (lambda op: lambda t, call: t.atomic(call, op))(op)
           for op in ("add", "max", "min", "and", "or", "xor", "xchg")})
TL["atomic_cas"] = lambda t, call: t.atomic_cas(call)
# the tl functions a tile also has as methods (`x.sum(axis=1)`, `x.permute(1, 0)`)
TL_METHODS = {"sum", "max", "min", "argmax", "argmin", "cumsum", "cumprod", "permute", "trans",
              "ravel", "expand_dims", "split", "broadcast_to", "softmax", "sigmoid"}
TL.update({n: _scalar_of(n) for n in DTYPES})
