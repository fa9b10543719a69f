"""The check worker: a child process that owns the GPU for one request.

    python -m workbench.check.worker  < request.json  > response.json

Request:  {"op": NAME, "cases": [i, ...], "sides": ["python", "rust"], "seed": N,
           "mode": "check" | "bench", "rust_library": PATH | null,
           "bench": {"warmup": N, "batches": N, "per_batch": N},
           "tuned": true (the port's tuned.toml serves its shapes; false: as the catalog
           launches it), "candidates": [{"id", "consts", "hints"}, ...] (workbench tune:
           each one more side, "candidate:ID", the port launched with those); the side
           "torch" (bench mode only) times reference.py's peer(), PyTorch's own kernel for
           the operation in the case's dtype}
Response: {"status": "ok" | "skipped" | "error", "reason": str, "device": {...},
           "results": [per case: {"case", "label", "sides": {side: {...}}, "cross": {...}}],
           "ceilings": {...} (bench mode)}
A CUDA fault kills only this process; the parent turns that into a FAIL result.
"""
from __future__ import annotations

import inspect
import json
import math
import sys
import traceback
from pathlib import Path

from .gpu import (L2_FLUSH_BYTES, MAX_ROTATION, TORCH_DTYPES, DeviceFault,  # noqa: F401
                  _is_device_fault, measure_ceilings, run_side, time_sides)
from ..catalog import get_family, get_operator
from ..rust.ffi import rust_launcher
from ..rust.tuned import case_arrays
from ..sources.kernel import load_operator_kernel
from .chain import run_chain
from .compare import compare
from .family import run_family
from .launches import record
from .recorded import run_recorded


def main() -> int:
    return serve(_run_request)


def _run_request(request: dict, torch) -> dict:
    if request.get("record"):            # a recorded target: its launches, its own kernel
        return run_recorded(request, torch)
    if request.get("family"):            # a TileGym family: its entries side by side
        if get_family(request["family"]).steps:      # an operator of several launches
            return run_chain(request, torch)
        return run_family(request, torch)
    return _run(request, torch)


def serve(run) -> int:
    """The worker protocol: one JSON request on stdin, `run(request, torch)`'s reply as one
    JSON line on stdout; skipped without a GPU (this worker's and the Triton side's)."""
    request = json.loads(sys.stdin.read())
    try:
        import torch
    except ImportError:
        return _reply({"status": "skipped", "reason": "no CUDA device: torch is not installed"})
    if not torch.cuda.is_available():
        return _reply({"status": "skipped", "reason": "no CUDA device"})
    try:
        response = run(request, torch)
    except Exception as e:
        # Justified: this process exists to report; the parent reads only its JSON reply, so
        # any error here (a bug included) goes back whole, with its traceback, as "error".
        return _reply({"status": "error", "reason": f"{type(e).__name__}: {e}",
                       "traceback": traceback.format_exc()})
    return _reply(response)


def _reply(response: dict) -> int:
    sys.stdout.write(json.dumps(response, default=str) + "\n")
    sys.stdout.flush()
    return 0


def _run(request: dict, torch) -> dict:
    op = get_operator(request["op"])
    if request.get("port"):                 # a copy of the port (a draft, a notebook's copy)
        op = op.with_port(request["port"])
    torch.manual_seed(request.get("seed", 0))
    device = torch.cuda.get_device_properties(0)
    # One non-default stream for everything: inputs, both kernels, the reference, events.
    torch.cuda.set_stream(torch.cuda.Stream())
    launchers = _launchers(op, request, torch)
    results = []
    for index in request["cases"]:
        case = op.case(index)
        try:
            if request.get("mode") == "bench":
                results.append(_bench_case(op, case, launchers, request.get("bench", {}), torch))
            else:
                results.append(_check_case(op, case, launchers, torch))
            tuned = _tuned_entry(launchers.get("rust"), case)
            if tuned:
                results[-1]["tuned"] = tuned
        except DeviceFault as fault:
            # the CUDA context is gone: report what broke, and stop using it
            results.append({"case": case.index, "label": case.label(), "cross": None,
                            "sides": {fault.side: {"ok": False, "reason": fault.message}}})
            return {"status": "ok", "reason": f"{fault.side}: {fault.message}",
                    "results": results, "device": {"name": device.name}}
    response = {"status": "ok", "reason": "", "results": results,
                "device": {"name": device.name, "capability": f"{device.major}.{device.minor}",
                           "torch": torch.__version__, "cuda": torch.version.cuda,
                           "driver": _driver_version()}}
    if request.get("mode") == "bench":
        response["ceilings"] = measure_ceilings(torch)
    return response


def _driver_version() -> str:
    import ctypes
    try:
        version = ctypes.c_int()
        ctypes.CDLL("libcuda.so.1").cuDriverGetVersion(ctypes.byref(version))
        return f"{version.value // 1000}.{version.value % 1000 // 10}"
    except OSError:
        return "?"


# -- sides -------------------------------------------------------------------------------

def _launchers(op, request: dict, torch) -> dict:
    launchers = {}
    if "python" in request["sides"]:
        launchers["python"] = _python_launcher(op, torch)
    if "rust" in request["sides"]:
        launchers["rust"] = rust_launcher(op, request["rust_library"], torch,
                                          grid_of=_grid_of(op), tuned=request.get("tuned", True))
    if "torch" in request["sides"]:
        if request.get("mode") != "bench":
            raise ValueError("the torch side is timed only (mode bench): it writes no output")
        peer = getattr(_reference_module(op), "peer", None)
        if peer is None:
            raise ValueError(f"{op.folder / 'reference.py'} has no peer(): PyTorch's own "
                             "kernel for the operation, to time beside the port")
        launchers["torch"] = lambda values, consts, stream: peer(**values)
    for candidate in request.get("candidates", ()):
        launchers[f"candidate:{candidate['id']}"] = _candidate_launcher(op, request, torch,
                                                                       candidate)
    return launchers


def _tuned_entry(rust, case) -> dict | None:
    """The tuned.toml entry the Rust side launched this case with (None: as catalogued)."""
    entry = getattr(rust, "tuned", {}).get(case_arrays(case)) if rust else None
    return None if entry is None else {"consts": entry.consts, "hints": entry.hints}


def _candidate_launcher(op, request: dict, torch, candidate: dict):
    """The port launched with a tuning candidate's constants and hints over the case's."""
    port = rust_launcher(op, request["rust_library"], torch, grid_of=_grid_of(op))
    overrides, hints = candidate.get("consts", {}), candidate.get("hints") or None

    def launch(values: dict, consts: dict, stream) -> None:
        port(values, {**consts, **overrides}, stream, hints=hints)
    return launch


def _python_launcher(op, torch):
    import cuda.tile as ct
    kernel = load_operator_kernel(op)
    grid_fn = _grid_function(op)

    def launch(values: dict, consts: dict, stream) -> None:
        """`stream`: a torch.cuda.Stream (the Rust side takes its raw handle)."""
        grid = _call_by_name(grid_fn, {**values, **consts})
        args = [consts[p] if p in kernel.const_params else values[p] for p in kernel.params]
        ct.launch(stream, grid, kernel.kernel, tuple(args))
    launch.grid_of = lambda values, consts: _call_by_name(grid_fn, {**values, **consts})
    return launch


def _grid_of(op):
    """kernel.py's grid() as (values, consts) -> grid, for a port that takes its launch from
    the caller (None where kernel.py has no grid())."""
    grid_fn = getattr(_grid_module(op), "grid", None)
    if grid_fn is None:
        return None
    return lambda values, consts: _call_by_name(grid_fn, {**values, **consts})


def _grid_function(op):
    return _grid_module(op).grid


def _grid_module(op):
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"wb_grid_{op.name}", op.kernel_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _call_by_name(fn, values: dict):
    names = inspect.signature(fn).parameters
    return fn(**{n: values[n] for n in names})


def _reference_module(op):
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"wb_ref_{op.name}",
                                                  op.folder / "reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- inputs ------------------------------------------------------------------------------



def make_values(op, case, torch) -> dict:
    """Fresh random inputs (never zeros) and NaN-poisoned outputs, in parameter order."""
    kernel = load_operator_kernel(op)
    runtime = [p for p in kernel.params if p not in kernel.const_params]
    values = {}
    for name, spec in zip(runtime, case.args):
        if not spec.is_array:
            values[name] = spec.value
            continue
        dtype = getattr(torch, TORCH_DTYPES[spec.dtype])
        strides = spec.effective_strides()
        extent = spec.offset + sum((d - 1) * s for d, s in zip(spec.shape, strides)) + 1
        base = torch.empty(extent, dtype=dtype, device="cuda")
        if name in op.outputs:
            base.fill_(float("nan"))
        else:
            base.copy_(torch.randn(extent, dtype=torch.float32, device="cuda") + 0.01)
        values[name] = base.as_strided(spec.shape, strides, spec.offset)
    return values


def _poison(values: dict, outputs) -> None:
    for name in outputs:
        values[name].fill_(float("nan"))


# -- correctness ---------------------------------------------------------------------------

def _check_case(op, case, launchers, torch) -> dict:
    reference = _reference_module(op).reference
    values = make_values(op, case, torch)
    expected = reference(**values)
    expected_np = expected.cpu().numpy()
    tolerance = op.tolerance[case.args[0].dtype]
    stream = torch.cuda.current_stream()
    sides, outputs = {}, {}
    for side, launch in launchers.items():
        _poison(values, op.outputs)
        failed = run_side(side, lambda: launch(values, case.consts, stream), torch)
        if failed:
            sides[side] = failed
            continue
        out = values[op.outputs[0]].double().cpu().numpy()
        outputs[side] = out
        sides[side] = compare(out, expected_np, tolerance).to_json()
    cross = None
    if "rust" in outputs and "python" in outputs:
        cross = compare(outputs["rust"], outputs["python"], tolerance).to_json()
    result = {"case": case.index, "label": case.label(), "sides": sides, "cross": cross}
    if not all(s.get("ok") for s in sides.values()) or (cross and not cross["ok"]):
        result["launches"] = _launches(launchers, values, case.consts, stream, torch)
    return result


def _launches(launchers, values, consts, stream, torch) -> dict:
    """Both sides' launch parameters, for the owner of a failed case (launches.py)."""
    out = {}
    for side, launch in launchers.items():
        try:
            out[side] = record(side, launch, values, consts, stream, torch)
        except Exception as e:  # noqa: BLE001 -- a launch that fails again is its own record
            out[side] = {"error": f"{type(e).__name__}: {e}"}
    return out


# -- performance ---------------------------------------------------------------------------

def _bench_case(op, case, launchers, settings: dict, torch) -> dict:
    reference_module = _reference_module(op)
    probe = make_values(op, case, torch)
    set_bytes = sum(v.untyped_storage().nbytes() for v in probe.values() if torch.is_tensor(v))
    copies = max(1, min(MAX_ROTATION, math.ceil(L2_FLUSH_BYTES / max(set_bytes, 1))))
    sets = [probe] + [make_values(op, case, torch) for _ in range(copies - 1)]
    moved = sum(v.numel() * v.element_size() for v in probe.values() if torch.is_tensor(v))
    flops = _call_by_name(reference_module.flops, probe) if hasattr(reference_module, "flops") \
        else None
    stream = torch.cuda.current_stream()
    runs = {side: (lambda i, launch=launch: launch(sets[i % len(sets)], case.consts, stream))
            for side, launch in launchers.items()}
    sides = time_sides(runs, settings, torch)
    for timing in sides.values():
        if timing.get("ok"):
            per_call_ms = timing["median_us"] * 1e-3
            timing["gbps"] = moved / (per_call_ms * 1e-3) / 1e9
            timing["tflops"] = flops / (per_call_ms * 1e-3) / 1e12 if flops else None
    return {"case": case.index, "label": case.label(), "sides": sides, "bytes": moved,
            "flops": flops, "rotation": len(sets)}


if __name__ == "__main__":
    sys.exit(main())
