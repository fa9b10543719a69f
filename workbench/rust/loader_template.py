"""Calls this exported cuTile Rust port from Python through its C symbol (ctypes, the standard
library only: no workbench needed).

    cargo build --release                  # in this folder (README.md says what it needs)

    import torch
    from loader import Port
    port = Port()                          # target/release/<library> beside this file
    port(x, out, TILE_COLS=1024, stream=torch.cuda.current_stream())

Positional arguments are the Python kernel's runtime parameters in its order (ABI["params"]):
arrays as CUDA torch tensors or objects with __cuda_array_interface__, a list of arrays as a
Python list, scalars as numbers. Each ct.Constant is a keyword. A port that takes its launch
(ABI["launch"]) also needs grid=(x, y, z) and takes hints={"occupancy": N, ...}. The port
checks every array against its port.toml before any CUDA call; a refused call raises
PortError with the port's own message.
"""
from __future__ import annotations

import ctypes
import struct
from pathlib import Path

ABI: dict = {}   # written by `workbench export`: the C symbol and the parameters, in order

MAX_RANK = 6     # wb_ffi::MAX_RANK
# wb_ffi's dtype codes (wb_ffi/src/launch.rs, DTYPE_*)
DTYPES = {"f32": 0, "f16": 1, "bf16": 2, "f64": 3, "i64": 4, "i32": 5, "i16": 6, "i8": 7,
          "u8": 8, "bool": 9, "f8e4m3": 10, "f8e5m2": 11, "u16": 12, "u32": 13, "u64": 14}
TORCH_DTYPES = {"torch.float32": "f32", "torch.float16": "f16", "torch.bfloat16": "bf16",
                "torch.float64": "f64", "torch.int64": "i64", "torch.int32": "i32",
                "torch.int16": "i16", "torch.int8": "i8", "torch.uint8": "u8",
                "torch.bool": "bool", "torch.float8_e4m3fn": "f8e4m3", "torch.uint16": "u16",
                "torch.uint32": "u32", "torch.uint64": "u64",
                "torch.float8_e5m2": "f8e5m2"}
TYPESTRS = {"<f4": "f32", "<f2": "f16", "<V2": "bf16", "<f8": "f64", "<i8": "i64",
            "<i4": "i32", "<i2": "i16", "|i1": "i8", "|u1": "u8", "|b1": "bool", "<u2": "u16",
            "<u4": "u32", "<u8": "u64"}
HINTS = ("occupancy", "num_ctas", "num_worker_warps")
ERRORS = {1: "bad argument", 2: "device", 3: "launch", 4: "panic", 5: "compile"}


class PortError(RuntimeError):
    """The port refused a call (with its own message), or its library is not there."""


class WbTensor(ctypes.Structure):
    """wb_ffi::WbTensor (#[repr(C)]): a device array, strides in elements."""
    _fields_ = [("ptr", ctypes.c_uint64), ("ndim", ctypes.c_int32),
                ("shape", ctypes.c_int64 * MAX_RANK), ("strides", ctypes.c_int64 * MAX_RANK),
                ("dtype", ctypes.c_int32), ("device", ctypes.c_int32)]


def describe(name: str, array) -> WbTensor:
    """The descriptor of a CUDA torch tensor or an object with __cuda_array_interface__."""
    if hasattr(array, "data_ptr") and hasattr(array, "stride"):
        if not array.is_cuda:
            raise PortError(f"{name}: on {array.device}, not a CUDA device: move it with .cuda()")
        ptr, shape, strides = array.data_ptr(), tuple(array.shape), tuple(array.stride())
        dtype, device = TORCH_DTYPES.get(str(array.dtype), str(array.dtype)), array.get_device()
    elif hasattr(array, "__cuda_array_interface__"):
        iface = array.__cuda_array_interface__
        ptr, shape, typestr = iface["data"][0], tuple(iface["shape"]), iface["typestr"]
        itemsize = int(typestr[2:])
        strides = (tuple(s // itemsize for s in iface["strides"]) if iface.get("strides")
                   else _contiguous(shape))
        dtype, device = TYPESTRS.get(typestr, typestr), 0
    else:
        raise PortError(f"{name}: {type(array).__name__} is not a device array: pass a CUDA "
                        "torch tensor or an object with __cuda_array_interface__")
    if len(shape) > MAX_RANK:
        raise PortError(f"{name}: rank {len(shape)}: the C ABI carries up to {MAX_RANK} dims")
    pad = (0,) * (MAX_RANK - len(shape))
    return WbTensor(ptr, len(shape), (ctypes.c_int64 * MAX_RANK)(*shape, *pad),
                    (ctypes.c_int64 * MAX_RANK)(*strides, *pad), DTYPES.get(dtype, -1), device)


def _contiguous(shape: tuple) -> tuple:
    strides, running = [], 1
    for extent in reversed(shape):
        strides.append(running)
        running *= extent
    return tuple(reversed(strides))


def const_word(value) -> int:
    """A ct.Constant as the C call's int64 (a float as the bits of its f64)."""
    if isinstance(value, float):
        return struct.unpack("<q", struct.pack("<d", value))[0]
    return int(value)


def launch_words(grid, hints: dict | None) -> list[int]:
    """grid x, y, z (missing dims 1), then the hints (0: the kernel's own)."""
    if grid is None:
        raise PortError("this port takes its launch from the caller: pass grid=(x, y, z) "
                        "(README.md names the grid of each case)")
    grid = tuple(int(g) for g in grid)
    unknown = set(hints or {}) - set(HINTS)
    if not 1 <= len(grid) <= 3 or min(grid) < 1 or unknown:
        raise PortError(f"grid {grid} / hints {sorted(unknown)}: give one to three grid "
                        f"dimensions, each at least 1, and hints among {', '.join(HINTS)}")
    return list(grid + (1,) * (3 - len(grid))) + [int((hints or {}).get(h) or 0) for h in HINTS]


class Port:
    """The port's library, opened once; calling it launches the kernel on `stream`."""

    def __init__(self, library: str | Path | None = None):
        here = Path(__file__).resolve().parent
        path = Path(library) if library else here / "target" / "release" / ABI["library"]
        if not path.exists():
            raise PortError(f"{path}: not built: run `cargo build --release` in {here}")
        self.path = path
        self.library = ctypes.CDLL(str(path))
        self._launch = getattr(self.library, ABI["symbol"])
        self._launch.restype = ctypes.c_int32
        self._launch.argtypes = [ctypes.POINTER(WbTensor), ctypes.c_int32,
                                 ctypes.POINTER(ctypes.c_double), ctypes.c_int32,
                                 ctypes.POINTER(ctypes.c_int64), ctypes.c_int32, ctypes.c_void_p]
        self.library.wb_last_error.restype = ctypes.c_size_t
        self.library.wb_last_error.argtypes = [ctypes.c_char_p, ctypes.c_size_t]

    def last_error(self) -> str:
        buffer = ctypes.create_string_buffer(4096)
        self.library.wb_last_error(buffer, len(buffer))
        return buffer.value.decode(errors="replace")

    def __call__(self, *args, stream, grid=None, hints: dict | None = None, **consts) -> None:
        tensors, scalars, words = self.arguments(args, consts, grid, hints)
        stream = getattr(stream, "cuda_stream", stream)
        code = self._launch((WbTensor * max(1, len(tensors)))(*tensors), len(tensors),
                            (ctypes.c_double * max(1, len(scalars)))(*scalars), len(scalars),
                            (ctypes.c_int64 * max(1, len(words)))(*words), len(words),
                            ctypes.c_void_p(int(stream or 0)))
        if code != 0:
            raise PortError(f"{ABI['symbol']}: {ERRORS.get(code, code)}: {self.last_error()}")

    @staticmethod
    def arguments(args: tuple, consts: dict, grid=None, hints=None) -> tuple[list, list, list]:
        """The C call's three arrays, in wb_ffi's order: plain tensors then every list's items;
        the lists' lengths then the scalars; the constants then the launch words."""
        params = ABI["params"]
        if len(args) != len(params) or set(consts) != set(ABI["consts"]):
            raise PortError(f"{ABI['kernel']} takes ({', '.join(params)}) and the keywords "
                            f"{', '.join(ABI['consts']) or 'none'}; got {len(args)} arguments "
                            f"and {', '.join(sorted(consts)) or 'no keywords'}")
        values = dict(zip(params, args))
        tensors = [describe(name, values[name]) for name in ABI["tensors"]]
        lengths = []
        for name in ABI["lists"]:
            items = list(values[name])
            lengths.append(float(len(items)))
            tensors += [describe(f"{name}[{i}]", item) for i, item in enumerate(items)]
        scalars = lengths + [float(values[name]) for name in ABI["scalars"]]
        words = [const_word(consts[name]) for name in ABI["consts"]]
        if ABI["launch"]:
            words += launch_words(grid, hints)
        return tensors, scalars, words
