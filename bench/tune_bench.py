"""Tuned ports against their references and PyTorch, on a GPU, in one run per operator.

    python bench/tune_bench.py [OP ...] [--json FILE]

For each own catalog operator's largest case: the reference kernel (cuTile Python), the port
as the catalog launches it (untuned), the port with its tuned.toml entry for that shape
(`workbench tune`), and PyTorch's own kernel (reference.py's peer()), all timed in one
worker (CUPTI device time). Memory-bound operators show % of the copy bandwidth measured in
the same run, the others % of the measured bf16 GEMM peak. Without a GPU it says so and
exits 3.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workbench.catalog import get_operator  # noqa: E402
from workbench.check.report import worker_request  # noqa: E402
from workbench.check.runner import EXIT_SKIPPED, has_cuda_driver, run_worker  # noqa: E402
from workbench.rust.tuned import case_arrays, load_tuned  # noqa: E402

OPS = ("softmax", "rms_norm", "layer_norm", "silu_and_mul", "matmul", "attention")
NOISE = 0.02                 # a ratio within 2% of 1 is parity (the sweep's margin)
SIDES = (("python", "reference"), ("rust", "untuned"), ("candidate:tuned", "tuned"),
         ("torch", "pytorch"))


def largest_case(op):
    return max(op.cases, key=lambda c: sum(math.prod(a.shape) for a in c.args if a.is_array))


def measure(name: str) -> dict:
    op = get_operator(name)
    case = largest_case(op)
    entry = load_tuned(op).get(case_arrays(case))
    request = {**worker_request(op, [case.index], ["python", "rust", "torch"], 0, "bench"),
               "tuned": False}
    if entry is not None:
        request["candidates"] = [{"id": "tuned", "consts": entry.consts, "hints": entry.hints}]
    response = run_worker(request)
    row = {"op": name, "case": case.label(), "tuned_entry": None if entry is None else
           {"consts": entry.consts, "hints": entry.hints}, "status": response.status,
           "reason": response.reason}
    if response.status != "ok" or not response.results:
        return row
    result = response.results[0]
    for side, label in SIDES:
        timing = result["sides"].get(side, {})
        row[label] = (timing.get("cupti_us") or timing.get("median_us")) if timing.get("ok") \
            else None
        if side in result["sides"] and not timing.get("ok"):
            row[f"{label}_reason"] = timing.get("reason", "")
    row.update(bytes=result["bytes"], flops=result["flops"], ceilings=response.ceilings,
               device=response.device.get("name", ""))
    return row


def of_ceiling(row: dict, us: float | None) -> str:
    if not us:
        return "-"
    ceilings = row.get("ceilings") or {}
    if row.get("flops") and ceilings.get("bf16_tflops"):
        return f"{row['flops'] / (us * 1e-6) / 1e12 / ceilings['bf16_tflops']:.0%} bf16"
    if ceilings.get("copy_gbps"):
        return f"{row['bytes'] / (us * 1e-6) / 1e9 / ceilings['copy_gbps']:.0%} copy"
    return "-"


def table(rows: list[dict]) -> str:
    head = ("| op | case | reference us | untuned us | tuned us | PyTorch us | tuned / ref | "
            "tuned of ceiling | tuned entry |")
    lines = [head, "|" + "---|" * 9]
    for r in rows:
        if r["status"] != "ok":
            lines.append(f"| {r['op']} | {r['case']} | {r['status']}: {r['reason']} |||||||")
            continue
        best = r.get("tuned") or r.get("untuned")
        ratio = f"{best / r['reference']:.3f}" if best and r.get("reference") else "-"
        entry = r["tuned_entry"]
        shown = " ".join(f"{k}={v}" for k, v in {**entry["consts"], **entry["hints"]}.items()) \
            if entry else "none (untuned is best)"
        lines.append(f"| {r['op']} | {r['case']} | {_us(r.get('reference'))} | "
                     f"{_us(r.get('untuned'))} | {_us(r.get('tuned'))} | "
                     f"{_us(r.get('pytorch'))} | {ratio} | {of_ceiling(r, best)} | {shown} |")
    faster = [r["op"] for r in rows if _ratio(r) is not None and _ratio(r) < 1 - NOISE]
    slower = [r["op"] for r in rows if _ratio(r) is not None and _ratio(r) > 1 + NOISE]
    lines.append("")
    lines.append(f"the port as it serves the shape (tuned where tuned.toml has an entry) is more "
                 f"than {NOISE:.0%} faster than its reference on {len(faster)} of {len(rows)} "
                 f"operators ({', '.join(faster) or 'none'}), more than {NOISE:.0%} slower on "
                 f"{', '.join(slower) or 'none'}")
    return "\n".join(lines)


def _ratio(row: dict) -> float | None:
    best = row.get("tuned") or row.get("untuned")
    return best / row["reference"] if best and row.get("reference") else None


def _us(value) -> str:
    return f"{value:.1f}" if value else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ops", nargs="*", default=list(OPS))
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    if not has_cuda_driver():
        print("skipped: no CUDA device (this benchmark times kernels on a GPU)")
        return EXIT_SKIPPED
    rows = []
    for name in args.ops:
        rows.append(measure(name))
        print(f"{name}: {rows[-1]['status']}", flush=True)
    print(table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
