"""`workbench VERB ...`: every stage printable on demand. The verb table is here; each verb's
arguments and handler are in the module named for its stage (ir_verbs, port_verbs,
corpus_verbs, batch_verbs, gpu_verbs, catalog_verbs, record_verbs, export_verbs, toolchain_verbs)."""
from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass

from ..errors import WorkbenchError
from .common import EXIT_ERROR, EXIT_OK, Verb


@dataclass(frozen=True)
class VerbEntry:
    name: str
    module: str                     # the cli module that defines it
    summary: str                    # one line, shown by `workbench`


# The verb table. A verb's module is imported only when that verb runs: the CLI's one lazy
# import, so `workbench` starts in a tenth of a second whatever a verb needs (NumPy, the
# interpreter, cuda.tile), and the verb modules import what they use at their top.
VERBS = (
    VerbEntry("ops", "catalog_verbs", "every catalog operator: its source (own or TileGym), "
              "entries, port provenance, IR verdicts"),
    VerbEntry("record", "record_verbs", "run your own host code and record every kernel "
              "launch it makes"),
    VerbEntry("ir", "ir_verbs", "print the Tile IR of a kernel or of its Rust port (raw or "
              "normalized)"),
    VerbEntry("diff", "ir_verbs", "structural Tile IR diff of a kernel against its Rust port: "
              "PASS / NOTES / FAIL (or one port under two tileiras versions)"),
    VerbEntry("sass", "ir_verbs", "sm_90 SASS of either side, compiled here (no GPU)"),
    VerbEntry("specialize", "ir_verbs", "JIT vs AOT: what each call compiles, and what a port "
              "must declare"),
    VerbEntry("port", "port_verbs", "draft a Rust port: analyze, write kernel and host, build, "
              "diff, check"),
    VerbEntry("runs", "port_verbs", "show a drafting run stage by stage"),
    VerbEntry("build", "port_verbs", "build ports whose sources changed (lazy, "
              "hot-reloadable)"),
    VerbEntry("export", "export_verbs", "write a port as a crate of its own (builds outside "
              "this checkout): sources, vendored C ABI helper, Python loader, README, IR "
              "goldens"),
    VerbEntry("doctor", "port_verbs", "check the toolchain and say how to fix each problem"),
    VerbEntry("toolchain", "toolchain_verbs", "tileiras versions side by side: list, install "
              "another (compare a port under two: diff --toolchain A --toolchain B)"),
    VerbEntry("corpus", "corpus_verbs", "TileGym's kernels through analyze, draft, build and IR "
              "diff: a verdict each"),
    VerbEntry("batch", "batch_verbs", "the pipeline, SASS, GPU checks and benches over the "
              "catalog, the corpus or targets, on dask (--jobs N, --cluster ADDRESS); reruns "
              "skip unchanged work"),
    VerbEntry("check", "gpu_verbs", "on a GPU (or with --cpu, the Tile IR interpreter): "
              "correctness of both sides against a float64 PyTorch reference"),
    VerbEntry("bench", "gpu_verbs", "on a GPU: device time of both sides and their parity"),
    VerbEntry("investigate", "gpu_verbs", "why a port may be slower than its reference: the "
              "launch, the driver calls, the IR and the SASS of both sides; names the owner"),
    VerbEntry("tune", "gpu_verbs", "on a GPU: sweep a port's tile sizes and hints per case, "
              "check each candidate, keep the fastest correct one per shape (tuned.toml)"),
)


def verb(name: str) -> Verb:
    """The verb `name` from its module (imported now)."""
    entry = next(e for e in VERBS if e.name == name)
    module = importlib.import_module(f"{__name__}.{entry.module}")
    return next(v for v in module.VERBS if v.name == name)


TARGET_HELP = ("a catalog operator (softmax), FILE.py:KERNEL, or MODULE:KERNEL of an "
               "installed package (tilegym.ops.cutile.softmax:_softmax_kernel)")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
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


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the verb `argv` names gets its arguments (its module imported)."""
    parser = argparse.ArgumentParser(prog="workbench", description=__doc__,
                                     epilog=f"TARGET is {TARGET_HELP}.")
    sub = parser.add_subparsers(metavar="VERB")
    chosen = next((a for a in argv or [] if not a.startswith("-")), None)
    for entry in VERBS:
        verb_parser = sub.add_parser(entry.name, help=entry.summary, description=entry.summary)
        if entry.name == chosen:
            defined = verb(entry.name)
            defined.add_arguments(verb_parser)
            verb_parser.set_defaults(handler=defined.handler)
    return parser


if __name__ == "__main__":
    sys.exit(main())
