"""`workbench toolchain list | install VERSION`: tileiras versions side by side (toolchains.py)."""
from __future__ import annotations

from .common import EXIT_OK, Verb
from ..toolchains import install, installed, pinned_version


def _toolchain_arguments(p) -> None:
    actions = p.add_subparsers(dest="action", required=True)
    actions.add_parser("list", help="the tileiras versions installed here")
    add = actions.add_parser("install", help="install another tileiras version beside the "
                             "pinned one (with its libNVVM, ptxas and SASS printers)")
    add.add_argument("version", metavar="VERSION", help="e.g. 13.5.37")


def cmd_toolchain(args) -> int:
    if args.action == "install":
        tools = install(args.version)
        print(f"tileiras {args.version}: {tools}")
        print(f"compare a port under both: workbench diff OP --toolchain {pinned_version()} "
              f"--toolchain {args.version}")
        return EXIT_OK
    for version, tools in installed().items():
        mark = " (pinned: every command uses it)" if version == pinned_version() else ""
        print(f"{version}{mark}: {tools}")
    return EXIT_OK


VERBS = (Verb("toolchain", _toolchain_arguments, cmd_toolchain),)
