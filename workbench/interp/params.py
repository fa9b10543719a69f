"""The arguments of a launch -> the entry's parameters, as cuTile Python (and the Rust side)
lay them out:

- an array (ndarray of rank >= 1): its base pointer, then one i32 per extent, then one i32 per
  stride (in elements);
- a list of arrays (cuTile Python's list parameter): a pointer to a table of int64 rows
  [pointer, extents..., strides...], one row per array, then the list's length;
- `Partitioned(array, tile)` (a Rust port's `&mut Tensor` partitioned on the host): the
  array's parameters, then the partition's extents and strides;
- a scalar (Python or NumPy number, 0-d array): one parameter of the entry's type.

Parameters left over after the last argument are refused unless the body never reads them
(then they are 0).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import InterpError
from .memory import Memory
from .types import TileType, element_dtype


@dataclass(frozen=True)
class Partitioned:
    array: np.ndarray
    tile: tuple[int, ...]


def _label(index: int, array: np.ndarray) -> str:
    return f"argument {index} ({array.dtype}[{','.join(map(str, array.shape))}])"


def _arrays(args) -> list[tuple[np.ndarray, str]]:
    found = []
    for i, arg in enumerate(args):
        if isinstance(arg, Partitioned):
            found.append((arg.array, _label(i, arg.array)))
        elif isinstance(arg, np.ndarray) and arg.ndim:
            found.append((arg, _label(i, arg)))
        elif isinstance(arg, (list, tuple)):
            found += [(a, f"argument {i}[{j}] ({a.dtype}{list(a.shape)})")
                      for j, a in enumerate(arg)]
    return found


class _Params:
    def __init__(self, program):
        self.program = program
        self.values: list = []

    @property
    def next_index(self) -> int:
        return len(self.values)

    def expect(self, what: str, pointer: bool) -> TileType:
        i = self.next_index
        types = self.program.param_types
        if i >= len(types):
            raise self.mismatch(f"{what} has no parameter left")
        t = types[i]
        if not isinstance(t, TileType) or t.shape != () or t.is_pointer != pointer:
            raise self.mismatch(f"{what} meets parameter {self.program.params[i]} of type "
                                f"{_type_text(t)}")
        return t

    def push(self, value) -> None:
        self.values.append(value)

    def mismatch(self, message: str) -> InterpError:
        entry = self.program.entry
        signature = ", ".join(f"{name}: {_type_text(t)}"
                              for name, t in zip(self.program.params, self.program.param_types))
        return InterpError(f"the arguments do not fit @{entry.symbol}: {message}\n"
                           f"  the entry takes ({signature})",
                           "pass arrays, lists of arrays and scalars in the kernel's parameter "
                           "order (constants are compiled in, not passed)")


def _type_text(t) -> str:
    return f"tile<{t.elem}>" if isinstance(t, TileType) else type(t).__name__


def _push_array(params: _Params, memory: Memory, array: np.ndarray, what: str) -> None:
    pointer = params.expect(what, pointer=True)
    want = pointer.pointee
    dtype = element_dtype(want)
    same = array.dtype == dtype or (array.dtype.kind in "iub" and dtype.kind in "iub"
                                    and array.dtype.itemsize == dtype.itemsize)
    if not same:
        raise params.mismatch(f"{what} holds {array.dtype} but the parameter points to {want}")
    params.push(np.array(memory.address_of(array), np.int64))
    for extent in array.shape:
        t = params.expect(f"{what}'s extents", pointer=False)
        params.push(np.array(extent, t.dtype))
    for stride in array.strides:
        if stride % array.itemsize:
            raise params.mismatch(f"{what} has a stride of {stride} bytes, not whole elements")
        t = params.expect(f"{what}'s strides", pointer=False)
        params.push(np.array(stride // array.itemsize, t.dtype))


def bind_args(program, args) -> tuple[Memory, list]:
    """(the memory holding the arrays, the entry's parameter values) for `args`."""
    memory = Memory.for_arrays(_arrays(args))
    params = _Params(program)
    for i, arg in enumerate(args):
        what = f"argument {i}"
        if isinstance(arg, Partitioned):
            _push_array(params, memory, arg.array, what)
            strides = tuple(s // arg.array.itemsize for s in arg.array.strides)
            for value in tuple(arg.tile) + strides:
                t = params.expect(f"{what}'s partition", pointer=False)
                params.push(np.array(value, t.dtype))
        elif isinstance(arg, np.ndarray) and arg.ndim:
            _push_array(params, memory, arg, what)
        elif isinstance(arg, (list, tuple)):
            _push_list(params, memory, list(arg), what)
        else:
            t = params.expect(f"{what} (a scalar)", pointer=False)
            params.push(np.asarray(arg).astype(t.dtype).reshape(()))
    leftover = list(zip(params.program.params, params.program.param_types))[params.next_index:]
    read = [name for name, _ in leftover if name in program.used]
    if read:
        raise params.mismatch(f"{len(args)} arguments leave {', '.join(read)} unfilled")
    for name, t in leftover:
        params.push(np.zeros((), t.dtype if isinstance(t, TileType) else np.int32))
    return memory, params.values


def _push_list(params: _Params, memory: Memory, arrays: list, what: str) -> None:
    if not arrays or any(not isinstance(a, np.ndarray) for a in arrays):
        raise params.mismatch(f"{what} must be a non-empty list of arrays")
    rank = arrays[0].ndim
    rows = []
    for a in arrays:
        if a.ndim != rank:
            raise params.mismatch(f"{what}: the arrays of a list share one rank")
        rows.append([memory.address_of(a), *a.shape, *(s // a.itemsize for s in a.strides)])
    table = np.array(rows, dtype=np.int64)
    pointer = params.expect(what, pointer=True)
    if pointer.pointee != "i64":
        raise params.mismatch(f"{what} (a list) meets a pointer to {pointer.pointee}")
    params.push(np.array(memory.allocate(table, f"{what}'s table"), np.int64))
    t = params.expect(f"{what}'s length", pointer=False)
    params.push(np.array(len(arrays), t.dtype))
