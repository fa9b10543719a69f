"""Verbs that make and look at ports: port, runs, build, doctor."""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import WorkbenchError
from .common import EXIT_FAIL, EXIT_OK, EXIT_SKIPPED, Verb, add_target, target_operator
from ..catalog import load_catalog
from ..doctor import print_report, run_checks
from ..operators import display_path
from ..port.artifacts import read_artifacts
from ..port.folders import refuse_foreign
from ..port.pipeline import UNVERIFIED, run_operator, run_pipeline
from ..resolve import resolve_target
from ..rust.cargo import build, has_port
from ..session import copy_port

GOOD = ("PASS", "PASS_WITH_NOTES")


# -- port --------------------------------------------------------------------------------

def _port_arguments(p) -> None:
    add_target(p, required=False)
    p.add_argument("--drafter", choices=("rules", "agent"), default="rules")
    p.add_argument("--model", help="the agent's model (default $WORKBENCH_AGENT_MODEL)")
    p.add_argument("--into-catalog", action="store_true",
                   help="draft a catalog operator into kernels_src/<op>/port itself (the old "
                        "port is kept in the run folder); by default drafts go to runs/ports/")
    p.add_argument("--copy", action="store_true",
                   help="with --out: copy the operator's port there (a copy that builds on its "
                        "own, outside kernels_src/) instead of drafting one")
    p.add_argument("--force", action="store_true",
                   help="with --out: draft into a folder that holds something other than "
                        "this target's own port (what it holds is kept in the run folder first)")
    p.add_argument("--all", action="store_true", help="every catalog operator, unattended")
    p.add_argument("--resume", metavar="RUN_DIR", help="continue a run folder")
    p.add_argument("--from", dest="resume_from", metavar="STAGE",
                   help="with --resume: rerun from STAGE")


def cmd_port(args) -> int:
    if args.all:
        return _port_all(args)
    if args.copy:
        return _copy(args)
    if args.resume:
        run_dir = Path(args.resume)
        result = run_pipeline(run_operator(run_dir), args.drafter, out=_out(args),
                              resume=run_dir, resume_from=args.resume_from, model=args.model)
    else:
        op = target_operator(args)
        op.case(op.cases[0].index if op.cases else 0)   # no call given: say so, draft nothing
        _refuse_a_full_folder(args, op)
        result = run_pipeline(op, args.drafter, model=args.model,
                              out=_out(args), into_catalog=args.into_catalog)
    print(result.summary())
    if result.verdict == UNVERIFIED:         # drafted and diffed; never run against Triton
        return EXIT_SKIPPED
    return EXIT_OK if result.verdict in GOOD else EXIT_FAIL


def _port_all(args) -> int:
    rows = []
    if args.out and not args.force:
        for name, op in load_catalog().items():
            refuse_foreign(_out(args) / name / "port", op, False, _FULL_HINT)
    for name, op in load_catalog().items():
        out = _out(args) / name / "port" if args.out else None
        result = run_pipeline(op, args.drafter, model=args.model, out=out,
                              into_catalog=args.into_catalog)
        rows.append((name, result.verdict, result.folder))
        print(result.summary())
    print(f"\n{'operator':14} {'verdict':16} run")
    for name, verdict, folder in rows:
        print(f"{name:14} {verdict:16} {folder}")
    return EXIT_OK if all(v in GOOD for _, v, _ in rows) else EXIT_FAIL


def _copy(args) -> int:
    if not args.target or not args.out:
        raise WorkbenchError("--copy needs a TARGET and --out DIR",
                             "e.g. `workbench port softmax --copy --out runs/my-softmax/port`")
    op = copy_port(resolve_target(args.target, args.arg, args.const), _out(args))
    print(f"{display_path(op.port_folder)} holds {args.target}'s port, built on its own; use it with "
          f"`--out {args.out}` (e.g. `workbench diff {args.target} --out {args.out}`)")
    return EXIT_OK


def _out(args) -> Path | None:
    return Path(args.out).resolve() if args.out else None


_FULL_HINT = ("name an empty or new folder, or add --force to draft there anyway (what it "
              "holds is kept in the run folder first)")


def _refuse_a_full_folder(args, op) -> None:
    """--out names a folder that holds something other than this target's own port: say
    what; --force drafts there (the pipeline keeps the folder as it was in the run folder).
    This target's own draft is drafted again, as its default folder is."""
    out = _out(args)
    if out is not None:
        refuse_foreign(out, op, args.force, _FULL_HINT)


# -- runs --------------------------------------------------------------------------------

def _runs_arguments(p) -> None:
    p.add_argument("action", choices=("show",))
    p.add_argument("folder", metavar="RUN_DIR")


def cmd_runs(args) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise WorkbenchError(f"{folder}: not a run folder", "runs live in runs/<op>/<timestamp>/")
    for artifact in read_artifacts(folder):
        print(f"{artifact.stage:14} #{artifact.attempt} {artifact.verdict:16} "
              f"{artifact.seconds:7.2f}s  {artifact.summary}")
        for key in ("diagnostics", "evidence"):
            for item in (artifact.data.get(key) or [])[:8]:
                print(f"{'':18}{item}")
        for owner in artifact.data.get("owners") or []:
            print(f"{'':18}owner of case {owner['case']} ({owner['failure']}): "
                  f"{owner['owner']}: {owner['summary']}")
        if artifact.stage == "diff_analysis" and artifact.data.get("owner") not in (None, "none"):
            stage = artifact.data.get("fix_stage")
            print(f"{'':18}=> owner {artifact.data['owner']}"
                  + (f", fixed in {stage}" if stage else ", not the port's to fix")
                  + (f"; reproduction: {artifact.data['repro']}" if artifact.data.get("repro") else ""))
    return EXIT_OK


# -- build -------------------------------------------------------------------------------

def _build_arguments(p) -> None:
    p.add_argument("ops", nargs="*", metavar="TARGET",
                   help="catalog operators (default: every one with a port)")
    p.add_argument("--out", metavar="DIR", help="the port's folder, with one TARGET")


def cmd_build(args) -> int:
    if args.out and len(args.ops) != 1:
        raise WorkbenchError("--out goes with exactly one TARGET", "name the kernel the port is of")
    ops = [resolve_target(name, out=args.out) for name in args.ops] or \
        [o for o in load_catalog().values() if has_port(o)]
    failed = False
    for op in ops:
        result = build(op)
        print(result.summary())
        failed |= not result.ok
    return EXIT_FAIL if failed else EXIT_OK


# -- doctor ------------------------------------------------------------------------------

def _doctor_arguments(p) -> None:
    p.add_argument("--json", action="store_true")


def cmd_doctor(args) -> int:
    checks = run_checks()
    if args.json:
        print(json.dumps([c.to_json() for c in checks], indent=1))
    else:
        print_report(checks)
    return EXIT_OK if all(c.status != "fail" or not c.required for c in checks) else EXIT_FAIL


VERBS = (
    Verb("port", _port_arguments, cmd_port),
    Verb("runs", _runs_arguments, cmd_runs),
    Verb("build", _build_arguments, cmd_build),
    Verb("doctor", _doctor_arguments, cmd_doctor),
)
