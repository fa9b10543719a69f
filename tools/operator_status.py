"""One row per TileGym operator of the catalog: its IR verdicts (as `workbench ops` records
them) and its newest GPU result among the runs named, each a folder of what `bash
tools/gpu_run.sh tilegym` wrote (a `*checks*.json` beside its `*bench*.json`), newest first:

    .venv/bin/python tools/operator_status.py bench/results/2026-12-01-late \\
        bench/results/2026-12-01-night ...

Every row names the run it comes from, so a table over several runs says so: it is a status
of the catalog, not one run.
"""
from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workbench.cli.catalog_verbs import listing, recorded_verdicts  # noqa: E402


def runs_of(folder: Path) -> list[tuple[str, dict, dict]]:
    """(run name, checks, bench report) for each pair of files in the folder."""
    pairs = []
    for checks in sorted(folder.glob("*checks*.json")):
        bench = checks.with_name(checks.name.replace("checks", "bench"))
        if bench.exists() and "first_call" not in checks.name:
            pairs.append((f"{folder.name}/{checks.name.replace('_checks.json', '')}",
                          json.loads(checks.read_text()), json.loads(bench.read_text())))
    return pairs


def gpu_cells(family: str, checks: dict, report: dict) -> list[str]:
    results = checks[family].get("results", [])
    if not results:
        return [f"{checks[family].get('status')}: {checks[family].get('reason', '')[:80]}",
                "-", "-", "-"]
    correct = [sum(1 for r in results if (r["sides"].get(side) or {}).get("ok"))
               for side in ("rust", "tilegym")]
    parity = report.get("parity_geomean", {}).get(family)
    speedups = [r["torch_us"] / r["rust_us"] for r in report.get("rows", [])
                if r.get("op") == family and r.get("torch_us") and r.get("rust_us")]
    vs_torch = math.exp(sum(map(math.log, speedups)) / len(speedups)) if speedups else None
    return [f"{correct[0]}/{len(results)}, {correct[1]}/{len(results)}",
            f"{parity:.3f}" if parity else "-",
            f"{vs_torch:.2f}x" if vs_torch else "-", other_rust_cell(family, results, report)]


def other_rust_cell(family: str, results: list[dict], report: dict) -> str:
    """TileGym's own cutile-rs port (the fourth side): its correct cases and its time over
    ours (geomean); `-` where the run had no such side, the reason where it was skipped."""
    outcomes = [r["sides"]["tilegym_rs"] for r in results if "tilegym_rs" in r["sides"]]
    if not outcomes:
        return "-"
    ran = [o for o in outcomes if not o.get("skipped")]
    if not ran:
        return f"skipped: {outcomes[0].get('reason', '')[:60]}"
    parity = report.get("tilegym_rs_parity_geomean", {}).get(family)
    return f"{sum(1 for o in ran if o.get('ok'))}/{len(ran)}" + (f", {parity:.3f}" if parity else "")


def ir_cell(entries: list[dict]) -> str:
    counts = Counter(v for e in entries for v in e["ir_verdicts"])
    return ", ".join(f"{verdict} x{n}" for verdict, n in sorted(counts.items()))


def table(folders: list[Path]) -> list[str]:
    """The table, then one line: the parity geomean over the operators it has timings for."""
    runs = [run for folder in folders for run in runs_of(folder)]
    lines = ["| operator | entries | IR verdicts (every case) | GPU cases correct (Rust, TileGym) "
             "| parity (geomean) | Rust vs PyTorch (geomean) "
             "| TileGym cutile-rs (correct, theirs / ours) | run |",
             "| --- | ---: | --- | --- | ---: | ---: | --- | --- |"]
    parities = []
    for row in listing(recorded_verdicts()):
        if row["source"] == "own":
            continue
        entries = [e for e in row["entries"] if not e["chain_step"]]
        found = next(((name, c, b) for name, c, b in runs if row["name"] in c), None)
        cells = gpu_cells(row["name"], found[1], found[2]) if found else ["not run", "-", "-", "-"]
        lines.append(f"| {row['name']} | {len(entries)} | {ir_cell(entries)} | "
                     f"{' | '.join(cells)} | {found[0] if found else '-'} |")
        parity = found[2].get("parity_geomean", {}).get(row["name"]) if found else None
        parities += [parity] if parity else []
    if parities:
        overall = math.exp(sum(map(math.log, parities)) / len(parities))
        counted = f"{len(parities)} operator" + ("s" if len(parities) > 1 else "")
        lines += ["", f"Parity geomean over the {counted} timed: {overall:.3f} "
                      f"(lowest {min(parities):.3f})."]
    return lines


if __name__ == "__main__":
    print("\n".join(table([Path(a) for a in sys.argv[1:]])))
