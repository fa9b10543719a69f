"""The drafting pipeline's stages, one function each: analyze, write kernel, write host/FFI,
build, IR diff, GPU check, perf, diff analysis. Each takes the run's context and returns the
stage's Artifact (recorded in the run folder). The pipeline runs them in order; the agent
drafter's tools call the same functions.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ..operators import Operator, display_path
from ..errors import ToolError, WorkbenchError
from .artifacts import Artifact, write_artifact
from .drafters import Drafter
from . import triton_stages
from ..check.perf import PerfResult, judge, perf_gate, time_port
from ..check.report import ANY, check_operator
from ..check.triton_side import check_triton_port
from ..ownership.owner import decide
from ..ownership.pairs import operator_diff
from ..rust.cargo import build, in_workspace
from ..rust.emit import EMITTER
from ..rust.standalone import make_standalone
from .analyze import analyze

STAGES = ["analyze", "write_kernel", "write_host", "build", "ir_diff", "gpu_check", "perf"]
RUN_CAPS = {"write_kernel": 3, "write_host": 2, "build": 4, "fix": 3}


@dataclass
class RunContext:
    op: Operator
    folder: Path                 # runs/<op>/<timestamp>
    port: Path                   # where the port's files go
    drafter: Drafter             # rules or agent drafter
    artifacts: list[Artifact] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    triton: object = None        # a Triton source's TritonTarget (triton_stages.py)

    def record(self, artifact: Artifact) -> Artifact:
        self.counts[artifact.stage] = self.counts.get(artifact.stage, 0) + 1
        artifact.attempt = self.counts[artifact.stage]
        write_artifact(self.folder, len(self.artifacts) + 1, artifact)
        self.artifacts.append(artifact)
        return artifact

    def last(self, stage: str) -> Artifact | None:
        return next((a for a in reversed(self.artifacts) if a.stage == stage), None)

    def over_cap(self, stage: str) -> bool:
        return self.counts.get(stage, 0) >= RUN_CAPS.get(stage, 1)


def _timed(fn):
    def wrapper(ctx: RunContext) -> Artifact:
        start = time.perf_counter()
        artifact = fn(ctx)
        artifact.seconds = time.perf_counter() - start
        return ctx.record(artifact)
    return wrapper


@_timed
def stage_analyze(ctx: RunContext) -> Artifact:
    source = ctx.op.kernel_file.read_text()
    spec = analyze(source, str(ctx.op.kernel_file), ctx.op.kernel_name, list(ctx.op.cases))
    raw = spec.to_json()
    unsupported = raw.get("unsupported") or []
    return Artifact("analyze", "UNSUPPORTED" if unsupported else "OK",
                    f"{len(raw.get('params', []))} parameters", {"spec": raw})


def _drafter_error(stage: str, error: WorkbenchError, ctx: RunContext, **empty) -> Artifact:
    """A drafter that could not write its files: the stage's ERROR, with its first line."""
    return Artifact(stage, "ERROR", str(error).splitlines()[0],
                    {"files": [], **empty, "drafter": ctx.drafter.name})


@_timed
def stage_write_kernel(ctx: RunContext) -> Artifact:
    try:
        draft = ctx.drafter.write_kernel(ctx)
    except WorkbenchError as e:
        return _drafter_error("write_kernel", e, ctx, diagnostics=[])
    _write_files(ctx.port, {k: v for k, v in draft.files.items() if k.startswith("src/kernel")})
    diagnostics = [d.to_json() for d in draft.diagnostics]
    capped = any(d.get("construct") == "run cap" for d in diagnostics)
    verdict = "DRAFTED" if draft.ok else "CAP_REACHED" if capped else "UNSUPPORTED"
    summary = ("kernel drafted" if draft.ok else
               "; ".join(f"line {d['line']}: {d['construct']}" for d in diagnostics)[:300])
    return Artifact("write_kernel", verdict, summary,
                    {"files": sorted(draft.files), "diagnostics": diagnostics,
                     "drafter": ctx.drafter.name})


@_timed
def stage_write_host(ctx: RunContext) -> Artifact:
    try:
        files = ctx.drafter.write_host(ctx)
    except WorkbenchError as e:
        return _drafter_error("write_host", e, ctx)
    _write_files(ctx.port, files)
    if "Cargo.toml" in files and not in_workspace(ctx.op):
        make_standalone(ctx.port)
    return Artifact("write_host", "DRAFTED", f"{len(files)} files",
                    {"files": sorted(files), "drafter": ctx.drafter.name})


@_timed
def stage_build(ctx: RunContext) -> Artifact:
    result = build(ctx.op)
    diagnostics = [{"level": d.level, "message": d.message, "file": d.file, "line": d.line,
                    "column": d.column, "rendered": d.rendered}
                   for d in result.diagnostics if d.level == "error"]
    ok = result.status in ("built", "up-to-date", "prebuilt")
    return Artifact("build", "BUILT" if ok else "BUILD_FAILED",
                    result.summary().splitlines()[0],
                    {"library": str(result.library) if ok and result.library else None,
                     "diagnostics": diagnostics})


@_timed
def stage_ir_diff(ctx: RunContext) -> Artifact:
    cases, verdicts = [], []
    for case in ctx.op.cases:
        try:
            report = operator_diff(ctx.op, case.index)
        except ToolError as e:
            if e.tool != EMITTER:
                raise
            verdicts.append("FAIL")         # the port built, but its kernel emits no Tile IR
            cases.append({"case": case.index, "verdict": "FAIL", "counts": {},
                          "findings": [_emission_failure(e, ctx.port)]})
            continue
        verdicts.append(report.verdict)
        cases.append({"case": case.index, "verdict": report.verdict, "counts": report.counts(),
                      "findings": [f.to_json() for f in report.findings
                                   if f.category != "noise"][:40]})
    verdict = "FAIL" if "FAIL" in verdicts else \
        "PASS_WITH_NOTES" if "PASS_WITH_NOTES" in verdicts else "PASS"
    return Artifact("ir_diff", verdict, ", ".join(f"case {c['case']}: {c['verdict']}" for c in cases),
                    {"cases": cases})


def _emission_failure(error, port: Path) -> dict:
    """A finding (the IR diff's JSON shape) for a port whose kernel cutile cannot compile,
    at the kernel.rs line cutile names (`--> src/kernel.rs:12:71`) when it names one."""
    import re
    lines = [line.strip(" |") for line in error.stderr.strip().splitlines() if line.strip(" |")]
    spans = [m for m in (re.match(r"-->\s*(\S+):(\d+):(\d+)", line) for line in lines) if m]
    said = [line for line in lines if not line.startswith("-->")]
    detail = (said[-1] if said else error.message).split(".so): ", 1)[-1]
    right = None
    if spans:
        file, line, col = spans[-1].groups()
        right = {"ir_line": None, "text": "", "source": f"{display_path(port / file)}:{line}:{col}"}
    return {"category": "critical", "kind": "rust ir", "detail": detail, "left": None,
            "right": right, "noise_id": None, "severity": "error"}


@_timed
def stage_gpu_check(ctx: RunContext) -> Artifact:
    if ctx.triton is not None:
        return _check_translation(ctx)
    if ctx.op.record is None and not (ctx.op.folder / "reference.py").exists():
        reason = ("no reference to check against: record a call of your own host code "
                  "(`workbench record SCRIPT.py`), then port with --record, and the port is "
                  "checked against your own kernel")
        return Artifact("gpu_check", "SKIPPED", reason, {"reason": reason, "results": []})
    response = check_operator(ctx.op, on=ANY)
    verdict = {"ok": "PASS", "skipped": "SKIPPED"}.get(response.status, "FAIL")
    summary = response.reason or response.status
    if response.device.get("kind") == "cpu":
        summary = f"on the CPU (no CUDA device): the Tile IR interpreter: {summary}"
    return Artifact("gpu_check", verdict, summary,
                    {"reason": response.reason, "results": response.results,
                     "owners": response.owners})


def _check_translation(ctx: RunContext) -> Artifact:
    """The port and its derived kernel against the Triton kernel itself: on the GPU, else on
    the CPU (Triton's interpreter against the Tile IR interpreter, check/triton_cpu.py)."""
    response, where = check_triton_port(ctx.triton, ctx.op), "on the GPU"
    if response.status == "skipped":
        from ..check.triton_cpu import check_translation_on_cpu   # interpreter: 0.9 s import
        gpu_reason = response.reason
        response = check_translation_on_cpu(ctx.triton, ctx.op)
        where = (f"on the CPU ({gpu_reason}): Triton's interpreter against the Tile IR "
                 "interpreter")
    verdict = {"ok": "PASS", "skipped": "SKIPPED"}.get(response.status, "FAIL")
    ran = [r for r in response.results if not all(s.get("skipped") for s in r["sides"].values())]
    summary = (f"{where}: {response.status}, {len(ran)} of {len(response.results)} cases ran"
               + (f"; {response.reason}" if response.reason else ""))
    return Artifact("gpu_check", verdict, summary,
                    {"reason": response.reason, "results": response.results})


def stage_perf(ctx: RunContext) -> Artifact:
    """The perf gate, then, when the port is slower than the gate allows, the investigation
    of its slowest case (a `perf_investigation` artifact: the evidence and the owner)."""
    artifact = stage_perf_gate(ctx)
    if artifact.verdict == "PERF_FAIL":
        stage_perf_investigation(ctx)
    return artifact


@_timed
def stage_perf_investigation(ctx: RunContext) -> Artifact:
    """Why the port is slow (check/investigate.py), on the perf gate's slowest case; the
    owner and the fix stage, as diff_analysis gives them for a wrong port."""
    from ..check.investigate import investigate     # the interpreter's (ml_dtypes: 0.9 s)
    perf = ctx.last("perf")
    slowest = max((c for c in perf.data["cases"] if c.get("ratio")), key=lambda c: c["ratio"])
    try:
        found = investigate(ctx.op, slowest["case"], slowest["ratio"])
    except WorkbenchError as e:
        return Artifact("perf_investigation", "ERROR", str(e).splitlines()[0],
                        {"owner": "undetermined", "case": slowest["case"], "evidence": [],
                         "fix_stage": None})
    return Artifact("perf_investigation", found.verdict, found.summary,
                    {"owner": found.owner, "case": found.case, "ratio": found.ratio,
                     "evidence": found.evidence, "fix_stage": found.fix_stage})


@_timed
def stage_perf_gate(ctx: RunContext) -> Artifact:
    """The perf gate (check/perf.py): the port's device time against its reference's, per
    case, on a GPU, once the GPU check passed; a slow port does not fail the run."""
    gate = perf_gate()
    check = ctx.last("gpu_check")
    if check is None or check.verdict != "PASS":
        why = ("the GPU check did not run" if check is None else
               f"the GPU check is {check.verdict}: {check.summary}" if check.verdict == "SKIPPED"
               else "the GPU check failed: the time of a wrong port says nothing")
        result = PerfResult("SKIPPED", why, gate)
    else:
        status, cases = time_port(ctx.op, ctx.triton)
        result = judge(cases, gate) if status == "ok" else PerfResult("SKIPPED", status, gate)
    return Artifact("perf", result.verdict, result.summary, result.to_json())


@_timed
def stage_diff_analysis(ctx: RunContext) -> Artifact:
    """Who owns the fix: the kernel, the host side (C ABI, manifest), the compiler or the
    reference (workbench/ownership/owner.py decides). `fix_stage` is the stage the fix loop
    goes back to (none when the fault is not the port's)."""
    build, diff, check = ctx.last("build"), ctx.last("ir_diff"), ctx.last("gpu_check")
    decision = decide(
        build.data["diagnostics"] if build and build.verdict == "BUILD_FAILED" else None,
        diff.data["cases"] if diff and diff.verdict == "FAIL" else None,
        dict(check.data, summary=check.summary) if check and check.verdict == "FAIL" else None)
    if decision is None:
        return Artifact("diff_analysis", "NOTHING_TO_FIX", "no failure",
                        {"owner": "none", "kind": "none", "evidence": [], "fix_stage": None})
    return Artifact("diff_analysis", decision.verdict, decision.summary,
                    {"owner": decision.owner, "kind": decision.kind,
                     "evidence": [decision.lead()] + decision.evidence,
                     "fix_stage": decision.fix_stage, "finding": decision.finding,
                     **decision.extra})


def _triton_stage(name):
    @_timed
    def run(ctx: RunContext) -> Artifact:
        return getattr(triton_stages, f"stage_{name}")(ctx)
    return run


TRITON_STAGES = ["translate"] + STAGES[:5] + ["corpus_diff", "gpu_check", "perf"]


def stages_for(ctx: RunContext) -> list[str]:
    return TRITON_STAGES if ctx.triton is not None else STAGES


STAGE_FUNCTIONS = {"translate": _triton_stage("translate"),
                   "corpus_diff": _triton_stage("corpus_diff"), "analyze": stage_analyze, "write_kernel": stage_write_kernel,
                   "write_host": stage_write_host, "build": stage_build,
                   "ir_diff": stage_ir_diff, "gpu_check": stage_gpu_check, "perf": stage_perf}


def _write_files(port: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = port / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
