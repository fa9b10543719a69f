"""The drafting pipeline: analyze -> write kernel -> write host/FFI -> build -> IR diff ->
GPU check and perf gate (when there is a GPU) -> on failure, diff analysis and a bounded fix
loop. A slow port (PERF_FAIL) is reported, not fixed: its verdict stays the check's.

Every stage writes a JSON artifact (see artifacts.py) with a verdict into
runs/<op>/<timestamp>/; each stage has a run cap, and hitting it ends the run with a
verdict that says so. A run can be resumed from any stage (`resume_from`), and replayed:
the agent's replies are cached by content hash, the rules drafter is deterministic.
"""
from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ..catalog import KERNELS_DIR, REPO_ROOT, Operator, display_path, get_operator
from ..errors import WorkbenchError
from ..rust.tuned import TUNED_FILES
from .artifacts import Artifact, read_artifacts, read_operator, write_operator
from .drafters import Drafter
from .folders import stamp
from .stages import (RUN_CAPS, STAGE_FUNCTIONS, STAGES, RunContext, stage_diff_analysis,
                     stages_for)
from .agent import AgentDrafter
from .rules.drafter import RulesDrafter

RUNS_DIR = REPO_ROOT / "runs"
PREVIOUS = "previous_port"         # in the run folder: the port folder as the run found it


@dataclass
class RunResult:
    folder: Path
    port: Path
    verdict: str
    artifacts: list[Artifact]

    def summary(self) -> str:
        lines = [f"run {self.folder.relative_to(REPO_ROOT) if self.folder.is_relative_to(REPO_ROOT) else self.folder}"]
        if (self.folder / PREVIOUS).is_dir():
            lines.append(f"  (what {display_path(self.port)} held before is kept in "
                         f"{display_path(self.folder / PREVIOUS)})")
        for a in self.artifacts:
            lines.append(f"  {a.stage:14} #{a.attempt} {a.verdict:16} {a.summary}")
        lines.append(f"final verdict: {self.verdict}")
        return "\n".join(lines + self.what_stopped_it())

    def what_stopped_it(self) -> list[str]:
        """The diagnostics of the stage that stopped the run, one `file:line: message` each."""
        stopped = next((a for a in reversed(self.artifacts) if a.stage != "final"
                        and a.verdict in ("UNSUPPORTED", "CAP_REACHED", "BUILD_FAILED")), None)
        if stopped is None:
            return []
        analyze = next((a for a in self.artifacts if a.stage == "analyze"), None)
        kernel_file = analyze.data["spec"]["filename"] if analyze else "kernel"
        lines = [f"{stopped.stage} stopped the run:"]
        for d in stopped.data.get("diagnostics", [])[:20]:
            file = d.get("file") or (kernel_file if stopped.stage != "build" else None)
            where = f"{file}:{d.get('line') or '?'}" if file else stopped.stage
            what = f"{d['construct']}: " if d.get("construct") else ""
            lines.append(f"  {where}: {what}{d['message']}")
        return lines


# -- the run -----------------------------------------------------------------------------

def run_pipeline(target: str | Operator, drafter: str | Drafter = "rules",
                 out: Path | None = None, resume: Path | None = None,
                 resume_from: str | None = None, model: str | None = None,
                 into_catalog: bool = False, runs_dir: Path | None = None,
                 progress=None) -> RunResult:
    """Draft, build, diff and check a port of `target`. The port goes to `out`, else to
    runs/ports/<op>/port for a catalog operator (kernels_src/ itself only with
    `into_catalog`), else to the operator's own port folder. The run folder is
    <runs_dir>/<op>/<time>, runs_dir by default runs/. `progress(stage, number, count)`
    is called as each stage starts (the widget shows it)."""
    op = get_operator(target) if isinstance(target, str) else target
    folder = resume or _new_run_folder(op, runs_dir or RUNS_DIR)
    port = Path(out).expanduser().resolve() if out else draft_folder(op, into_catalog)
    if port.resolve() != op.port_folder.resolve():
        op = op.with_port(port)
    drafter = make_drafter(drafter, model, folder) if isinstance(drafter, str) else drafter
    if getattr(drafter, "log_dir", folder) is None:
        drafter.log_dir = folder
    ctx = RunContext(op, folder, port, drafter, triton=getattr(op, "triton", None))
    if ctx.triton is not None and resume is not None:
        raise WorkbenchError("a Triton run is not resumed: the derived kernel is written "
                             "again by its translate stage", "run `workbench port` again")
    first = 0
    if resume is not None:
        ctx.artifacts = read_artifacts(folder)
        for a in ctx.artifacts:
            ctx.counts[a.stage] = max(ctx.counts.get(a.stage, 0), a.attempt)
        first = STAGES.index(resume_from) if resume_from else len(
            {a.stage for a in ctx.artifacts if a.stage in STAGES})
    else:
        write_operator(folder, op)
        _keep_existing_port(port, folder)
        if not port.resolve().is_relative_to(KERNELS_DIR.resolve()):
            stamp(port, op)         # the folder is op's draft now: --out tells it from others
    verdict = _run_stages(ctx, first, progress)
    final = Artifact("final", verdict, f"{op.name}: {verdict}",
                     {"stages": [f"{a.stage}:{a.verdict}" for a in ctx.artifacts]})
    ctx.record(final)
    return RunResult(folder, port, verdict, ctx.artifacts)


def verify_port(op: Operator, runs_dir: Path | None = None) -> RunResult:
    """A port as it is, with no drafting: the build and IR diff stages, in a run folder that
    `workbench runs show` reads (batch's port stage for a catalog operator). A tool that
    fails in the diff ends the run ERROR; the port still built."""
    folder = _new_run_folder(op, runs_dir or RUNS_DIR)
    write_operator(folder, op)
    ctx = RunContext(op, folder, op.port_folder, drafter=None)
    verdict = "FAIL"
    if STAGE_FUNCTIONS["build"](ctx).verdict == "BUILT":
        try:
            verdict = STAGE_FUNCTIONS["ir_diff"](ctx).verdict
        except WorkbenchError as e:
            verdict = ctx.record(Artifact("ir_diff", "ERROR", str(e).splitlines()[0],
                                          {"cases": []})).verdict
    ctx.record(Artifact("final", verdict, f"{op.name}: {verdict}",
                        {"stages": [f"{a.stage}:{a.verdict}" for a in ctx.artifacts]}))
    return RunResult(folder, op.port_folder, verdict, ctx.artifacts)


def draft_folder(op: Operator, into_catalog: bool = False) -> Path:
    """Where a draft of `op` goes when no folder is named: never into kernels_src/ unless
    asked, so a draft cannot overwrite the catalog's port."""
    if not into_catalog and op.port_folder.resolve().is_relative_to(KERNELS_DIR.resolve()):
        return RUNS_DIR / "ports" / op.name / "port"
    return op.port_folder


def _run_stages(ctx: RunContext, first: int, progress=None) -> str:
    stages = stages_for(ctx)
    for number, stage in enumerate(stages[first:], first + 1):
        if ctx.over_cap(stage) and stage in RUN_CAPS:
            return "CAP_REACHED"
        if progress:
            progress(stage, number, len(stages))
        artifact = STAGE_FUNCTIONS[stage](ctx)
        if artifact.verdict in ("UNSUPPORTED", "CAP_REACHED", "ERROR"):
            return artifact.verdict
        if artifact.verdict in ("BUILD_FAILED", "FAIL") and stage != "corpus_diff":
            return _fix_loop(ctx)
    return _final_verdict(ctx)


def _fix_loop(ctx: RunContext) -> str:
    """Ask the drafter to fix what the analysis blames, in the stage that owns it (the
    kernel's files or the host's, never the other's), rebuild and re-diff; bounded. A
    failure the port does not own (the compiler, the reference) ends the run."""
    while True:
        analysis = stage_diff_analysis(ctx)
        if analysis.verdict in ("NOTHING_TO_FIX",):
            return _final_verdict(ctx)
        stage = analysis.data.get("fix_stage")
        if stage is None:
            ctx.record(Artifact("fix", "NOT_THE_PORT", f"owner {analysis.data['owner']}: "
                                "nothing in the port to fix",
                                {"attempts": ctx.counts.get("fix", 0), "notes":
                                 analysis.data["evidence"][:5], "fix_stage": None}))
            return "FAIL"
        if ctx.over_cap("fix"):
            ctx.record(Artifact("fix", "CAP_REACHED", f"{RUN_CAPS['fix']} fix attempts used",
                                {"attempts": ctx.counts.get("fix", 0), "notes": []}))
            return "CAP_REACHED"
        before = _port_files(ctx.port)
        fixed = ctx.drafter.fix(ctx, analysis)
        undone = _keep_to_stage(ctx.port, before, stage,
                                ctx.folder / f"undone-fix{ctx.counts.get('fix', 0) + 1}")
        ctx.record(Artifact("fix", "FIXED" if fixed else "NO_FIX",
                            (f"{stage}: files rewritten" if fixed else
                             "the drafter has no fix for this")
                            + (f"; edits outside {stage} undone: {', '.join(undone)}"
                               if undone else ""),
                            {"attempts": ctx.counts.get("fix", 0) + 1, "fix_stage": stage,
                             "undone": undone, "notes": analysis.data["evidence"][:5]}))
        if not fixed:
            return "FAIL"
        for stage in ("build", "ir_diff", "gpu_check", "perf"):
            artifact = STAGE_FUNCTIONS[stage](ctx)
            if artifact.verdict in ("BUILD_FAILED", "FAIL"):
                break
        else:
            return _final_verdict(ctx)


def owned_by(rel: str) -> str:
    """The drafting stage that owns a port file: the kernel's sources, or the host's."""
    return "write_kernel" if rel.startswith("src/kernel") else "write_host"


def _port_files(port: Path) -> dict[str, bytes]:
    return {str(p.relative_to(port)): p.read_bytes() for p in sorted(port.rglob("*"))
            if p.is_file() and not {"target", ".history"} & set(p.relative_to(port).parts)}


def _keep_to_stage(port: Path, before: dict[str, bytes], stage: str, keep: Path) -> list[str]:
    """Undo a fix's edits to files another stage owns (the old versions go back; a file the
    fix created there is removed; what it wrote is kept in `keep`): the loop goes back to
    one stage only."""
    after = _port_files(port)
    undone = []
    for rel in sorted(set(before) | set(after)):
        if owned_by(rel) == stage or before.get(rel) == after.get(rel):
            continue
        undone.append(rel)
        if rel in after:
            (keep / rel).parent.mkdir(parents=True, exist_ok=True)
            (keep / rel).write_bytes(after[rel])
        if rel in before:
            (port / rel).write_bytes(before[rel])
        else:
            (port / rel).unlink()
    return undone


UNVERIFIED = "UNVERIFIED_TRANSLATION"


def _final_verdict(ctx: RunContext) -> str:
    """The diff's verdict unless the check failed. A port from Triton is compared with a
    kernel derived from the same translation, so its diff cannot see a wrong translation:
    it passes only once it ran against the Triton kernel itself (on a GPU, or on the CPU)."""
    diff, check = ctx.last("ir_diff"), ctx.last("gpu_check")
    if check and check.verdict == "FAIL":
        return "FAIL"
    if diff is None:
        return "ERROR"
    if ctx.triton is not None and diff.verdict != "FAIL" and (check is None or
                                                             check.verdict != "PASS"):
        return UNVERIFIED
    return diff.verdict


def _new_run_folder(op: Operator, runs_dir: Path) -> Path:
    folder = Path(runs_dir) / op.name / time.strftime("%Y%m%d-%H%M%S")
    suffix = 0
    while folder.exists():
        suffix += 1
        folder = folder.with_name(folder.name.split(".")[0] + f".{suffix}")
    folder.mkdir(parents=True)
    return folder


def _keep_existing_port(port: Path, folder: Path) -> None:
    """Never overwrite a port without keeping it: the old one goes into the run folder. Its
    tuned.toml stays there only: its entries were measured on that port (a program it named
    may not exist in the new draft)."""
    if port.exists() and any(port.iterdir()):
        shutil.copytree(port, folder / PREVIOUS,
                        ignore=shutil.ignore_patterns("target", ".history"))
        for name in TUNED_FILES:
            (port / name).unlink(missing_ok=True)


def run_operator(folder: Path) -> Operator:
    """The operator a run folder was made for (to resume it)."""
    return read_operator(Path(folder))


def make_drafter(kind: str, model: str | None, folder: Path) -> Drafter:
    if kind == "rules":
        return RulesDrafter()
    if kind == "agent":
        return AgentDrafter(model=model, cache_dir=RUNS_DIR / ".agent-cache", log_dir=folder)
    raise WorkbenchError(f"unknown drafter {kind!r}", "use --drafter rules or --drafter agent")
