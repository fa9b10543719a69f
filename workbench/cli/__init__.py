"""`workbench VERB ...`: every stage printable on demand. The parser lives here; each verb's
handler is in the module named for its stage (ir_verbs, port_verbs, corpus_verbs,
batch_verbs, gpu_verbs)."""
from __future__ import annotations

import argparse
import sys

from ..errors import WorkbenchError
from . import (batch_verbs, catalog_verbs, corpus_verbs, gpu_verbs, ir_verbs, port_verbs,
               record_verbs)
from .common import EXIT_ERROR, EXIT_OK

VERBS = (catalog_verbs.VERBS + record_verbs.VERBS + ir_verbs.VERBS + port_verbs.VERBS
         + corpus_verbs.VERBS
         + batch_verbs.VERBS
         + gpu_verbs.VERBS)

TARGET_HELP = ("a catalog operator (softmax), FILE.py:KERNEL, or MODULE:KERNEL of an "
               "installed package (tilegym.ops.cutile.softmax:_softmax_kernel)")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "handler"):
        print(short_help())
        return EXIT_OK
    try:
        return args.handler(args)
    except WorkbenchError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_OK


def short_help() -> str:
    width = max(len(v.name) for v in VERBS)
    lines = ["usage: workbench VERB [options]   (workbench VERB --help for a verb's options)",
             "", "verbs:"]
    lines += [f"  {v.name:{width}}  {v.summary}" for v in VERBS]
    lines += ["", f"TARGET is {TARGET_HELP}."]
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="workbench", description=__doc__,
                                     epilog=f"TARGET is {TARGET_HELP}.")
    sub = parser.add_subparsers(metavar="VERB")
    for verb in VERBS:
        verb_parser = sub.add_parser(verb.name, help=verb.summary, description=verb.summary)
        verb.add_arguments(verb_parser)
        verb_parser.set_defaults(handler=verb.handler)
    return parser


if __name__ == "__main__":
    sys.exit(main())
