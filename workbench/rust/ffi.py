"""Calling a port through its C symbol: descriptors from torch tensors (or anything with
`__cuda_array_interface__`), checked against the port's manifest before any launch."""
from __future__ import annotations

import ctypes
import struct
import threading
from typing import NamedTuple

from ..operators import Operator
from ..errors import WorkbenchError
from .manifest import PortManifest, TensorRule, load_manifest
from .tuned import load_tuned, value_arrays
from .library import MAX_RANK, WbTensor, load, open_library
from ..sources.kernel import load_operator_kernel

# the same numbers as kernels_src/wb_ffi/src/launch.rs (DTYPE_*): one element type per array
DTYPE_CODES = {"f32": 0, "f16": 1, "bf16": 2, "f64": 3, "i64": 4, "i32": 5, "i16": 6, "i8": 7,
               "u8": 8, "bool": 9, "f8e4m3": 10, "f8e5m2": 11, "u16": 12, "u32": 13, "u64": 14}
_TYPESTR = {"<f4": "f32", "<f2": "f16", "<V2": "bf16", "<f8": "f64", "<i4": "i32", "<i8": "i64",
            "<i2": "i16", "|i1": "i8", "|u1": "u8", "|b1": "bool", "<u2": "u16", "<u4": "u32",
            "<u8": "u64"}
_TORCH = {"torch.float32": "f32", "torch.float16": "f16", "torch.bfloat16": "bf16",
          "torch.float64": "f64", "torch.int32": "i32", "torch.int64": "i64",
          "torch.int16": "i16", "torch.int8": "i8", "torch.uint8": "u8", "torch.bool": "bool",
          "torch.uint16": "u16", "torch.uint32": "u32", "torch.uint64": "u64",
          "torch.float8_e4m3fn": "f8e4m3", "torch.float8_e5m2": "f8e5m2"}


class ArgumentError(WorkbenchError):
    """An argument the port cannot take; raised before any launch."""


class ArrayView(NamedTuple):
    """What the C ABI needs of a device array (strides in elements)."""
    ptr: int
    shape: tuple
    strides: tuple
    dtype: str
    device: int


# wb_ffi::WbTensor (#[repr(C)]): ptr u64, ndim i32, 4 pad, shape [i64; MAX_RANK], strides
# [i64; MAX_RANK], dtype i32, device i32. One packer per rank writes the used dims and zeros
# the rest.
_PACKERS = {rank: struct.Struct(f"<Qi4x{rank}q{8 * (MAX_RANK - rank)}x{rank}q"
                                f"{8 * (MAX_RANK - rank)}xii")
            for rank in range(MAX_RANK + 1)}
_DESCRIPTOR_BYTES = _PACKERS[0].size
_torch_dtypes: dict = {}          # torch dtype object -> our name, learned on first sight


def describe(name: str, array) -> ArrayView:
    """The C ABI's view of a CUDA torch tensor or an object with __cuda_array_interface__."""
    dtype = getattr(array, "dtype", None)
    known = _torch_dtype(dtype)
    if known:
        if not array.is_cuda:
            raise ArgumentError(f"{name}: on {array.device}, not a CUDA device",
                                f"move it with {name}.cuda()")
        view = ArrayView(array.data_ptr(), tuple(array.shape), array.stride(), known,
                         array.get_device())
    elif hasattr(array, "__cuda_array_interface__"):
        view = _from_interface(array.__cuda_array_interface__)
    else:
        raise ArgumentError(f"{name}: {type(array).__name__} is not a device array",
                            "pass a CUDA torch tensor or an object with __cuda_array_interface__")
    if len(view.shape) > MAX_RANK:
        raise ArgumentError(f"{name}: rank {len(view.shape)} > {MAX_RANK}",
                            f"the C ABI carries up to {MAX_RANK} dims")
    return view


def _torch_dtype(dtype) -> str | None:
    try:
        known = _torch_dtypes.get(dtype)
    except TypeError:                 # an unhashable dtype: not torch's
        return None
    if known is None and dtype is not None and str(dtype) in _TORCH:
        known = _torch_dtypes[dtype] = _TORCH[str(dtype)]
    return known


def _from_interface(iface: dict) -> ArrayView:
    shape = tuple(iface["shape"])
    itemsize = int(iface["typestr"][2:])
    strides = tuple(s // itemsize for s in iface["strides"]) if iface.get("strides") else \
        _contiguous(shape)
    # wb_dtype: the workbench's own name where the typestr is ambiguous (fp8 is "|V1")
    dtype = iface.get("wb_dtype") or _TYPESTR.get(iface["typestr"], iface["typestr"])
    return ArrayView(iface["data"][0], shape, strides, dtype, 0)


def _contiguous(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, running = [], 1
    for extent in reversed(shape):
        strides.append(running)
        running *= extent
    return tuple(reversed(strides))


def check(name: str, view: ArrayView, rule: TensorRule) -> None:
    if len(view.shape) != rule.rank:
        raise ArgumentError(f"{name}: rank {len(view.shape)}, the port takes rank {rule.rank}",
                            "reshape the tensor")
    if view.dtype not in rule.dtypes:
        raise ArgumentError(f"{name}: dtype {view.dtype}, the port takes {', '.join(rule.dtypes)}",
                            f"convert with .to(...) to one of {', '.join(rule.dtypes)}")
    for dim in rule.unit_stride:
        if view.shape[dim] > 1 and view.strides[dim] != 1:
            raise ArgumentError(f"{name}: stride {view.strides[dim]} in dim {dim}; the port "
                                "needs a unit stride there", "pass .contiguous()")


def pack_into(buffer, index: int, view: ArrayView) -> None:
    """Write one WbTensor at position `index` of a WbTensor array's bytes."""
    _PACKERS[len(view.shape)].pack_into(buffer, index * _DESCRIPTOR_BYTES, view.ptr,
                                        len(view.shape), *view.shape, *view.strides,
                                        DTYPE_CODES.get(view.dtype, -1), view.device)


def tensor_array(views: list[ArrayView]):
    """A fresh C array of WbTensor for these views."""
    array = (WbTensor * max(1, len(views)))()
    buffer = memoryview(array).cast("B")
    for index, view in enumerate(views):
        pack_into(buffer, index, view)
    return array


LAUNCH_SLOTS = 6
HINT_ORDER = ("occupancy", "num_ctas", "num_worker_warps")


def const_word(value) -> int:
    """A ct.Constant as the C call's int64: ints and bools as they are, a float as the bits
    of its f64 (wb_ffi Call::const_f64 reads them back)."""
    if isinstance(value, float):
        return struct.unpack("<q", struct.pack("<d", value))[0]
    return int(value)


def launch_words(grid, hints: dict) -> list[int]:
    """The six trailing constants of a launch: the grid (x, y, z; missing dims are 1), then
    the hints (0: the kernel's own)."""
    if grid is None:
        raise ArgumentError("this port takes its launch from the caller (port.toml launch = "
                            "true: no output of it is partitioned by the program's own tile, "
                            "so cutile has no grid to infer): no grid given",
                            "pass grid=: kernel.py's grid(), the entry's launch rule, or the "
                            "Triton catalog's grid")
    grid = tuple(int(g) for g in grid)
    if not 1 <= len(grid) <= 3 or min(grid) < 1:
        raise ArgumentError(f"grid {grid}: one to three dimensions, each at least 1",
                            "give the launch grid as (x,), (x, y) or (x, y, z)")
    unknown = set(hints) - set(HINT_ORDER)
    if unknown:
        raise ArgumentError(f"hints {sorted(unknown)} cannot cross the C ABI",
                            "the port takes " + ", ".join(HINT_ORDER))
    return list(grid + (1,) * (3 - len(grid))) + [int(hints.get(h) or 0) for h in HINT_ORDER]


class CallLayout(NamedTuple):
    """The C call's parameters in the order wb_ffi takes them: plain tensors in the kernel's
    order, then lists of arrays (their items after the plain tensors, their lengths the first
    scalars: wb_ffi lists.rs checks every item and builds the device table itself), then the
    scalars and the ct.Constant values, then `launch_slots` words of grid and hints (a port
    that takes its launch) or, for a port that takes hints alone, `hint_slots` words when a
    call gives hints: the three hints, then the program (wb_ffi call.rs HINT_WORDS)."""
    tensors: list          # [(name, TensorRule)]
    lists: list            # [(name, TensorRule)]
    scalars: list          # [name]
    consts: list           # [name]
    launch_slots: int
    hint_slots: int = 0
    programs: int = 0      # tile programs besides the entry (port.toml `programs`)


def call_layout(op: Operator, manifest: PortManifest | None = None) -> CallLayout:
    kernel = load_operator_kernel(op)
    manifest = manifest or load_manifest(op)
    runtime = [(name, manifest.tensors.get(name)) for name in kernel.params
               if name not in kernel.const_params]
    return CallLayout(
        tensors=[(name, rule) for name, rule in runtime if rule is not None and not rule.is_list],
        lists=[(name, rule) for name, rule in runtime if rule is not None and rule.is_list],
        scalars=[name for name, rule in runtime if rule is None],
        consts=[name for name in kernel.params if name in kernel.const_params],
        # ports of installed kernels take the launch too: grid x, y, z and three hints
        launch_slots=LAUNCH_SLOTS if manifest.launch else 0,
        hint_slots=len(HINT_ORDER) + 1 if manifest.hints and not manifest.launch else 0,
        programs=len(manifest.programs))


class CallPlan:
    """What a launch needs to know about an operator's parameters, worked out once, and the
    C argument arrays it fills on every call (reused: a launch is a few microseconds of host
    time, and allocating them costs about as much)."""

    def __init__(self, op: Operator, manifest: PortManifest | None = None):
        layout = call_layout(op, manifest)
        self.tensors, self.lists = layout.tensors, layout.lists
        self.scalars, self.consts = layout.scalars, layout.consts
        self.launch_slots, self.hint_slots = layout.launch_slots, layout.hint_slots
        self.programs = layout.programs
        self._tensor_array = (WbTensor * max(1, len(self.tensors)))()
        self._tensor_bytes = memoryview(self._tensor_array).cast("B")
        self._scalar_array = (ctypes.c_double * max(1, len(self.lists) + len(self.scalars)))()
        self._const_array = (ctypes.c_int64 * max(1, len(self.consts) + self.launch_slots +
                                                  self.hint_slots))()
        self._lock = threading.Lock()

    def launch(self, library, values: dict, consts: dict, stream: int,
               grid=None, hints: dict | None = None) -> None:
        """Check every argument against the manifest, then launch the port on `stream`."""
        with self._lock:              # the arrays are shared; the C call copies them
            library.call(*self.prepared(values, consts, grid, hints), stream)

    def prepared(self, values: dict, consts: dict, grid=None, hints=None) -> tuple:
        """The C arguments, checked and filled in (call it under the plan's lock)."""
        for index, (name, rule) in enumerate(self.tensors):
            array = values[name]
            if not self._pack_torch(index, array, rule):
                view = describe(name, array)      # anything else, or a bad argument: the
                check(name, view, rule)           # general path says what is wrong with it
                pack_into(self._tensor_bytes, index, view)
        tensors, n_tensors = self._tensor_array, len(self.tensors)
        if self.lists:
            tensors, n_tensors = self._with_lists(values)
        for index, name in enumerate(self.scalars, start=len(self.lists)):
            self._scalar_array[index] = float(values[name])
        for index, name in enumerate(self.consts):
            self._const_array[index] = const_word(consts[name])
        words = launch_words(grid, hints or {}) if self.launch_slots else \
            self._hint_words(hints)
        for index, value in enumerate(words, start=len(self.consts)):
            self._const_array[index] = value
        return (tensors, n_tensors, self._scalar_array, len(self.lists) + len(self.scalars),
                self._const_array, len(self.consts) + len(words))

    def _hint_words(self, hints: dict | None) -> list[int]:
        """The hint words of a port that takes hints alone (none when the call gives none)."""
        if not hints:
            return []
        if not self.hint_slots:
            raise ArgumentError(f"hints {sorted(hints)} given, but this port applies none "
                                "(its port.toml has no `hints = true`)",
                                "pass the launch's compile options through "
                                "`.compile_options(call.options())` in lib.rs and say "
                                "`hints = true` in port.toml, or call without hints")
        program = int(hints.get("program") or 0)
        if not 0 <= program <= self.programs:
            raise ArgumentError(f"program {program}: this port has {self.programs} tile "
                                "programs besides its entry (port.toml `programs`)",
                                "program 0 runs its entry")
        others = {k: v for k, v in hints.items() if k != "program"}
        return launch_words((1,), others)[3:] + [program]

    def _with_lists(self, values: dict) -> tuple:
        """A fresh WbTensor array: the plain tensors (already packed), then every list's items
        (each checked here too, named `NAME[i]`); the lengths go in the first scalars."""
        views = []
        for list_index, (name, rule) in enumerate(self.lists):
            items = values[name]
            if isinstance(items, (str, bytes)) or not hasattr(items, "__len__") or not len(items):
                raise ArgumentError(f"{name}: the port takes a non-empty list of arrays here",
                                    f"pass {name} as a list of CUDA tensors")
            for i, item in enumerate(items):
                view = describe(f"{name}[{i}]", item)
                check(f"{name}[{i}]", view, rule)
                views.append(view)
            self._scalar_array[list_index] = float(len(items))
        array = (WbTensor * (len(self.tensors) + len(views)))()
        ctypes.memmove(array, self._tensor_array, len(self.tensors) * _DESCRIPTOR_BYTES)
        buffer = memoryview(array).cast("B")
        for index, view in enumerate(views, start=len(self.tensors)):
            pack_into(buffer, index, view)
        return array, len(self.tensors) + len(views)


    def _pack_torch(self, index: int, array, rule: TensorRule) -> bool:
        """The per-call fast path: a CUDA torch tensor the port takes as it is, packed
        straight from its attributes (the general path costs about twice as much host time).
        False, having written nothing, for anything else."""
        dtype = _torch_dtype(getattr(array, "dtype", None))
        if dtype not in rule.dtypes or not array.is_cuda:
            return False
        shape, strides = array.shape, array.stride()
        if len(shape) != rule.rank or any(shape[d] > 1 and strides[d] != 1
                                          for d in rule.unit_stride):
            return False
        _PACKERS[rule.rank].pack_into(self._tensor_bytes, index * _DESCRIPTOR_BYTES,
                                      array.data_ptr(), rule.rank, *shape, *strides,
                                      DTYPE_CODES.get(dtype, -1), array.get_device())
        return True


def rust_launcher(op: Operator, library_path: str | None, torch, grid_of=None,
                  tuned: bool = False):
    """The worker's launcher for the Rust side: the given library (or a fresh build).
    `grid_of(values, consts)`: the launch grid where a call gives none (kernel.py's grid()),
    for a port that takes its launch from the caller. `tuned`: a call whose arrays match an
    entry of the port's tuned.toml takes that entry's constants and hints."""
    from pathlib import Path
    library = open_library(op.name, Path(library_path)) if library_path else load(op)[0]
    plan = CallPlan(op)
    entries = load_tuned(op) if tuned else {}

    def launch(values: dict, consts: dict, stream, grid=None, hints=None) -> None:
        if entries:
            consts, hints = _tuned_launch(entries, values, consts, hints)
        if grid is None and grid_of is not None and plan.launch_slots:
            grid = grid_of(values, consts)
        plan.launch(library, values, consts, stream.cuda_stream, grid, hints)
    launch.library, launch.plan, launch.tuned = library, plan, entries
    launch.grid_of = grid_of if plan.launch_slots else None
    return launch


def _tuned_launch(entries: dict, values: dict, consts: dict, hints) -> tuple[dict, dict | None]:
    """The constants and hints of a call, with its tuned entry's (if one serves its arrays)."""
    entry = entries.get(value_arrays(list(values.values()), _array_dtype))
    if entry is None:
        return consts, hints
    return {**consts, **entry.consts}, {**(hints or {}), **entry.hints}


def _array_dtype(value) -> str | None:
    """Our dtype name of an array argument (torch's, or any with the CUDA array interface);
    None for a scalar."""
    if not getattr(value, "ndim", 0):
        return None
    name = _torch_dtype(getattr(value, "dtype", None))
    if name is None and hasattr(value, "__cuda_array_interface__"):
        name = _TYPESTR.get(value.__cuda_array_interface__["typestr"])
    return name
