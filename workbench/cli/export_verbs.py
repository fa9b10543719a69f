"""`workbench export TARGET --to DIR`: a port as a standalone crate (port/export.py)."""
from __future__ import annotations

from pathlib import Path

from ..errors import WorkbenchError
from .common import EXIT_OK, Verb, add_kernel_call, add_record, target_operator
from ..port.export import export_port


def _export_arguments(p) -> None:
    p.add_argument("target", nargs="?", metavar="TARGET",
                   help="a catalog operator or entry, FILE.py:KERNEL or MODULE:KERNEL (its "
                        "drafted port), or --record REC.json")
    p.add_argument("--to", required=True, metavar="DIR",
                   help="the folder the crate goes to: new or empty (see --force)")
    p.add_argument("--force", action="store_true",
                   help="export into a folder that holds files (they are kept whole as "
                        "DIR.kept-<time> first)")
    add_kernel_call(p, default="the calls of its last drafting run")
    p.add_argument("--out", metavar="DIR",
                   help="the port's folder, where it is not the target's default")
    add_record(p)


def cmd_export(args) -> int:
    if not args.target and not args.record:
        raise WorkbenchError("name the TARGET whose port to export (or --record REC.json)",
                             "e.g. `workbench export softmax --to exports/softmax`")
    op = target_operator(args)
    print(export_port(op, Path(args.to), force=args.force).summary())
    return EXIT_OK


VERBS = (
    Verb("export", _export_arguments, cmd_export),
)
