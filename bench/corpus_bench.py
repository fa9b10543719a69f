"""The full corpus: every entry of kernels_src/corpus/tilegym.toml through analyze, draft,
build, Rust IR and diff with the offline drafter (what `workbench corpus` does).

    .venv/bin/python bench/corpus_bench.py [--jobs N] [--only GLOB]     (default --jobs 2)

Writes bench/corpus.md (the table: entry, experimental, verdict per case, first reason; the
summary; the most common reasons) and bench/corpus.json (the `workbench corpus --json` list),
and prints the summary. Target: 80% of the non-experimental entries at PASS/PASS_WITH_NOTES
once the drafter is widened. Each entry that drafts costs a cargo build (~10-60 s).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from workbench.sources.corpus_manifest import load_manifest
from workbench.corpus.report import markdown, summary_line
from workbench.corpus.run import run_corpus

BENCH = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", metavar="GLOB")
    args = parser.parse_args()
    manifest = load_manifest()
    start = time.perf_counter()
    results = run_corpus(manifest.select(args.only), jobs=args.jobs, progress=_progress)
    seconds = time.perf_counter() - start
    title = (f"Corpus: TileGym {manifest.version} through the offline drafter "
             f"({_commit()}, --jobs {args.jobs}, {seconds / 60:.0f} min)")
    (BENCH / "corpus.md").write_text(markdown(results, title))
    (BENCH / "corpus.json").write_text(json.dumps([r.to_json() for r in results], indent=1) + "\n")
    print(summary_line(results))


def _progress(result, done: int, total: int) -> None:
    print(f"[{done}/{total}] {result.short} {result.verdict} ({result.seconds:.1f} s)",
          file=sys.stderr, flush=True)


def _commit() -> str:
    try:
        return "commit " + subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=BENCH,
                                          capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "commit ?"


if __name__ == "__main__":
    main()
