"""The pipeline's stages for a Triton source: `translate` first (Triton kernel -> derived
cuTile Python kernel, written into the port's work folder, plus the Triton kernel's TTIR),
then the usual stages on the derived kernel, then `corpus_diff` (the Rust port's Tile IR
against the corpus's own cuTile kernel for the same operator, where there is one). The GPU
check of a Triton source is against the Triton kernel itself (check/triton_side.py).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from ..operators import Operator
from ..errors import WorkbenchError
from .artifacts import Artifact
from ..check.report import triton_bench_report
from ..check.compare import DEFAULT_TOLERANCE
from ..check.runner import has_cuda_driver
from ..check.triton_side import check_triton_port
from ..diff import diff_modules
from ..ir.stages import operator_python_ir
from ..ownership.evidence import case_context
from ..resolve import resolve_target
from ..rust.emit import operator_rust_ir
from ..translate.derive import derive, with_occupancy
from ..translate.ttir import NO_VERDICT, compile_ttir
from .triton_residency import occupancy_hint

DERIVED_LABEL = "derived reference (translated from Triton), not the original"


def derived_file(port: Path, kernel_name: str) -> Path:
    return Path(port).parent / "derived" / f"{kernel_name}.py"


def derived_operator(target, derived, port: Path) -> Operator:
    """The derived cuTile kernel as an Operator the drafter, the build and the diff take."""
    path = derived_file(port, target.kernel_name)
    return Operator(name=target.name.replace(".", "_"),
                    summary=f"{target.kernel_name}, {DERIVED_LABEL}",
                    kernel_name=target.kernel_name,
                    outputs=tuple(o for o in target.outputs if o in derived.params),
                    tolerance=derived_tolerance(target, derived), cases=tuple(derived.cases),
                    folder=path.parent.parent, kernel_path=path, port_path=Path(port))


def derived_tolerance(target, derived) -> dict:
    """The target's tolerances, an f32 output's no tighter than tf32's where the kernel
    multiplies f32 tiles in tf32: Triton's own result is only that exact."""
    tolerance = dict(target.tolerance)
    if derived.translation.tf32_products:
        tolerance["f32"] = max(tolerance.get("f32", DEFAULT_TOLERANCE["f32"]),
                               DEFAULT_TOLERANCE["tf32"])
    return tolerance


def translate_target(target, port: Path, keep_in: Path | None = None,
                     occupancy: tuple | None = None):
    """Translate, write the derived file (an older one is kept in `keep_in`), and return
    (Derived, derived Operator, TTIR text or None, why there is no TTIR). `occupancy`:
    (value, note) found earlier (the GPU host, where Triton's cubin may not be readable)."""
    source = target.source()
    if not target.cases:
        raise WorkbenchError(f"{target.label}: no case: the translator needs the tensors the "
                             "pointers point at", "give --arg per runtime parameter and "
                             "--const per tl.constexpr")
    derived = derive(source, list(target.cases), target.label)
    if derived.ok:
        derived = with_occupancy(derived, *(occupancy or
                                            occupancy_hint(source, list(target.cases))))
    path = derived_file(port, target.kernel_name)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and keep_in is not None and path.read_text() != derived.text:
        shutil.copy2(path, Path(keep_in) / f"previous_{path.name}")
    path.write_text(derived.text)
    ttir, why = None, ""
    try:
        ttir = compile_ttir(source, target.cases[0])
        path.with_suffix(".ttir").write_text(ttir)
    except WorkbenchError as e:
        why = e.message
    return derived, derived_operator(target, derived, port), ttir, why


def translated(op: Operator) -> tuple[Operator, str]:
    """(the derived cuTile kernel's Operator, the Triton kernel's TTIR or a line saying why
    there is none) of a Triton target, translated as the pipeline does: its source read,
    never imported. A translation that stops raises with its first refusal."""
    derived, derived_op, ttir, why = translate_target(op.triton, op.port_folder)
    problems = derived.translation.diagnostics
    if problems or not derived.ok:
        first = problems[0] if problems else {"line": 0, "construct": "translation",
                                              "message": "stopped"}
        raise WorkbenchError(f"{op.triton.label}: line {first['line']}: {first['construct']}: "
                             f"{first['message']}", "see `workbench port` for every refusal")
    return derived_op, ttir if ttir is not None else f"// no TTIR: {why}\n"


def check_against_triton(op: Operator, cpu: bool = False, derived_op: Operator | None = None):
    """A Triton target's port checked against the Triton kernel itself, on the grids of its
    cases: on the GPU, or (cpu) in Triton's interpreter against the Tile IR interpreter.
    `derived_op`: its translation where the caller holds one (else translated here)."""
    derived_op = derived_op or translated(op)[0]
    if cpu:
        from ..check.triton_cpu import check_translation_on_cpu    # the interpreter: slow to import
        return check_translation_on_cpu(op.triton, derived_op)
    return check_triton_port(op.triton, derived_op)


def bench_against_triton(op: Operator, derived_op: Operator | None = None) -> dict:
    """A Triton target's port timed against the Triton kernel itself on a GPU (CUPTI), as
    `bench` reports a cuTile port; skipped with the reason where there is no GPU."""
    if not has_cuda_driver():
        return {"status": "skipped", "reason": "no CUDA device (the bench times the port "
                                               "against the Triton kernel on a GPU)"}
    derived_op = derived_op or translated(op)[0]
    return triton_bench_report(check_triton_port(op.triton, derived_op, mode="bench"),
                               op.name)


def stage_translate(ctx) -> Artifact:
    target = ctx.triton
    try:
        derived, op, ttir, why = translate_target(target, ctx.port, ctx.folder)
    except WorkbenchError as e:
        return Artifact("translate", "UNSUPPORTED", e.message.splitlines()[0],
                        _fields(target, None, [{"line": 0, "construct": "target",
                                                "message": e.message}], None, e.message))
    diagnostics = derived.translation.diagnostics
    if not diagnostics:
        ctx.op = op
    summary = (f"derived {op.kernel_file.name}: {len(derived.params)} parameters, "
               f"{len(derived.notes)} notes" if not diagnostics else
               "; ".join(f"line {d['line']}: {d['construct']}" for d in diagnostics)[:300])
    data = _fields(target, derived, diagnostics, ttir, why)
    data["ttir_note"] = NO_VERDICT
    return Artifact("translate", "UNSUPPORTED" if diagnostics else "TRANSLATED", summary, data)


def _fields(target, derived, diagnostics, ttir, why) -> dict:
    return {"triton": target.to_json(),
            "derived_file": str(derived_file_of(target, derived)) if derived else "",
            "derived_label": DERIVED_LABEL,
            "params": list(derived.params) if derived else [],
            "lines": sorted(derived.lines.items()) if derived else [],
            "diagnostics": diagnostics, "notes": derived.notes if derived else [],
            "ttir": ttir, "ttir_missing": why or None}


def derived_file_of(target, derived) -> str:
    return f"derived/{target.kernel_name}.py"


def stage_corpus_diff(ctx) -> Artifact:
    """The Rust port's Tile IR against the corpus's cuTile kernel of the same operator."""
    corpus = getattr(ctx.triton, "corpus", None)
    if corpus is None:
        return Artifact("corpus_diff", "SKIPPED", "no cuTile kernel of this operator in the "
                        "corpus", {"corpus": None, "cases": []})
    try:
        other = resolve_target(corpus.target, [str(a) for a in corpus.case.args],
                               [f"{k}={v}" for k, v in corpus.case.consts.items()])
        left = operator_python_ir(other, 0).module("normalized")
        right = operator_rust_ir(ctx.op, 0).module("normalized")
    except WorkbenchError as e:
        return Artifact("corpus_diff", "ERROR", e.message.splitlines()[0],
                        {"corpus": corpus.target, "cases": []})
    # where the port's facts come from (re-derived per call, or fixed by its code)
    context = case_context(ctx.op, 0, left, right, sass=False)
    report = diff_modules(left, right, left_label="corpus", right_label="rust", context=context)
    case = {"case": 0, "verdict": report.verdict, "counts": report.counts(),
            "findings": [f.to_json() for f in report.findings if f.category != "noise"][:40]}
    return Artifact("corpus_diff", report.verdict,
                    f"{corpus.target}: {report.verdict} ({meaning(report.verdict)})",
                    {"corpus": corpus.target, "cases": [case]})


def meaning(verdict: str) -> str:
    return {"PASS": "the port emits the corpus kernel's Tile IR",
            "PASS_WITH_NOTES": "the same computation with differences the diff rates as notes",
            "FAIL": "a different kernel: the Triton kernel's algorithm or tiling is not the "
                    "corpus kernel's, so this is not a defect of the port by itself"}.get(
        verdict, verdict)


def ir_pane(target, port: Path) -> dict:
    """What the widget's panes show for a Triton source (data only; workbench/ui draws it):
    the Triton kernel as the original, its TTIR with no structural verdict and the reason,
    and the derived cuTile kernel, labelled as derived, that the port's Tile IR is diffed
    against."""
    derived, op, ttir, why = translate_target(target, port)
    return {"original": "triton", "triton_label": target.label,
            "triton_file": str(target.path), "triton_line": derived.translation and
            target.source().line, "ttir": ttir, "ttir_missing": why or None,
            "verdict": None, "no_verdict": NO_VERDICT,
            "derived_file": str(op.kernel_file), "derived_label": DERIVED_LABEL,
            "derived_source": derived.text, "derived_to_triton_lines": derived.lines,
            "diagnostics": derived.translation.diagnostics}
