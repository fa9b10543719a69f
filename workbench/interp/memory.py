"""The memory a kernel sees: every array it was given placed at a virtual address (256-byte
aligned, as cudaMalloc places allocations), so that pointers are plain int64 addresses, pointer
arithmetic (`offset`, `int_to_ptr`) works, and every access is checked: an address outside
every array, or misaligned, is a MemoryFault naming the nearest array.

Each array's whole underlying buffer (NumPy's `.base` chain) is one region, so two views of one
buffer (a tensor's two column halves) keep their relative addresses; reads and writes go to the
caller's arrays themselves, in place.
"""
from __future__ import annotations

import bisect
import ctypes
from dataclasses import dataclass, field

import numpy as np

from .errors import Fault, MemoryFault
from .types import UNSIGNED

FIRST_ADDRESS = 1 << 32         # no array at address 0: a null pointer faults
PAGE = 1 << 12


@dataclass(eq=False)
class Region:
    base: int                   # virtual address of the first byte
    data: np.ndarray            # the bytes (uint8), a view of the caller's memory
    label: str
    real: int = 0               # the real address of data[0]
    keep: list = field(default_factory=list)
    _typed: dict = field(default_factory=dict)

    @property
    def end(self) -> int:
        return self.base + self.data.size

    def typed(self, dtype: np.dtype) -> np.ndarray:
        view = self._typed.get(dtype)
        if view is None:
            n = self.data.size - self.data.size % dtype.itemsize
            view = self._typed[dtype] = self.data[:n].view(dtype)
        return view


def _root(array: np.ndarray) -> np.ndarray:
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def _bounds(array: np.ndarray) -> tuple[int, int]:
    if array.size == 0:
        start = array.__array_interface__["data"][0]
        return start, start
    try:
        from numpy.lib.array_utils import byte_bounds
    except ImportError:                       # NumPy < 2
        byte_bounds = np.byte_bounds
    return byte_bounds(array)


def _bytes_at(address: int, size: int) -> np.ndarray:
    if size == 0:
        return np.zeros(0, np.uint8)
    return np.frombuffer((ctypes.c_char * size).from_address(address), dtype=np.uint8)


def _merged_spans(arrays: list[tuple[np.ndarray, str]]) -> list[list]:
    """[lo, hi, labels, keep] of each array's root buffer, overlapping buffers merged."""
    spans: list[list] = []
    for array, label in arrays:
        root = _root(array)
        lo, hi = _bounds(root)
        spans.append([lo, hi, [label], [root, array]])
    spans.sort(key=lambda s: (s[0], s[1]))
    merged: list[list] = []
    for span in spans:
        last = merged[-1] if merged else None
        if last is not None and span[0] < last[1]:
            last[1] = max(last[1], span[1])
            last[2] += span[2]
            last[3] += span[3]
        else:
            merged.append(span)
    return merged


class Memory:
    def __init__(self):
        self.regions: list[Region] = []
        self._bases: list[int] = []
        self._cursor = FIRST_ADDRESS

    # -- placing arrays ----------------------------------------------------------------------
    @classmethod
    def for_arrays(cls, arrays: list[tuple[np.ndarray, str]]) -> "Memory":
        """Memory holding each array's underlying buffer; buffers that overlap share a region."""
        memory = cls()
        for lo, hi, labels, keep in _merged_spans(arrays):
            memory._add(_bytes_at(lo, hi - lo), ", ".join(labels), real=lo, keep=keep)
        return memory

    @classmethod
    def at_real_addresses(cls, arrays: list[tuple[np.ndarray, str]],
                          blocks: list[tuple[int, int, str]] = ()) -> "Memory":
        """Memory whose virtual addresses are the real ones: for a kernel whose pointers the
        host code computed (a port's lib.rs run through the recording driver), including
        pointers it wrote into memory. `blocks`: (address, bytes, label) of memory that is
        no array's (the driver's allocations)."""
        memory = cls()
        spans = _merged_spans(list(arrays)) + [[a, a + n, [label], []] for a, n, label in blocks]
        for lo, hi, labels, keep in sorted(spans, key=lambda s: s[0]):
            region = Region(lo, _bytes_at(lo, hi - lo), ", ".join(labels), lo, keep)
            memory.regions.append(region)
            memory._bases.append(lo)
        return memory

    def _add(self, data: np.ndarray, label: str, real: int, keep: list) -> Region:
        base = -(-self._cursor // PAGE) * PAGE
        region = Region(base, data, label, real, keep)
        self.regions.append(region)
        self._bases.append(base)
        self._cursor = base + data.size + PAGE      # a gap: running off the end faults
        return region

    def address_of(self, array: np.ndarray) -> int:
        """The virtual address of the array's first element."""
        start = array.__array_interface__["data"][0]
        for region in self.regions:
            if region.real <= start <= region.real + region.data.size and \
                    any(k is array for k in region.keep):
                return region.base + (start - region.real)
        for region in self.regions:
            if region.real <= start <= region.real + region.data.size:
                return region.base + (start - region.real)
        raise Fault("an array was not placed in the interpreter's memory", kind=MemoryFault)

    def allocate(self, array: np.ndarray, label: str) -> int:
        """Place a new array the interpreter made (a list's descriptor table)."""
        array = np.ascontiguousarray(array)
        region = self._add(array.reshape(-1).view(np.uint8), label,
                           real=array.__array_interface__["data"][0], keep=[array])
        return region.base

    # -- access ------------------------------------------------------------------------------
    def _region_holding(self, lo: int, hi: int) -> Region | None:
        i = bisect.bisect_right(self._bases, lo) - 1
        if i >= 0 and hi <= self.regions[i].end:
            return self.regions[i]
        return None

    def _locate(self, addrs: np.ndarray, size: int, what: str):
        """(region, element indices) when every address lies in one region, else a list of
        (region, positions) groups; faults name the first bad address."""
        if addrs.size == 0:
            return None, addrs
        bad = addrs % size != 0 if size > 1 else None
        if bad is not None and bad.any():
            a = int(addrs[bad][0])
            raise Fault(f"{what} at address 0x{a:x} is not aligned to its {size}-byte element "
                        f"({self.describe(a)})", kind=MemoryFault)
        lo, hi = int(addrs.min()), int(addrs.max())
        region = self._region_holding(lo, hi + size)
        if region is not None:
            return region, (addrs - region.base) // size
        where = np.searchsorted(np.asarray(self._bases), addrs, side="right") - 1
        groups = []
        for i in np.unique(where):
            sel = where == i
            inside = i >= 0 and bool((addrs[sel] + size <= self.regions[i].end).all())
            if not inside:
                a = int(addrs[sel][0] if i < 0 else
                        addrs[sel][addrs[sel] + size > self.regions[i].end][0])
                raise Fault(f"{what} address 0x{a:x} is outside every array "
                            f"({self.describe(a)})", kind=MemoryFault)
            groups.append((self.regions[i], sel, (addrs[sel] - self.regions[i].base) // size))
        return groups, None

    def describe(self, address: int) -> str:
        """Where an address lies relative to the arrays (for messages)."""
        i = bisect.bisect_right(self._bases, address) - 1
        if i < 0:
            return "below every array"
        region = self.regions[i]
        if address < region.end:
            return f"byte {address - region.base} of {region.label}"
        return f"{address - region.end} bytes past the end of {region.label}"

    def window(self, start: int, counts, strides, dtype: np.dtype, what: str) -> np.ndarray:
        """A strided view of `counts` elements from address `start` (`strides` in elements):
        the caller's memory itself, checked to lie inside one array."""
        size = dtype.itemsize
        if any(c <= 0 for c in counts):
            return np.zeros(tuple(max(c, 0) for c in counts), dtype)
        low = start + size * sum((c - 1) * s for c, s in zip(counts, strides) if s < 0)
        high = start + size * sum((c - 1) * s for c, s in zip(counts, strides) if s > 0)
        region = self._region_holding(low, high + size)
        if region is None or start % size:
            bad = low if self._region_holding(low, low + size) is None else high
            problem = "not aligned to its element" if start % size else "outside every array"
            raise Fault(f"{what} touches address 0x{bad:x}, {problem} ({self.describe(bad)})",
                        kind=MemoryFault)
        typed = region.typed(dtype)
        return np.lib.stride_tricks.as_strided(
            typed[(start - region.base) // size:], tuple(counts), tuple(s * size for s in strides))

    def read(self, addrs, dtype: np.dtype, mask=None, fill=None, what: str = "load") -> np.ndarray:
        """The elements at `addrs` (an int64 array); where `mask` is False, `fill`."""
        addrs = np.asarray(addrs, dtype=np.int64)
        stored = np.dtype(np.uint8) if dtype == np.bool_ else dtype
        if mask is not None:
            mask = np.broadcast_to(np.asarray(mask, dtype=bool), addrs.shape)
            if mask.all():
                mask = None
        active = addrs.reshape(-1) if mask is None else addrs[mask]
        located, index = self._locate(active, stored.itemsize, what)
        if located is None:
            values = np.zeros(0, stored)
        elif index is not None:
            values = located.typed(stored)[index]
        else:
            values = np.empty(active.size, stored)
            for region, sel, idx in located:
                values[sel] = region.typed(stored)[idx]
        if dtype == np.bool_:
            values = values != 0
        if mask is None:
            return values.reshape(addrs.shape)
        out = np.full(addrs.shape, fill if fill is not None else 0, dtype=dtype)
        out[mask] = values
        return out

    def write(self, addrs, values, mask=None, what: str = "store") -> None:
        addrs = np.asarray(addrs, dtype=np.int64)
        values = np.broadcast_to(np.asarray(values), addrs.shape)
        if values.dtype == np.bool_:
            values = values.astype(np.uint8)
        if mask is not None:
            mask = np.broadcast_to(np.asarray(mask, dtype=bool), addrs.shape)
            addrs, values = addrs[mask], values[mask]
        else:
            addrs, values = addrs.reshape(-1), values.reshape(-1)
        located, index = self._locate(addrs, values.dtype.itemsize, what)
        if located is None:
            return
        if index is not None:
            located.typed(values.dtype)[index] = values
            return
        for region, sel, idx in located:
            region.typed(values.dtype)[idx] = values[sel]

    def update(self, addrs, dtype: np.dtype, combine, mask=None, what: str = "atomic"):
        """An atomic read-modify-write of each element, in element order (a repeated address
        sees the earlier elements' updates): `combine(old, position)` gives the new values of
        the elements at `position` (flat indices of the active elements). Returns the old
        values (masked-off elements: 0)."""
        addrs = np.asarray(addrs, dtype=np.int64)
        mask = np.ones(addrs.shape, bool) if mask is None else \
            np.broadcast_to(np.asarray(mask, bool), addrs.shape)
        positions = np.flatnonzero(mask)
        active = addrs.reshape(-1)[positions]
        old = np.zeros(addrs.size, dtype)
        located, index = self._locate(active, dtype.itemsize, what)
        if located is None:
            return old.reshape(addrs.shape)
        if index is None:
            raise Fault(f"{what} spans several arrays", kind=MemoryFault)
        typed = located.typed(dtype)
        if np.unique(index).size == index.size:
            before = typed[index].copy()
            typed[index] = combine(before, positions)
            old[positions] = before
        else:
            for pos, i in zip(positions, index):
                before = typed[i:i + 1].copy()
                typed[i:i + 1] = combine(before, np.array([pos]))
                old[pos] = before[0]
        return old.reshape(addrs.shape)


def as_unsigned(values: np.ndarray) -> np.ndarray:
    return values.view(UNSIGNED[values.dtype.itemsize])
