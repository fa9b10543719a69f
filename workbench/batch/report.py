"""One report for the whole batch: the terminal table (and a progress line while it runs),
the JSON, and an HTML page with one row per kernel, verdicts per stage, parity, links to each
run folder, and the parity distribution as an SVG plot.

    print(format_table(outcome)); write_html(outcome, folder / "report.html")
"""
from __future__ import annotations

import html
import math
import os
import sys
from pathlib import Path

from ..operators import REPO_ROOT
from .run import Outcome
from .store import StageResult, write_json

FAILED = ("FAIL", "ERROR", "LOST", "BUILD_FAILED")
PARITY_TARGET = 0.95
SHORT = {"PASS_WITH_NOTES": "NOTES", "UNSUPPORTED": "UNSUP", "DIFFERENT": "DIFF"}


# -- the data ------------------------------------------------------------------------------

def kernel_rows(outcome: Outcome) -> list[dict]:
    rows = []
    for kernel in outcome.plan.kernels:
        stages = {}
        for stage in outcome.plan.stages:
            key = f"{kernel.slug}/{stage}"
            if key in outcome.results:
                stages[stage] = outcome.results[key]
            elif key in outcome.blocked:
                stages[stage] = StageResult(kernel.name, stage, "-", outcome.blocked[key])
        cases = case_parities(stages.get("bench"))
        rows.append({"name": kernel.name, "kind": kernel.kind, "slug": kernel.slug,
                     "stages": stages, "parity_cases": cases, "parity": _geomean(
                         [c["parity"] for c in cases if c["parity"]])})
    return rows


def case_parities(bench: StageResult | None) -> list[dict]:
    if bench is None:
        return []
    return [{"case": r["case"], "parity": r.get("parity"), "clock": r.get("clock", "")}
            for r in bench.data.get("rows", []) if "case" in r]


def _geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def to_json(outcome: Outcome, folder: Path) -> dict:
    rows = kernel_rows(outcome)
    return {"batch": _shown(folder), "stages": list(outcome.plan.stages), "ran": outcome.ran,
            "reused": outcome.reused, "seconds": round(outcome.seconds, 2),
            "failed": failed(outcome),
            "kernels": [{"name": r["name"], "kind": r["kind"], "parity": r["parity"],
                         "parity_cases": r["parity_cases"],
                         "stages": {s: res.to_json() for s, res in r["stages"].items()}}
                        for r in rows]}


def failed(outcome: Outcome) -> list[str]:
    return [key for key, r in outcome.results.items() if r.verdict in FAILED]


def write_reports(outcome: Outcome, folder: Path) -> Path:
    write_json(folder / "report.json", to_json(outcome, folder))
    return write_html(outcome, folder / "report.html")


# -- the terminal --------------------------------------------------------------------------

def format_table(outcome: Outcome) -> str:
    rows = kernel_rows(outcome)
    stages = list(outcome.plan.stages)
    width = max([len(r["name"]) for r in rows] + [6])
    head = f"{'kernel':{width}}  " + "  ".join(f"{s:8}" for s in stages) + "  parity  tries"
    lines = [head, "-" * len(head)]
    for r in rows:
        cells = [_cell(r["stages"].get(s)) for s in stages]
        retried = [f"{s} x{res.attempts}" for s, res in r["stages"].items() if res.attempts > 1]
        parity = f"{r['parity']:.3f}" if r["parity"] else "-"
        lines.append(f"{r['name']:{width}}  " + "  ".join(f"{c:8}" for c in cells)
                     + f"  {parity:>6}  {', '.join(retried)}")
        for res in r["stages"].values():
            if res.verdict in FAILED or res.verdict == "-":
                lines.append(f"    {res.stage}: {res.summary}"[:200])
    lines.append(summary_line(outcome))
    return "\n".join(lines)


def _cell(result: StageResult | None) -> str:
    if result is None:
        return ""
    return SHORT.get(result.verdict, result.verdict) + ("=" if result.cached else "")


def summary_line(outcome: Outcome) -> str:
    total = len(outcome.plan.tasks)
    if outcome.ran == 0 and outcome.reused:
        did = (f"nothing to do: {outcome.reused} tasks unchanged since the last run (= reused)"
               + (f", {len(outcome.blocked)} not run" if outcome.blocked else ""))
    else:
        did = (f"{outcome.ran} tasks run, {outcome.reused} reused (=), "
               f"{len(outcome.blocked)} not run")
    retried = sum(r.attempts > 1 for r in outcome.results.values() if not r.cached)
    bad = failed(outcome)
    return (f"{len(outcome.plan.kernels)} kernels, {total} tasks: {did}; {retried} retried; "
            f"{len(bad)} failed; {outcome.seconds:.1f} s")


class Progress:
    """A bar redrawn in place on a terminal; one line per finished task elsewhere."""

    def __init__(self, stream=sys.stderr):
        self.stream = stream
        self.tty = stream.isatty()

    def __call__(self, outcome: Outcome, result: StageResult | None) -> None:
        total = len(outcome.plan.tasks)
        done = outcome.done
        bar = "#" * round(24 * done / total) if total else ""
        what = (f"{result.kernel} {result.stage} {result.verdict} ({result.seconds:.1f} s"
                + (f", try {result.attempts}" if result.attempts > 1 else "") + ")"
                if result else "")
        line = f"[{bar:24}] {done}/{total} tasks  {what}"
        if self.tty:
            self.stream.write("\r\033[K" + line[:os.get_terminal_size().columns - 1]
                              if _has_size() else "\r" + line)
            if done == total:
                self.stream.write("\n")
        elif result is not None:
            self.stream.write(line + "\n")
        self.stream.flush()


def _has_size() -> bool:
    try:
        os.get_terminal_size()
        return True
    except OSError:
        return False


# -- the page ------------------------------------------------------------------------------

COLOURS = {"PASS": "#c8e6c9", "PASS_WITH_NOTES": "#dcedc8", "SAME": "#c8e6c9", "OK": "#c8e6c9",
           "FAIL": "#ffcdd2", "ERROR": "#ffcdd2", "LOST": "#ffcdd2", "DIFFERENT": "#fff9c4",
           "UNSUPPORTED": "#eeeeee", "SKIPPED": "#eeeeee", "-": "#ffffff"}


def write_html(outcome: Outcome, path: Path) -> Path:
    rows = kernel_rows(outcome)
    parities = [c["parity"] for r in rows for c in r["parity_cases"] if c["parity"]]
    svg = path.with_name("parity.svg")
    svg.write_text(parity_svg(parities))
    stages = list(outcome.plan.stages)
    head = "".join(f"<th>{s}</th>" for s in ["kernel", *stages, "parity", "run folders"])
    body = []
    for r in rows:
        cells = [f"<td>{html.escape(r['name'])}</td>"]
        for stage in stages:
            res = r["stages"].get(stage)
            cells.append(_html_cell(res, path.parent, r["slug"]) if res else "<td></td>")
        cells.append(f"<td>{r['parity']:.3f}</td>" if r["parity"] else "<td>-</td>")
        runs = sorted({res.run for res in r["stages"].values() if res.run})
        cells.append("<td>" + " ".join(f"<a href='{html.escape(_link(run, path.parent))}'>"
                                       f"{html.escape(Path(run).name)}</a>" for run in runs)
                     + "</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    path.write_text(
        "<!doctype html><meta charset='utf-8'><title>workbench batch</title>"
        "<style>body{font-family:sans-serif}td,th{border:1px solid #ccc;padding:2px 6px;"
        "font-size:13px}table{border-collapse:collapse}</style>"
        f"<h1>workbench batch</h1><p>{html.escape(summary_line(outcome))}</p>"
        f"<p>= reused from an earlier run (its inputs are unchanged). Parity: Python kernel "
        f"time / Rust port time, geometric mean over the cases.</p>"
        f"<img src='{svg.name}' alt='parity distribution'>"
        f"<table><tr>{head}</tr>{''.join(body)}</table>")
    return path


def _html_cell(res: StageResult, here: Path, slug: str) -> str:
    colour = COLOURS.get(res.verdict, "#ffffff")
    title = html.escape(res.summary, quote=True)
    text = html.escape(res.verdict + ("=" if res.cached else "")
                       + (f" (x{res.attempts})" if res.attempts > 1 else ""))
    link = f"results/{slug}/{res.stage}.json"
    if (here / link).exists():
        text = f"<a href='{link}'>{text}</a>"
    return f"<td style='background:{colour}' title='{title}'>{text}</td>"


def _link(run: str, here: Path) -> str:
    target = Path(run) if Path(run).is_absolute() else REPO_ROOT / run
    return os.path.relpath(target, here)


def _shown(folder: Path) -> str:
    folder = Path(folder).resolve()
    return str(folder.relative_to(REPO_ROOT)) if folder.is_relative_to(REPO_ROOT) else str(folder)


def parity_svg(values: list[float], bins: int = 40, top: float = 2.0) -> str:
    """A histogram of per-case parity, 0 to `top` (the last bin holds everything above),
    with the 0.95 target marked."""
    w, h, left, bottom = 520, 220, 40, 30
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int(v / top * bins))] += 1
    peak = max(counts + [1])
    bar_w = (w - left - 10) / bins
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' "
             f"font-family='sans-serif' font-size='11'>",
             f"<text x='{left}' y='12'>parity per case ({len(values)} cases; "
             f"Python time / Rust time)</text>"]
    for i, count in enumerate(counts):
        bar_h = (h - bottom - 20) * count / peak
        x = left + i * bar_w
        low = i * top / bins
        colour = "#2e7d32" if low >= PARITY_TARGET else "#c62828"
        parts.append(f"<rect x='{x:.1f}' y='{h - bottom - bar_h:.1f}' width='{bar_w - 1:.1f}' "
                     f"height='{bar_h:.1f}' fill='{colour}'><title>{low:.1f}-"
                     f"{low + top / bins:.1f}: {count}</title></rect>")
        if i % 8 == 0:
            parts.append(f"<text x='{x:.1f}' y='{h - bottom + 14}'>{low:.1f}</text>")
    target_x = left + PARITY_TARGET / top * (w - left - 10)
    parts.append(f"<line x1='{target_x:.1f}' x2='{target_x:.1f}' y1='20' y2='{h - bottom}' "
                 f"stroke='black' stroke-dasharray='4'/><text x='{target_x + 3:.1f}' y='30'>"
                 f"{PARITY_TARGET}</text>")
    parts.append(f"<text x='4' y='{h - bottom}'>0</text><text x='4' y='28'>{peak}</text>")
    return "\n".join(parts + ["</svg>"]) + "\n"
