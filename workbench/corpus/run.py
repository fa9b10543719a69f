"""One corpus entry through the drafting pipeline (analyze, draft, build, Rust IR, diff) with
the offline drafter, and the whole corpus through dask.distributed.

    result = run_entry("tilegym.ops.cutile.softmax:_softmax_kernel_tma", "runs/corpus")
    result.verdict, result.reasons      # "UNSUPPORTED", ["tilegym/...softmax.py:102: ct.num_blocks: ..."]
    results = run_corpus(entries, jobs=2)

run_entry never raises: a WorkbenchError, or a crash anywhere in the pipeline, is that entry's
ERROR with one line saying what and where. Each entry drafts in its own folders under the
root (runs/corpus/ is git-ignored): ports/<module.kernel>/ and runs/<module.kernel>/.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from ..operators import REPO_ROOT, display_path
from ..diff.findings import EXPLAINING
from ..errors import WorkbenchError
from ..sources.corpus_manifest import CorpusEntry, load_manifest
from ..engine import map_on_engine
from ..port.pipeline import run_pipeline
from ..resolve import kernel_parameters, module_file, resolve_target

CORPUS_RUNS = REPO_ROOT / "runs" / "corpus"
VERDICTS = ("PASS", "PASS_WITH_NOTES", "FAIL", "UNSUPPORTED", "ERROR")
GOOD = ("PASS", "PASS_WITH_NOTES")
MAX_REASONS = 8


@dataclass
class CaseResult:
    args: list[str]
    consts: dict
    verdict: str
    grid: list[int] | None = None

    def to_json(self) -> dict:
        data = {"args": self.args, "consts": self.consts, "verdict": self.verdict}
        if self.grid is not None:
            data["grid"] = self.grid
        return data

    @classmethod
    def from_json(cls, data: dict) -> "CaseResult":
        return cls(list(data["args"]), dict(data["consts"]), data["verdict"], data.get("grid"))


@dataclass
class EntryResult:
    kernel: str                       # module:function
    experimental: bool
    verdict: str
    cases: list[CaseResult] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)   # file:line: construct: why
    run: str | None = None            # the run folder, repo-relative
    seconds: float = 0.0

    @property
    def short(self) -> str:
        module, _, kernel = self.kernel.partition(":")
        return f"{module.rpartition('.')[2]}:{kernel}"

    def to_json(self) -> dict:
        return {"kernel": self.kernel, "experimental": self.experimental,
                "cases": [c.to_json() for c in self.cases], "verdict": self.verdict,
                "reasons": self.reasons, "run": self.run, "seconds": round(self.seconds, 2)}

    @classmethod
    def from_json(cls, data: dict) -> "EntryResult":
        return cls(data["kernel"], bool(data["experimental"]), data["verdict"],
                   [CaseResult.from_json(c) for c in data.get("cases", [])],
                   list(data.get("reasons", [])), data.get("run"), float(data.get("seconds", 0)))


# -- one entry ---------------------------------------------------------------------------

def run_entry(target: str, root: str | Path = CORPUS_RUNS) -> EntryResult:
    """The entry module:kernel of the manifest drafted under `root`; never raises."""
    start = time.perf_counter()
    entry = next((e for e in load_manifest().entries if e.target == target), None)
    if entry is None:
        return EntryResult(target, False, "ERROR", reasons=[f"{target}: not in the corpus manifest"])
    try:
        result = _draft(entry, Path(root))
    except WorkbenchError as e:
        result = _error(entry, one_line(e))
    except Exception as e:                  # noqa: BLE001 - a crash is this entry's ERROR row
        result = _error(entry, crash_reason(e))
    result.seconds = time.perf_counter() - start
    return result


def run_entry_json(target: str, root: str) -> dict:
    """run_entry as plain data (what a dask worker sends back)."""
    return run_entry(target, root).to_json()


def _error(entry: CorpusEntry, reason: str) -> EntryResult:
    cases = [CaseResult(list(c.args), dict(c.consts), "ERROR") for c in entry.cases]
    return EntryResult(entry.target, entry.experimental, "ERROR", cases, [reason])


def one_line(error: WorkbenchError) -> str:
    """The message's first line, and a failed tool's last word (its stderr's last line)."""
    first = error.message.splitlines()[0]
    said = [line.strip(" |") for line in getattr(error, "stderr", "").splitlines()
            if line.strip(" |")]
    return f"{first}: {said[-1]}" if said else first


def crash_reason(error: BaseException) -> str:
    """`file:line: crash: Type: message` at the innermost frame of the workbench or the
    kernel's module (where to look), else at the innermost frame."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "/workbench/" in f.filename or "/tilegym/" in f.filename]
    frame = (ours or frames or [None])[-1]
    where = f"{display_path(Path(frame.filename))}:{frame.lineno}" if frame else "?"
    message = str(error).splitlines()[0] if str(error) else ""
    return f"{where}: crash: {type(error).__name__}: {message}".rstrip(": ")


def _draft(entry: CorpusEntry, root: Path) -> EntryResult:

    port = root / "ports" / entry.slug
    op = resolve_target(entry.target, out=port)
    resolved = entry.resolve(kernel_parameters(module_file(entry.module), entry.kernel,
                                               strict=True))
    result = run_pipeline(op, "rules", out=port, runs_dir=root / "runs" / entry.slug)
    verdict, reasons = classify(result.verdict, result.artifacts)
    per_case = _case_verdicts(result.artifacts, len(resolved), verdict)
    cases = [CaseResult([str(a) for a in c.args], dict(c.consts), v,
                        list(c.grid) if c.grid else None) for c, v in zip(resolved, per_case)]
    folder = result.folder
    run = display_path(folder) if folder.is_relative_to(REPO_ROOT) else str(folder)
    return EntryResult(entry.target, entry.experimental, verdict, cases,
                       reasons[:MAX_REASONS], run)


# -- what a run says ---------------------------------------------------------------------

def classify(final: str, artifacts) -> tuple[str, list[str]]:
    """(PASS | PASS_WITH_NOTES | FAIL | UNSUPPORTED | ERROR, reasons) for a pipeline run."""
    stopped = next((a for a in reversed(artifacts) if a.stage not in ("final", "diff_analysis")
                    and a.verdict in ("UNSUPPORTED", "CAP_REACHED", "ERROR", "BUILD_FAILED")),
                   None)
    if final in GOOD:
        return final, _findings(artifacts, ("hint",))
    if final == "ERROR":
        return "ERROR", [_where(artifacts) + f": {stopped.stage}: {stopped.summary}"
                         if stopped else "the run ended without a verdict"]
    if stopped is not None and stopped.stage in ("translate", "analyze", "write_kernel",
                                                 "write_host"):
        return "UNSUPPORTED", _diagnostics(stopped, artifacts) or [
            _where(artifacts) + f": {stopped.stage}: {stopped.summary}"]
    build = next((a for a in reversed(artifacts) if a.stage == "build"), None)
    if build is not None and build.verdict == "BUILD_FAILED":
        return "FAIL", _diagnostics(build, artifacts, "rustc")
    findings = _findings(artifacts, EXPLAINING) or \
        _findings(artifacts, ("perf",))         # a perf-only FAIL: its findings are why
    check = next((a for a in reversed(artifacts) if a.stage == "gpu_check"), None)
    if not findings and check is not None and check.verdict == "FAIL":
        findings = [f"{_where(artifacts)}: gpu check: {check.summary}"]
    return "FAIL", findings or [f"{_where(artifacts)}: {final.lower()}: the run ended {final}"]


def _where(artifacts) -> str:
    analyze = next((a for a in artifacts if a.stage == "analyze"), None)
    if analyze is None:
        return "kernel"
    spec = analyze.data.get("spec", {})
    return f"{display_path(Path(spec.get('filename', 'kernel')))}:{spec.get('line') or '?'}"


def _diagnostics(artifact, artifacts, construct: str = "") -> list[str]:
    """`file:line: construct: message` for each diagnostic (or analyze problem) of a stage."""
    kernel_file = _where(artifacts).rsplit(":", 1)[0]
    items = artifact.data.get("diagnostics") or artifact.data.get("spec", {}).get("problems") or []
    out = []
    for d in items:
        file = d.get("file") or kernel_file
        path = Path(file) if Path(file).is_absolute() else REPO_ROOT / file
        shown = display_path(path) if path.exists() else file
        what = d.get("construct") or construct or d.get("level", "")
        message = " ".join(str(d.get("message", "")).split())
        out.append(f"{shown}:{d.get('line') or '?'}: {what}: {message}")
    return out


def _findings(artifacts, categories) -> list[str]:
    """The IR diff's findings of these categories, one line each; a finding every case
    shares is one line naming the cases."""
    diff = next((a for a in reversed(artifacts) if a.stage == "ir_diff"), None)
    cases_of: dict[str, list] = {}
    for case in (diff.data.get("cases", []) if diff else []):
        for f in case.get("findings", []):
            if f.get("category") not in categories:
                continue
            side = f.get("left") or f.get("right") or {}
            where = _file_line(side["source"]) if side.get("source") else _where(artifacts)
            cases = cases_of.setdefault(f"{where}: {f.get('kind')}: {f.get('detail')}", [])
            if case.get("case") not in cases:
                cases.append(case.get("case"))
    return [f"{text} (case{'s' if len(cases) > 1 else ''} {', '.join(map(str, cases))})"
            for text, cases in cases_of.items()]


def _file_line(source: str) -> str:
    """`file:line` of a Tile IR location `file:line:col`."""
    file, line, col = (source.rsplit(":", 2) + ["", ""])[:3]
    return f"{file}:{line}" if line.isdigit() and col.isdigit() else source


def _case_verdicts(artifacts, count: int, verdict: str) -> list[str]:
    diff = next((a for a in reversed(artifacts) if a.stage == "ir_diff"), None)
    by_case = {c["case"]: c["verdict"] for c in (diff.data.get("cases", []) if diff else [])}
    if verdict in ("UNSUPPORTED", "ERROR") or not by_case:
        return [verdict] * count
    return [by_case.get(i, verdict) for i in range(count)]


# -- the corpus --------------------------------------------------------------------------

def run_corpus(entries: list[CorpusEntry], jobs: int = 1, root: Path = CORPUS_RUNS,
               progress=None) -> list[EntryResult]:
    """Every entry, in manifest order. jobs > 1 runs them on a local dask cluster of that
    many worker processes (workbench/engine.py); jobs == 1 runs them here.
    `progress(result, done, total)` is called as each one finishes."""
    targets = [e.target for e in entries]
    results: dict[str, EntryResult] = {}

    def finished(result: EntryResult) -> None:
        results[result.kernel] = result
        if progress:
            progress(result, len(results), len(targets))

    if jobs <= 1:
        for target in targets:
            finished(run_entry(target, root))
    else:
        for target, data in map_on_engine(run_entry_json, targets, str(root), jobs):
            finished(EntryResult.from_json(data) if isinstance(data, dict) else
                     _lost(target, data, entries))
    return [results[t] for t in targets]


def _lost(target: str, reason: str, entries: list[CorpusEntry]) -> EntryResult:
    """A task the cluster could not finish (its worker died): that entry's ERROR row."""
    entry = next(e for e in entries if e.target == target)
    return _error(entry, f"{entry.short}: the worker running it failed: {reason}")
