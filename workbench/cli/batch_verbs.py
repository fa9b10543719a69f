"""`workbench batch`: the pipeline, SASS, GPU checks and benches over many kernels, as tasks
on dask.distributed (a local cluster by default, or --cluster ADDRESS)."""
from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

from ..errors import WorkbenchError
from .common import EXIT_FAIL, EXIT_OK, Verb
from ..batch.plan import make_plan
from ..batch.report import Progress, format_table, to_json, write_reports
from ..batch.run import BatchInterrupted, run_batch
from ..batch.store import BATCH_RUNS, Store
from ..check.runner import has_cuda_driver
from ..engine import EngineError, EngineOptions

EXIT_INTERRUPTED = 130


def _batch_arguments(p) -> None:
    p.add_argument("selection", nargs="*", metavar="KERNELS",
                   help="catalog (the default), corpus, or targets: catalog operators, "
                        "MODULE:KERNEL of the corpus manifest, FILE.py:KERNEL, and records "
                        "(REC.json: every kernel it launched, checked against the user's own)")
    p.add_argument("--only", metavar="GLOB", help="only the kernels whose name matches")
    p.add_argument("--stages", default="port,sass,check,bench",
                   help="which of port,sass,check,bench (default all; check and bench only "
                        "where there is a GPU)")
    gpu = p.add_mutually_exclusive_group()
    gpu.add_argument("--gpu", dest="gpu", action="store_const", const="yes",
                     help="the GPU steps must run: exit 2 when no worker has a GPU")
    gpu.add_argument("--no-gpu", dest="gpu", action="store_const", const="no",
                     help="leave check and bench out")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="CPU workers of the local cluster (default 1)")
    p.add_argument("--gpus", type=int, default=1, metavar="N",
                   help="GPU workers of the local cluster where there is a GPU (default 1)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="a running dask scheduler, e.g. tcp://head:8786 (default: a local "
                        "cluster on this machine)")
    p.add_argument("--connect-timeout", type=float, default=5.0, metavar="S",
                   help="seconds to wait for --cluster (default 5)")
    p.add_argument("--out", metavar="DIR",
                   help="the batch's folder (default runs/batch/<what it covers>)")
    p.add_argument("--json", action="store_true", help="the report as JSON on stdout")


def cmd_batch(args) -> int:

    if args.jobs < 1 or args.gpus < 0:
        raise WorkbenchError("--jobs needs at least 1 and --gpus at least 0", "try --jobs 2")
    stages = tuple(s.strip() for s in args.stages.split(",") if s.strip())
    gpus = _local_gpus(args)
    folder = Path(args.out) if args.out else default_folder(args.selection, args.only)
    plan = make_plan(args.selection, stages, folder.resolve(), args.only, gpu=args.gpu != "no")
    store = Store(folder)
    store.begin({"selection": args.selection or ["catalog"], "only": args.only,
                 "stages": list(stages), "cluster": args.cluster, "jobs": args.jobs})
    options = EngineOptions(args.cluster, args.jobs, gpus if plan.needs_gpu else 0,
                            args.connect_timeout)
    progress = None if args.json else Progress()
    try:
        outcome = run_batch(plan, store, options, progress, gpu_required=args.gpu == "yes",
                            gpu_here=None if args.cluster else gpus > 0)
    except EngineError as error:           # what finished before it is kept and shown
        if error.outcome is not None:
            write_reports(error.outcome, folder)
        raise
    except BatchInterrupted as stop:
        write_reports(stop.outcome, folder)
        print(f"\ninterrupted: {len(stop.outcome.results)} of {len(plan.tasks)} tasks finished "
              f"and kept in {folder}; run the same command again to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:               # while the cluster was starting: nothing ran
        print(f"\ninterrupted before any task finished; run the same command again",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    page = write_reports(outcome, folder)
    if args.json:
        print(json.dumps(to_json(outcome, folder), indent=1))
    else:
        print(format_table(outcome))
        print(f"report: {page}")
    return EXIT_FAIL if any(r.verdict in ("FAIL", "ERROR", "LOST")
                            for r in outcome.results.values()) else EXIT_OK


def _local_gpus(args) -> int:
    """GPU workers for a local cluster: --gpus where this machine has a GPU driver, else 0
    (and with --gpu, no GPU here is the one-line error)."""
    if args.cluster or args.gpu == "no":
        return 0
    if has_cuda_driver():
        return args.gpus
    if args.gpu == "yes":
        raise EngineError("--gpu: this machine has no GPU (libcuda.so.1 does not load), and "
                          "the GPU steps (check, bench) need one",
                          "run on a GPU machine, on a cluster with GPU workers (--cluster), "
                          "or leave the GPU steps out (--no-gpu)")
    return 0


def default_folder(selection: list[str], only: str | None) -> Path:
    words = (selection or ["catalog"]) + ([only] if only else [])
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", "-".join(words)).strip("_")
    if len(name) > 60:
        name = name[:40] + "-" + hashlib.sha256(name.encode()).hexdigest()[:8]
    return BATCH_RUNS / name


VERBS = (
    Verb("batch", _batch_arguments, cmd_batch),
)
