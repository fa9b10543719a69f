"""What every verb shares: exit codes, the Verb record, and the target options."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Callable
from ..errors import WorkbenchError
from ..port.recorded import record_operator
from ..resolve import resolve_target

EXIT_OK, EXIT_FAIL, EXIT_ERROR, EXIT_SKIPPED = 0, 1, 2, 3


@dataclass(frozen=True)
class Verb:
    """A verb as its module defines it (its line in `workbench` is in cli/__init__.py's table)."""
    name: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    handler: Callable[[argparse.Namespace], int]


def add_kernel_call(parser: argparse.ArgumentParser, default: str = "") -> None:
    """--arg/--const: a kernel target's call (`default`: what stands for it when not given)."""
    parser.add_argument("--arg", action="append", default=[], metavar="SPEC",
                        help="with a kernel target, one per runtime parameter in order: "
                             "DTYPE[SHAPE][:strides=(..)][:offset=N] or DTYPE[=VALUE]"
                             + (f" (default: {default})" if default else ""))
    parser.add_argument("--const", action="append", default=[], metavar="NAME=VALUE",
                        help="with a kernel target, one per ct.Constant parameter")


def add_target(parser: argparse.ArgumentParser, required: bool = True,
               port: bool = True) -> None:
    """TARGET plus the --arg/--const of a kernel target and --case of a catalog one."""
    parser.add_argument("target", nargs=None if required else "?", metavar="TARGET",
                        help="a catalog operator, FILE.py:KERNEL or MODULE:KERNEL")
    parser.add_argument("--case", type=int, default=None,
                        help="which case of the operator (default: its first)")
    add_kernel_call(parser)
    parser.add_argument("--grid", metavar="X[,Y[,Z]]",
                        help="with a kernel target: the launch grid, for its check (a Triton "
                             "kernel is checked against Triton itself on it)")
    add_record(parser)
    if port:
        parser.add_argument("--out", metavar="DIR",
                            help="the port's folder (default: the catalog's port, or "
                                 "runs/ports/<kernel>/port for a kernel target)")


def add_record(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--record", metavar="REC.json",
                        help="the kernel and its cases from a record (`workbench record`) "
                             "instead of a TARGET with --arg/--const")
    parser.add_argument("--launch", type=int, metavar="N",
                        help="with --record: the kernel launch N ran (default: the only one)")


def target_operator(args):
    """The Operator the verb's TARGET (or --record), --arg, --const and --out name."""
    if getattr(args, "record", None):
        if args.target or args.arg or args.const:
            raise WorkbenchError("--record names the kernel and its cases itself",
                                 "drop TARGET, --arg and --const, or drop --record")
        return record_operator(args.record, args.launch, getattr(args, "out", None))
    if not args.target:
        raise WorkbenchError("name a TARGET (or --record REC.json)",
                             "try `workbench port softmax`")
    return resolve_target(args.target, args.arg, args.const, getattr(args, "out", None),
                          getattr(args, "grid", None))


def case_index(op, case: int | None) -> int:
    """The case a verb works on: the one asked for, else the operator's first (a TileGym
    entry's launcher may take only some of its family's cases)."""
    if case is not None:
        return case
    return op.cases[0].index if op.cases else 0
