"""Tile IR types as the interpreter needs them: a tile's shape and element type (and its NumPy
dtype), a token, a tensor view, a partition view. Read from the type text tileirdisasm prints:
`tile<128x64xf16>`, `tile<1xptr<i32>>`, `tensor_view<?x5xi64, strides=[5,1]>`,
`partition_view<tile=(1x8), padding_value = zero, tensor_view<...>, dim_map=[1, 0]>`.

bf16, fp8 and fp4 are ml_dtypes' NumPy types; tf32 is held in float32 (rounded to tf32 by
`ftof`); a pointer is an int64 address in the interpreter's memory (memory.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import ml_dtypes
import numpy as np

from .errors import Fault, UnsupportedOp

ELEMENT_DTYPES: dict[str, np.dtype] = {
    "i1": np.dtype(np.bool_), "i8": np.dtype(np.int8), "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32), "i64": np.dtype(np.int64),
    "f16": np.dtype(np.float16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
    "tf32": np.dtype(np.float32), "bf16": np.dtype(ml_dtypes.bfloat16),
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn), "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E8M0FNU": np.dtype(ml_dtypes.float8_e8m0fnu),
    "f4E2M1FN": np.dtype(ml_dtypes.float4_e2m1fn),
}
POINTER = np.dtype(np.int64)
UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
# how many bytes an element takes in memory (i1 takes a whole byte)
STORAGE_BYTES = {"f4E2M1FN": 1}


def element_dtype(elem: str) -> np.dtype:
    if elem.startswith("ptr<"):
        return POINTER
    dtype = ELEMENT_DTYPES.get(elem)
    if dtype is None:
        raise Fault(f"element type {elem} is not supported", kind=UnsupportedOp)
    return dtype


def is_float(elem: str) -> bool:
    return elem.startswith(("f", "bf", "tf"))


@dataclass(frozen=True)
class TileType:
    shape: tuple[int, ...]
    elem: str                          # f32, i1, ptr<f16>, ...

    @property
    def dtype(self) -> np.dtype:
        return element_dtype(self.elem)

    @property
    def is_pointer(self) -> bool:
        return self.elem.startswith("ptr<")

    @property
    def pointee(self) -> str:
        return self.elem[4:-1]


@dataclass(frozen=True)
class TokenType:
    pass


@dataclass(frozen=True)
class TensorViewType:
    shape: tuple[int | None, ...]      # None: dynamic (`?`)
    elem: str
    strides: tuple[int | None, ...]


@dataclass(frozen=True)
class PartitionViewType:
    tile: tuple[int, ...]
    tensor_view: TensorViewType
    dim_map: tuple[int, ...]
    padding: str | None                # zero, neg_zero, nan, pos_inf, neg_inf; None: unspecified


_DIMS = re.compile(r"^((?:(?:\d+|\?)x)*)(.+)$")


def _dims_and_elem(inner: str) -> tuple[tuple[int | None, ...], str]:
    match = _DIMS.match(inner.strip())
    dims = tuple(None if d == "?" else int(d) for d in match[1].split("x") if d)
    return dims, match[2].strip()


def _split_top(text: str, sep: str = ",") -> list[str]:
    """`text` split at `sep` outside any bracket."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "<([{":
            depth += 1
        elif char in ">)]}" and not (char == ">" and text[i - 1] == "-"):
            depth -= 1
        elif char == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _ints(text: str) -> tuple[int | None, ...]:
    return tuple(None if v.strip() == "?" else int(v) for v in text.strip("[]() ").split(",")
                 if v.strip())


@lru_cache(maxsize=None)
def parse_type(text: str):
    """A type's text -> TileType, TokenType, TensorViewType or PartitionViewType."""
    text = text.strip()
    if text == "token":
        return TokenType()
    head, _, rest = text.partition("<")
    inner = rest[:-1] if rest.endswith(">") else rest
    if head == "tile":
        dims, elem = _dims_and_elem(inner)
        return TileType(tuple(dims), elem)
    if head == "tensor_view":
        parts = _split_top(inner)
        dims, elem = _dims_and_elem(parts[0])
        strides = next((_ints(p.split("=", 1)[1]) for p in parts[1:] if p.startswith("strides")),
                       ())
        return TensorViewType(dims, elem, strides)
    if head == "partition_view":
        tile, view, dim_map, padding = (), None, None, None
        for part in _split_top(inner):
            key, eq, value = part.partition("=")
            key = key.strip()
            if part.startswith("tensor_view<"):
                view = parse_type(part)
            elif eq and key == "tile":
                tile = tuple(int(d) for d in value.strip(" ()").split("x"))
            elif eq and key == "dim_map":
                dim_map = _ints(value)
            elif eq and key == "padding_value":
                padding = value.strip()
        if view is None:
            raise Fault(f"cannot read the partition view type {text}", kind=UnsupportedOp)
        return PartitionViewType(tile, view, dim_map or tuple(range(len(tile))), padding)
    raise Fault(f"type {head} is not supported", kind=UnsupportedOp)
