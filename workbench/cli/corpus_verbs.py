"""`workbench corpus`: TileGym's kernels (the corpus manifest) through the offline drafter."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import WorkbenchError
from .common import EXIT_FAIL, EXIT_OK, Verb
from ..corpus.report import format_table, summary_line
from ..corpus.run import CORPUS_RUNS, run_corpus
from ..sources.corpus_manifest import load_manifest


def _corpus_arguments(p) -> None:
    p.add_argument("--only", metavar="GLOB",
                   help="entries whose module:kernel matches, e.g. 'softmax:*' or "
                        "'tilegym.ops.cutile.rms_norm:*' (default: every entry)")
    p.add_argument("--json", action="store_true", help="the results as a JSON list")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="entries in parallel on a dask LocalCluster of N processes (default 1: "
                        "in this process)")
    p.add_argument("--out", metavar="DIR",
                   help="where each entry's draft and run folder go (default runs/corpus)")


def cmd_corpus(args) -> int:

    manifest = load_manifest()
    entries = manifest.select(args.only)
    if not entries:
        raise WorkbenchError(f"--only {args.only!r} matches no entry of {manifest.path.name}",
                             "entries are MODULE:KERNEL, e.g. 'softmax:*' (see "
                             "kernels_src/corpus/tilegym.toml)")
    if args.jobs < 1:
        raise WorkbenchError(f"--jobs {args.jobs}: needs at least 1", "try --jobs 2")
    root = Path(args.out).resolve() if args.out else CORPUS_RUNS
    results = run_corpus(entries, jobs=args.jobs, root=root,
                         progress=None if args.json else _progress)
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1))
    else:
        print(format_table(results))
        print(summary_line(results))
    return EXIT_FAIL if any(r.verdict in ("FAIL", "ERROR") for r in results) else EXIT_OK


def _progress(result, done: int, total: int) -> None:
    print(f"[{done}/{total}] {result.short} {result.verdict} ({result.seconds:.1f} s)",
          file=sys.stderr, flush=True)


VERBS = (
    Verb("corpus", _corpus_arguments, cmd_corpus),
)
