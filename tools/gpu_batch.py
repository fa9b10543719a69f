"""The `batch` step of tools/gpu_session.py: `workbench batch` over the whole catalog on the
GPU machine (port, GPU check and bench tasks on a local dask cluster: CPU workers and one GPU
worker), then a plain `workbench bench` of the same operators in the same run, and their
parity side by side.

Writes into $OUT: batch.json (the batch's report, the plain bench, the comparison),
batch_report.html and parity.svg (the batch's page). Needs dask there: tools/gpu_run.sh
unpacks .gpu-batch/ (made here by tools/pack_batch.sh: dask and tileirdisasm) when it is
carried. Without tileirdisasm the port stage (its IR diff) is left out.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import sys
import time
from pathlib import Path

NOISE = 0.10            # parity of one case measured twice: within 10% counts as the same


def batch(out: Path) -> None:
    from workbench.check.report import bench_operators, format_bench
    from workbench.cli import main
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / "workbench-batch"
    shutil.rmtree(folder, ignore_errors=True)
    only = os.environ.get("BATCH_ONLY")
    from workbench.tools import nvidia_bin_dir
    stages = "port,check,bench" if (nvidia_bin_dir() / "tileirdisasm").exists() else "check,bench"
    print(f"workbench batch catalog --stages {stages}", flush=True)
    args = ["batch", "catalog", "--stages", stages, "--gpu", "--jobs",
            os.environ.get("BATCH_JOBS", "4"), "--out", str(folder)] + (
        ["--only", only] if only else [])
    start = time.time()
    code = main(args)
    batch_seconds = time.time() - start
    if not (folder / "report.json").exists():
        (out / "batch.json").write_text(json.dumps({"exit_code": code, "error": "no report"}))
        print(f"workbench batch exited {code} without a report", flush=True)
        return
    report = json.loads((folder / "report.json").read_text())
    ops = [k["name"] for k in report["kernels"] if "bench" in k["stages"]]
    start = time.time()
    plain = bench_operators(ops)
    bench_seconds = time.time() - start
    print(format_bench(plain), flush=True)
    rows = compare(report, plain)
    print_comparison(rows)
    (out / "batch.json").write_text(json.dumps(
        {"exit_code": code, "batch_seconds": batch_seconds, "bench_seconds": bench_seconds,
         "noise": NOISE, "comparison": rows, "batch": report, "bench": plain},
        indent=1, default=str))
    for name, target in (("report.html", "batch_report.html"), ("parity.svg", "parity.svg")):
        if (folder / name).exists():
            shutil.copyfile(folder / name, out / target)


def compare(report: dict, plain: dict) -> list[dict]:
    """One row per (operator, case): the batch's parity, the plain bench's, their ratio."""
    theirs = {(r["op"], r["case"]): r.get("parity") for r in plain.get("rows", []) if "case" in r}
    rows = []
    for kernel in report["kernels"]:
        for case in kernel["parity_cases"]:
            other = theirs.get((kernel["name"], case["case"]))
            ratio = case["parity"] / other if case["parity"] and other else None
            rows.append({"op": kernel["name"], "case": case["case"], "batch": case["parity"],
                         "bench": other, "ratio": ratio,
                         "within_noise": ratio is not None and abs(math.log(ratio)) <= math.log(1 + NOISE)})
    return rows


def print_comparison(rows: list[dict]) -> None:
    print(f"\n{'operator / case':58} {'batch':>7} {'bench':>7} {'ratio':>6}")
    for r in rows:
        cells = [f"{v:7.3f}" if v else "      -" for v in (r["batch"], r["bench"])]
        ratio = f"{r['ratio']:6.3f}" if r["ratio"] else "     -"
        print(f"{(r['op'] + ' ' + r['case'])[:58]:58} {cells[0]} {cells[1]} {ratio}"
              + ("" if r["within_noise"] else "   <-- outside noise"))
    same = sum(r["within_noise"] for r in rows)
    print(f"batch parity vs plain bench: {same}/{len(rows)} cases within {NOISE:.0%}", flush=True)


if __name__ == "__main__":
    batch(Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", "gpu-out")))
