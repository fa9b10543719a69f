"""`workbench batch` with 1 and with 2 local workers over the same kernels: wall time,
speed-up, and where the time goes; then what a worker's cargo builds cost, cold and warm.

    .venv/bin/python bench/batch_bench.py [corpus|catalog ...] [--only GLOB]
        [--stages port,sass] [--workers 1,2] [--cold] [--no-build-cost]

Each configuration runs the real CLI in a batch folder of a new name (nothing reused, drafted
ports built anew) with its own cubin cache, so neither configuration profits from the
other's work (the catalog's ports, content-hashed, stay built). --cold also deletes the
workers' target-folder copies first, so the second worker pays for its copy.
Build cost: a drafted port (the corpus's transpose kernel, which the offline drafter ports)
built in a new worker's target folder (the copy from the checkout's folder, then one port
build), and then once more in that folder (a warm build).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "runs" / "batch-bench"
WORKBENCH = str(Path(sys.executable).parent / "workbench")
DRAFTED = "tilegym.ops.cutile.transpose:_transpose_kernel"


def run_config(selection: list[str], only: str | None, stages: str, jobs: int,
               cold: bool) -> dict:
    folder = _fresh(f"{jobs}-workers")
    if cold:
        shutil.rmtree(REPO / "kernels_src" / "target" / "workers", ignore_errors=True)
    cache = tempfile.mkdtemp(prefix="batch-bench-cache-")
    args = [WORKBENCH, "batch", *selection, "--stages", stages, "--no-gpu", "--jobs",
            str(jobs), "--out", str(folder), "--json"] + (["--only", only] if only else [])
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=3600,
                          env=dict(os.environ, WORKBENCH_CACHE=cache))
    wall = time.perf_counter() - start
    shutil.rmtree(cache, ignore_errors=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"workbench batch failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    report = json.loads(proc.stdout)
    per_stage: dict[str, float] = {}
    builds = 0.0
    for kernel in report["kernels"]:
        for stage, result in kernel["stages"].items():
            per_stage[stage] = per_stage.get(stage, 0) + result["seconds"]
            builds += _build_seconds(result.get("run"))
    return {"jobs": jobs, "wall": wall, "tasks": report["ran"], "per_stage": per_stage,
            "builds": builds, "kernels": len(report["kernels"])}


def _fresh(name: str) -> Path:
    """A batch folder never used before: a drafted port's library is content-hashed by its
    folder too, so reusing a folder name would reuse its build."""
    folder = OUT / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    shutil.rmtree(folder, ignore_errors=True)
    return folder


def _build_seconds(run: str | None) -> float:
    """cargo's share of a pipeline run (its build artifacts), 0 where there is none."""
    if not run:
        return 0.0
    folder = Path(run) if Path(run).is_absolute() else REPO / run
    total = 0.0
    for path in folder.glob("*-build.json"):
        total += json.loads(path.read_text()).get("seconds", 0)
    return total


def build_cost() -> list[tuple[str, float]]:
    """A new worker's first build (copy + port build), then a warm build in its folder."""
    slot = REPO / "kernels_src" / "target" / "workers" / "bench"
    shutil.rmtree(slot, ignore_errors=True)
    rows = []
    for label in ("first build in a new worker folder", "next build in that folder"):
        folder = _fresh(f"build-{len(rows)}")
        start = time.perf_counter()
        proc = subprocess.run([WORKBENCH, "batch", DRAFTED, "--stages", "port", "--no-gpu",
                               "--out", str(folder), "--json"], capture_output=True, text=True,
                              cwd=REPO, timeout=3600,
                              env=dict(os.environ, WORKBENCH_CARGO_TARGET_DIR=str(slot)))
        task = json.loads(proc.stdout)["kernels"][0]["stages"]["port"]
        rows.append((label, _build_seconds(task.get("run")), time.perf_counter() - start))
    note = slot / ".copied-from-checkout"
    copy = float(note.read_text().split()[0]) if note.exists() else 0.0
    shutil.rmtree(slot, ignore_errors=True)
    return [(f"{rows[0][0]} (of it: the copy {copy:.1f} s)", rows[0][1], rows[0][2]),
            (rows[1][0], rows[1][1], rows[1][2])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("selection", nargs="*", default=["corpus"])
    parser.add_argument("--only")
    parser.add_argument("--stages", default="port,sass")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--no-build-cost", action="store_true")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    configs = [run_config(args.selection, args.only, args.stages, int(n), args.cold)
               for n in args.workers.split(",")]
    load = (load, os.getloadavg()[0])
    base = configs[0]["wall"]
    print(f"workbench batch {' '.join(args.selection)}"
          + (f" --only {args.only}" if args.only else "")
          + f" --stages {args.stages}  ({os.cpu_count()} cores, {configs[0]['kernels']} kernels; "
          f"load average {load[0]:.1f} before, {load[1]:.1f} after: other processes share "
          f"the cores)")
    print(f"{'workers':>7} {'tasks':>5} {'wall s':>7} {'speed-up':>8} {'task s':>7} "
          f"{'cargo s':>7}  task seconds per stage")
    for c in configs:
        stages = ", ".join(f"{s} {t:.1f}" for s, t in c["per_stage"].items())
        print(f"{c['jobs']:>7} {c['tasks']:>5} {c['wall']:7.1f} {base / c['wall']:8.2f} "
              f"{sum(c['per_stage'].values()):7.1f} {c['builds']:7.1f}  {stages}")
    print("wall = the whole command (cluster start included); task s = the tasks' own time, "
          "added up; cargo s = its cargo builds")
    if not args.no_build_cost:
        print("\ncargo builds per worker (one drafted port):")
        for label, cargo, wall in build_cost():
            print(f"  {label:55} cargo {cargo:6.1f} s   whole batch {wall:6.1f} s")


if __name__ == "__main__":
    main()
