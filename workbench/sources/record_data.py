"""The values a recorded launch saw, kept beside its record when it is made with keep_data:
its input arrays as they were before it ran and, where it ran (on a GPU), what it wrote:
the expected result. A check then runs on the user's own inputs, and compares the port (on
the GPU or in the CPU interpreter) with what the user's own kernel wrote on the GPU.

    REC.json                  launch i: "data": "REC.data/launch<i>.npz"
    REC.data/launch<i>.npz    in.<param> (before the launch), out.<param> (after it)

Each array is stored as its logical values (the view, not the memory around it), C order,
as plain NumPy bits: bf16 as int16 and fp8 as uint8, read back through the argument's dtype.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import WorkbenchError

# What one recording keeps at most (all launches' arrays); past it a launch's values are not
# kept, and the record says so.
KEEP_BUDGET = 1 << 30
INPUT, OUTPUT = "in", "out"
# dtypes NumPy has no type for: their bits
_BITS = {"torch.bfloat16": np.int16, "torch.float8_e4m3fn": np.uint8,
         "torch.float8_e5m2": np.uint8}


def snapshot(value) -> np.ndarray | None:
    """A host copy of an array's logical values (bits kept), or None where it has none to
    read (a meta tensor)."""
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and isinstance(value, torch.Tensor):
        if value.device.type == "meta":
            return None
        host = value.detach().to("cpu").contiguous()
        bits = _BITS.get(str(host.dtype))
        return host.view(torch.int16 if bits is np.int16 else torch.uint8).numpy().copy() \
            if bits else host.numpy().copy()
    if hasattr(value, "get") and hasattr(value, "__cuda_array_interface__"):   # CuPy
        return np.ascontiguousarray(value.get())
    if isinstance(value, np.ndarray):
        return np.ascontiguousarray(value).copy()
    if torch is not None and hasattr(value, "__cuda_array_interface__"):
        return snapshot(torch.as_tensor(value, device="cuda"))
    return None


def save_launch_data(path: Path, inputs: dict, outputs: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {f"{INPUT}.{k}": v for k, v in inputs.items()}
    arrays.update({f"{OUTPUT}.{k}": v for k, v in outputs.items()})
    temporary = path.with_name(path.name + ".tmp.npz")
    np.savez(temporary, **arrays)
    temporary.replace(path)


def load_launch_data(path: Path) -> tuple[dict, dict]:
    """(inputs, outputs): parameter -> its kept bits, as saved."""
    if not path.is_file():
        raise WorkbenchError(f"{path}: the launch's kept values are gone",
                             "record again with --keep-data, or drop \"data\" from the launch "
                             "(the check then makes inputs from a seed)")
    try:
        with np.load(path) as data:
            kept = {name: data[name] for name in data.files}
    except (OSError, ValueError) as e:
        raise WorkbenchError(f"{path}: not a launch's kept values ({e})",
                             "record again with --keep-data") from None
    inputs = {k.split(".", 1)[1]: v for k, v in kept.items() if k.startswith(INPUT + ".")}
    outputs = {k.split(".", 1)[1]: v for k, v in kept.items() if k.startswith(OUTPUT + ".")}
    return inputs, outputs


def nbytes(arrays: dict) -> int:
    return sum(a.nbytes for a in arrays.values())
