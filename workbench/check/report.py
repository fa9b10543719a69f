"""Checks and benchmarks as a user asks for them, and their tables."""
from __future__ import annotations

from ..rust.cargo import build, has_port
from ..catalog import Operator, get_operator, load_catalog
from ..errors import WorkbenchError
from .compare import AGAINST_RECORDED, geomean
from .runner import CheckResponse, has_cuda_driver, run_worker
from ..ownership.owner import Ownership, UNDETERMINED, classify, failed_cases

PARITY_TARGET = 0.95


def worker_request(op, cases, sides, seed, mode="check") -> dict:
    """The check worker's request for an operator's cases (the port built here first)."""
    request = {"op": op.name, "port": str(op.port_folder), "cases": cases, "sides": sides,
               "seed": seed, "mode": mode, "rust_library": None}
    if op.record is not None and op.language == "cutile":   # against the recorded kernel
        launches = [i for i in op.record["launches"] if op.record["case_of"][str(i)] in cases]
        request.update(record={**op.record, "launches": launches}, folder=str(op.folder))
    if "rust" in sides:
        if not has_port(op):
            request["sides"] = [s for s in sides if s != "rust"]
        else:
            result = build(op)          # built here, loaded there: the worker never runs cargo
            if not result.ok:
                # never check the last good build in place of the sources the user has
                raise WorkbenchError(result.summary(), "fix the port, then check again")
            request["rust_library"] = str(result.library)
    return request


GPU, CPU, ANY = "gpu", "cpu", "any"


def check_operator(op: Operator | str, cases=None, sides=("python", "rust"),
                   seed=0, on: str = GPU) -> CheckResponse:
    """Check one operator's port (a catalog name, or an Operator whose port lives elsewhere)
    against the reference (a recorded kernel: the user's own kernel). on: `gpu` (skipped
    where there is none), `cpu` (the Tile IR interpreter, check/cpu.py) or `any` (the GPU
    where there is one, else the CPU; the response's device says which ran). A failed case
    names its owner (ownership/owner.py) either way."""
    op = get_operator(op) if isinstance(op, str) else op
    cases = cases if cases is not None else [c.index for c in op.cases]
    if on == CPU or (on == ANY and not has_cuda_driver()):
        from .cpu import check_on_cpu        # the interpreter (ml_dtypes: 0.9 s to import)
        response = check_on_cpu(op, cases, sides, seed)
    elif not has_cuda_driver():
        return CheckResponse("skipped", "no CUDA device (add --cpu to run both sides' Tile "
                             "IR on the CPU, in the interpreter)")
    else:
        response = run_worker(worker_request(op, cases, list(sides), seed))
    if response.status == "fail" and "rust" in sides:
        response.owners = owners_of(op, response, cases)
    return response


def owners_of(op: Operator, response: CheckResponse, cases: list[int]) -> list[dict]:
    """The owner of each failed case, from the diff, the SASS and the recorded launches."""
    owners = []
    for case, failure, result in failed_cases(response, cases):
        try:
            owners.append(classify(op, case, failure, result,
                                   on_cpu=response.device.get("kind") == "cpu").to_json())
        except WorkbenchError as e:     # no IR or no SASS to judge with: say so, go on
            owners.append(Ownership(op.name, case, failure, UNDETERMINED,
                                    f"no evidence: {str(e).splitlines()[0]}").to_json())
    return owners


def check_headline(name: str, response: CheckResponse) -> str:
    """`softmax: OK`, `softmax: FAIL (reason)` or `softmax: skipped: reason`."""
    where = " (on the CPU: the Tile IR interpreter)" if response.device.get("kind") == "cpu" \
        else ""
    if response.status == "skipped":
        return f"{name}: skipped{where}: {response.reason}"
    return f"{name}: {response.status.upper()}{where}" + \
        (f" ({response.reason})" if response.reason else "")


def side_cells(result: dict) -> list[str]:
    """One cell per side of a case: `rust ok rel.err 1.2e-07` or `rust FAIL [reason]`."""
    cells = []
    for side, outcome in result["sides"].items():
        err = outcome.get("rel_error")
        if outcome.get("skipped"):
            cells.append(f"{side} skipped [{outcome.get('reason', '')}]")
            continue
        cells.append(f"{side} {'ok' if outcome.get('ok') else 'FAIL'}"
                     + (f" rel.err {err:.2e}" if err is not None else "")
                     + (" (vs its recorded output)" if outcome.get("note") == AGAINST_RECORDED
                        else "")
                     + ("" if outcome.get("ok") else f" [{outcome.get('reason', '')}]"))
    return cells


def format_check(name: str, response: CheckResponse) -> str:
    if response.status == "skipped":
        return check_headline(name, response)
    lines = [check_headline(name, response)]
    hosts = {side.get("host") for r in response.results for side in r["sides"].values()}
    lines += [f"  rust side: {note}" for note in sorted(hosts - {None})]
    for result in response.results:
        cells = side_cells(result)
        if result.get("cross"):
            error = result["cross"].get("rel_error")       # None: a side gave no values
            cells.append(f"rust-vs-python {error:.2e}" if error is not None
                         else "rust-vs-python -")
        tuned = result.get("tuned")
        if tuned:
            cells.append("rust launched as tuned.toml says: " + " ".join(
                f"{k}={v}" for k, v in {**tuned["consts"], **tuned["hints"]}.items()))
        lines.append(f"  {result['label']}: " + "; ".join(cells))
    for owner in response.owners:
        lines.append(f"  owner of case {owner['case']} ({owner['failure']}): {owner['owner']}: "
                     f"{owner['summary']}")
        lines += [f"      {line}" for line in owner.get("evidence", [])[:8]]
    return "\n".join(lines)


def bench_operators(ops: list[Operator | str]) -> dict:
    """Time both sides of every case (names, or Operators whose port lives elsewhere; none:
    every catalog operator with a port)."""
    ops = [get_operator(o) if isinstance(o, str) else o for o in ops] or \
        [o for o in load_catalog().values() if has_port(o)]
    if not has_cuda_driver():
        return {"status": "skipped", "reason": "no CUDA device"}
    rows, ceilings, device, status = [], {}, {}, "ok"
    try:
        from tqdm import tqdm
        ops_iter = tqdm(ops, desc="bench", unit="op")
    except ImportError:
        ops_iter = ops
    for op in ops_iter:
        response = run_worker(worker_request(op, [c.index for c in op.cases], ["python", "rust"], 0,
                                       mode="bench"))
        if response.status not in ("ok",):
            status = "fail"
            rows.append({"op": op.name, "error": response.reason})
            continue
        ceilings, device = response.ceilings or ceilings, response.device or device
        for result in response.results:
            python, rust = result["sides"].get("python", {}), result["sides"].get("rust", {})
            parity, clock = _parity(python, rust)
            rows.append({"op": op.name, "case": result["label"], "index": result["case"],
                         "python": python, "rust": rust,
                         "parity": parity, "clock": clock, "bytes": result["bytes"],
                         "flops": result["flops"]})
    per_op = {}
    for row in rows:
        if row.get("parity"):
            per_op.setdefault(row["op"], []).append(row["parity"])
    geomeans = {op: geomean(v) for op, v in per_op.items()}
    overall = geomean([p for v in per_op.values() for p in v])
    return {"status": status, "device": device, "ceilings": ceilings, "rows": rows,
            "parity_geomean": geomeans, "parity_overall": overall}


def triton_bench_report(response: CheckResponse, name: str = "") -> dict:
    """bench_operators' report of a Triton port's timing (check_triton_port, mode bench): the
    Triton kernel is the reference side, in the rows' "python" place, named by "reference"."""
    if response.status == "skipped":
        return {"status": "skipped", "reason": response.reason}
    report = {"status": "fail", "device": response.device, "ceilings": response.ceilings,
              "rows": [], "parity_geomean": {}, "parity_overall": None,
              "reference": "Triton kernel"}
    if response.status != "ok":
        report["rows"].append({"op": name or "the Triton bench", "error": response.reason})
        return report
    for result in response.results:
        triton, rust = result["sides"].get("triton", {}), result["sides"].get("rust", {})
        parity, clock = _parity(triton, rust)
        report["rows"].append({"op": name, "case": result.get("label", ""),
                               "index": result["case"], "python": triton, "rust": rust,
                               "parity": parity, "clock": clock, "bytes": 0, "flops": 0})
    parities = [row["parity"] for row in report["rows"] if row["parity"]]
    if parities:
        report["parity_overall"] = geomean(parities)
        report["parity_geomean"] = {name: report["parity_overall"]}
    report["status"] = "ok" if len(parities) == len(report["rows"]) else "fail"
    return report


def _parity(python: dict, rust: dict) -> tuple[float | None, str]:
    """time(Python kernel) / time(Rust port). Kernel device time from CUPTI where both
    sides have it: CUDA events around launches also count the GPU waiting for a host that
    is slower to launch than the kernel is to run."""
    if not (python.get("ok") and rust.get("ok")):
        return None, ""
    if python.get("cupti_us") and rust.get("cupti_us"):
        return python["cupti_us"] / rust["cupti_us"], "cupti"
    return python["median_us"] / rust["median_us"], "events"


def format_bench(report: dict) -> str:
    lines = [f"device: {report['device'].get('name')}   copy ceiling "
             f"{report['ceilings'].get('copy_gbps', 0):.0f} GB/s   bf16 ceiling "
             f"{report['ceilings'].get('bf16_tflops', 0):.0f} TFLOP/s",
             f"{'operator / case':58} {'py events':>10} {'rs events':>10} {'py cupti':>9} "
             f"{'rs cupti':>9} {'parity':>7} {'GB/s':>7} {'%copy':>6} {'TF/s':>6}"]
    copy = report["ceilings"].get("copy_gbps") or 0
    for row in report["rows"]:
        if "error" in row:
            lines.append(f"{row['op']:58} ERROR {row['error']}")
            continue
        py, rs = row["python"], row["rust"]
        kernel_us = rs.get("cupti_us") or rs.get("median_us") or 0
        gbps = row["bytes"] / (kernel_us * 1e-6) / 1e9 if kernel_us else 0
        tflops = (row["flops"] or 0) / (kernel_us * 1e-6) / 1e12 if kernel_us else 0
        lines.append(f"{row['op'] + ' ' + row['case']:58.58} {py.get('median_us', 0):10.2f} "
                     f"{rs.get('median_us', 0):10.2f} {py.get('cupti_us') or 0:9.2f} "
                     f"{rs.get('cupti_us') or 0:9.2f} {row['parity'] or 0:7.3f} {gbps:7.0f} "
                     f"{100 * gbps / copy if copy else 0:5.0f}% {tflops:6.1f}")
    for op, value in report["parity_geomean"].items():
        lines.append(f"parity geomean {op}: {value:.3f}"
                     + ("" if value >= PARITY_TARGET else f"  (below {PARITY_TARGET})"))
    if report["parity_overall"]:
        lines.append(f"parity geomean overall: {report['parity_overall']:.3f}")
    return "\n".join(lines)


def write_bench_html(report: dict, path: str) -> None:
    import html
    from pathlib import Path
    out = Path(path)
    png = out.with_suffix(".png")
    _parity_chart(report, png)
    table = html.escape(format_bench(report))
    out.write_text(f"<!doctype html><meta charset='utf-8'><title>workbench bench</title>"
                   f"<h1>Parity: Python kernel time / Rust port time</h1>"
                   f"<img src='{png.name}' alt='parity per operator'><pre>{table}</pre>")


def _parity_chart(report: dict, png) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ops = list(report["parity_geomean"])
    values = [report["parity_geomean"][o] for o in ops]
    fig, ax = plt.subplots(figsize=(max(4, len(ops) * 1.2), 3))
    ax.bar(ops, values, color=["#2e7d32" if v >= PARITY_TARGET else "#c62828" for v in values])
    ax.axhline(PARITY_TARGET, color="black", linestyle="--", linewidth=1, label="0.95")
    ax.set_ylabel("parity (geomean)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)
