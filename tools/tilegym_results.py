"""The RESULTS.md section of a GPU run of TileGym's families, from what `bash tools/gpu_run.sh
tilegym` wrote to $OUT (tilegym_checks.json, tilegym_bench.json):

    .venv/bin/python tools/tilegym_results.py OUT_DIR >> bench/RESULTS.md

Correctness of every case on both sides, three device times (CUPTI) per entry and case,
parity (TileGym / Rust) per operator, and the share of the copy or bf16 ceiling. Where the run
had TileGym's own cutile-rs ports (the fourth side, workbench/check/tilegym_rs.py), their
check, their time and their time over our Rust port's; runs before it render as they did.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def _f(value, digits: int = 1) -> str:
    return f"{value:.{digits}f}" if isinstance(value, (int, float)) else "-"


OTHER_RUST = "tilegym_rs"          # TileGym's own cutile-rs port (workbench/check/tilegym_rs.py)


def _check_cell(side: str, outcome: dict | None) -> str:
    if outcome is None:
        return "no port" if side == "rust" else "-"
    if outcome.get("skipped"):
        return f"skipped: {outcome.get('reason', '')[:80]}"
    if outcome.get("ok"):
        return f"ok ({(outcome.get('rel_error') or 0.0):.1e})"
    return f"FAIL: {outcome.get('reason', '')[:80]}"


def _has_other_rust(checks: dict) -> bool:
    return any(OTHER_RUST in r.get("sides", {}) for response in checks.values()
               for r in response.get("results", []))


def checks_table(checks: dict) -> list[str]:
    sides = ("rust", "tilegym") + ((OTHER_RUST,) if _has_other_rust(checks) else ())
    header = ["entry", "case", "Rust port", "TileGym kernel", "TileGym cutile-rs"][:2 + len(sides)]
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for family, response in checks.items():
        for result in response.get("results", []):
            cells = [_check_cell(side, result["sides"].get(side)) for side in sides]
            lines.append(f"| {result['entry']} | {result['label']} | " + " | ".join(cells) + " |")
        if response.get("status") not in ("ok", "fail"):
            lines.append(f"| {family} | | {response.get('status')}: "
                         f"{response.get('reason', '')[:100]} |" + " |" * (len(sides) - 1))
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
    return lines + other_rust_table(report)


def other_rust_table(report: dict) -> list[str]:
    """TileGym's cutile-rs ports beside ours (rows that had the fourth side; none: nothing)."""
    rows = [r for r in report.get("rows", []) if OTHER_RUST in r and "error" not in r]
    if not rows:
        return []
    lines = ["", "TileGym's own cutile-rs ports (cutile 0.2.0), the other Rust port a user could "
             "choose, in the same run; their time over ours (above 1: ours is faster):", "",
             "| entry | case | our Rust us | TileGym cutile-rs us | theirs / ours | note |",
             "| --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        side = row.get(OTHER_RUST) or {}
        note = side.get("reason", "")[:100] if not side.get("ok") else "; ".join(side.get("notes", []))
        lines.append(f"| {row['entry']} | {row['case']} | {_f(row['rust_us'])} | "
                     f"{_f(row.get('tilegym_rs_us'))} | {_f(row.get('tilegym_rs_parity'), 3)} | "
                     f"{note} |")
    lines.append("")
    for op, value in report.get("tilegym_rs_parity_geomean", {}).items():
        lines.append(f"- TileGym cutile-rs over ours, geomean {op}: {_f(value, 3)}")
    return lines


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "gpu-out")
    checks = json.loads((out / "tilegym_checks.json").read_text())
    report = json.loads((out / "tilegym_bench.json").read_text())
    device = report.get("device", {})
    print("\n## TileGym's operators (issue 14): checks and three-sided timings\n")
    print(f"One run of `bash tools/gpu_run.sh tilegym` on {device.get('name')} "
          f"(torch {device.get('torch')}). Parity is the TileGym kernel's CUPTI time over the "
          "Rust port's; on large cases both run the TileGym autotuner's fastest candidate. "
          "GB/s counts each input read once, each output written once, an in-place tensor "
          "twice and a chain's intermediates not at all (workbench/check/family.py "
          "`traffic`).\n")
    print("\n".join(checks_table(checks)))
    print()
    print("\n".join(bench_table(report)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
