"""The worker's side of a TileGym family: every entry launched the way its launch rule says,
on three sides: the Rust port (C ABI), TileGym's own cuTile Python kernel (ct.launch with the
launcher's grid, constants and hints) and the PyTorch operation it stands for; and, where
TileGym ships one and it is asked for, a fourth: TileGym's own cutile-rs port (tilegym_rs.py).

Request (worker.py passes it here when it names a "family"):
  {"family": NAME, "entries": [entry, ...], "cases": [i, ...], "mode": "check" | "bench",
   "sides": ["rust", "tilegym", "torch", "tilegym_rs"], "rust_libraries": {entry: PATH}, "seed": N,
   "bench": {"warmup": N, "batches": N, "per_batch": N}, "progress": PATH (optional)}
Response: {"status", "reason", "device", "results": [one per case and entry], "ceilings"}
A result: {"case", "entry", "label", "launch": {grid, hints, consts}, "sides": {side: {...}}}
(check: each side's comparison with the float64 reference; bench: its device time).
"""
from __future__ import annotations

import json
import math
import time

from .gpu import (L2_FLUSH_BYTES, MAX_ROTATION, TORCH_DTYPES, DeviceFault, cupti_per_call,
                  measure_ceilings, run_side, time_sides)
from ..launchrules import INOUT, TEMP
from .tilegym_rs import SIDE as TILEGYM_RS, family_launcher, skipped
from ..catalog import get_family
from ..rust.ffi import rust_launcher
from ..sources.kernel import load_operator_kernel
from ..tilegym_catalog import family_rules, runtime_params
from .compare import compare

RUST, TILEGYM, TORCH = "rust", "tilegym", "torch"


def run_family(request: dict, torch) -> dict:
    rules, family = family_rules(request["family"]), get_family(request["family"])
    device = torch.cuda.get_device_properties(0)
    torch.manual_seed(request.get("seed", 0))
    torch.cuda.set_stream(torch.cuda.Stream())
    entries = [family.entry(e) for e in request.get("entries") or [o.name for o in family.entries]]
    sides = request.get("sides") or [RUST, TILEGYM, TORCH]
    launchers = {op.name: _entry_launchers(op, request, sides, torch) for op in entries}
    mode = request.get("mode", "check")      # check | bench | both (one compile for the two)
    bench = mode in ("bench", "both")
    results, benches = [], []
    for index in request["cases"]:
        for op in entries:
            launch = rules.launch(op.name, index, device.multi_processor_count)
            if launch is None:
                continue
            try:
                log = case_log(request, index, op.name)
                if mode in ("check", "both"):
                    results.append(_check(rules, op, index, launch, launchers[op.name], torch,
                                          lambda side: log("side", {"side": side})))
                    log("check", results[-1])
                if bench:
                    benches.append(_bench(rules, op, index, launch, launchers[op.name],
                                          request.get("bench", {}), torch))
                    log("bench", benches[-1])
            except DeviceFault as fault:
                results.append({"case": index, "entry": op.name, "label": _label(rules, index),
                                "sides": {fault.side: {"ok": False, "reason": fault.message}}})
                return {"status": "ok", "reason": f"{fault.side}: {fault.message}",
                        "results": results, "device": {"name": device.name}}
    if mode == "bench":
        results = benches
    response = {"status": "ok", "reason": "", "results": results, "benches": benches,
                "device": {"name": device.name, "capability": f"{device.major}.{device.minor}",
                           "sms": device.multi_processor_count, "torch": torch.__version__}}
    if bench:
        response["ceilings"] = measure_ceilings(torch)
    return response


def _progress(request: dict, kind: str, result: dict, started: float) -> None:
    """One JSON line per step of a case in the request's `progress` file (its start, each
    side's launch, its check and its bench results): a run cut short (a call's time limit
    kills the worker too) still shows each case it finished and where it was stuck."""
    path = request.get("progress")
    if path:
        line = {"kind": kind, "family": request.get("family"),
                "seconds": round(time.time() - started, 1), **result}
        with open(path, "a") as f:
            f.write(json.dumps(line, default=str) + "\n")


def case_log(request: dict, case: int, entry: str):
    """`log(kind, result)` for one case of the request: a progress line naming the case and
    entry, timed from now; the case's start is logged at once."""
    started = time.time()
    log = lambda kind, result=None: _progress(  # noqa: E731
        request, kind, {"case": case, "entry": entry, **(result or {})}, started)
    log("start")
    return log


def _label(rules, index: int) -> str:
    problem = rules.problem(index)
    shapes = " ".join(f"{n}={t.label()}" for n, t in problem.tensors.items()
                      if t.role not in ("out", "temp"))
    return f"case {index}: {shapes}"


# -- tensors -----------------------------------------------------------------------------

def make_tensors(rules, problem, torch) -> dict:
    """The problem's tensors on the GPU: inputs random (or as the family's `fill` says),
    outputs NaN-poisoned; a list of arrays is a Python list of tensors, one per item."""
    out = {}
    for name, t in problem.tensors.items():
        dtype = getattr(torch, TORCH_DTYPES[t.dtype])
        if t.is_list:
            out[name] = [_one_tensor(t.role, item.shape, dtype, torch) for item in t.items]
        elif t.role not in ("out", "temp") and t.fill != "randn" and hasattr(rules.module, "fill"):
            out[name] = rules.module.fill(t, problem, out, torch)
        else:
            out[name] = _one_tensor(t.role, t.shape, dtype, torch)
    return out


def _one_tensor(role: str, shape, dtype, torch):
    """An output NaN-poisoned (zeros for an integer type), an input randn + 0.01."""
    if role in ("out", "temp"):
        return torch.full(shape, float("nan"), dtype=dtype, device="cuda") \
            if dtype.is_floating_point else torch.zeros(shape, dtype=dtype, device="cuda")
    return (torch.randn(shape, dtype=torch.float32, device="cuda") + 0.01).to(dtype)


def clone(value):
    """A fresh copy of a problem tensor (each item of a list)."""
    return [t.clone() for t in value] if isinstance(value, list) else value.clone()


def flat(value, torch):
    """A problem tensor as one flat float64 tensor (a list's items concatenated, in order)."""
    items = value if isinstance(value, list) else [value]
    return torch.cat([t.double().flatten() for t in items])


def nbytes(value) -> int:
    items = value if isinstance(value, list) else [value]
    return sum(t.numel() * t.element_size() for t in items)


def traffic(problem, tensors: dict) -> int:
    """The bytes a case moves, the GB/s column's numerator: each input read once, each output
    written once, an in-place tensor twice (read, then written back: the copy ceiling counts
    a read and a write), and a chain's intermediates (`temp`) not at all."""
    return sum(nbytes(t) * {INOUT: 2, TEMP: 0}.get(problem[name].role, 1)
               for name, t in tensors.items())


def bind_args(launch, tensors: dict, params: list[str], torch) -> dict:
    """Kernel parameter -> value for one launch: views of the problem's tensors, scratch
    arrays (NaN-poisoned), scalars; constants are the launch's."""
    values = {}
    for param, bind in zip(runtime_params(params, launch), launch.args):
        spec = bind.spec
        if bind.source is not None and spec.is_list:
            values[param] = tensors[bind.source]
        elif bind.source is not None:
            values[param] = tensors[bind.source].view(spec.shape)
        elif spec.is_array:
            dtype = getattr(torch, TORCH_DTYPES[spec.dtype])
            values[param] = torch.full(spec.shape, float("nan"), dtype=dtype, device="cuda") \
                if dtype.is_floating_point else torch.zeros(spec.shape, dtype=dtype, device="cuda")
        else:
            values[param] = spec.value
    return values


# -- the three sides -------------------------------------------------------------------------

def _entry_launchers(op, request: dict, sides: list[str], torch) -> dict:
    kernel = load_operator_kernel(op)
    launchers = {}
    if TILEGYM in sides:
        launchers[TILEGYM] = _tilegym_launcher(kernel)
    if RUST in sides and request.get("rust_libraries", {}).get(op.name):
        rust = rust_launcher(op, request["rust_libraries"][op.name], torch)
        launchers[RUST] = lambda values, launch, stream: rust(values, launch.consts, stream,
                                                              launch.grid, launch.hints)
    if TILEGYM_RS in sides:      # a launcher, or why the side does not run (a string)
        launchers[TILEGYM_RS] = family_launcher(op.family, op.kernel_name)
    launchers["params"] = kernel.params
    return launchers


def _tilegym_launcher(kernel):
    import cuda.tile as ct
    hinted: dict = {}

    def launch(values: dict, launch, stream) -> None:
        key = tuple(sorted(launch.hints.items()))
        if key not in hinted:        # one hinted kernel object per hint set (its JIT cache)
            hinted[key] = kernel.kernel.replace_hints(**launch.hints) if launch.hints \
                else kernel.kernel
        args = [launch.consts[p] if p in launch.consts else values[p] for p in kernel.params]
        ct.launch(stream, launch.grid, hinted[key], tuple(args))
    return launch


def case_options(fn, problem) -> dict:
    """The case's options (eps, p, seed, ...) that a reference.py function names as
    parameters: `reference(t, torch, p=0.5, seed=0)` gets the case's p and seed; one that
    takes `options` gets them all as a dict; `reference(t, torch)` nothing."""
    import inspect
    names = inspect.signature(fn).parameters
    if "options" in names:
        return {"options": dict(problem.options)}
    return {k: v for k, v in problem.options.items() if k in names}


def with_options(fn, problem):
    """`fn` given the case's options it takes (case_options)."""
    import functools
    return functools.partial(fn, **case_options(fn, problem))


def _reference(rules):
    import importlib.util
    path = rules.folder / "reference.py"
    spec = importlib.util.spec_from_file_location(f"wb_tgref_{rules.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- correctness ---------------------------------------------------------------------------------

def _check(rules, op, index, launch, launchers, torch, starting=lambda side: None) -> dict:
    problem = rules.problem(index)
    pristine = make_tensors(rules, problem, torch)
    reference = _reference(rules)
    expected = reference.reference(pristine, torch, **case_options(reference.reference, problem))
    tolerance = op.tolerance.get(problem.dtype, 1e-5)
    stream = torch.cuda.current_stream()
    outputs = [n for n in problem.outputs() if any(b.source == n for b in launch.args)]
    sides = {}
    for side in (RUST, TILEGYM):
        if side not in launchers:
            continue
        tensors = {n: clone(t) for n, t in pristine.items()}     # in-place ops start fresh
        values = bind_args(launch, tensors, launchers["params"], torch)
        starting(side)                  # a hang in one side's launch shows which one
        failed = run_side(side, lambda: launchers[side](values, launch, stream), torch)
        sides[side] = failed or _compared(tensors, expected, outputs, tolerance, torch)
    if TILEGYM_RS in launchers:
        sides[TILEGYM_RS] = _check_tilegym_rs(
            launchers[TILEGYM_RS], pristine, launch, stream, torch, starting,
            lambda tensors: _compared(tensors, expected, outputs, tolerance, torch))
    return {"case": index, "entry": op.name, "label": _label(rules, index),
            "launch": _launch_json(launch), "sides": sides}


def _compared(tensors: dict, expected: dict, outputs: list[str], tolerance: float, torch) -> dict:
    """A side's outputs against the float64 reference: ok, the worst relative error, each
    output's comparison and the reasons of those that failed."""
    per_output = {n: compare(flat(tensors[n], torch).cpu().numpy(),
                             flat(expected[n], torch).cpu().numpy(), tolerance).to_json()
                  for n in outputs}
    return {"ok": all(c["ok"] for c in per_output.values()),
            "rel_error": max((c["rel_error"] or 0.0) for c in per_output.values())
            if all(c["rel_error"] is not None for c in per_output.values()) else None,
            "outputs": per_output,
            "reason": "; ".join(f"{n}: {c['reason']}" for n, c in per_output.items()
                                if not c["ok"])}


def _tilegym_rs_ready(launcher, tensors: dict, launch) -> tuple[dict | None, list[str]]:
    """(the side's skipped result, or None when it runs this launch; what it ignores)."""
    if isinstance(launcher, str):
        return skipped(launcher), []
    refusal = launcher.refusal(tensors, launch)
    return (skipped(refusal), []) if refusal else (None, launcher.plan(tensors, launch)[2])


def _check_tilegym_rs(launcher, pristine, launch, stream, torch, starting, compared) -> dict:
    """TileGym's cutile-rs port on the case's tensors (its own views of them), checked as the
    other sides are; a launch it cannot run is skipped with the reason."""
    refused, notes = _tilegym_rs_ready(launcher, pristine, launch)
    if refused:
        return refused
    tensors = {n: clone(t) for n, t in pristine.items()}
    starting(TILEGYM_RS)
    failed = run_side(TILEGYM_RS, lambda: launcher(tensors, launch, stream), torch)
    return failed or {**compared(tensors), **({"notes": notes} if notes else {})}


def _launch_json(launch) -> dict:
    return {"grid": list(launch.grid), "hints": dict(launch.hints),
            "consts": {k: v for k, v in launch.consts.items()}}


# -- performance -------------------------------------------------------------------------------

def _bench(rules, op, index, launch, launchers, settings: dict, torch) -> dict:
    problem = rules.problem(index)
    probe = make_tensors(rules, problem, torch)
    footprint = sum(nbytes(t) for t in probe.values())
    moved = traffic(problem, probe)
    copies = max(1, min(MAX_ROTATION, math.ceil(L2_FLUSH_BYTES / max(footprint, 1))))
    sets = [probe] + [make_tensors(rules, problem, torch) for _ in range(copies - 1)]
    reference = _reference(rules)
    flops = reference.flops(probe, **case_options(reference.flops, problem)) \
        if hasattr(reference, "flops") else None
    stream = torch.cuda.current_stream()
    # the autotuner's candidates only on the large case, the one the benchmark judges (each
    # candidate is a compile; the small cases run the launcher's untuned launch)
    large = index == len(rules.problems) - 1
    chosen, tried = _tune(launch, launchers, sets, torch, settings) if large else (launch, [])
    bound = [bind_args(chosen, s, launchers["params"], torch) for s in sets]
    runs, refused, notes = {}, {}, []
    for side in (RUST, TILEGYM):
        if side in launchers:
            runs[side] = (lambda i, side=side: launchers[side](bound[i % len(bound)], chosen,
                                                                stream))
    if TILEGYM_RS in launchers:
        launcher = launchers[TILEGYM_RS]
        why, notes = _tilegym_rs_ready(launcher, sets[0], chosen)
        if why:
            refused[TILEGYM_RS] = why
        else:
            runs[TILEGYM_RS] = lambda i: launcher(sets[i % len(sets)], chosen, stream)
    torch_op = getattr(reference, "torch_op", None)
    if torch_op is not None:
        options = case_options(torch_op, problem)
        runs[TORCH] = lambda i: torch_op(sets[i % len(sets)], torch, **options)
    sides = {**time_sides(runs, settings, torch), **refused}
    if notes and TILEGYM_RS in runs:
        sides[TILEGYM_RS] = {**sides[TILEGYM_RS], "notes": notes}
    return {"case": index, "entry": op.name, "label": _label(rules, index),
            "launch": _launch_json(chosen), "tuned": tried, "sides": sides,
            "bytes": moved, "flops": flops, "rotation": len(sets)}


def _tune(launch, launchers, sets, torch, settings) -> tuple:
    """The launcher's autotuning, done on the TileGym side: the fastest candidate (by CUPTI
    device time) is the launch every side is timed with."""
    if not launch.candidates or TILEGYM not in launchers:
        return launch, []
    stream = torch.cuda.current_stream()
    tried, best = [], (None, launch)
    for candidate in launch.candidates:
        values = bind_args(candidate, sets[0], launchers["params"], torch)
        try:
            us = cupti_per_call(lambda: launchers[TILEGYM](values, candidate, stream), torch)
        except Exception as e:  # a hint the compiler refuses is a result too
            tried.append({"hints": dict(candidate.hints), "error": f"{type(e).__name__}: {e}"[:200]})
            continue
        tried.append({"hints": dict(candidate.hints), "grid": list(candidate.grid), "us": us})
        if us is not None and (best[0] is None or us < best[0]):
            best = (us, candidate)
    return best[1], tried


