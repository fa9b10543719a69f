"""What passes between a host run's two processes (host_cpu.py, host_cpu_worker.py): messages
framed by their length, and arrays with their layout kept: the bytes of a view's whole
underlying buffer travel, with the view's offset, shape and strides, so a kernel that reads or
writes past the view (a planted out-of-bounds store, a second view of one buffer) meets the
same bytes in the worker as in the caller."""
from __future__ import annotations

import os
import select
import struct
import time

import numpy as np

from ..interp.memory import _bounds, _bytes_at, _root
from .cpu_common import NUMPY_DTYPES

_NAMES = {np.dtype(t): name for name, t in NUMPY_DTYPES.items()}


def pack(value):
    """An array (or a list of them) as a picklable tuple; anything else as it is."""
    if isinstance(value, list):
        return [pack(v) for v in value]
    if not isinstance(value, np.ndarray):
        return value
    lo, hi = _bounds(_root(value))
    offset = value.__array_interface__["data"][0] - lo
    return ("array", _bytes_at(lo, hi - lo).tobytes(), value.dtype, offset, value.shape,
            value.strides)


def unpack(value):
    """pack's tuple as an array over a fresh copy of the bytes (a list: each item)."""
    if isinstance(value, list):
        return [unpack(v) for v in value]
    if not (isinstance(value, tuple) and value and value[0] == "array"):
        return value
    _, raw, dtype, offset, shape, strides = value
    buffer = np.frombuffer(bytearray(raw), np.uint8)
    whole = (buffer.size - offset) // dtype.itemsize * dtype.itemsize
    return np.lib.stride_tricks.as_strided(buffer[offset:offset + whole].view(dtype), shape,
                                           strides)


def copy_back(packed, into) -> None:
    """The worker's bytes of a buffer (after the run) into the caller's array's buffer."""
    if isinstance(into, list):
        for item, array in zip(packed, into):
            copy_back(item, array)
        return
    if not isinstance(into, np.ndarray):
        return
    lo, hi = _bounds(_root(into))
    _bytes_at(lo, hi - lo)[...] = np.frombuffer(packed[1], np.uint8)


class HostArray:
    """A host array handed to the port's C call as a device array (the recording driver's
    device memory is host memory)."""

    def __init__(self, array: np.ndarray):
        self.array = array

    @property
    def __cuda_array_interface__(self) -> dict:
        a = self.array
        return {"shape": a.shape, "strides": a.strides, "typestr": a.dtype.str,
                "data": (a.__array_interface__["data"][0], False), "version": 3,
                "wb_dtype": _NAMES[a.dtype]}


def write_frame(fd: int, payload: bytes) -> None:
    """One message: its length (8 bytes, little-endian), then its bytes."""
    view = memoryview(struct.pack("<Q", len(payload)) + payload)
    while view:
        view = view[os.write(fd, view):]


def read_frame(fd: int, timeout_s: float | None = None) -> bytes:
    """One message written by write_frame; EOFError when the writer is gone, TimeoutError
    past `timeout_s`."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    size = struct.unpack("<Q", _read_exactly(fd, 8, deadline))[0]
    return _read_exactly(fd, size, deadline)


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes:
    chunks, left = [], size
    while left:
        if deadline is not None:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
