"""`tl.*` reductions and scans: sum / max / min (with their indices), argmax / argmin written
as reductions cutile has, cumsum / cumprod, softmax (calls.py looks them up)."""
from __future__ import annotations

import ast

from .values import Fail, Run, Static, literal
from .arith import text_of
from ..sources.module import call_argument as arg
from .shapes import dtype_of

REDUCE = {"sum": "ct.sum", "max": "ct.max", "min": "ct.min"}


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


def _scan(name):
    """tl.cumsum / tl.cumprod(x, axis, reverse): ct.cumsum / ct.cumprod."""
    def fn(t, call):
        x = t.data(arg(call, "input", 0), f"tl.{name}")
        if not x.shape:
            raise Fail(call, f"tl.{name}", f"a {name} of a scalar")
        axis = t.static_int(arg(call, "axis", 1), f"tl.{name}") \
            if arg(call, "axis", 1) is not None else 0
        reverse = arg(call, "reverse", 2)
        reverse = bool(t.static_value(reverse, f"tl.{name}")) if reverse is not None else False
        return Run(f"ct.{name}({text_of(x)}, axis={axis}, reverse={reverse})", x.shape)
    return fn


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


REDUCE_CALLS = {"argmax": _argreduce("argmax"), "argmin": _argreduce("argmin"),
                "cumsum": _scan("cumsum"), "cumprod": _scan("cumprod"), "softmax": _softmax}
REDUCE_CALLS.update({n: _reduce(n) for n in REDUCE})
