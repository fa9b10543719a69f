"""GPU check of a port whose original is a Triton kernel: the Rust port (and the derived
cuTile Python kernel) against the Triton kernel itself, on the same inputs: correctness
(relative error against the Triton kernel's output) and time (CUPTI and CUDA events; parity
is Triton time / Rust time).

    response = check_triton_port(target, derived_op)             # parent: builds, spawns
    python -m workbench.check.triton_side < request.json           # the worker

Request: {"target": TritonTarget.to_json(), "derived": {...the derived Operator...},
          "rust_library": PATH | null, "mode": "check" | "bench", "seed": N}
Response: the check worker's shape (worker.py): per case, sides "triton", "derived",
"rust", each {"ok", "rel_error", ...} against the Triton output, and in bench mode
"median_us" / "cupti_us" per side and "parity".
"""
from __future__ import annotations

import json
import math
import sys
from ..argspec import parse_arg
from ..operators import Case, Operator, REPO_ROOT
from ..rust.cargo import build, has_port
from ..tools import run_tool
from ..translate.targets import TritonTarget
from .compare import compare
from .gpu import time_sides
from .runner import CheckResponse, has_cuda_driver, parse_worker_output
from .triton_launch import case_tolerance, launchers, make_inputs
from .worker import serve

SIDES = ("triton", "derived", "rust")


def check_triton_port(target, op, mode: str = "check", library: str | None = None):
    if not has_cuda_driver():
        return CheckResponse("skipped", "no CUDA device")
    if library is None and has_port(op):
        result = build(op)
        if not result.ok:
            return CheckResponse("fail", result.summary().splitlines()[0])
        library = str(result.library)
    return run_request(request(target, op, library, mode), parse_worker_output)


def request(target, op, library, mode: str) -> dict:
    return {"target": target.to_json(), "derived": operator_json(op), "rust_library": library,
            "mode": mode, "seed": 0}


def run_request(req: dict, parse):
    proc = run_tool([sys.executable, "-m", "workbench.check.triton_side"],
                    input=json.dumps(req), text=True, timeout=900, cwd=REPO_ROOT, check=False,
                    name="triton check worker")
    return parse(proc.returncode, proc.stdout, proc.stderr)


def operator_json(op) -> dict:
    return {"name": op.name, "kernel_name": op.kernel_name, "kernel_file": str(op.kernel_file),
            "port": str(op.port_folder), "folder": str(op.folder),
            "outputs": list(op.outputs), "tolerance": op.tolerance,
            "cases": [{"args": [str(a) for a in c.args], "consts": c.consts} for c in op.cases]}


def operator_from_json(raw: dict):
    from pathlib import Path
    cases = tuple(Case(i, tuple(parse_arg(a) for a in c["args"]), dict(c["consts"]))
                  for i, c in enumerate(raw["cases"]))
    return Operator(name=raw["name"], summary=raw["name"], kernel_name=raw["kernel_name"],
                    outputs=tuple(raw["outputs"]), tolerance=dict(raw["tolerance"]),
                    cases=cases, folder=Path(raw["folder"]), kernel_path=Path(raw["kernel_file"]),
                    port_path=Path(raw["port"]))


# -- the worker ----------------------------------------------------------------------------

def main() -> int:
    return serve(_run)


def _run(req: dict, torch) -> dict:
    target = TritonTarget.from_json(req["target"])
    op = operator_from_json(req["derived"])
    torch.manual_seed(req.get("seed", 0))
    torch.cuda.set_stream(torch.cuda.Stream())
    sides = launchers(target, op, req.get("rust_library"), torch)
    results = []
    for case in target.cases:
        if req.get("mode") == "bench":
            results.append(_bench_case(target, op, case, sides, torch))
        else:
            results.append(_check_case(target, op, case, sides, torch))
    device = torch.cuda.get_device_properties(0)
    import triton
    return {"status": "ok", "reason": "", "results": results,
            "device": {"name": device.name, "torch": torch.__version__,
                       "triton": triton.__version__}}


def _check_case(target, op, case, sides, torch) -> dict:
    tolerance = case_tolerance(target, case, op.tolerance)
    base = make_inputs(target, case, torch)
    # outputs unknown (a kernel named by file): every array is compared after the run
    names = list(target.outputs) or [n for n, v in base.items() if torch.is_tensor(v)]
    outputs, results = {}, {}
    for side, launch in sides.items():
        if launch is None:
            continue
        values = {k: (v.clone() if torch.is_tensor(v) else v) for k, v in base.items()}
        try:
            launch(values, case)
            torch.cuda.synchronize()
        except Exception as e:
            results[side] = {"ok": False, "reason": f"{type(e).__name__}: {e}"[:500]}
            continue
        outputs[side] = {o: values[o].double().cpu().numpy() for o in names}
    reference = outputs.get("triton")
    for side, out in outputs.items():
        if reference is None:
            results[side] = {"ok": False, "reason": "the Triton kernel did not run"}
            continue
        per = {o: compare(out[o], reference[o], tolerance).to_json() for o in names}
        worst = max(per.values(), key=lambda c: c.get("rel_error") or 0)
        results[side] = {**worst, "ok": all(c["ok"] for c in per.values()), "outputs": per}
    return {"case": case.index, "label": case.label(), "sides": results, "cross": None,
            "reference": "triton"}


def _bench_case(target, op, case, sides, torch) -> dict:
    base = make_inputs(target, case, torch)
    runs = {}
    for side, launch in sides.items():
        if launch is not None:
            values = {k: (v.clone() if torch.is_tensor(v) else v) for k, v in base.items()}
            runs[side] = lambda i, launch=launch, values=values: launch(values, case)
    out = time_sides(runs, {}, torch)
    triton_t = out.get("triton", {}).get("cupti_us")
    for side in ("derived", "rust"):
        t = out.get(side, {}).get("cupti_us")
        if triton_t and t:
            out[side]["parity"] = triton_t / t
    return {"case": case.index, "label": case.label(), "sides": out}


def parity_ok(parity: float | None, target: float = 0.95) -> bool:
    return parity is not None and not math.isnan(parity) and parity >= target


if __name__ == "__main__":
    sys.exit(main())
