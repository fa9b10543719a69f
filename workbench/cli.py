"""`workbench ...`: every stage printable on demand."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .errors import WorkbenchError

EXIT_OK, EXIT_FAIL, EXIT_ERROR = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "handler"):
        parser.print_help()
        return EXIT_ERROR
    from .ir.lexer import ParseError
    try:
        return args.handler(args)
    except (WorkbenchError, ParseError) as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_OK


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="workbench", description=__doc__)
    sub = parser.add_subparsers(metavar="COMMAND")

    ir = sub.add_parser("ir", help="print the Tile IR of an operator or a kernel file")
    ir.add_argument("target", nargs="?",
                    help="a bundled operator, or FILE.py:KERNEL (with --arg/--const)")
    ir.add_argument("--case", type=int, default=0, help="operator case index (default 0)")
    ir.add_argument("--stage", choices=("raw", "normalized"), default="raw")
    ir.add_argument("--side", choices=("python", "rust"), default="python")
    ir.add_argument("--arg", action="append", default=[], metavar="SPEC",
                    help="one per runtime parameter: DTYPE[SHAPE] or DTYPE")
    ir.add_argument("--const", action="append", default=[], metavar="NAME=VALUE")
    ir.add_argument("--parse", metavar="FILE.tileir", help="parse a Tile IR text file")
    ir.add_argument("--json", action="store_true", help="print the parsed model as JSON")
    ir.add_argument("--explain", action="store_true",
                    help="list the normalization rules (with --stage normalized)")
    ir.add_argument("--disable", action="append", default=[], metavar="RULE",
                    help="switch a normalization rule off")
    ir.add_argument("--all", action="store_true", help="every case of every bundled operator")
    ir.set_defaults(handler=_cmd_ir)

    diff = sub.add_parser("diff", help="structural Tile IR diff: the Python kernel vs its port")
    diff.add_argument("target", nargs="?", help="a bundled operator with a Rust port")
    diff.add_argument("--case", type=int, default=0)
    diff.add_argument("--left", metavar="A.tileir", help="compare two IR text files")
    diff.add_argument("--right", metavar="B.tileir")
    diff.add_argument("--json", action="store_true", help="the verdict as JSON (workbench.diff/1)")
    diff.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page")
    diff.add_argument("--noise", action="store_true", help="show noise findings too")
    diff.add_argument("--sass", action="store_true",
                      help="also compile both sides to sm_90 SASS and show what each finding costs")
    diff.set_defaults(handler=_cmd_diff)

    build = sub.add_parser("build", help="build a port if its sources changed (lazy, hot-reloadable)")
    build.add_argument("ops", nargs="*", help="operators (default: every one with a port)")
    build.set_defaults(handler=_cmd_build)

    check = sub.add_parser("check", help="on-GPU correctness: Python kernel, Rust port, torch")
    check.add_argument("op")
    check.add_argument("--case", type=int, action="append", help="default: every case")
    check.add_argument("--sides", default="python,rust", help="python,rust (default both)")
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=_cmd_check)

    bench = sub.add_parser("bench", help="on-GPU performance and parity (Python time / Rust time)")
    bench.add_argument("ops", nargs="*", help="default: every operator with a port")
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--html", metavar="FILE", help="write a report (with a parity chart PNG)")
    bench.set_defaults(handler=_cmd_bench)

    spec = sub.add_parser("specialize",
                          help="JIT vs AOT: what each call compiles, what a port must declare")
    spec.add_argument("target", help="a bundled operator or FILE.py:KERNEL")
    spec.add_argument("--call", action="append", default=[], metavar="'ARG ARG ...'",
                      help="one call: arguments in parameter order, e.g. 'f32[4096] f32[4096] i32'")
    spec.add_argument("--const", action="append", default=[], metavar="NAME=VALUE")
    spec.add_argument("--diff", nargs=2, type=int, metavar=("I", "J"),
                      help="structural IR diff between the kernels of calls I and J")
    spec.add_argument("--json", action="store_true")
    spec.set_defaults(handler=_cmd_specialize)

    sass = sub.add_parser("sass", help="sm_90 SASS of a kernel (compiled here, no GPU)")
    sass.add_argument("target", help="a bundled operator or FILE.py:KERNEL")
    sass.add_argument("--side", choices=("python", "rust"), default="python")
    sass.add_argument("--case", type=int, default=0)
    sass.add_argument("--arg", action="append", default=[], metavar="SPEC")
    sass.add_argument("--const", action="append", default=[], metavar="NAME=VALUE")
    sass.add_argument("--summary", action="store_true", help="the summary only")
    sass.add_argument("--json", action="store_true")
    sass.set_defaults(handler=_cmd_sass)

    port = sub.add_parser("port", help="draft a Rust port: analyze, write, build, diff, check")
    port.add_argument("target", nargs="?", help="a bundled operator or FILE.py:KERNEL")
    port.add_argument("--drafter", choices=("rules", "agent"), default="rules")
    port.add_argument("--model", help="the agent's model (default $WORKBENCH_AGENT_MODEL)")
    port.add_argument("--arg", action="append", default=[], metavar="SPEC")
    port.add_argument("--const", action="append", default=[], metavar="NAME=VALUE")
    port.add_argument("--out", metavar="DIR", help="where the port goes (default: the operator's port/)")
    port.add_argument("--all", action="store_true", help="every catalog operator, unattended")
    port.add_argument("--resume", metavar="RUN_DIR", help="continue a run folder")
    port.add_argument("--from", dest="resume_from", metavar="STAGE", help="with --resume: rerun from STAGE")
    port.set_defaults(handler=_cmd_port)

    runs = sub.add_parser("runs", help="look at drafting runs")
    runs.add_argument("action", choices=("show",))
    runs.add_argument("folder", metavar="RUN_DIR")
    runs.set_defaults(handler=_cmd_runs)

    doctor = sub.add_parser("doctor", help="check the toolchain and say how to fix it")
    doctor.add_argument("--json", action="store_true")
    doctor.set_defaults(handler=_cmd_doctor)
    return parser


def _cmd_ir(args) -> int:
    from .ir.model import print_module
    from .ir.normalize import RULES
    from .ir.serialize import to_json

    if args.explain:
        for rule in RULES:
            state = "off" if rule.name in args.disable else "on "
            print(f"{state} {rule.name:22} {rule.summary}")
        return EXIT_OK
    if args.all:
        return _print_all_operators(args)
    module, raw_text = _ir_module(args)
    if args.json:
        print(json.dumps(to_json(module), indent=1))
    elif args.stage == "raw":
        print(raw_text, end="")          # exactly what the tool printed
    else:
        print(print_module(module), end="")
    return EXIT_OK


def _ir_module(args):
    from .argspec import parse_arg, parse_const
    from .catalog import get_operator
    from .ir.parse import parse
    from .ir.normalize import normalize
    from .ir.stages import file_python_ir, operator_python_ir

    disabled = tuple(args.disable)
    if args.parse:
        path = Path(args.parse)
        try:
            text = path.read_text()
        except OSError as e:
            raise WorkbenchError(f"{path}: cannot read: {e.strerror}", "check the path")
        module = parse(text, source=str(path))
        return (normalize(module, disabled) if args.stage == "normalized" else module), text
    if not args.target:
        raise WorkbenchError("name an operator, FILE.py:KERNEL, or --parse FILE.tileir",
                             "try `workbench ir softmax`")
    if args.side == "rust":
        from .port.rust_ir import operator_rust_ir
        result = operator_rust_ir(get_operator(args.target), args.case)
    elif ":" in args.target and args.target.split(":")[0].endswith(".py"):
        path, kernel_name = args.target.rsplit(":", 1)
        consts = dict(parse_const(c) for c in args.const)
        result = file_python_ir(path, kernel_name, [parse_arg(a) for a in args.arg], consts)
    else:
        if args.arg or args.const:
            raise WorkbenchError("--arg/--const go with FILE.py:KERNEL; a bundled operator "
                                 "takes --case N", "drop them, or name a kernel file")
        result = operator_python_ir(get_operator(args.target), args.case)
    return result.module(args.stage, disabled), result.text


def _print_all_operators(args) -> int:
    from .catalog import load_catalog
    from .ir.model import print_module
    from .ir.stages import operator_python_ir

    for op in load_catalog().values():
        for case in op.cases:
            result = operator_python_ir(op, case.index)
            module = result.module(args.stage, tuple(args.disable))
            ops = sum(1 for _ in module.walk())
            print(f"// ===== {op.name} {case.label()} ({ops} ops) =====")
            print(f"// {result.symbol}")
            print(print_module(module))
    return EXIT_OK


def _cmd_diff(args) -> int:
    from .diff import diff_modules
    from .diff.html import write_html
    from .diff.verdict import FAIL

    if args.left or args.right:
        if not (args.left and args.right):
            raise WorkbenchError("--left and --right go together", "give both files")
        left, right = _read_side(args.left, "left"), _read_side(args.right, "right")
        report = diff_modules(left, right, left_label="left", right_label="right")
        title = f"{args.left} vs {args.right}"
    elif args.target:
        from .catalog import get_operator
        from .pairs import operator_pair
        left, right = operator_pair(get_operator(args.target), args.case)
        report = diff_modules(left, right)
        title = f"{args.target} case {args.case}: Python kernel vs Rust port"
    else:
        raise WorkbenchError("name an operator, or give --left A.tileir --right B.tileir",
                             "try `workbench diff softmax`")
    if args.html:
        write_html(report, title, args.html)
    sass_text = _sass_for_diff(args, report) if args.sass and args.target else None
    if args.json:
        data = report.to_json()
        if sass_text is not None:
            data["sass"] = sass_text
        print(json.dumps(data, indent=1))
    else:
        print(report.to_text(args.noise))
        if sass_text is not None:
            print("\nSASS (sm_90), python | rust:\n" + sass_text["table"])
            for line in sass_text["attributed"]:
                print("  " + line)
    return EXIT_FAIL if report.verdict == FAIL else EXIT_OK


def _sass_for_diff(args, report) -> dict:
    from .catalog import get_operator
    from .sass.diff import diff_sass
    from .sass.stages import attribute, sass_of
    op = get_operator(args.target)
    from .pairs import side_bytecode
    left, right = (sass_of(side_bytecode(op, side, args.case)) for side in ("python", "rust"))
    sdiff = diff_sass(left.instructions, right.instructions, left.summary, right.summary)
    attributed = []
    for f in report.findings:
        if f.category in ("critical", "hint", "arithmetic"):
            changes = attribute(f.kind, left.summary, right.summary)
            attributed.append(f"[{f.kind}] {f.detail}: " + ("; ".join(changes) if changes else
                                                             "no SASS change attributed"))
    return {"table": sdiff.text(), "attributed": attributed,
            "python": left.summary.to_json(), "rust": right.summary.to_json()}



def _read_side(path_text: str, side: str):
    from .ir.lexer import ParseError
    from .ir.normalize import normalize
    from .ir.parse import parse
    path = Path(path_text)
    try:
        text = path.read_text()
    except OSError as e:
        raise WorkbenchError(f"{side} side: {path}: cannot read: {e.strerror}", "check the path")
    try:
        return normalize(parse(text, source=str(path)))
    except ParseError as e:
        raise WorkbenchError(f"{side} side: {e}", "the file must be tileirdisasm output")


def _cmd_build(args) -> int:
    from .build.cargo import build, has_port
    from .catalog import get_operator, load_catalog
    ops = [get_operator(n) for n in args.ops] or [o for o in load_catalog().values() if has_port(o)]
    failed = False
    for op in ops:
        result = build(op)
        print(result.summary())
        failed |= not result.ok
    return EXIT_FAIL if failed else EXIT_OK


def _cmd_check(args) -> int:
    from .check.report import check_operator, format_check
    from .check.runner import EXIT_SKIPPED
    response = check_operator(args.op, args.case, args.sides.split(","), args.seed)
    print(json.dumps(response.to_json(), indent=1) if args.json else format_check(args.op, response))
    return {"ok": EXIT_OK, "skipped": EXIT_SKIPPED}.get(response.status, EXIT_FAIL)


def _cmd_bench(args) -> int:
    from .check.report import bench_operators, format_bench, write_bench_html
    from .check.runner import EXIT_SKIPPED
    report = bench_operators(args.ops)
    if report["status"] == "skipped":
        print(f"skipped: {report['reason']}")
        return EXIT_SKIPPED
    if args.html:
        write_bench_html(report, args.html)
    print(json.dumps(report, indent=1) if args.json else format_bench(report))
    return EXIT_OK if report["status"] == "ok" else EXIT_FAIL


def _cmd_specialize(args) -> int:
    from .argspec import parse_arg, parse_const
    from .catalog import get_operator, load_catalog
    from .ir.export import load_kernel, load_operator_kernel
    from .specialize import explore, format_exploration

    if ":" in args.target and args.target.split(":")[0].endswith(".py"):
        path, name = args.target.rsplit(":", 1)
        kernel, default_calls, consts = load_kernel(path, name), [], {}
    else:
        op = get_operator(args.target)
        kernel = load_operator_kernel(op)
        default_calls = [" ".join(str(a) for a in c.args) for c in op.cases]
        consts = dict(op.cases[0].consts)
    consts.update(dict(parse_const(c) for c in args.const))
    call_texts = args.call or default_calls
    if not call_texts:
        raise WorkbenchError("no calls given", "add --call 'f32[4096] f32[4096] i32'")
    calls = [[parse_arg(a) for a in text.split()] for text in call_texts]
    results = explore(kernel, calls, consts, call_texts)
    if args.diff:
        return _specialization_diff(kernel, calls, consts, args.diff, args.json)
    print(json.dumps([r.to_json() for r in results], indent=1) if args.json
          else format_exploration(kernel, results))
    return EXIT_OK


def _specialization_diff(kernel, calls, consts, pair, as_json) -> int:
    from .diff import diff_modules
    from .ir.stages import python_ir
    i, j = pair
    if not (0 <= i < len(calls) and 0 <= j < len(calls)):
        raise WorkbenchError(f"--diff {i} {j}: there are {len(calls)} calls", "pick two of them")
    left = python_ir(kernel, calls[i], consts).module("normalized")
    right = python_ir(kernel, calls[j], consts).module("normalized")
    report = diff_modules(left, right, left_label=f"call {i}", right_label=f"call {j}")
    print(json.dumps(report.to_json(), indent=1) if as_json else report.to_text())
    return EXIT_OK


def _cmd_sass(args) -> int:
    from .argspec import parse_arg, parse_const
    from .catalog import get_operator
    from .ir.export import export_bytecode, load_kernel
    from .sass.stages import sass_of
    if ":" in args.target and args.target.split(":")[0].endswith(".py"):
        path, name = args.target.rsplit(":", 1)
        consts = dict(parse_const(c) for c in args.const)
        bytecode = export_bytecode(load_kernel(path, name), [parse_arg(a) for a in args.arg],
                                   consts)[0]
    else:
        from .pairs import side_bytecode
        bytecode = side_bytecode(get_operator(args.target), args.side, args.case)
    result = sass_of(bytecode)
    if args.json:
        print(json.dumps({"summary": result.summary.to_json(),
                          "instructions": [i.normalized() for i in result.instructions]},
                         indent=1))
    elif args.summary:
        print("\n".join(result.summary.lines()))
    else:
        print(result.text, end="")
        print("\n".join(result.summary.lines()))
    return EXIT_OK


def _cmd_port(args) -> int:
    from .port.pipeline import run_pipeline
    from .catalog import load_catalog
    if args.all:
        rows = []
        for name in load_catalog():
            out = Path(args.out) / name / "port" if args.out else None
            result = run_pipeline(name, args.drafter, out=out, model=args.model)
            rows.append((name, result.verdict, result.folder))
            print(result.summary())
        print(f"\n{'operator':14} {'verdict':16} run")
        for name, verdict, folder in rows:
            print(f"{name:14} {verdict:16} {folder}")
        return EXIT_OK if all(v in ("PASS", "PASS_WITH_NOTES") for _, v, _ in rows) else EXIT_FAIL
    if args.resume:
        run_dir = Path(args.resume)
        op_name = run_dir.parent.name
        result = run_pipeline(op_name, args.drafter, out=Path(args.out) if args.out else None,
                              resume=run_dir, resume_from=args.resume_from, model=args.model)
    else:
        if not args.target:
            raise WorkbenchError("name an operator or FILE.py:KERNEL", "try `workbench port softmax`")
        if ":" in args.target and args.target.split(":")[0].endswith(".py"):
            from .adhoc import adhoc_operator
            op = adhoc_operator(args.target, args.arg, args.const)
            out = Path(args.out) if args.out else op.port_folder
            result = run_pipeline(op, args.drafter, out=out, model=args.model)
        else:
            result = run_pipeline(args.target, args.drafter,
                                  out=Path(args.out) if args.out else None, model=args.model)
    print(result.summary())
    return EXIT_OK if result.verdict in ("PASS", "PASS_WITH_NOTES") else EXIT_FAIL


def _cmd_runs(args) -> int:
    from .port.artifacts import read_artifacts
    folder = Path(args.folder)
    if not folder.is_dir():
        raise WorkbenchError(f"{folder}: not a run folder", "runs live in runs/<op>/<timestamp>/")
    for artifact in read_artifacts(folder):
        print(f"{artifact.stage:14} #{artifact.attempt} {artifact.verdict:16} "
              f"{artifact.seconds:7.2f}s  {artifact.summary}")
        for key in ("diagnostics", "evidence"):
            for item in (artifact.data.get(key) or [])[:8]:
                print(f"{'':18}{item}")
    return EXIT_OK


def _cmd_doctor(args) -> int:
    from .doctor import run_checks, print_report
    checks = run_checks()
    if args.json:
        print(json.dumps([c.to_json() for c in checks], indent=1))
    else:
        print_report(checks)
    return EXIT_OK if all(c.status != "fail" or not c.required for c in checks) else EXIT_FAIL


if __name__ == "__main__":
    sys.exit(main())
