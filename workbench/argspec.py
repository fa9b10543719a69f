"""Kernel argument descriptions: `f32[256,1000]`, `f16[64,100]:strides=(200,1):offset=8`, `f32=1e-5`,
`None` for an argument passed as None (Triton makes it a compile-time None), and
`list[f16[1024,512]]` for a list of arrays that one array spec describes (TileGym's
group GEMM takes its groups' matrices as lists; the JIT specializes a list on one element
constraint, and its length is a runtime value), `list[f16[1024,512]]*4` with its length (a
Rust port takes the length as an integer scalar, which its launcher hints).

The same little language serves the catalog, `workbench ir --arg` and `workbench specialize
--call`, so a case written in one place can be pasted into another.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .errors import WorkbenchError

# name -> (cuda.tile dtype attribute, bytes per element)
DTYPES: dict[str, tuple[str, int]] = {
    "f64": ("float64", 8), "f32": ("float32", 4), "f16": ("float16", 2), "bf16": ("bfloat16", 2),
    "f8e4m3": ("float8_e4m3fn", 1), "f8e5m2": ("float8_e5m2", 1),
    "i64": ("int64", 8), "i32": ("int32", 4), "i16": ("int16", 2), "i8": ("int8", 1),
    "u64": ("uint64", 8), "u32": ("uint32", 4), "u16": ("uint16", 2), "u8": ("uint8", 1),
    "bool": ("bool_", 1),
}

# What cuTile Python's JIT tests of an array argument: a base address (and strides) divisible
# by 16 bytes, an extent divisible by 16; the kernel it compiles assumes what held.
ALIGN_BYTES = 16
SHAPE_DIVISOR = 16

FORMAT_HELP = ("an array as DTYPE[D0,D1,...] with optional :strides=(S0,S1,...) and :offset=N "
               "(in elements) (and, for a Triton tensor descriptor, :block=(B0,B1,...)), a "
               "list of arrays as list[ARRAY], a scalar as DTYPE or DTYPE=VALUE, or None "
               "(a Triton argument passed as None); dtypes: "
               + ", ".join(DTYPES))

NONE_DTYPE = "none"                # an argument passed as None, a compile-time None to Triton

_ARRAY = re.compile(r"^(?P<dtype>\w+)\[(?P<shape>[\d,\s]*)\](?P<rest>(:\w+=[^:]+)*)$")
_LIST = re.compile(r"^list\[(?P<element>.+)\](\*(?P<length>\d+))?$")
_SCALAR = re.compile(r"^(?P<dtype>\w+)(=(?P<value>.+))?$")


@dataclass(frozen=True)
class ArgSpec:
    dtype: str
    shape: tuple[int, ...] | None = None       # None: a scalar
    strides: tuple[int, ...] | None = None     # elements; None: C-contiguous
    offset: int = 0                            # elements from an aligned base
    value: float | int | None = None           # scalars only
    is_list: bool = False                      # a list of arrays, each as described
    block: tuple[int, ...] | None = None       # a Triton TensorDescriptor's block shape
    length: int = 0                            # a list's item count; 0: not given

    @property
    def is_array(self) -> bool:
        return self.shape is not None

    @property
    def is_none(self) -> bool:
        return self.dtype == NONE_DTYPE

    @property
    def itemsize(self) -> int:
        return DTYPES[self.dtype][1]

    def effective_strides(self) -> tuple[int, ...]:
        if self.strides is not None:
            return self.strides
        strides, running = [], 1
        for dim in reversed(self.shape or ()):
            strides.append(running)
            running *= dim
        return tuple(reversed(strides))

    def __str__(self) -> str:
        if self.is_none:
            return "None"
        if not self.is_array:
            return self.dtype if self.value is None else f"{self.dtype}={self.value}"
        text = f"{self.dtype}[{','.join(map(str, self.shape))}]"
        if self.strides is not None:
            text += f":strides=({','.join(map(str, self.strides))})"
        if self.offset:
            text += f":offset={self.offset}"
        if self.block is not None:
            text += f":block=({','.join(map(str, self.block))})"
        if not self.is_list:
            return text
        return f"list[{text}]*{self.length}" if self.length else f"list[{text}]"


NONE_ARG = ArgSpec(NONE_DTYPE)


def parse_arg(text: str) -> ArgSpec:
    text = text.strip()
    if text in ("None", "none"):
        return NONE_ARG
    listed = _LIST.match(text)
    if listed:
        element = parse_arg(listed["element"])
        if not element.is_array or element.is_list:
            raise WorkbenchError(f"{text!r}: a list holds arrays", "write list[DTYPE[D0,D1,...]]")
        return replace(element, is_list=True, length=int(listed["length"] or 0))
    match = _ARRAY.match(text)
    if match:
        return _parse_array(text, match)
    match = _SCALAR.match(text)
    if match:
        dtype = _check_dtype(match["dtype"], text)
        value = _parse_number(match["value"], text) if match["value"] is not None else None
        return ArgSpec(dtype=dtype, value=value)
    raise WorkbenchError(f"cannot read the argument {text!r}", f"write {FORMAT_HELP}")


def _parse_array(text: str, match: re.Match) -> ArgSpec:
    dtype = _check_dtype(match["dtype"], text)
    try:
        shape = tuple(int(d) for d in match["shape"].split(",") if d.strip())
    except ValueError:
        raise WorkbenchError(f"bad shape in {text!r}", "write the shape as [D0,D1,...]")
    strides, offset, block = None, 0, None
    for option in filter(None, match["rest"].split(":")):
        key, _, value = option.partition("=")
        if key == "strides":
            strides = _parse_tuple(value, text)
            if len(strides) != len(shape):
                raise WorkbenchError(f"{text!r} has {len(shape)} dims but {len(strides)} strides",
                                     "give one stride per dimension")
        elif key == "offset":
            offset = int(_parse_number(value, text))
        elif key == "block":
            block = _parse_tuple(value, text)
            if len(block) != len(shape):
                raise WorkbenchError(f"{text!r} has {len(shape)} dims but a block of "
                                     f"{len(block)}", "give one block size per dimension")
        else:
            raise WorkbenchError(f"unknown option {key!r} in {text!r}",
                                 "the options are :strides=(...), :offset=N and, for a "
                                 "Triton tensor descriptor, :block=(...)")
    return ArgSpec(dtype=dtype, shape=shape, strides=strides, offset=offset, block=block)


def _check_dtype(name: str, text: str) -> str:
    if name not in DTYPES:
        raise WorkbenchError(f"unknown dtype {name!r} in {text!r}",
                             "use one of " + ", ".join(DTYPES))
    return name


def _parse_tuple(value: str, text: str) -> tuple[int, ...]:
    inner = value.strip().removeprefix("(").removesuffix(")")
    try:
        return tuple(int(v) for v in inner.split(",") if v.strip())
    except ValueError:
        raise WorkbenchError(f"bad number list {value!r} in {text!r}", "write (N,N,...)")


def _parse_number(value: str, text: str) -> int | float:
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        raise WorkbenchError(f"bad number {value!r} in {text!r}", "write an int or a float")


_WORD = re.compile(r"^[A-Za-z_]\w*$")


def parse_const(text: str) -> tuple[str, int | float | bool | str]:
    """`NAME=VALUE` from `--const`: a number, a boolean (true/false), or a string, quoted
    (`NAME="mean"`) or a bare word (`NAME=mean`; `inf` and `nan` stay numbers)."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise WorkbenchError(f"cannot read the constant {text!r}", "write --const NAME=VALUE")
    name, value = name.strip(), value.strip()
    if value in ("True", "true", "False", "false"):
        return name, value in ("True", "true")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return name, value[1:-1]
    try:
        return name, _parse_number(value, text)
    except WorkbenchError:
        if _WORD.match(value) and value != "None":
            return name, value
        raise WorkbenchError(f"bad constant value {value!r} in {text!r}",
                             "write an int, a float, true or false, or a string (a word, "
                             "or quoted)") from None


def parse_grid(text: str | None) -> tuple[int, int, int] | None:
    """`--grid 128` or `--grid 16,8[,1]`: a launch grid, padded to three extents."""
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    if not 1 <= len(parts) <= 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise WorkbenchError(f"--grid {text!r}: not 1 to 3 positive integers",
                             "write --grid X, --grid X,Y or --grid X,Y,Z (blocks per axis)")
    return tuple(int(p) for p in parts) + (1,) * (3 - len(parts))
