"""The worker's side of a recorded target: each recorded launch made again on the GPU, with
inputs generated from the record (a seed per launch), and run twice on the same inputs,
once by the user's own kernel and once by the Rust port. The user's kernel is the
reference: no hand-written one is needed.

Request (worker.py passes it here when it names a "record"):
  {"record": {"path", "launches": [i, ...]}, "port": DIR, "folder": DIR, "rust_library": PATH,
   "mode": "check" | "bench", "seed": N, "bench": {...}}
A result per launch: {"case": i, "label", "sides": {"python": {...}, "rust": {...}}, "cross"}
(check: rust's arrays against python's, every array argument; bench: each side's time).

Inputs: the values the record kept (`workbench record --keep-data`), else floats randn +
0.01 and integers uniform in the recorded [min, max] (an index input stays in range).
Outputs poisoned (NaN, or the integer type's minimum) before each launch, so an element the
port never writes shows. Every array argument is compared after the launch: floats within
the dtype's tolerance (or the record's), NaN/Inf positions equal; integers exactly. Where
the record kept what the user's kernel wrote on a GPU, that kernel is judged against it.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import WorkbenchError
from ..sources.record import INOUT, NONE, OUT, Record, kernel_source_file, recorded_stub
from .compare import AGAINST_RECORDED, DEFAULT_TOLERANCE, compare
from .gpu import TORCH_DTYPES, DeviceFault, run_side, time_sides
from ..rust.ffi import rust_launcher
from ..sources.kernel import load_kernel

PYTHON, RUST = "python", "rust"


class InputError(Exception):
    """The record cannot describe this launch's inputs (the message says what to add)."""


def run_recorded(request: dict, torch) -> dict:
    record = Record.load(request["record"]["path"])
    launches = [record.launches[i] for i in request["record"]["launches"]]
    kernel = launches[0].kernel
    device = torch.cuda.get_device_properties(0)
    torch.cuda.set_stream(torch.cuda.Stream())
    sides = _sides(kernel, request, torch)
    bench = request.get("mode") == "bench"
    case_of = request["record"].get("case_of", {})
    results = []
    for launch in launches:
        torch.manual_seed(request.get("seed", 0) + launch.index)
        try:
            kept = _kept_values(record, launch)
            result = _bench(launch, sides, request.get("bench", {}), torch, kept) if bench \
                else _check(launch, sides, torch, kept)
            results.append({**result, "case": case_of.get(str(launch.index), launch.index),
                            "launch": launch.index})
        except InputError as e:
            results.append({"case": launch.index, "label": launch.label(), "cross": None,
                            "sides": {PYTHON: {"ok": False, "reason": str(e)}}})
        except DeviceFault as fault:
            results.append({"case": launch.index, "label": launch.label(), "cross": None,
                            "sides": {fault.side: {"ok": False, "reason": fault.message}}})
            return {"status": "ok", "reason": f"{fault.side}: {fault.message}",
                    "results": results, "device": {"name": device.name}}
    return {"status": "ok", "reason": "", "results": results,
            "device": {"name": device.name, "capability": f"{device.major}.{device.minor}",
                       "torch": torch.__version__}}


def _kept_values(record: Record, launch) -> tuple[dict, dict] | None:
    try:
        return record.kept_values(launch)
    except WorkbenchError as e:
        raise InputError(f"{e.message}: {e.hint}") from None


def _sides(kernel, request: dict, torch) -> dict:
    import cuda.tile as ct
    folder = Path(request["folder"])
    python = load_kernel(kernel_source_file(kernel, folder), kernel.name)
    hinted: dict = {}

    def run_python(values: dict, launch, stream) -> None:
        key = tuple(sorted(launch.hints.items()))
        if key not in hinted:          # one kernel object per hint set, as the host made it
            hinted[key] = python.kernel.replace_hints(**launch.hints) if key else python.kernel
        args = [launch.consts[p] if p in python.const_params else values[p]
                for p in python.params]
        ct.launch(stream, launch.grid, hinted[key], tuple(args))
    sides = {PYTHON: run_python}
    if request.get("rust_library"):
        stub = recorded_stub(kernel, folder, Path(request["port"]))
        rust = rust_launcher(stub, request["rust_library"], torch)
        sides[RUST] = lambda values, launch, stream: rust(values, launch.consts, stream,
                                                          launch.grid, launch.hints)
    return sides


# -- inputs --------------------------------------------------------------------------------

def make_inputs(launch, torch, kept: tuple[dict, dict] | None = None) -> dict:
    """Parameter -> value for one launch: arrays made as the record describes them (strides
    and base offset too; arguments that were one buffer stay one), scalars as recorded; the
    inputs the record kept (record_data.py) hold the user's own values."""
    values = _made(launch, torch)
    for name, bits in (kept[0] if kept else {}).items():
        if hasattr(values.get(name), "copy_"):
            values[name].copy_(kept_tensor(bits, values[name].dtype, torch))
    return values


def kept_tensor(bits, dtype, torch):
    """A kept array (NumPy bits, record_data.py) as a GPU tensor of `dtype`."""
    tensor = torch.from_numpy(bits)
    return (tensor if tensor.dtype == dtype else tensor.view(dtype)).to("cuda")


def _made(launch, torch) -> dict:
    values, buffers = {}, {}
    for arg in launch.runtime:
        if arg.spec == NONE:
            values[arg.name] = None
            continue
        spec = arg.arg_spec()
        if not spec.is_array:
            values[arg.name] = spec.value
            continue
        key = (arg.buffer, str(spec))
        if arg.buffer and key in buffers:
            values[arg.name] = buffers[key]
            continue
        values[arg.name] = buffers[key] = _array(arg, spec, torch)
    return values


def _array(arg, spec, torch):
    if spec.dtype not in TORCH_DTYPES and spec.dtype != "bool":
        raise InputError(f"{arg.name}: the check cannot make {spec.dtype} inputs yet")
    dtype = torch.bool if spec.dtype == "bool" else getattr(torch, TORCH_DTYPES[spec.dtype])
    strides = spec.effective_strides()
    extent = spec.offset + sum((d - 1) * s for d, s in zip(spec.shape, strides)) + 1
    base = torch.empty(max(extent, 1), dtype=dtype, device="cuda")
    if arg.role == OUT:
        base.copy_(poison(base, torch))
    elif dtype.is_floating_point:
        base.copy_(torch.randn(base.shape, dtype=torch.float32, device="cuda") + 0.01)
    else:
        if arg.range is None:
            raise InputError(f"{arg.name} ({spec.dtype}) has no recorded value range: add "
                             f"\"range\": [low, high] to it in the record")
        low, high = int(arg.range[0]), int(arg.range[1])
        base.copy_(torch.randint(low, high + 1, base.shape, device="cuda").to(dtype))
    return base.as_strided(spec.shape, strides, spec.offset)


def poison(tensor, torch):
    """What an output holds before a launch: NaN, or the integer type's minimum."""
    if tensor.dtype.is_floating_point:
        return torch.full_like(tensor, float("nan"))
    if tensor.dtype == torch.bool:
        return torch.zeros_like(tensor)
    return torch.full_like(tensor, torch.iinfo(tensor.dtype).min)


def _copy(values: dict) -> dict:
    """The same arguments in fresh memory (views of one buffer stay views of one copy)."""
    copies, out = {}, {}
    for name, value in values.items():
        if not hasattr(value, "clone"):
            out[name] = value
            continue
        key = id(value)
        if key not in copies:
            copies[key] = value.clone()
        out[name] = copies[key]
    return out


# -- correctness ---------------------------------------------------------------------------

def _check(launch, sides: dict, torch, kept: tuple[dict, dict] | None) -> dict:
    pristine = make_inputs(launch, torch, kept)
    stream = torch.cuda.current_stream()
    ran, outcome = {}, {}
    for side, run in sides.items():
        values = _copy(pristine)
        failed = run_side(side, lambda: run(values, launch, stream), torch)
        outcome[side] = failed or {"ok": True}
        if not failed:
            ran[side] = values
    expected = {name: kept_tensor(bits, pristine[name].dtype, torch)
                for name, bits in (kept[1] if kept else {}).items()}
    if PYTHON in ran and expected:
        outcome[PYTHON] = compare_arrays(launch, ran[PYTHON], expected, torch)
        outcome[PYTHON]["note"] = AGAINST_RECORDED
    elif PYTHON in ran:
        outcome[PYTHON]["note"] = "the recorded kernel: the reference"
    if PYTHON in ran and RUST in ran:
        outcome[RUST] = compare_arrays(launch, ran[RUST], ran[PYTHON], torch)
    elif RUST in ran and expected:
        outcome[RUST] = compare_arrays(launch, ran[RUST], expected, torch)
    return {"case": launch.index, "label": launch.label(), "sides": outcome, "cross": None}


def compare_arrays(launch, got: dict, expected: dict, torch) -> dict:
    """Every array argument of `got` against `expected` (the user's kernel's)."""
    per_array = {}
    for arg in launch.runtime:
        value = expected.get(arg.name)
        if not hasattr(value, "dtype"):
            continue
        mine, theirs = got[arg.name], value
        if mine.dtype.is_floating_point:
            tolerance = arg.tolerance or DEFAULT_TOLERANCE.get(arg.arg_spec().dtype, 1e-5)
            per_array[arg.name] = compare(mine.double().cpu().numpy(),
                                          theirs.double().cpu().numpy(), tolerance).to_json()
        else:
            per_array[arg.name] = _exact(arg, mine, theirs, torch)
    failed = {n: c for n, c in per_array.items() if not c["ok"]}
    errors = [c["rel_error"] for c in per_array.values()]
    return {"ok": not failed, "rel_error": max((e for e in errors if e is not None), default=0.0)
            if all(e is not None for e in errors) else None,
            "outputs": per_array,
            "reason": "; ".join(f"{n}: {c['reason']}" for n, c in failed.items())}


def _exact(arg, mine, theirs, torch) -> dict:
    mismatched = int((mine != theirs).sum().item())
    sentinel = poison(mine, torch)
    unwritten = int(((mine == sentinel) & (theirs != sentinel)).sum().item()) \
        if arg.role in (OUT, INOUT) else 0
    reason = "" if not mismatched else (
        f"{unwritten} of {mine.numel()} elements never written" if unwritten else
        f"{mismatched} of {mine.numel()} elements differ (integers compare exactly)")
    return {"ok": not mismatched, "rel_error": 0.0 if not mismatched else None,
            "tolerance": 0.0, "unwritten": unwritten, "nonfinite": 0,
            "elements": mine.numel(), "reason": reason}


# -- performance ---------------------------------------------------------------------------

def _bench(launch, sides: dict, settings: dict, torch, kept: tuple[dict, dict] | None) -> dict:
    values = make_inputs(launch, torch, kept)
    stream = torch.cuda.current_stream()
    moved = sum(v.numel() * v.element_size() for v in values.values() if hasattr(v, "numel"))
    timed = time_sides({side: (lambda i, run=run: run(values, launch, stream))
                        for side, run in sides.items()}, settings, torch)
    return {"case": launch.index, "label": launch.label(), "sides": timed, "bytes": moved,
            "flops": None, "rotation": 1}
