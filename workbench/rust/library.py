"""Loading a port's shared library: one handle per built version, so a rebuilt port is a
new dlopen in the same process (hot reload), and the old version keeps working for any
caller that still holds it."""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from pathlib import Path

from ..operators import Operator
from ..errors import WorkbenchError
from .cargo import BuildResult, build


MAX_RANK = 6          # wb_ffi::MAX_RANK: the dims one descriptor carries


class WbTensor(ctypes.Structure):
    """Mirror of wb_ffi::WbTensor (#[repr(C)])."""
    _fields_ = [("ptr", ctypes.c_uint64), ("ndim", ctypes.c_int32),
                ("shape", ctypes.c_int64 * MAX_RANK), ("strides", ctypes.c_int64 * MAX_RANK),
                ("dtype", ctypes.c_int32), ("device", ctypes.c_int32)]


def symbol_stem(op: str) -> str:
    """`tilegym.softmax.tma` -> `tilegym_softmax_tma`: the port's C symbols are wb_<stem>..."""
    return "".join(c if c.isalnum() or c == "_" else "_" for c in op)


class PortError(WorkbenchError):
    """The port returned an error code; the message is its own."""


ERROR_NAMES = {1: "bad argument", 2: "device", 3: "launch", 4: "panic", 5: "compile"}


@dataclass
class PortLibrary:
    op: str
    path: Path
    handle: ctypes.CDLL
    launch_symbol: ctypes._CFuncPtr

    @property
    def stem(self) -> str:
        return symbol_stem(self.op)

    @classmethod
    def open(cls, op: str, path: Path) -> "PortLibrary":
        handle = ctypes.CDLL(str(path))
        _enable_jit_cache(handle, path)
        stem = symbol_stem(op)
        launch = getattr(handle, f"wb_{stem}")
        launch.restype = ctypes.c_int32
        launch.argtypes = [ctypes.POINTER(WbTensor), ctypes.c_int32,
                           ctypes.POINTER(ctypes.c_double), ctypes.c_int32,
                           ctypes.POINTER(ctypes.c_int64), ctypes.c_int32, ctypes.c_void_p]
        emit = getattr(handle, f"wb_{stem}_emit")
        emit.restype = ctypes.c_int32
        emit.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.POINTER(ctypes.c_uint8)),
                         ctypes.POINTER(ctypes.c_size_t)]
        build_id = getattr(handle, f"wb_{stem}_build_id")
        build_id.restype = ctypes.c_char_p
        handle.wb_last_error.restype = ctypes.c_size_t
        handle.wb_last_error.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        handle.wb_free.argtypes = [ctypes.POINTER(ctypes.c_uint8), ctypes.c_size_t]
        return cls(op, path, handle, launch)

    def build_id(self) -> str:
        return getattr(self.handle, f"wb_{self.stem}_build_id")().decode()

    def last_error(self) -> str:
        buf = ctypes.create_string_buffer(4096)
        self.handle.wb_last_error(buf, len(buf))
        return buf.value.decode(errors="replace")

    def _check(self, code: int, what: str) -> None:
        if code != 0:
            raise PortError(f"{self.op} port ({self.path.name}): {what} failed "
                            f"({ERROR_NAMES.get(code, code)}): {self.last_error()}")

    def emit(self, request: str) -> bytes:
        """Tile IR bytecode for a specialization request (compiled in this process)."""
        data = ctypes.POINTER(ctypes.c_uint8)()
        size = ctypes.c_size_t()
        code = getattr(self.handle, f"wb_{self.stem}_emit")(request.encode(), ctypes.byref(data),
                                                          ctypes.byref(size))
        self._check(code, "Tile IR compile")
        try:
            return ctypes.string_at(data, size.value)
        finally:
            self.handle.wb_free(data, size)

    def call(self, tensors, n_tensors: int, scalars, n_scalars: int, consts, n_consts: int,
             stream: int) -> None:
        """The C symbol on filled C arrays (ffi.CallPlan fills them from tensors)."""
        code = self.launch_symbol(tensors, n_tensors, scalars, n_scalars, consts, n_consts,
                                  stream)
        if code != 0:
            self._check(code, "launch")


_OPEN: dict[tuple[str, Path], PortLibrary] = {}
_CACHED: set[Path] = set()


def _enable_jit_cache(handle: ctypes.CDLL, path: Path) -> None:
    """WORKBENCH_JIT_CACHE=DIR: a library that offers `wb_jit_cache_enable` (the GPU
    machine's bundle, tools/make_bundle.py) keeps its compiled kernels in DIR, so a later
    process loads them instead of compiling again."""
    folder = os.environ.get("WORKBENCH_JIT_CACHE")
    if not folder or path in _CACHED or not hasattr(handle, "wb_jit_cache_enable"):
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    handle.wb_jit_cache_enable.argtypes = [ctypes.c_char_p]
    if handle.wb_jit_cache_enable(os.fsencode(folder)) != 0:
        raise PortError(f"{path.name}: cannot keep compiled kernels in {folder}",
                        "unset WORKBENCH_JIT_CACHE or point it at a writable folder")
    _CACHED.add(path)


def open_library(op: str, path: Path) -> PortLibrary:
    """One handle per (operator, file): a bundle holds several operators' symbols."""
    key = (op, Path(path))
    if key not in _OPEN:
        _OPEN[key] = PortLibrary.open(op, Path(path))
    return _OPEN[key]


def load(op: Operator) -> tuple[PortLibrary, BuildResult]:
    """Build the port if it changed, then load that version (or the last good one)."""
    result = build(op)
    if result.library is None:
        raise PortError(result.summary())
    return open_library(op.name, result.library), result
