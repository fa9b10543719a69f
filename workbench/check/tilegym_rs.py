"""The fourth side of a TileGym family's GPU run: TileGym's own cutile-rs ports (matmul, bmm,
silu_and_mul, swiglu, attention_sink; one `libcutile_kernels.so` built from the installed
`tilegym/ops/cutile_rs` by tools/build_tilegym_rs.sh), the other Rust port a user could choose.

Their C ABI: every tensor crosses as `const TensorDesc*` (ptr, ndim, shape[5], strides[5] in
elements, dtype code), then the op's tile sizes, grid and compile options (<= 0: the
compiler's default), the device ordinal and the raw stream; 0 is success, a negative code an
error. Each adapter below maps a catalog case's views and the launch the catalog chose (its
constants, grid and num_ctas / occupancy hints) to one op's arguments; where their port
cannot run the launch (a transpose, a dtype, a grid it computes otherwise) it says why.
The library comes from $WORKBENCH_TILEGYM_RS; without it the side is skipped, never passed.
"""
from __future__ import annotations

import ctypes
import os

SIDE = "tilegym_rs"
LIBRARY_VARIABLE = "WORKBENCH_TILEGYM_RS"
MAX_DIMS = 5
AUTO = -1                                   # their "compiler default" for a compile option
DTYPE_CODES = {"float32": 0, "float16": 1, "bfloat16": 2, "int32": 3, "int64": 4}
SUPPORTED_ELEMENTS = ("float32", "float16", "bfloat16")   # every op's dispatch_by_dtype


class TensorDesc(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_uint64), ("ndim", ctypes.c_int32),
                ("shape", ctypes.c_int64 * MAX_DIMS), ("strides", ctypes.c_int64 * MAX_DIMS),
                ("dtype", ctypes.c_int32)]


_DESC = ctypes.POINTER(TensorDesc)
_I32, _U64, _F32 = ctypes.c_int32, ctypes.c_uint64, ctypes.c_float
# symbol -> its parameters' C types, in order (tests hold them to TileGym's _FFI_CDEF text)
SIGNATURES = {
    "cutile_matmul": (_DESC,) * 3 + (_I32,) * 9 + (_U64,),
    "cutile_bmm": (_DESC,) * 3 + (_I32,) * 11 + (_U64,),
    "cutile_silu_and_mul": (_DESC,) * 2 + (_I32,) * 4 + (_U64,),
    "cutile_swiglu": (_DESC,) * 3 + (_I32,) * 4 + (_U64,),
    "cutile_attention_sink": (_DESC,) * 6 + (_F32,) + (_I32,) * 12 + (_U64,),
}


class Unsupported(Exception):
    """Their port cannot run this launch; the message says why."""


def dtype_name(tensor) -> str:
    return str(tensor.dtype).removeprefix("torch.")


def descriptor(tensor) -> TensorDesc:
    """A TensorDesc of a torch tensor (or a view): its address, extents and strides."""
    name = dtype_name(tensor)
    if name not in DTYPE_CODES:
        raise Unsupported(f"dtype {name} has no TensorDesc code")
    if tensor.dim() > MAX_DIMS:
        raise Unsupported(f"rank {tensor.dim()} is over TensorDesc's {MAX_DIMS} dims")
    shape = (ctypes.c_int64 * MAX_DIMS)(*tensor.shape)
    strides = (ctypes.c_int64 * MAX_DIMS)(*tensor.stride())
    return TensorDesc(tensor.data_ptr(), tensor.dim(), shape, strides, DTYPE_CODES[name])


def library_path() -> str | None:
    return os.environ.get(LIBRARY_VARIABLE) or None


def load_library(path: str):
    """The library with every symbol's argument and return types set."""
    library = ctypes.CDLL(path)
    for symbol, types in SIGNATURES.items():
        function = getattr(library, symbol)
        function.argtypes, function.restype = list(types), ctypes.c_int32
    return library


def skipped(reason: str) -> dict:
    """The side's result when it does not run: never ok, and marked so it is not a failure."""
    return {"ok": False, "skipped": True, "reason": reason}


# -- one adapter per op: (views by catalog name, launch) -> (symbol, arguments before the
# -- device ordinal and stream, notes)

def _hint(launch, name: str) -> int:
    value = launch.hints.get(name)
    return int(value) if value else AUTO


def _elements(*tensors) -> None:
    names = {dtype_name(t) for t in tensors}
    if len(names) != 1 or next(iter(names)) not in SUPPORTED_ELEMENTS:
        raise Unsupported(f"dtypes {sorted(names)}: their port takes one of f32, f16, bf16")


def _one_grid(launch) -> int:
    if launch.grid[1:] != (1, 1):
        raise Unsupported(f"grid {launch.grid}: their port launches a 1-D grid")
    return int(launch.grid[0])


def _no_transposes(op: str, consts: dict) -> None:
    if consts.get("TRANSPOSE_A") or consts.get("TRANSPOSE_B"):
        raise Unsupported(f"TileGym's cutile-rs {op} takes no transposes (trans_a / trans_b)")


def _latency_note(consts: dict, name: str) -> list[str]:
    value = consts.get(name)
    if value is None or value == -1:
        return []
    return [f"{name}={value} not taken: their kernel's loads carry no latency hint"]


GROUP_SIZE_M = 8       # their wrappers' swizzle group where the launch has none (tiled: unread)


def matmul(views: dict, launch, kernel: str):
    a, b, c = views["a"], views["b"], views["c"]
    consts = launch.consts
    _no_transposes("matmul", consts)
    _elements(a, b, c)
    persistent = kernel == "_static_persistent_matmul_kernel"
    group = consts.get("GROUP_SIZE_M", GROUP_SIZE_M) if persistent else GROUP_SIZE_M
    args = (c, a, b, consts["TILE_SIZE_M"], consts["TILE_SIZE_N"], consts["TILE_SIZE_K"],
            group, _one_grid(launch), _hint(launch, "num_ctas"), _hint(launch, "occupancy"),
            int(persistent))
    return "cutile_matmul", args, _latency_note(consts, "LOAD_LATENCY")


def _bmm_tiled_grid(a, b, launch, tiles: tuple[int, int]) -> None:
    """Their tiled bmm computes its own 3-D grid (tiles of M, tiles of N, batch)."""
    q, m, n = a.shape[0], a.shape[1], b.shape[2]
    own = (-(-m // tiles[0]), -(-n // tiles[1]), q)
    if tuple(launch.grid) != own:
        raise Unsupported(f"grid {launch.grid}: their tiled bmm launches {own}")


def bmm(views: dict, launch, kernel: str):
    a, b, c = views["a"], views["b"], views["c"]
    consts = launch.consts
    _elements(a, b, c)
    if kernel == "_bmm_kernel":
        _no_transposes("bmm (tiled)", consts)
        _bmm_tiled_grid(a, b, launch, (consts["TM"], consts["TN"]))
        tiles, trans = (consts["TM"], consts["TN"], consts["TK"]), (0, 0)
        group, programs, persistent = GROUP_SIZE_M, 1, 0     # their FFI computes the grid
    else:
        tiles = (consts["TILE_M"], consts["TILE_N"], consts["TILE_K"])
        group, programs, persistent = consts["GROUP_SIZE_M"], _one_grid(launch), 1
        trans = (int(bool(consts.get("TRANSPOSE_A"))), int(bool(consts.get("TRANSPOSE_B"))))
    args = (c, a, b, *tiles, group, *trans, persistent, _hint(launch, "num_ctas"),
            _hint(launch, "occupancy"), programs)
    return "cutile_bmm", args, _latency_note(consts, "LATENCY")


def _rows_grid(launch, rows: int, op: str) -> None:
    if tuple(launch.grid) != (rows, 1, 1):
        raise Unsupported(f"grid {launch.grid}: their {op} launches one block per row, "
                          f"({rows}, 1, 1)")


def _warps_note(launch) -> list[str]:
    warps = launch.hints.get("num_worker_warps")
    return [f"num_worker_warps={warps} not taken: their C ABI has no such option"] \
        if warps else []


def silu_and_mul(views: dict, launch, kernel: str):
    x, y = views["x"], views["y"]
    _elements(x, y)
    if x.dim() != 2 or y.dim() != 2:
        raise Unsupported("their silu_and_mul takes the input as (rows, 2 * hidden)")
    _rows_grid(launch, y.shape[0], "silu_and_mul")
    args = (y, x, launch.consts["TILE_SIZE"], _hint(launch, "num_ctas"),
            _hint(launch, "occupancy"))
    return "cutile_silu_and_mul", args, _warps_note(launch)


def swiglu(views: dict, launch, kernel: str):
    a, b, c = views["a"], views["b"], views["c"]
    _elements(a, b, c)
    _rows_grid(launch, a.shape[0], "swiglu")
    args = (c, a, b, launch.consts["TILE_SIZE"], _hint(launch, "num_ctas"),
            _hint(launch, "occupancy"))
    return "cutile_swiglu", args, _warps_note(launch)


def attention_sink(views: dict, launch, kernel: str):
    q, k, v, sinks, out = (views[n] for n in ("q", "k", "v", "sinks", "out"))
    start_q = views["start_q"]
    _elements(q, k, v, sinks, out)
    if dtype_name(start_q) != "int32":
        raise Unsupported(f"start_q is {dtype_name(start_q)}: their port reads an i32 tensor")
    scales = [b.spec.value for b in launch.args if b.source is None and not b.spec.is_array]
    c = launch.consts
    args = (out, q, k, v, sinks, start_q, float(scales[0]), c["TILE_D"], c["H"], c["N_KV_CTX"],
            c["TILE_M"], c["TILE_N"], c["QUERY_GROUP_SIZE"], c["BANDWIDTH"], launch.grid[0],
            launch.grid[1], _hint(launch, "num_ctas"), _hint(launch, "occupancy"))
    if launch.grid[2] != 1:
        raise Unsupported(f"grid {launch.grid}: their attention_sink launches a 2-D grid")
    return "cutile_attention_sink", args, []


ADAPTERS = {"tilegym.matmul": matmul, "tilegym.bmm": bmm, "tilegym.silu_and_mul": silu_and_mul,
            "tilegym.swiglu": swiglu, "tilegym.attention_sink": attention_sink}


def has_adapter(family: str) -> bool:
    return family in ADAPTERS


def views_of(launch, tensors: dict) -> dict:
    """The case's tensors by catalog name, each viewed as the launch passes it."""
    return {b.source: tensors[b.source].view(b.spec.shape) for b in launch.args
            if b.source is not None and b.spec.is_array and not b.spec.is_list}


def c_arguments(symbol: str, args: tuple, device_id: int, stream: int) -> list:
    """The C call's arguments: each tensor as a pointer to its descriptor (kept alive by the
    list), each number as its parameter's C type, then the device ordinal and the stream."""
    values = []
    for kind, value in zip(SIGNATURES[symbol], (*args, device_id, stream)):
        values.append(ctypes.pointer(descriptor(value)) if kind is _DESC else kind(value))
    if len(values) != len(SIGNATURES[symbol]):
        raise Unsupported(f"{symbol}: {len(values)} arguments for {len(SIGNATURES[symbol])}")
    return values


class TileGymRsLauncher:
    """One family entry's launcher on this side: `launcher(tensors, launch, stream)` runs the
    call (their C ABI syncs the stream) and raises on a nonzero return code; `refusal(launch)`
    is why their port cannot run a launch (None when it can), `notes(launch)` what it ignores."""

    def __init__(self, library, family: str, kernel: str):
        self.library, self.adapter, self.kernel = library, ADAPTERS[family], kernel

    def plan(self, tensors: dict, launch):
        return self.adapter(views_of(launch, tensors), launch, self.kernel)

    def refusal(self, tensors: dict, launch) -> str | None:
        try:
            self.plan(tensors, launch)
        except Unsupported as e:
            return str(e)
        return None

    def __call__(self, tensors: dict, launch, stream) -> None:
        symbol, args, _ = self.plan(tensors, launch)
        device = next(iter(tensors.values()))
        device = device[0] if isinstance(device, list) else device
        values = c_arguments(symbol, args, device.device.index or 0, stream.cuda_stream)
        check_code(symbol, getattr(self.library, symbol)(*values))


RETURN_CODES = {-2: "unsupported dtype", -3: "kernel launch failed", -4: "device init failed",
                -5: "null tensor pointer", -6: "invalid arguments"}


def check_code(symbol: str, code: int) -> None:
    """A nonzero return code is an error result carrying the code."""
    if code != 0:
        raise RuntimeError(f"{symbol} returned {code} ({RETURN_CODES.get(code, 'unknown')})")


def family_launcher(family: str, kernel: str) -> "TileGymRsLauncher | str":
    """This side's launcher for one entry, or why the side does not run (a reason string)."""
    if not has_adapter(family):
        return f"TileGym ships no cutile-rs port of {family}"
    path = library_path()
    if not path:
        return (f"{LIBRARY_VARIABLE} is not set: build it with tools/build_tilegym_rs.sh "
                "and carry kernels_src/.build/bundle/libcutile_kernels.so.xz")
    try:
        return TileGymRsLauncher(load_library(path), family, kernel)
    except (OSError, AttributeError) as e:
        return f"{path}: {e}"
