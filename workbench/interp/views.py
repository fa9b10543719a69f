"""Tensor views and partition views as run-time values, and where a partition view's tile lies
(Tile IR's partition_view: tile dim k walks tensor dim dim_map[k]; out-of-bounds elements load
the padding value and are not stored)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import Fault

PADDING = {"zero": 0.0, "neg_zero": -0.0, "nan": math.nan, "pos_inf": math.inf,
           "neg_inf": -math.inf}


@dataclass(frozen=True)
class TensorView:
    base: int                       # address of element (0, ..., 0)
    elem: str
    dtype: np.dtype
    shape: tuple[int, ...]
    strides: tuple[int, ...]        # in elements


@dataclass(frozen=True)
class PartitionView:
    tensor: TensorView
    tile: tuple[int, ...]
    dim_map: tuple[int, ...]
    padding: str | None

    def index_space(self) -> tuple[int, ...]:
        shape = self.tensor.shape
        return tuple(-(-shape[d] // t) for t, d in zip(self.tile, self.dim_map))

    def box(self, index: tuple[int, ...]):
        """Where the tile at `index` lies: (address of its first element, how many elements
        of each tile dim are inside the tensor, each tile dim's stride in elements). The part
        inside is always a box at the tile's start: the rest is out of bounds. A tile outside
        the view's index space is all out of bounds (counts of 0): it loads the fill value
        and stores nothing, as the GPU's tensor-memory loads and stores treat it (seen on
        the H200: TileGym's split-KV decode loads one tile past the end of a split)."""
        space = self.index_space()
        if len(index) != len(space):
            raise Fault(f"{len(index)} indices for a view of rank {len(space)}")
        tv = self.tensor
        strides = tuple(tv.strides[d] for d in self.dim_map)
        counts = tuple(0 if i < 0 else max(0, min(t, tv.shape[d] - i * t))
                       for t, i, d in zip(self.tile, index, self.dim_map))
        first = sum(i * t * s for i, t, s in zip(index, self.tile, strides))
        return tv.base + first * tv.dtype.itemsize, counts, strides

    def fill_value(self, poison: bool):
        """What an out-of-bounds element loads: the padding value, else (unspecified on the
        GPU) NaN or the integer minimum when poisoning, zero when not."""
        dtype = self.tensor.dtype
        if self.padding is not None:
            value = PADDING[self.padding]
            return np.array(value).astype(dtype) if dtype.kind not in "iub" else \
                np.array(0 if math.isnan(value) or math.isinf(value) else value).astype(dtype)
        if not poison:
            return np.zeros((), dtype)
        if dtype.kind == "b":
            return np.array(False)
        if dtype.kind in "iu":
            return np.array(np.iinfo(dtype).min, dtype)
        return np.array(np.nan).astype(dtype)
