"""Verbs that read Tile IR and machine code, with no GPU: ir, diff, sass, specialize."""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import WorkbenchError
from .common import EXIT_FAIL, EXIT_OK, Verb, add_target, case_index, target_operator
from ..argspec import parse_arg, parse_const
from ..catalog import all_families, load_catalog
from ..diff import diff_modules
from ..diff.facts import FactContext
from ..diff.html import write_html
from ..diff.verdict import FAIL, PASS, PASS_WITH_NOTES
from ..ir.export import export_bytecode
from ..ir.lexer import ParseError
from ..ir.normalize import RULES, normalize
from ..ir.parse import parse
from ..ir.printer import print_module
from ..ir.serialize import to_json
from ..ir.stages import operator_python_ir, python_ir
from ..ownership.evidence import compare_sass
from ..ownership.pairs import operator_diff, side_bytecode
from ..ownership.toolchain import toolchain_diff
from ..port.triton_stages import translated
from ..resolve import resolve_target
from ..rust.emit import operator_rust_ir
from ..sass.diff import diff_sass
from ..sass.stages import attribute, sass_of
from ..sources.kernel import load_operator_kernel
from ..specialize import explore, format_exploration


# -- ir ----------------------------------------------------------------------------------

def _ir_arguments(p) -> None:
    add_target(p, required=False)
    p.add_argument("--stage", choices=("raw", "normalized"), default="raw")
    p.add_argument("--side", choices=("python", "rust", "triton"), default="python",
                   help="python: the kernel's Tile IR (a Triton kernel's derived cuTile kernel); "
                        "rust: the port's; triton: a Triton kernel's own TTIR")
    p.add_argument("--parse", metavar="FILE.tileir", help="parse a Tile IR text file")
    p.add_argument("--json", action="store_true", help="print the parsed model as JSON")
    p.add_argument("--explain", action="store_true",
                   help="list the normalization rules (with --stage normalized)")
    p.add_argument("--disable", action="append", default=[], metavar="RULE",
                   help="switch a normalization rule off")
    p.add_argument("--all", action="store_true", help="every case of every catalog operator")


def cmd_ir(args) -> int:

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

    disabled = tuple(args.disable)
    if args.parse:
        text = read_text(args.parse, "Tile IR file")
        module = parse(text, source=args.parse)
        return (normalize(module, disabled) if args.stage == "normalized" else module), text
    if not args.target and not args.record:
        raise WorkbenchError("name a TARGET, --record REC.json or --parse FILE.tileir",
                             "try `workbench ir softmax`")
    op = target_operator(args)
    if op.language == "triton":
        op, ttir = translated(op)
        if args.side == "triton":
            if args.stage != "raw" or args.json:
                raise WorkbenchError("TTIR is Triton's dialect: printed as Triton wrote it",
                                     "drop --stage normalized / --json for --side triton")
            return None, ttir
    elif args.side == "triton":
        raise WorkbenchError(f"{op.name} is a cuTile kernel: it has no TTIR",
                             "--side python or rust")
    result = (operator_rust_ir if args.side == "rust" else operator_python_ir)(
        op, case_index(op, args.case))
    return result.module(args.stage, disabled), result.text


def _print_all_operators(args) -> int:

    for op in load_catalog().values():
        for case in op.cases:
            result = operator_python_ir(op, case.index)
            module = result.module(args.stage, tuple(args.disable))
            ops = sum(1 for _ in module.walk())
            print(f"// ===== {op.name} {case.label()} ({ops} ops) =====")
            print(f"// {result.symbol}")
            print(print_module(module))
    return EXIT_OK


def read_text(path_text: str, what: str) -> str:
    try:
        return Path(path_text).read_text()
    except OSError as e:
        raise WorkbenchError(f"{path_text}: cannot read the {what}: {e.strerror}",
                             "check the path")


# -- diff --------------------------------------------------------------------------------

def _diff_arguments(p) -> None:
    add_target(p, required=False)
    p.add_argument("--left", metavar="A.tileir", help="compare two IR text files")
    p.add_argument("--right", metavar="B.tileir")
    p.add_argument("--json", action="store_true", help="the verdict as JSON (workbench.diff/1)")
    p.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page")
    p.add_argument("--noise", action="store_true", help="show noise findings too")
    p.add_argument("--sass", action="store_true",
                   help="also compile both sides to sm_90 SASS and show what each finding costs")
    p.add_argument("--toolchain", action="append", default=[], metavar="VERSION",
                   help="twice: each side compiled by two tileiras versions (`workbench "
                        "toolchain list`), every difference classified")


def cmd_diff(args) -> int:
    if args.toolchain:
        return _diff_toolchains(args)

    op = None
    if args.left or args.right:
        if not (args.left and args.right):
            raise WorkbenchError("--left and --right go together", "give both files")
        left, right = _read_side(args.left, "left"), _read_side(args.right, "right")
        report = diff_modules(left, right, left_label="left", right_label="right")
        title = f"{args.left} vs {args.right}"
    elif args.target and _family_entries(args.target):
        return _diff_family(args, args.target, _family_entries(args.target))
    elif args.target or args.record:
        op = target_operator(args)
        if op.language == "triton":      # the port is diffed against the derived kernel
            op, _ = translated(op)
        args.case = case_index(op, args.case)
        report = operator_diff(op, args.case)
        title = f"{args.target or op.summary} case {args.case}: Python kernel vs Rust port"
    else:
        raise WorkbenchError("name a TARGET, or give --left A.tileir --right B.tileir",
                             "try `workbench diff softmax`")
    if args.html:
        write_html(report, title, args.html)
    sass = _sass_for_diff(op, args.case, report) if args.sass and op is not None else None
    if args.json:
        data = report.to_json()
        if sass is not None:
            data["sass"] = sass
        print(json.dumps(data, indent=1))
    else:
        print(report.to_text(args.noise))
        if sass is not None:
            print("\nSASS (sm_90), python | rust:\n" + sass["table"])
            for line in sass["attributed"]:
                print("  " + line)
    return EXIT_FAIL if report.verdict == FAIL else EXIT_OK


def _diff_toolchains(args) -> int:
    if len(args.toolchain) != 2 or not args.target:
        raise WorkbenchError("--toolchain compares one target under two versions",
                             "e.g. workbench diff softmax --toolchain 13.4.92 --toolchain 13.5.37")
    op = target_operator(args)
    report = toolchain_diff(op, case_index(op, args.case), args.toolchain)
    print(json.dumps(report.to_json(), indent=1) if args.json else "\n".join(report.lines()))
    return EXIT_OK


def _family_entries(name: str):
    """The entries of a family of several (a TileGym module), with the steps of its chain
    that are other families' kernels (on this family's cases), else None."""
    family = all_families().get(name)
    if family is None:
        return None
    ops = list(family.entries) + [s for s in family.steps if s not in family.entries]
    return ops if len(ops) > 1 else None


def _diff_family(args, family: str, entries) -> int:
    """Every entry's diff for one case (each entry's first without --case), judged as a
    single entry's is (operator_diff: its promises read from its own port): a verdict per
    entry, the family's the worst of them; the exit code follows it."""
    _family_options(args, family, entries)
    reports = {}
    for op in entries:
        case = case_index(op, args.case)
        found = any(c.index == case for c in op.cases)
        # None: the entry's launcher does not take this case
        reports[op.name] = (case, operator_diff(op, case)) if found else None
    verdicts = [r[1].verdict for r in reports.values() if r]
    worst = next((v for v in (FAIL, PASS_WITH_NOTES, PASS) if v in verdicts), "NOT_APPLICABLE")
    if args.json:
        print(json.dumps({name: dict(r[1].to_json(), case=r[0]) if r else
                          {"verdict": "NOT_APPLICABLE"} for name, r in reports.items()}, indent=1))
    else:
        for name, found in reports.items():
            print(f"== {name} case {found[0] if found else args.case}")
            print(found[1].to_text(args.noise) if found else
                  "not applicable: this entry's launcher does not take the case")
        print(f"== {family}: {worst} (the worst of its {len(verdicts)} entries' verdicts)")
    return EXIT_FAIL if worst == FAIL else EXIT_OK


def _family_options(args, family: str, entries) -> None:
    """What a family's diff cannot do, said before any entry is diffed."""
    if args.html or args.sass:
        raise WorkbenchError(f"--html and --sass show one entry's diff, and {family} "
                             f"has {len(entries)} entries", "name one: " + ", ".join(e.name for e in entries))
    if args.case is not None and not any(c.index == args.case for e in entries
                                         for c in e.cases):
        known = sorted({c.index for e in entries for c in e.cases})
        raise WorkbenchError(f"{family} has no case {args.case}",
                             f"pick --case from {', '.join(map(str, known))}")


def _sass_for_diff(op, case: int, report) -> dict:
    left, right = (sass_of(side_bytecode(op, side, case)) for side in ("python", "rust"))
    sdiff = diff_sass(left.instructions, right.instructions, left.summary, right.summary)
    attributed = []
    for f in report.findings:
        if f.category in ("critical", "perf", "hint", "arithmetic"):
            changes = attribute(f.kind, left.summary, right.summary)
            attributed.append(f"[{f.kind}] {f.detail}: " + ("; ".join(changes) if changes else
                                                             "no SASS change attributed"))
    return {"table": sdiff.text(), "attributed": attributed,
            "python": left.summary.to_json(), "rust": right.summary.to_json()}


def _read_side(path_text: str, side: str):
    text = read_text(path_text, f"{side} side")
    try:
        return normalize(parse(text, source=path_text))
    except ParseError as e:
        raise WorkbenchError(f"{side} side: {e.message}", e.hint)


# -- sass --------------------------------------------------------------------------------

def _sass_arguments(p) -> None:
    add_target(p)
    p.add_argument("--side", choices=("python", "rust", "triton"), default="python",
                   help="python: the kernel's Tile IR (a Triton kernel's derived cuTile kernel); "
                        "rust: the port's; triton: a Triton kernel's own TTIR")
    p.add_argument("--summary", action="store_true", help="the summary only")
    p.add_argument("--json", action="store_true")


def cmd_sass(args) -> int:
    op = target_operator(args)
    result = sass_of(side_bytecode(op, args.side, case_index(op, args.case)))
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


# -- specialize --------------------------------------------------------------------------

def _specialize_arguments(p) -> None:
    p.add_argument("target", metavar="TARGET",
                   help="a catalog operator, FILE.py:KERNEL or MODULE:KERNEL")
    p.add_argument("--call", action="append", default=[], metavar="'ARG ARG ...'",
                   help="one call: arguments in parameter order, e.g. 'f32[4096] f32[4096] i32'")
    p.add_argument("--const", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--diff", nargs=2, type=int, metavar=("I", "J"),
                   help="structural IR diff between the kernels of calls I and J")
    p.add_argument("--json", action="store_true")


def cmd_specialize(args) -> int:

    op = resolve_target(args.target)
    kernel = load_operator_kernel(op)
    default_calls = [" ".join(str(a) for a in c.args) for c in op.cases]
    consts = dict(op.cases[0].consts) if op.cases else {}
    consts.update(dict(parse_const(c) for c in args.const))
    call_texts = args.call or default_calls
    if not call_texts:
        raise WorkbenchError(f"{args.target}: no calls given and no cases to take them from",
                             "add --call 'f32[4096] f32[4096] i32'")
    calls = [[parse_arg(a) for a in text.split()] for text in call_texts]
    results = explore(kernel, calls, consts, call_texts)
    if args.diff:
        return _specialization_diff(kernel, calls, consts, args.diff, args.json)
    print(json.dumps([r.to_json() for r in results], indent=1) if args.json
          else format_exploration(kernel, results))
    return EXIT_OK


def _specialization_diff(kernel, calls, consts, pair, as_json) -> int:
    i, j = pair
    if not (0 <= i < len(calls) and 0 <= j < len(calls)):
        raise WorkbenchError(f"--diff {i} {j}: there are {len(calls)} calls", "pick two of them")
    left = python_ir(kernel, calls[i], consts).module("normalized")
    right = python_ir(kernel, calls[j], consts).module("normalized")
    sass = lambda k: sass_of(export_bytecode(kernel, calls[k], consts)[0])     # noqa: E731
    # both calls' facts come from the JIT's specialization of each call: none is fixed
    context = FactContext(port_fixed={}, evidence=lambda: compare_sass(
        sass(i), sass(j), f"the kernels of call {i} and call {j}"))
    report = diff_modules(left, right, left_label=f"call {i}", right_label=f"call {j}",
                          context=context)
    print(json.dumps(report.to_json(), indent=1) if as_json else report.to_text())
    return EXIT_OK


VERBS = (
    Verb("ir", _ir_arguments, cmd_ir),
    Verb("diff", _diff_arguments, cmd_diff),
    Verb("sass", _sass_arguments, cmd_sass),
    Verb("specialize", _specialize_arguments, cmd_specialize),
)
