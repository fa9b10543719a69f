"""Verbs that need a GPU (each says `skipped` with the reason, exit 3, without one):
check, bench and tune; `check --cpu` runs both sides' Tile IR on the CPU instead. `investigate` needs
no GPU: it explains a slow port from the launch, the IR and the SASS."""
from __future__ import annotations

import json
from pathlib import Path

from .common import EXIT_FAIL, EXIT_OK, Verb, add_record
from ..catalog import all_families, all_operators, get_operator
from ..check.family_report import (bench_families, check_family, format_family_bench,
                                   format_family_check)
from ..check.report import (CPU, bench_operators, check_operator, format_bench, format_check,
                            write_bench_html)
from ..check.runner import EXIT_SKIPPED
from ..check.triton_side import check_triton_port
from ..errors import WorkbenchError
from ..port.recorded import record_operator
from ..port.triton_stages import bench_against_triton, check_against_triton


def _check_arguments(p) -> None:
    p.add_argument("op", metavar="OPERATOR", nargs="?",
                   help="a catalog operator: own, a TileGym family (every entry) or one entry")
    add_record(p)
    p.add_argument("--out", metavar="DIR", help="with --record: the port's folder")
    p.add_argument("--case", type=int, action="append", help="default: every case")
    p.add_argument("--sides", default="python,rust", help="python,rust (default both)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cpu", action="store_true",
                   help="no GPU: run both sides' Tile IR on the CPU (the Tile IR interpreter)")
    p.add_argument("--shrink", action="store_true",
                   help="with --cpu: every case shrunk to a small one of the same structure "
                        "(partial tiles, loop trips, branches); the report names both shapes")
    p.add_argument("--json", action="store_true")


def tilegym_target(name: str):
    """(family, [entry]) for a TileGym family or one of its entries; None otherwise."""
    family = all_families().get(name)
    if family is not None and family.source != "own":
        return family.name, None
    op = all_operators().get(name)
    if op is not None and op.family:
        return op.family, [op.name]
    return None


def _recorded(args):
    """The recorded target of --record, or None; an operator and --record together refuse."""
    named = getattr(args, "op", None) or getattr(args, "ops", None)
    if not args.record:
        return None
    if named:
        raise WorkbenchError("--record names the kernel itself", "drop the OPERATOR")
    return record_operator(args.record, args.launch, args.out)


def cmd_check(args) -> int:
    recorded = _recorded(args)
    if recorded is None and not args.op:
        raise WorkbenchError("name an OPERATOR, or --record REC.json",
                             "try `workbench check softmax`")
    if args.shrink and not args.cpu:
        raise WorkbenchError("--shrink shrinks the cases the CPU check runs",
                             "add --cpu (on a GPU every case runs at its own size)")
    if args.cpu:
        return _check_on_cpu(args, recorded)
    if recorded is not None:
        response = check_against_triton(recorded) if recorded.language == "triton" else \
            check_operator(recorded, seed=args.seed)
        print(json.dumps(response.to_json(), indent=1) if args.json
              else format_check(recorded.summary, response))
        return {"ok": EXIT_OK, "skipped": EXIT_SKIPPED}.get(response.status, EXIT_FAIL)
    target = tilegym_target(args.op)
    if target is not None:
        sides = ["tilegym" if s == "python" else s for s in args.sides.split(",")]
        response = check_family(target[0], args.case, target[1], sides)
        print(json.dumps(response.to_json(), indent=1) if args.json
              else format_family_check(args.op, response))
        return {"ok": EXIT_OK, "skipped": EXIT_SKIPPED}.get(response.status, EXIT_FAIL)
    response = check_operator(args.op, args.case, args.sides.split(","), args.seed)
    print(json.dumps(response.to_json(), indent=1) if args.json else format_check(args.op, response))
    return {"ok": EXIT_OK, "skipped": EXIT_SKIPPED}.get(response.status, EXIT_FAIL)


def _check_on_cpu(args, recorded) -> int:
    from ..check.cpu import check_on_cpu     # the interpreter (ml_dtypes: 0.9 s to import)
    sides = [s.strip() for s in args.sides.split(",")]
    if not set(sides) <= {"python", "rust"}:
        raise WorkbenchError(f"--sides {args.sides}: the CPU check runs python and rust",
                             "give --sides python,rust, python or rust")
    if args.shrink and recorded is not None:
        raise WorkbenchError("--shrink takes a catalog operator: a recorded kernel's inputs "
                             "are the record's", "drop --shrink")
    if recorded is not None and recorded.language == "triton":
        response = check_against_triton(recorded, cpu=True)
    elif args.shrink:
        response = check_on_cpu(args.op, args.case, sides, args.seed, shrink=True)
    elif recorded is None and args.op in all_families():
        response = check_on_cpu(args.op, args.case, sides, args.seed)
    else:
        response = check_operator(recorded if recorded is not None else args.op, args.case,
                                  sides, args.seed, on=CPU)
    name = recorded.summary if recorded is not None else args.op
    print(json.dumps(response.to_json(), indent=1) if args.json else format_check(name, response))
    return {"ok": EXIT_OK, "skipped": EXIT_SKIPPED}.get(response.status, EXIT_FAIL)


def _bench_arguments(p) -> None:
    p.add_argument("ops", nargs="*", metavar="OPERATOR",
                   help="default: every operator with a port")
    p.add_argument("--json", action="store_true")
    p.add_argument("--html", metavar="FILE", help="write a report (with a parity chart PNG)")
    add_record(p)
    p.add_argument("--out", metavar="DIR", help="with --record: the port's folder")


def cmd_bench(args) -> int:
    recorded = _recorded(args)
    if recorded is not None:
        args.ops = [recorded]
    families = [t[0] for t in map(tilegym_target, args.ops) if t is not None]
    if families:
        if len(families) != len(args.ops):
            raise WorkbenchError("bench TileGym families and own operators in separate runs",
                                 "name only tilegym.* operators, or only own ones")
        report = bench_families(list(dict.fromkeys(families)))
        if report["status"] == "skipped":
            print(f"skipped: {report['reason']}")
            return EXIT_SKIPPED
        print(json.dumps(report, indent=1) if args.json else format_family_bench(report))
        return EXIT_OK if report["status"] == "ok" else EXIT_FAIL
    report = bench_against_triton(recorded) if recorded is not None and \
        recorded.language == "triton" else bench_operators(args.ops)
    if report["status"] == "skipped":
        print(f"skipped: {report['reason']}")
        return EXIT_SKIPPED
    if args.html:
        write_bench_html(report, args.html)
    print(json.dumps(report, indent=1) if args.json else format_bench(report))
    return EXIT_OK if report["status"] == "ok" else EXIT_FAIL


def _investigate_arguments(p) -> None:
    p.add_argument("op", metavar="OPERATOR", nargs="?", help="a catalog operator or entry")
    add_record(p)
    p.add_argument("--out", metavar="DIR", help="with --record: the port's folder")
    p.add_argument("--case", type=int, action="append", help="default: every case")
    p.add_argument("--peer", nargs="?", const="", metavar="BENCH.json",
                   help="also read why the port is slower than the fastest peer kernel "
                        "(PyTorch's): its main loop's schedule in the SASS; with the --json "
                        "of bench/tune_bench.py, the times measured")
    p.add_argument("--json", action="store_true")


def cmd_investigate(args) -> int:
    """Why a port may be slower than its reference: the evidence on both sides, no GPU
    needed (check/investigate.py)."""
    from ..check.investigate import investigate
    recorded = _recorded(args)
    if recorded is None and not args.op:
        raise WorkbenchError("name an OPERATOR, or --record REC.json",
                             "try `workbench investigate softmax`")
    if recorded is None and tilegym_target(args.op) and args.op in all_families():
        raise WorkbenchError(f"{args.op} is a family: investigate one entry of it",
                             "entries: " + ", ".join(o.name for o in
                                                     all_families()[args.op].entries))
    op = recorded if recorded is not None else get_operator(args.op)
    cases = args.case or [c.index for c in op.cases]
    found = [investigate(op, case) for case in cases]
    gaps = [_peer_gap(op, case, args.peer) for case in cases]
    if args.json:
        print(json.dumps([dict(f.to_json(), **({"peer": g.to_json()} if g else {}))
                          for f, g in zip(found, gaps)], indent=1))
    else:
        print("\n".join(line for f, g in zip(found, gaps)
                        for line in f.lines() + (g.lines() if g else [])))
    return EXIT_OK


def _peer_gap(op, case: int, peer: str | None):
    from ..check.peer_gap import peer_gap
    return None if peer is None else peer_gap(op, case, Path(peer) if peer else None)


def _tune_arguments(p) -> None:
    p.add_argument("op", metavar="OPERATOR", help="a catalog cuTile operator with a port")
    p.add_argument("--case", type=int, action="append", help="default: every case")
    p.add_argument("--knob", action="append", default=[], metavar="NAME=V1,V2",
                   help="a knob's values (a tile constant, occupancy, num_ctas, "
                        "num_worker_warps; 0 = the kernel's own hint); default: each tile "
                        "constant at half, same and double, occupancy 1-8, num_ctas 2")
    p.add_argument("--limit", type=int, default=48,
                   help="candidates per case at most (a seeded sample past it)")
    p.add_argument("--jobs", type=int, default=4,
                   help="candidates checked (and compiled) at once on the GPU machine")
    p.add_argument("--margin", type=float, default=0.02,
                   help="keep a candidate only this much faster than the untuned port")
    p.add_argument("--dry-run", action="store_true", help="sweep and show; keep nothing")
    p.add_argument("--plot", metavar="PNG", help="also draw the sweep")
    p.add_argument("--json", action="store_true")


def cmd_tune(args) -> int:
    """The sweep (tune/sweep.py); skipped, with nothing changed, without a GPU."""
    from ..tune.report import format_tune, plot_tune
    from ..tune.sweep import tune
    if tilegym_target(args.op):
        raise WorkbenchError(f"{args.op} is TileGym's: tune sweeps a cuTile operator's own "
                             "port", "tune softmax, rms_norm, layer_norm, matmul, "
                             "attention or silu_and_mul")
    report = tune(get_operator(args.op), args.case, args.knob, jobs=args.jobs,
                  limit=args.limit, keep=not args.dry_run, margin=args.margin,
                  progress=lambda text: print(text, flush=True) if not args.json else None)
    if args.plot and report.status == "ok":
        plot_tune(report, args.plot)
    print(json.dumps(report.to_json(), indent=1) if args.json else
          format_tune(report, args.margin))
    return {"ok": EXIT_OK, "skipped": EXIT_SKIPPED}.get(report.status, EXIT_FAIL)


VERBS = (
    Verb("check", _check_arguments, cmd_check),
    Verb("bench", _bench_arguments, cmd_bench),
    Verb("investigate", _investigate_arguments, cmd_investigate),
    Verb("tune", _tune_arguments, cmd_tune),
)
