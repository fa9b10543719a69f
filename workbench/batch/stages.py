"""The batch's stage tasks, run on the engine's workers. Each takes (kind, ref, root, slug),
calls the workbench's own stages, never raises, and returns plain data:

    {"verdict": ..., "summary": one line, "data": {...}, "run": folder or None,
     "downstream": whether the stages after it can run}

port:  catalog operator: build its port and diff the IR of every case (the pipeline's own
       build and ir_diff stages, in a run folder); corpus entry: `workbench corpus`'s
       run_entry; other target: the drafting pipeline with the offline drafter.
sass:  sm_90 SASS summary of both sides, every case (CPU: tileiras runs here).
check: correctness on the GPU (a check worker process per request, as `workbench check`).
bench: device time and parity on the GPU (as `workbench bench`).
"""
from __future__ import annotations

import functools
import os
import time
from pathlib import Path

from ..operators import REPO_ROOT, display_path
from ..errors import WorkbenchError
from . import builds
from ..catalog import get_operator
from ..check.report import bench_operators, check_operator
from ..check.runner import has_cuda_driver
from ..corpus.run import classify, crash_reason, run_entry
from ..ownership.pairs import side_bytecode
from ..port.artifacts import read_artifacts
from ..port.pipeline import run_pipeline, verify_port
from ..port.recorded import record_operator
from ..resolve import resolve_target
from ..rust.cargo import has_port
from ..sass.stages import sass_of

GOOD = ("PASS", "PASS_WITH_NOTES")


def _guarded(fn):
    """A stage that crashes is that stage's ERROR, with file:line of the crash."""
    def wrapper(kind: str, ref: str, root: str, slug: str) -> dict:
        start = time.perf_counter()
        if fn.__name__ in ("port_stage", "sass_stage"):
            builds.take_slot()              # a CPU worker's own cargo target folder
        try:
            result = fn(kind, ref, Path(root), slug)
        except WorkbenchError as e:
            result = {"verdict": "ERROR", "summary": str(e).splitlines()[0], "data": {}}
        except Exception as e:              # noqa: BLE001 - a crash is this stage's row
            result = {"verdict": "ERROR", "summary": crash_reason(e), "data": {}}
        result.setdefault("run", None)
        result.setdefault("downstream", result["verdict"] not in ("ERROR", "UNSUPPORTED"))
        result["seconds"] = time.perf_counter() - start
        result["pid"] = os.getpid()
        return result
    return functools.wraps(fn)(wrapper)


def _operator(kind: str, ref: str, root: Path, slug: str):
    if kind == "catalog":
        return get_operator(ref)
    if kind == "record":                 # REC.json#LAUNCH: the kernel that launch ran
        path, _, launch = ref.rpartition("#")
        return record_operator(path, int(launch), out=root / "ports" / slug)
    return resolve_target(ref, out=root / "ports" / slug)


def _shown(folder: Path) -> str:
    return display_path(folder) if folder.is_relative_to(REPO_ROOT) else str(folder)


# -- port ----------------------------------------------------------------------------------

@_guarded
def port_stage(kind: str, ref: str, root: Path, slug: str) -> dict:
    if kind == "corpus":
        entry = run_entry(ref, root)
        return {"verdict": entry.verdict, "summary": (entry.reasons or [""])[0],
                "data": {"entry": entry.to_json(), "built": _built(entry.run)},
                "run": entry.run, "downstream": _built(entry.run)}
    if kind == "catalog":
        return _catalog_port(_operator(kind, ref, root, slug), root / "runs")
    op = _operator(kind, ref, root, slug)
    result = run_pipeline(op, "rules", out=op.port_folder, runs_dir=root / "runs")
    verdict, reasons = classify(result.verdict, result.artifacts)
    built = any(a.stage == "build" and a.verdict == "BUILT" for a in result.artifacts)
    return {"verdict": verdict, "summary": (reasons or [""])[0],
            "data": {"reasons": reasons, "built": built}, "run": _shown(result.folder),
            "downstream": built}



def _catalog_port(op, runs: Path) -> dict:
    """The catalog's port as it is: the pipeline's build and IR diff, no drafting."""
    if not has_port(op):
        return {"verdict": "UNSUPPORTED", "summary": f"{op.name} has no Rust port",
                "data": {"built": False}, "downstream": False}
    result = verify_port(op, runs)
    stages = {a.stage: a for a in result.artifacts}
    build, diff = stages["build"], stages.get("ir_diff")
    built = build.verdict == "BUILT"
    summary = diff.summary if diff else build.summary
    return {"verdict": result.verdict, "summary": summary, "run": _shown(result.folder),
            "data": {"built": built, "build": build.summary,
                     "cases": [{"case": c["case"], "verdict": c["verdict"]}
                               for c in (diff.data["cases"] if diff else [])]},
            "downstream": built}


def _built(run: str | None) -> bool:
    if not run:
        return False
    folder = Path(run) if Path(run).is_absolute() else REPO_ROOT / run
    return any(a.stage == "build" and a.verdict == "BUILT" for a in read_artifacts(folder))


# -- sass ----------------------------------------------------------------------------------

@_guarded
def sass_stage(kind: str, ref: str, root: Path, slug: str) -> dict:
    op = _operator(kind, ref, root, slug)
    cases, differing = [], 0
    for case in op.cases:
        sides = {side: sass_of(side_bytecode(op, side, case.index)).summary
                 for side in ("python", "rust")}
        rows = zip(sides["python"].lines(), sides["rust"].lines())
        differs = [a.split(": ", 1)[0] for a, b in rows if a != b]
        differing += bool(differs)
        cases.append({"case": case.index, "differs": differs,
                      **{side: summary.to_json() for side, summary in sides.items()}})
    verdict = "DIFFERENT" if differing else "SAME"
    summary = (f"{differing} of {len(cases)} cases differ: " + ", ".join(
        sorted({d for c in cases for d in c["differs"]})) if differing else
        f"same SASS summary in all {len(cases)} cases")
    return {"verdict": verdict, "summary": summary, "data": {"cases": cases}}



# -- GPU -----------------------------------------------------------------------------------

def _no_gpu() -> dict | None:
    if has_cuda_driver():
        return None
    return {"verdict": "NO_GPU", "summary": "libcuda.so.1 does not load there", "data": {},
            "downstream": False}


@_guarded
def check_stage(kind: str, ref: str, root: Path, slug: str) -> dict:
    no_gpu = _no_gpu()
    if no_gpu:
        return no_gpu
    response = check_operator(_operator(kind, ref, root, slug))
    verdict = {"ok": "PASS", "skipped": "SKIPPED"}.get(response.status, "FAIL")
    return {"verdict": verdict, "summary": response.reason or response.status,
            "data": response.to_json()}



@_guarded
def bench_stage(kind: str, ref: str, root: Path, slug: str) -> dict:
    no_gpu = _no_gpu()
    if no_gpu:
        return no_gpu
    report = bench_operators([_operator(kind, ref, root, slug)])
    if report["status"] == "skipped":
        return {"verdict": "SKIPPED", "summary": report["reason"], "data": report}
    parity = next(iter(report["parity_geomean"].values()), None)
    errors = [r["error"] for r in report["rows"] if "error" in r]
    summary = (f"parity {parity:.3f}" if parity else "no parity") + (
        f"; {errors[0]}" if errors else "")
    return {"verdict": "OK" if report["status"] == "ok" else "FAIL", "summary": summary,
            "data": report}

