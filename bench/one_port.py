"""How many `#[cutile::entry]` functions a drafted port needs, before and after a change of the
drafter: every cuTile operator of the catalog and every entry of the TileGym corpus, drafted
by the offline drafter from its own cases (drafting only: no build, no GPU).

    .venv/bin/python bench/one_port.py [--before REV]     (default REV: 77827f2, the drafter before constants became generics)

"Before" is the drafter of REV, checked out into a temporary git worktree and run in a
subprocess in the same run. Writes bench/one_port.md and prints the totals. A port needs
one entry per structure of its Tile IR; what the cases vary only in value (a constant the
kernel computes with) should not add entries.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
DEFAULT_BEFORE = "77827f2"


def count_entries() -> list[dict]:
    """This checkout's drafter over the catalog and the corpus: one row per kernel."""
    from workbench.catalog import all_operators
    from workbench.port.analyze import analyze
    from workbench.port.rules.draft import draft
    from workbench.resolve import resolve_target
    from workbench.sources.corpus_manifest import load_manifest

    targets = [(f"catalog {name}", name) for name, op in sorted(all_operators().items())
               if op.kernel_file.suffix == ".py" and "triton" not in name]
    targets += [(f"corpus {e.short}", e.target) for e in load_manifest().entries]
    rows = []
    for label, target in targets:
        try:
            op = resolve_target(target)
            source = op.kernel_file.read_text()
            spec = analyze(source, str(op.kernel_file), op.kernel_name, list(op.cases))
            files = draft(spec, source, "bench").files
        except Exception as e:      # a kernel the drafter refuses or cannot read
            rows.append({"kernel": label, "error": f"{type(e).__name__}: {e}"[:120]})
            continue
        kernel = files.get("src/kernel.rs", "")
        combos = {tuple(sorted(c.consts.items())) for c in op.cases}
        rows.append({"kernel": label, "cases": len(op.cases), "values": len(combos),
                     "entries": len(re.findall(r"#\[cutile::entry", kernel)) or None})
    return rows


def before(rev: str) -> list[dict]:
    """count_entries() of the drafter at `rev`, run from a temporary worktree."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), rev], cwd=REPO,
                       check=True, timeout=120)
        try:
            env = dict(os.environ, PYTHONPATH=str(tree))
            out = subprocess.run([sys.executable, str(Path(__file__)), "--json-rows"],
                                 cwd=tree, env=env, capture_output=True, text=True,
                                 timeout=1800, check=True).stdout
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO,
                           timeout=120, check=False)
    return json.loads(out.strip().splitlines()[-1])


def table(old: list[dict], new: list[dict], rev: str) -> str:
    by_kernel = {r["kernel"]: r for r in old}
    lines = [f"# Entries per drafted port: the drafter at {rev} and now",
             "",
             "| kernel | cases | constant values | entries before | entries now |",
             "| --- | --- | --- | --- | --- |"]
    totals = {"before": 0, "now": 0, "kernels": 0, "fewer": 0}
    for row in new:
        was = by_kernel.get(row["kernel"], {})
        b, n = was.get("entries"), row.get("entries")
        lines.append(f"| `{row['kernel']}` | {row.get('cases', '')} | {row.get('values', '')} | "
                     f"{b or '-'} | {n or '-'} |")
        if b and n:
            totals["kernels"] += 1
            totals["before"] += b
            totals["now"] += n
            totals["fewer"] += n < b
    summary = (f"{totals['kernels']} kernels drafted both times: {totals['before']} entries "
               f"before, {totals['now']} now; {totals['fewer']} ports need fewer")
    return "\n".join(lines[:2] + [summary, ""] + lines[2:]) + "\n", summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=DEFAULT_BEFORE, metavar="REV")
    parser.add_argument("--json-rows", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json_rows:
        print(json.dumps(count_entries()))
        return
    new = count_entries()
    old = before(args.before)
    text, summary = table(old, new, args.before)
    (BENCH / "one_port.md").write_text(text)
    print(summary)


if __name__ == "__main__":
    main()
