"""Both sides' launch parameters, recorded in the check worker when a case fails (the owner
of a failure whose IR and SASS match is the launch): the kernels CUPTI saw (grid, block,
stream, registers, shared memory, through torch.profiler's trace) and the arguments each
side was handed (the Rust side's as packed into its C descriptors)."""
from __future__ import annotations

import json
import os
import tempfile

_KERNEL_ARGS = {"grid": "grid", "block": "block", "stream": "stream",
                "registers per thread": "registers", "shared memory": "shared_memory"}


def record(side: str, launch, values: dict, consts: dict, stream, torch) -> dict:
    """Launch `side` once more under the profiler and describe what was launched."""
    return {"kernels": _profiled_kernels(lambda: launch(values, consts, stream), torch),
            "arguments": _arguments(side, launch, values, consts),
            "stream": int(getattr(stream, "cuda_stream", 0) or 0)}


def _profiled_kernels(run, torch) -> list[dict]:
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        run()
        torch.cuda.synchronize()
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        prof.export_chrome_trace(path)
        with open(path) as f:
            events = json.load(f).get("traceEvents", [])
    finally:
        os.unlink(path)
    kernels = []
    for event in events:
        if event.get("cat") != "kernel":
            continue
        args = event.get("args", {})
        kernels.append({"name": event.get("name"), **{ours: args.get(theirs)
                                                      for theirs, ours in _KERNEL_ARGS.items()}})
    return kernels


def _arguments(side: str, launch, values: dict, consts: dict) -> list[str]:
    if side == "rust" and hasattr(launch, "plan"):
        grid_of = getattr(launch, "grid_of", None)
        return _descriptors(launch.plan, values, consts,
                            grid_of(values, consts) if grid_of else None)
    out = []
    grid_of = getattr(launch, "grid_of", None)
    if grid_of is not None:
        out.append(f"grid {tuple(grid_of(values, consts))} (kernel.py's grid())")
    for name, value in values.items():
        out.append(_describe(name, value))
    out += [f"{name} = {value}" for name, value in consts.items()]
    return out


def _describe(name: str, value) -> str:
    if hasattr(value, "data_ptr"):
        return (f"{name}: {str(value.dtype).removeprefix('torch.')} shape {tuple(value.shape)} "
                f"strides {tuple(value.stride())} offset {value.storage_offset()} "
                f"ptr {value.data_ptr():#x}")
    return f"{name} = {value}"


def _descriptors(plan, values: dict, consts: dict, grid=None) -> list[str]:
    """What the C ABI is handed: the packed WbTensor descriptors, scalars and constants
    (then the launch, for a port that takes it)."""
    with plan._lock:
        tensors, n_tensors, scalars, n_scalars, cs, n_consts = plan.prepared(values, consts, grid)
        out = []
        for (name, _), t in zip(plan.tensors, list(tensors)[:n_tensors]):
            rank = t.ndim
            out.append(f"{name}: WbTensor ptr {t.ptr:#x} shape {tuple(t.shape[:rank])} strides "
                       f"{tuple(t.strides[:rank])} dtype code {t.dtype} device {t.device}")
        out += [f"{name} = {scalars[i]}" for i, name in enumerate(plan.scalars)]
        out += [f"{name} = {cs[i]}" for i, name in enumerate(plan.consts)]
        if plan.launch_slots:
            words = [cs[len(plan.consts) + i] for i in range(plan.launch_slots)]
            out.append(f"launch: grid {tuple(words[:3])} hints {tuple(words[3:])}")
    return out
