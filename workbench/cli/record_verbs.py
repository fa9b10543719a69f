"""`workbench record SCRIPT.py [ARGS] [--out REC.json] [--keep-data]`: run the user's own host code and
record every kernel launch it makes (workbench/sources/recorder.py)."""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..sources.record import RECORDS_DIR
from .common import EXIT_FAIL, EXIT_OK, Verb
from ..sources.recorder import record_script


def _record_arguments(p) -> None:
    p.add_argument("--out", metavar="REC.json",
                   help="where the record goes (default runs/records/<script>-<time>.json)")
    p.add_argument("--no-run", action="store_true",
                   help="on a GPU too, capture the launches without running them")
    p.add_argument("--keep-data", action="store_true",
                   help="keep each launch's input values, and on a GPU what it wrote (the "
                        "expected result), beside the record: checks then run on them")
    p.add_argument("script", metavar="SCRIPT.py", help="run as `python SCRIPT.py ARGS` would")
    p.add_argument("script_args", nargs=argparse.REMAINDER, metavar="ARGS")


def _trailing_out(args) -> None:
    """`workbench record SCRIPT.py ARGS --out REC.json --keep-data`: a last `--out NAME.json`
    and `--keep-data` are the workbench's (any other argument after SCRIPT.py is the
    script's own)."""
    rest = args.script_args
    while rest:
        if len(rest) >= 2 and rest[-2] == "--out" and rest[-1].endswith(".json") \
                and not args.out:
            args.out, rest = rest[-1], rest[:-2]
        elif rest[-1] == "--keep-data":
            args.keep_data, rest = True, rest[:-1]
        else:
            break
    args.script_args = rest


def cmd_record(args) -> int:
    _trailing_out(args)
    out = Path(args.out) if args.out else \
        RECORDS_DIR / f"{Path(args.script).stem}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    rec = record_script(args.script, args.script_args, out=out,
                        run=False if args.no_run else None, keep_data=args.keep_data)
    print(rec.summary())
    print(f"record: {rec.path}")
    if rec.launches:
        print(f"next: workbench port --record {rec.path}"
              + (" --launch N" if len(rec.kernels()) > 1 else ""))
    return EXIT_FAIL if rec.problems or not rec.launches else EXIT_OK


VERBS = (
    Verb("record", _record_arguments, cmd_record),
)
