"""The worker's side of an operator made of several launches (a TileGym family with a
`chain`): every side runs the whole chain, each step launched as the family's launch rule
says, on one set of the problem's tensors (a chain's intermediates are its `temp` tensors);
the check compares what the last launches leave in the operator's outputs with the float64
reference, the benchmark times the chain as one call (CUPTI sums its kernels).

Same request and response as family.py; one result per case, its entry named for the chain.
"""
from __future__ import annotations

import math

from .family import (RUST, TILEGYM, TORCH, DeviceFault, _entry_launchers, _label, _launch_json,
                     _reference, case_log, bind_args, make_tensors, traffic, with_options)
from .gpu import L2_FLUSH_BYTES, MAX_ROTATION, measure_ceilings, run_side, time_sides
from ..catalog import get_family
from ..tilegym_catalog import family_rules
from .compare import compare


def chain_label(family) -> str:
    return f"{family.name} (" + " -> ".join(op.kernel_name for op in family.steps) + ")"


def run_chain(request: dict, torch) -> dict:
    rules, family = family_rules(request["family"]), get_family(request["family"])
    device = torch.cuda.get_device_properties(0)
    torch.manual_seed(request.get("seed", 0))
    torch.cuda.set_stream(torch.cuda.Stream())
    sides = request.get("sides") or [RUST, TILEGYM, TORCH]
    launchers = {op.name: _entry_launchers(op, request, sides, torch) for op in family.steps}
    mode = request.get("mode", "check")
    results, benches = [], []
    for index in request["cases"]:
        launches = [rules.launch(op.name, index, device.multi_processor_count)
                    for op in family.steps]
        if any(launch is None for launch in launches):
            continue
        log = case_log(request, index, chain_label(family))
        try:
            if mode in ("check", "both"):
                results.append(_check(rules, family, index, launches, launchers, torch,
                                      lambda side: log("side", {"side": side})))
                log("check", results[-1])
            if mode in ("bench", "both"):
                benches.append(_bench(rules, family, index, launches, launchers,
                                      request.get("bench", {}), torch))
                log("bench", benches[-1])
        except DeviceFault as fault:
            results.append({"case": index, "entry": chain_label(family),
                            "label": _label(rules, index),
                            "sides": {fault.side: {"ok": False, "reason": fault.message}}})
            return {"status": "ok", "reason": f"{fault.side}: {fault.message}",
                    "results": results, "device": {"name": device.name}}
    response = {"status": "ok", "reason": "", "results": benches if mode == "bench" else results,
                "benches": benches,
                "device": {"name": device.name, "capability": f"{device.major}.{device.minor}",
                           "sms": device.multi_processor_count, "torch": torch.__version__}}
    if mode in ("bench", "both"):
        response["ceilings"] = measure_ceilings(torch)
    return response


def _run_side(family, side: str, launches, launchers, tensors: dict, stream, torch) -> None:
    """Every step of the chain on `tensors`, on one side (each step's own launcher)."""
    for op, launch in zip(family.steps, launches):
        step = launchers[op.name]
        values = bind_args(launch, tensors, step["params"], torch)
        step[side](values, launch, stream)


def _sides_present(launchers, family) -> list[str]:
    return [side for side in (RUST, TILEGYM)
            if all(side in launchers[op.name] for op in family.steps)]


def _check(rules, family, index, launches, launchers, torch,
           starting=lambda side: None) -> dict:
    problem = rules.problem(index)
    pristine = make_tensors(rules, problem, torch)
    expected = with_options(_reference(rules).reference, problem)(pristine, torch)
    tolerance = family.steps[-1].tolerance.get(problem.dtype, 1e-5)
    stream = torch.cuda.current_stream()
    sides = {}
    for side in _sides_present(launchers, family):
        tensors = {n: t.clone() for n, t in pristine.items()}
        starting(side)                  # a hang in one side's chain shows which one
        failed = run_side(side, lambda: _run_side(family, side, launches, launchers, tensors,
                                                  stream, torch), torch)
        if failed:
            sides[side] = failed
            continue
        per_output = {n: compare(tensors[n].double().cpu().numpy(),
                                 expected[n].double().cpu().numpy(), tolerance).to_json()
                      for n in problem.outputs()}
        errors = [c["rel_error"] for c in per_output.values()]
        sides[side] = {"ok": all(c["ok"] for c in per_output.values()),
                       "rel_error": max(errors) if None not in errors else None,
                       "outputs": per_output,
                       "reason": "; ".join(f"{n}: {c['reason']}" for n, c in per_output.items()
                                           if not c["ok"])}
    return {"case": index, "entry": chain_label(family), "label": _label(rules, index),
            "launch": [_launch_json(launch) for launch in launches], "sides": sides}


def _bench(rules, family, index, launches, launchers, settings: dict, torch) -> dict:
    problem = rules.problem(index)
    probe = make_tensors(rules, problem, torch)
    moved = traffic(problem, probe)
    copies = max(1, min(MAX_ROTATION, math.ceil(L2_FLUSH_BYTES / max(moved, 1))))
    sets = [probe] + [make_tensors(rules, problem, torch) for _ in range(copies - 1)]
    reference = _reference(rules)
    flops = with_options(reference.flops, problem)(probe) if hasattr(reference, "flops") else None
    stream = torch.cuda.current_stream()
    runs = {side: (lambda i, side=side: _run_side(family, side, launches, launchers,
                                                  sets[i % len(sets)], stream, torch))
            for side in _sides_present(launchers, family)}
    torch_op = getattr(reference, "torch_op", None)
    if torch_op is not None:
        torch_op = with_options(torch_op, problem)
        runs[TORCH] = lambda i: torch_op(sets[i % len(sets)], torch)
    sides = time_sides(runs, settings, torch)
    return {"case": index, "entry": chain_label(family), "label": _label(rules, index),
            "launch": [_launch_json(launch) for launch in launches], "tuned": [],
            "sides": sides, "bytes": moved, "flops": flops, "rotation": len(sets)}
