"""A run's results rebuilt from its progress lines, for the families whose
tilegym_checks.json / tilegym_bench.json did not come back (a call brings back at most 8
files) or whose worker was stopped before it answered:

    .venv/bin/python tools/progress_results.py RUN_DIR [CEILINGS_JSON]

Reads RUN_DIR/progress.jsonl (or the older progress-FAMILY.jsonl files) and writes
RUN_DIR/progress_checks.json and progress_bench.json in the shapes `bash tools/gpu_run.sh
tilegym` writes. A family already answered in RUN_DIR/tilegym_checks.json is left out. Each
family's status says how far its lines go: ok or fail by its checks, or `partial` when they
stop before its last case. The progress lines carry no ceilings: CEILINGS_JSON (a bench file
of the same machine and session) gives them, and the report names that file.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workbench.catalog import get_family  # noqa: E402
from workbench.check.family_report import bench_row, summarize  # noqa: E402


def progress_lines(folder: Path) -> list[dict]:
    files = sorted(folder.glob("progress*.jsonl"))
    return [json.loads(line) for f in files for line in f.read_text().splitlines() if line.strip()]


def family_of(line: dict) -> str:
    """The family a line belongs to: named in newer lines, else its entry's prefix."""
    if line.get("family"):
        return line["family"]
    entry = line["entry"].split(" (")[0]
    return entry if entry.count(".") == 1 else entry.rsplit(".", 1)[0]


def expected_cases(family) -> int:
    return len(family.steps[0].cases) if family.steps else sum(len(op.cases) for op in family.entries)


def rebuild(folder: Path, ceilings: dict) -> tuple[dict, dict]:
    answered = folder / "tilegym_checks.json"
    done = set(json.loads(answered.read_text())) if answered.exists() else set()
    checks, benches = {}, {}
    for line in progress_lines(folder):
        name = family_of(line)
        if name in done or line["kind"] not in ("check", "bench"):
            continue
        target = checks if line["kind"] == "check" else benches
        target.setdefault(name, []).append({k: v for k, v in line.items()
                                            if k not in ("kind", "seconds", "family")})
    out_checks, rows, status = {}, [], "ok"
    for name, results in checks.items():
        family = get_family(name)
        failed = [r for r in results if not all((s or {}).get("ok") or (s or {}).get("skipped")
                                                for s in r["sides"].values())]
        state = "partial" if len(results) < expected_cases(family) else "fail" if failed else "ok"
        status = status if state == "ok" else "fail"
        out_checks[name] = {
            "status": state, "results": results, "from": "progress lines",
            "reason": f"{len(results)} of {expected_cases(family)} cases checked before the "
                      f"worker stopped" if state == "partial" else ""}
        rows += [bench_row(family, r, ceilings) for r in benches.get(name, [])]
    return out_checks, summarize(rows, ceilings, {}, status)


def main(argv: list[str]) -> int:
    folder = Path(argv[0])
    ceilings, source = {}, None
    if len(argv) > 1:
        source = Path(argv[1])
        ceilings = json.loads(source.read_text()).get("ceilings", {})
    checks, report = rebuild(folder, ceilings)
    report["ceilings_from"] = str(source) if source else None
    (folder / "progress_checks.json").write_text(json.dumps(checks, indent=1))
    (folder / "progress_bench.json").write_text(json.dumps(report, indent=1))
    for name, response in checks.items():
        print(f"{name}: {response['status']} ({len(response['results'])} checks) "
              f"{response['reason']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
