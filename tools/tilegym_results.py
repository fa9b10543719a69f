"""The RESULTS.md section of a GPU run of TileGym's families, from what `bash tools/gpu_run.sh
tilegym` wrote to $OUT (tilegym_checks.json, tilegym_bench.json):

    .venv/bin/python tools/tilegym_results.py OUT_DIR >> bench/RESULTS.md

Correctness of every case on both sides, three device times (CUPTI) per entry and case,
parity (TileGym / Rust) per operator, and the share of the copy or bf16 ceiling.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def _f(value, digits: int = 1) -> str:
    return f"{value:.{digits}f}" if isinstance(value, (int, float)) else "-"


def checks_table(checks: dict) -> list[str]:
    lines = ["| entry | case | Rust port | TileGym kernel |", "| --- | --- | --- | --- |"]
    for family, response in checks.items():
        for result in response.get("results", []):
            cells = []
            for side in ("rust", "tilegym"):
                outcome = result["sides"].get(side)
                if outcome is None:
                    cells.append("no port" if side == "rust" else "-")
                elif outcome.get("ok"):
                    cells.append(f"ok ({(outcome.get('rel_error') or 0.0):.1e})")
                else:
                    cells.append(f"FAIL: {outcome.get('reason', '')[:80]}")
            lines.append(f"| {result['entry']} | {result['label']} | {cells[0]} | {cells[1]} |")
        if response.get("status") not in ("ok", "fail"):
            lines.append(f"| {family} | | {response.get('status')}: {response.get('reason', '')[:100]} | |")
    return lines


def bench_table(report: dict) -> list[str]:
    c = report.get("ceilings", {})
    lines = [f"Ceilings measured in the run: copy {_f(c.get('copy_gbps'), 0)} GB/s, "
             f"bf16 GEMM {_f(c.get('bf16_tflops'), 0)} TFLOP/s.", "",
             "| entry | case | Rust us | TileGym us | PyTorch us | parity | GB/s | % copy | TF/s | % bf16 | launch |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in report.get("rows", []):
        if "error" in row:
            lines.append(f"| {row['op']} | ERROR {row['error'][:120]} | | | | | | | | | |")
            continue
        launches = row.get("launch") or {}
        launches = launches if isinstance(launches, list) else [launches]   # a chain: one per step
        grids = "; ".join(f"grid {l.get('grid')} {l.get('hints') or ''}".strip() for l in launches)
        lines.append(f"| {row['entry']} | {row['case']} | {_f(row['rust_us'])} | "
                     f"{_f(row['tilegym_us'])} | {_f(row['torch_us'])} | {_f(row['parity'], 3)} | "
                     f"{_f(row['gbps'], 0)} | {_f(row['copy_pct'], 0)} | {_f(row['tflops'])} | "
                     f"{_f(row['bf16_pct'], 0)} | {grids} |")
    lines.append("")
    for op, value in report.get("parity_geomean", {}).items():
        lines.append(f"- parity geomean {op}: {_f(value, 3)}")
    if report.get("parity_overall"):
        lines.append(f"- parity geomean overall: {_f(report['parity_overall'], 3)}")
    return lines


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "gpu-out")
    checks = json.loads((out / "tilegym_checks.json").read_text())
    report = json.loads((out / "tilegym_bench.json").read_text())
    device = report.get("device", {})
    print("\n## TileGym's operators (issue 14): checks and three-sided timings\n")
    print(f"One run of `bash tools/gpu_run.sh tilegym` on {device.get('name')} "
          f"(torch {device.get('torch')}). Parity is the TileGym kernel's CUPTI time over the "
          "Rust port's; on large cases both run the TileGym autotuner's fastest candidate.\n")
    print("\n".join(checks_table(checks)))
    print()
    print("\n".join(bench_table(report)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
