"""What every verb shares: exit codes, the Verb record, and the target options."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Callable

EXIT_OK, EXIT_FAIL, EXIT_ERROR = 0, 1, 2


@dataclass(frozen=True)
class Verb:
    name: str
    summary: str                                   # one line, shown by `workbench`
    add_arguments: Callable[[argparse.ArgumentParser], None]
    handler: Callable[[argparse.Namespace], int]


def add_target(parser: argparse.ArgumentParser, required: bool = True,
               port: bool = True) -> None:
    """TARGET plus the --arg/--const of a kernel target and --case of a catalog one."""
    parser.add_argument("target", nargs=None if required else "?", metavar="TARGET",
                        help="a catalog operator, FILE.py:KERNEL or MODULE:KERNEL")
    parser.add_argument("--case", type=int, default=0,
                        help="which case of a catalog operator (default 0)")
    parser.add_argument("--arg", action="append", default=[], metavar="SPEC",
                        help="with a kernel target, one per runtime parameter in order: "
                             "DTYPE[SHAPE][:strides=(..)][:offset=N] or DTYPE[=VALUE]")
    parser.add_argument("--const", action="append", default=[], metavar="NAME=VALUE",
                        help="with a kernel target, one per ct.Constant parameter")
    if port:
        parser.add_argument("--out", metavar="DIR",
                            help="the port's folder (default: the catalog's port, or "
                                 "runs/ports/<kernel>/port for a kernel target)")


def target_operator(args):
    """The Operator the verb's TARGET, --arg, --const and --out name."""
    from ..sources.targets import resolve_target
    return resolve_target(args.target, args.arg, args.const, getattr(args, "out", None))
