"""What the CPU check's halves (cpu_own.py, cpu_family.py) share: inputs as NumPy arrays laid
out as a case's ArgSpecs say (strides and offsets honoured: a view into a larger buffer, as the
GPU check makes them), the torch bridge for references written for the GPU worker (its
`device="cuda"` dropped), the budget, and outcomes in the GPU check's report shape."""
from __future__ import annotations

import contextlib
import functools
import inspect

import ml_dtypes
import numpy as np

from ..argspec import ArgSpec
from .compare import compare
from .runner import CheckResponse, all_passed

DEVICE = {"name": "CPU: the Tile IR interpreter (no GPU used)", "kind": "cpu"}
# Elements over all of a case's arrays the interpreter takes on (seconds on 2 cores for
# an element-wise kernel); a larger case is skipped with the reason.
ELEMENT_BUDGET = 1 << 23
# Past the budget a case runs a sample of its blocks (cpu_own.py), about this many elements'
# worth; past SAMPLE_LIMIT it is not made at all (its arrays and the float64 reference would
# take gigabytes).
SAMPLE_ELEMENTS = 1 << 21
SAMPLE_LIMIT = 1 << 27


class SideFailed(Exception):
    """A side that could not give outputs: its JSON (a failure, or skipped with the reason),
    and the launches it made before it failed ({name, grid}), where it made any."""

    def __init__(self, outcome: dict, kernels: list | None = None):
        super().__init__(outcome.get("reason", ""))
        self.outcome = outcome
        self.kernels = kernels or []

NUMPY_DTYPES = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16,
    "f8e4m3": ml_dtypes.float8_e4m3fn, "f8e5m2": ml_dtypes.float8_e5m2,
    "i64": np.int64, "i32": np.int32, "i16": np.int16, "i8": np.int8, "u8": np.uint8,
    "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "bool": np.bool_,
}


# ml_dtypes' floats have NumPy kind "V": ask this, never `dtype.kind == "f"`
ML_FLOATS = {np.dtype(t) for t in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn,
                                    ml_dtypes.float8_e5m2)}


def is_float(dtype: np.dtype) -> bool:
    return dtype.kind == "f" or dtype in ML_FLOATS


def numpy_dtype(name: str) -> np.dtype:
    """An ArgSpec dtype name (`f32`, `bf16`, ...) as a NumPy dtype."""
    return np.dtype(NUMPY_DTYPES[name])


def make_array(spec: ArgSpec, rng: np.random.Generator, fill: str = "randn") -> np.ndarray:
    """An array as `spec` describes it: a view (its strides, its offset) into a buffer just
    large enough. fill: `randn` (standard normal + 0.01; small integers for integer types),
    `nan` (NaN, or zeros for integers), or `zeros`."""
    dtype = numpy_dtype(spec.dtype)
    strides = spec.effective_strides()
    extent = spec.offset + (sum((d - 1) * s for d, s in zip(spec.shape, strides)) + 1
                            if all(spec.shape) else 0)
    if fill == "randn" and is_float(dtype):
        buffer = (rng.standard_normal(extent) + 0.01).astype(dtype)
    elif fill == "randn" and dtype.kind in "iu":
        buffer = rng.integers(0, 8, extent).astype(dtype)
    elif fill == "randn" and dtype.kind == "b":
        buffer = rng.integers(0, 2, extent).astype(bool)
    elif fill == "nan" and is_float(dtype):
        buffer = np.full(extent, np.nan, dtype)
    else:
        buffer = np.zeros(extent, dtype)
    return np.lib.stride_tricks.as_strided(buffer[spec.offset:], spec.shape,
                                           [s * dtype.itemsize for s in strides])


def case_args(specs, rng: np.random.Generator | None = None, outputs=(),
              fill_all: str | None = None) -> list:
    """The runtime arguments for `specs` (ArgSpecs in parameter order): arrays (those whose
    index is in `outputs` NaN-filled; every one `fill_all`'d when given), lists of arrays,
    scalars (their value, else 0)."""
    rng = rng if rng is not None else np.random.default_rng(0)
    args = []
    for i, spec in enumerate(specs):
        fill = fill_all or ("nan" if i in outputs else "randn")
        if spec.is_list:
            args.append([make_array(spec, rng, fill) for _ in range(spec.length or 1)])
        elif spec.is_array:
            args.append(make_array(spec, rng, fill))
        else:
            args.append(spec.value if spec.value is not None else 0)
    return args


def poisoned(value):
    """A fresh output like `value` (an array or a list of them), with its shape and strides:
    NaN, or zeros for integers."""
    if isinstance(value, list):
        return [poisoned(v) for v in value]
    buffer = np.full(_extent(value), np.nan if is_float(value.dtype) else 0, value.dtype)
    return np.lib.stride_tricks.as_strided(buffer, value.shape, value.strides)


def _extent(array: np.ndarray) -> int:
    if not array.size:
        return 0
    return sum((d - 1) * s for d, s in zip(array.shape, array.strides)) // array.itemsize + 1


def copied(value):
    """An input's copy with the same shape, strides and values (each side reads its own)."""
    if isinstance(value, list):
        return [copied(v) for v in value]
    if not isinstance(value, np.ndarray):
        return value
    fresh = poisoned(value)
    fresh[...] = value
    return fresh


def flat64(value) -> np.ndarray:
    """An output (an array, a tensor, or a list of them) as one flat float64 array."""
    items = value if isinstance(value, list) else [value]
    return np.concatenate([np.asarray(as_numpy(t.detach()) if hasattr(t, "detach") else t,
                                      dtype=np.float64).reshape(-1) for t in items])


# -- torch on the CPU ------------------------------------------------------------------------

class _CpuTorch:
    """torch, with `device=` dropped from its functions (CPU tensors)."""

    def __init__(self, torch):
        self._torch = torch

    def __getattr__(self, name):
        value = getattr(self._torch, name)
        if callable(value) and not isinstance(value, type) and not inspect.ismodule(value):
            @functools.wraps(value)
            def on_cpu(*args, **kwargs):
                kwargs.pop("device", None)
                return value(*args, **kwargs)
            return on_cpu
        return value


@contextlib.contextmanager
def torch_cpu():
    """A torch stand-in for code written for the GPU worker; `Tensor.cuda()` is a no-op inside."""
    import torch
    saved = torch.Tensor.cuda
    torch.Tensor.cuda = lambda self, *a, **k: self
    try:
        yield _CpuTorch(torch)
    finally:
        torch.Tensor.cuda = saved


def as_numpy(tensor) -> np.ndarray:
    """A CPU tensor's memory as a NumPy array (no copy; bf16/fp8 through ml_dtypes)."""
    import torch
    special = {torch.bfloat16: (torch.int16, ml_dtypes.bfloat16),
               torch.float8_e4m3fn: (torch.uint8, ml_dtypes.float8_e4m3fn),
               torch.float8_e5m2: (torch.uint8, ml_dtypes.float8_e5m2)}
    if tensor.dtype in special:
        raw, dtype = special[tensor.dtype]
        return tensor.view(raw).numpy().view(dtype)
    return tensor.numpy()


# -- outcomes ------------------------------------------------------------------------------

def response_of(results: list[dict]) -> CheckResponse:
    ran = [r for r in results if not all(s.get("skipped") for s in r["sides"].values())]
    if not ran:
        reason = next((s.get("reason") for r in results for s in r["sides"].values()), "")
        return CheckResponse("skipped", reason, results, DEVICE)
    return CheckResponse("ok" if all_passed(results) else "fail", "", results, DEVICE)


def too_large(arrays: list) -> str:
    """Why a case's arrays are over the CPU budget ('' if they fit)."""
    return too_many(sum(a.numel() if hasattr(a, "numel") else a.size for a in arrays))


def too_many(count: int, limit: int | None = None) -> str:
    """Why `count` elements are over the CPU's `limit` (default: the budget; '' if they
    fit)."""
    limit = ELEMENT_BUDGET if limit is None else limit
    if count <= limit:
        return ""
    what = (f"the {limit / 1e6:.1f} M the CPU check makes arrays for (it samples the blocks "
            f"of a case past {ELEMENT_BUDGET / 1e6:.1f} M)" if limit == SAMPLE_LIMIT else
            f"the CPU interpreter's budget of {limit / 1e6:.1f} M")
    return (f"{count / 1e6:.1f} M elements, over {what}: check a smaller case (--case), "
            "or on a GPU")


def sample_fraction(count: int) -> float | None:
    """The fraction of its blocks a case of `count` elements runs (None: all of them)."""
    return SAMPLE_ELEMENTS / count if count > ELEMENT_BUDGET else None


def written(produced: dict, outputs: list[str]) -> dict:
    """Where a sampled run wrote (outputs start as NaN): the Python side's float outputs'
    finite-or-written elements (the port's where the Python side gave none); None for an
    output whose unwritten elements cannot be told (integers start as 0)."""
    side = produced.get("python") or next(iter(produced.values()), {})
    masks = {}
    for name in outputs:
        if name in side:
            values = side[name] if isinstance(side[name], list) else [side[name]]
            floats = all(v.is_floating_point() if hasattr(v, "is_floating_point")
                         else is_float(np.asarray(v).dtype) for v in values)
            masks[name] = ~np.isnan(flat64(side[name])) if floats else None
    return masks


def compared(got: dict, expected: dict, outputs: list[str], tolerance: float,
             where: dict | None = None) -> dict:
    """Every output of `expected` compared; the worst relative error, every reason. `where`:
    by output, the elements to compare (a sampled run's); an output mapped to None is not
    compared (the note says so), one whose mask selects nothing fails."""
    worst, reasons, ok, left_out = 0.0, [], True, []
    for name in outputs:
        if name not in expected:
            continue
        out, ref = flat64(got[name]), flat64(expected[name])
        if where is not None:
            mask = where.get(name)
            if mask is None:
                left_out.append(name)
                continue
            if not mask.any():
                ok = False
                reasons.append(f"{name}: the sampled blocks wrote none of it")
                continue
            out, ref = out[mask], ref[mask]
        result = compare(out, ref, tolerance)
        ok &= result.ok
        worst = None if worst is None or result.rel_error is None else max(worst,
                                                                          result.rel_error)
        if not result.ok:
            reasons.append(f"{name}: {result.reason}" if len(outputs) > 1 else result.reason)
    outcome = {"ok": ok, "rel_error": worst, "tolerance": tolerance,
               "reason": "; ".join(reasons)}
    if where is not None:
        outcome["note"] = "compared where the sampled blocks wrote" + (
            f"; {', '.join(left_out)} (integers) only between the two sides" if left_out else "")
    return outcome
