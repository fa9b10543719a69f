"""The widget's result panel: the last stage result (a draft, a build, a check, a bench, a
tuning sweep or an error) as one JSON shape the front end renders, so no reason is lost on the way.

    {"action": "draft", "title": "draft: UNSUPPORTED", "ok": false,
     "reasons":     [{"file", "line", "construct", "message", "pane": "python" | null}],
     "diagnostics": [{"level", "message", "file", "line", "column", "rendered",
                      "pane": "rust" | null}],
     "tables":      [{"title", "columns": [...], "rows": [[...]]}],
     "lines":       [str],           # the rest, as text (a run's stages, kept files)
     "run": "runs/<op>/<time>" | null}

`pane` names the widget pane a line is in (the front end marks it there and jumps to it).
"""
from __future__ import annotations

from pathlib import Path

from ..operators import REPO_ROOT, display_path
from ..tune.report import kept_line, ordered
from ..tune.sweep import MARGIN

STOPPED = ("UNSUPPORTED", "CAP_REACHED", "ERROR", "BUILD_FAILED")


def _same_file(name: str | None, path: Path) -> bool:
    if not name:
        return False
    candidate = Path(name) if Path(name).is_absolute() else REPO_ROOT / name
    return candidate.resolve() == Path(path).resolve()


def result(action: str, title: str, ok: bool, **parts) -> dict:
    return {"action": action, "title": title, "ok": ok, "reasons": [], "diagnostics": [],
            "tables": [], "lines": [], "run": None, **parts}


def build_diagnostics(diagnostics, rust_file: Path) -> list[dict]:
    """Compiler errors (cargo Diagnostics, or their JSON in a build artifact), errors first."""
    out = []
    for d in diagnostics:
        d = d if isinstance(d, dict) else vars(d)
        if d.get("level", "error") not in ("error", "warning"):
            continue
        out.append({"level": d.get("level", "error"), "message": d.get("message", ""),
                    "file": d.get("file"), "line": d.get("line"), "column": d.get("column"),
                    "rendered": d.get("rendered") or "",
                    "pane": "rust" if _same_file(d.get("file"), rust_file) else None})
    return sorted(out, key=lambda d: d["level"] != "error")


def build_result(build, rust_file: Path) -> dict:
    diagnostics = build_diagnostics(build.diagnostics, rust_file)
    errors = [d for d in diagnostics if d["level"] == "error"]
    kept = f"still using {build.library.name}" if build.library else "no library built yet"
    first = errors[0] if errors else None
    where = f"{Path(first['file']).name}:{first['line']}: " if first and first["file"] else ""
    title = (f"build failed: {len(errors)} error{'s' if len(errors) != 1 else ''}"
             + (f" ({where}{first['message']})" if first else ""))
    return result("build", title, False, diagnostics=diagnostics,
                  lines=[f"{build.op}: build failed in {build.seconds:.1f} s; {kept}"])


def draft_result(run, kept: list[Path], python_file: Path, rust_file: Path) -> dict:
    """A drafting run: its stages, and the reasons of the stage that stopped it."""
    reasons, diagnostics = [], []
    for artifact in run.artifacts:
        if artifact.verdict not in STOPPED:
            continue
        if artifact.stage == "build":
            diagnostics = build_diagnostics(artifact.data.get("diagnostics", []), rust_file)
            continue
        for d in artifact.data.get("diagnostics", []):
            file = d.get("file") or str(python_file)
            reasons.append({"file": display_path(Path(file)) if Path(file).exists() else file,
                            "line": d.get("line"), "construct": d.get("construct", ""),
                            "message": d.get("message", ""),
                            "pane": "python" if _same_file(file, python_file) else None})
    stages = [f"{a.stage:14} {a.verdict:16} {a.summary}" for a in run.artifacts
              if a.stage != "final"]
    kept_lines = [f"kept {display_path(k)}" for k in kept]
    count = len(reasons) or len([d for d in diagnostics if d["level"] == "error"])
    why = f" \u2014 {count} reason{'s' if count != 1 else ''} below" if count else ""
    return result("draft", f"draft: {run.verdict}{why}", run.verdict in ("PASS", "PASS_WITH_NOTES"),
                  reasons=reasons, diagnostics=diagnostics, lines=stages + kept_lines,
                  run=display_path(run.folder))


def check_result(name: str, response) -> dict:
    if response.status == "skipped":
        return result("check", f"check skipped: {response.reason}", True)
    rows = []
    for r in response.results:
        sides = r.get("sides", {})
        cells = [_side_cell(sides.get(side)) for side in ("python", "rust")]
        cross = (r.get("cross") or {}).get("rel_error")
        rows.append([r.get("label", ""), *cells, f"{cross:.2e}" if cross is not None else ""])
    ok = response.status == "ok"
    on_cpu = response.device.get("kind") == "cpu"
    title = f"check {name}: {response.status.upper()}" + (f" ({response.reason})"
                                                        if response.reason else "") + \
        (" on the CPU (no GPU here: the Tile IR interpreter ran both sides)" if on_cpu else "")
    hosts = sorted({s.get("host") for r in response.results
                    for s in r.get("sides", {}).values()} - {None})
    return result("check", title, ok, tables=[{
        "title": "correctness against the float64 PyTorch reference"
                 + (", on the CPU (Tile IR interpreter" + "".join(f"; {h}" for h in hosts)
                    + ")" if on_cpu else ""),
        "columns": ["case", "Python kernel", "Rust port", "port vs Python"], "rows": rows}])


def _side_cell(outcome: dict | None) -> str:
    if not outcome:
        return ""
    err = outcome.get("rel_error")
    text = ("ok" if outcome.get("ok") else "FAIL") + (f", rel. err {err:.2e}" if err is not None else "")
    return text + ("" if outcome.get("ok") else f" ({outcome.get('reason', '')})")


def bench_result(report: dict) -> dict:
    if report["status"] == "skipped":
        return result("bench", f"bench skipped: {report['reason']}", True)
    rows = []
    for row in report["rows"]:
        if "error" in row:
            rows.append([row["op"], "", "", f"error: {row['error']}"])
            continue
        py, rs = row["python"], row["rust"]
        rows.append([row["case"], _us(py), _us(rs),
                     f"{row['parity']:.3f}" if row.get("parity") else ""])
    overall = report.get("parity_overall")
    reference = report.get("reference", "Python kernel")
    title = "bench" + (f": parity {overall:.3f}" if overall else f": {report['status']}")
    return result("bench", title, report["status"] == "ok", tables=[{
        "title": f"device time on {report.get('device', {}).get('name', 'the GPU')} "
                 f"(parity: {reference.split()[0]} time / port time)",
        "columns": ["case", f"{reference} (\u00b5s)", "Rust port (\u00b5s)", "parity"],
        "rows": rows}])


def tune_result(report, margin: float = MARGIN) -> dict:
    """A sweep (tune/sweep.py): per case, its candidates fastest first, and what was kept."""
    if report.status == "skipped":
        return result("tune", f"tune skipped: {report.reason}", True, tables=[
            {"title": f"{s.label}: would try {len(s.trials)} candidates",
             "columns": ["candidate"], "rows": [[t.id] for t in s.trials]}
            for s in report.cases])
    tables = [{"title": f"{s.label}: reference {_number(s.reference_us)} \u00b5s, untuned "
                        f"port {_number(s.untuned_us)} \u00b5s; {kept_line(s, margin)}",
               "columns": ["candidate", "Rust port (\u00b5s)", "vs untuned", "check"],
               "rows": [_trial_row(t, s) for t in ordered(s)]} for s in report.cases]
    kept = [s.kept.id for s in report.cases if s.kept]
    title = "tune: " + (f"kept {'; '.join(kept)}" if kept else "the port is as fast as it gets "
                        "within its knobs")
    lines = [f"written to {display_path(Path(report.written))} (the file it replaced: "
             "tuned.toml.previous)" if report.written else "the port is unchanged"]
    return result("tune", title, report.status == "ok", tables=tables,
                  lines=lines + [s.note for s in report.cases if s.note])


def toolchain_result(report) -> dict:
    """One case under two tileiras versions (ownership/toolchain.py): per side a row per
    version, then each side's finding and the owner."""
    tables = [{"title": f"{side.side}: {side.finding}",
               "columns": ["tileiras", "compiles", "instructions", "registers", "spills (B)",
                           "HGMMA", "TMA"],
               "rows": [_compiled_row(c) for c in side.compiled]} for side in report.sides]
    failed = any(side.failed_under() for side in report.sides)
    return result("toolchains", f"toolchains {' vs '.join(report.versions)}: "
                  f"{report.headline}", not failed, tables=tables,
                  lines=[change for side in report.sides for change in side.changes]
                  + [report.conclusion])


def _compiled_row(compiled) -> list[str]:
    s = compiled.summary
    if s is None:
        return [compiled.version, f"no: {compiled.error}", "", "", "", "", ""]
    return [compiled.version, "yes", str(s.instructions), str(s.registers), str(s.local_bytes),
            str(s.matrix.get("HGMMA", 0)), str(sum(s.tma.values()))]


def _trial_row(trial, sweep) -> list[str]:
    ratio = f"{trial.rust_us / sweep.untuned_us:.3f}" if trial.rust_us and sweep.untuned_us \
        else ""
    check = ("ok" if trial.correct else f"FAIL: {trial.reason}" if trial.correct is False
             else "not checked")
    return [trial.id, _number(trial.rust_us), ratio, check]


def _number(value) -> str:
    return f"{value:.2f}" if value else "-"


def _us(side: dict) -> str:
    value = side.get("cupti_us") or side.get("median_us")
    return f"{value:.2f}" if value else ("FAIL" if not side.get("ok", True) else "")


def error_result(action: str, message: str) -> dict:
    return result(action, f"{action} failed", False, lines=[message])
