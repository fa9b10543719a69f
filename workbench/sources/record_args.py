"""What a recorded launch is made of, described for its record: the kernel (file, line,
closed-over values), the grid as numbers, the launched kernel object's hints, and each
argument (an ArgSpec text, its role, an integer array's value range, its memory). Arrays are
torch tensors, NumPy arrays, or anything with __cuda_array_interface__."""
from __future__ import annotations

import math
import traceback
from pathlib import Path

from ..argspec import DTYPES
from ..errors import WorkbenchError
from .record import IN, NONE, RecordedArg, RecordedKernel
from ..target import TARGET

_NUMPY_NAMES = {info[0]: name for name, info in DTYPES.items()}   # "float32" -> "f32"
_TYPESTR = {"<f8": "f64", "<f4": "f32", "<f2": "f16", "<i8": "i64", "<i4": "i32",
            "<i2": "i16", "|i1": "i8", "|u1": "u8", "|b1": "bool", "<V2": "bf16", "<u2": "u16",
            "<u4": "u32", "<u8": "u64"}
_INT32 = 2 ** 31



def caller() -> str:
    for frame in reversed(traceback.extract_stack()[:-2]):
        if "/workbench/" not in frame.filename and "site-packages" not in frame.filename:
            return f"{frame.filename}:{frame.lineno}"
    return "?"


HINTS = ("occupancy", "num_ctas", "num_worker_warps")


def launch_hints(kernel) -> dict:
    """The hints a kernel object carries for the target (`replace_hints(occupancy=2)`, or
    `@ct.kernel(occupancy=2)`), as numbers; a ByTarget resolved for sm_90."""
    options = getattr(kernel, "_compiler_options", None)
    out = {}
    for name in HINTS:
        value = getattr(options, name, None)
        by_target = getattr(value, "_by_target", None)
        if by_target is not None:
            value = by_target.get(TARGET, getattr(value, "_default", None))
        if isinstance(value, int) and not isinstance(value, bool):
            out[name] = value
    return out


def plain_config(config) -> object:
    raw = vars(config) if hasattr(config, "__dict__") else config
    try:
        import json
        json.dumps(raw)
        return raw
    except TypeError:
        return repr(raw)


def kernel_of(pyfunc, language: str) -> RecordedKernel:
    import inspect
    try:
        file = inspect.getsourcefile(pyfunc) or pyfunc.__code__.co_filename
    except TypeError:
        file = pyfunc.__code__.co_filename
    closure = {}
    for name, cell in zip(pyfunc.__code__.co_freevars, pyfunc.__closure__ or ()):
        closure[name] = _closure_value(cell.cell_contents)
    return RecordedKernel(pyfunc.__name__, language, str(Path(file).resolve()),
                          pyfunc.__code__.co_firstlineno, pyfunc.__module__ or "",
                          pyfunc.__qualname__, closure)


def _closure_value(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    name = getattr(value, "name", None) or str(value)
    if type(value).__module__.startswith("cuda.tile") and name in _NUMPY_NAMES:
        return {"ct_dtype": name}
    return f"<unrecordable {type(value).__name__}>"


def grid_numbers(grid, where: str) -> tuple:
    if callable(grid):
        raise WorkbenchError(f"{where}: the grid is a function", "internal: resolve it first")
    values = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
    try:
        values = tuple(int(g) for g in values)
    except (TypeError, ValueError):
        raise WorkbenchError(f"{where}: grid {grid!r} is not one to three integers",
                             "launch with grid=(x,), (x, y) or (x, y, z)")
    if not 1 <= len(values) <= 3 or min(values) < 1:
        raise WorkbenchError(f"{where}: grid {values}: one to three dimensions, each >= 1",
                             "fix the launch's grid")
    return values + (1,) * (3 - len(values))


def describe_argument(rec, name: str, value, constant: bool, role: str,
                      where: str) -> RecordedArg:
    """One argument of a launch as the record keeps it (`rec`, the Recording, names the
    memory and notes where the arrays live)."""
    if constant:
        return RecordedArg(name, "", IN, True, _plain(value))
    view = _array_view(value)
    if view is None:
        return RecordedArg(name, _scalar_spec(value, name, where), IN, False, _plain(value))
    dtype, shape, strides, address, itemsize, low_high = view
    if not rec.arrays_seen:
        rec.device, rec.arrays_seen = _device_of(value), True
    if dtype is None:
        raise WorkbenchError(f"{where}: argument {name} is {getattr(value, 'dtype', '?')}, a "
                             "dtype the C ABI does not take",
                             "the port's C ABI takes " + ", ".join(DTYPES))
    offset = (address % 16) // itemsize if address % itemsize == 0 else 1
    spec = f"{dtype}[{','.join(map(str, shape))}]"
    contiguous = _contiguous(shape)
    if tuple(strides) != contiguous:
        spec += f":strides=({','.join(map(str, strides))})"
    if offset:
        spec += f":offset={offset}"
    # a meta tensor has no address (0, taken as aligned): it is its own buffer
    return RecordedArg(name, spec, role, range=low_high,
                       buffer=rec.buffer_id(address or id(value), value))


def _device_of(value) -> str:
    """Where an array lives: torch's device type, `cuda` for __cuda_array_interface__."""
    device = getattr(value, "device", None)
    if hasattr(device, "type"):
        return device.type
    return "cuda" if hasattr(value, "__cuda_array_interface__") else "cpu"


def _contiguous(shape) -> tuple:
    out, running = [], 1
    for d in reversed(shape):
        out.append(running)
        running *= d
    return tuple(reversed(out))


def _plain(value):
    if hasattr(value, "item"):
        value = value.item()
    return value if isinstance(value, (bool, int, float, str)) or value is None else repr(value)


def _scalar_spec(value, name: str, where: str) -> str:
    value = _plain(value)
    if isinstance(value, bool):
        return f"bool={int(value)}"
    if isinstance(value, int):
        return f"{'i32' if -_INT32 <= value < _INT32 else 'i64'}={value}"
    if isinstance(value, float):
        return f"f32={value!r}" if math.isfinite(value) else "f32"
    if value is None:
        return NONE
    raise WorkbenchError(f"{where}: argument {name} = {value!r} is neither an array nor a "
                         "number", "pass arrays (torch, CuPy, NumPy) and numbers")


def _array_view(value):
    """(dtype, shape, strides in elements, address, itemsize, [min, max] or None), or None
    for a value that is not an array. Torch tensors, NumPy arrays, anything with
    __cuda_array_interface__ or __array_interface__."""
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and isinstance(value, torch.Tensor):
        dtype = _NUMPY_NAMES.get(str(value.dtype).removeprefix("torch."))
        return (dtype, tuple(value.shape), tuple(value.stride()), value.data_ptr(),
                value.element_size(), _range(value, dtype))
    iface = getattr(value, "__cuda_array_interface__", None) or \
        getattr(value, "__array_interface__", None)
    if not isinstance(iface, dict) or "shape" not in iface:
        return None
    dtype = _TYPESTR.get(iface["typestr"])
    itemsize = int(iface["typestr"][2:])
    shape = tuple(iface["shape"])
    strides = tuple(s // itemsize for s in iface["strides"]) if iface.get("strides") \
        else _contiguous(shape)
    return dtype, shape, strides, int(iface["data"][0]), itemsize, _range(value, dtype)


def _range(value, dtype: str | None) -> list | None:
    """[min, max] of an integer or bool array (index-like inputs are made in that range)."""
    if dtype is None or not (dtype.startswith(("i", "u")) or dtype == "bool"):
        return None
    try:
        if getattr(value, "numel", lambda: 1)() == 0 or getattr(value, "size", 1) == 0:
            return None
        return [int(value.min().item()), int(value.max().item())]
    except Exception:  # noqa: BLE001 -- memory this process cannot read: no range recorded
        return None
