"""A self-contained HTML page of a diff: both sides highlighted and aligned, findings
marked, and the Python source line beside each op. No network, no scripts."""
from __future__ import annotations

import html
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter

from ..ir.highlight import TileIRLexer
from .verdict import DiffReport

_STATUS_CLASS = {"same": "", "moved": "moved", "changed": "changed", "missing": "missing",
                 "extra": "extra"}
_CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5em; }
.badge { display: inline-block; padding: .2em .7em; border-radius: .4em; color: white;
         font-weight: bold; }
.PASS { background: #2e7d32; } .PASS_WITH_NOTES { background: #ef6c00; } .FAIL { background: #c62828; }
table.ir { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 12px; width: 100%; }
table.ir td { padding: 0 .5em; vertical-align: top; white-space: pre; }
td.num { color: #999; text-align: right; }
td.src { color: #555; font-style: italic; white-space: normal; }
tr.changed td.code { background: #fff3cd; } tr.missing td.left { background: #fde2e2; }
tr.extra td.right { background: #e2f0fd; } tr.moved td.code { background: #eef; }
tr.finding td.code { outline: 2px solid #c62828; }
ul.findings li.critical, ul.findings li.arithmetic, ul.findings li.perf { color: #c62828; }
ul.findings li.hint { color: #ef6c00; } ul.findings li.noise { color: #777; }
"""


def render_html(report: DiffReport, title: str, sources: dict[str, list[str]]) -> str:
    """`sources` maps a file name (as in loc) to its lines, for the source column."""
    formatter = HtmlFormatter(nowrap=True)
    left = report.left_text.splitlines()
    right = report.right_text.splitlines()
    marked = {(f.left or {}).get("ir_line") for f in report.findings if f.category != "noise"}
    marked |= {("r", (f.right or {}).get("ir_line")) for f in report.findings
               if f.category != "noise"}
    source_of = {f.left["ir_line"]: f.left for f in report.findings if f.left}
    rows = []
    for l_line, r_line, status in report.alignment:
        cls = _STATUS_CLASS.get(status, "")
        if l_line in marked or ("r", r_line) in marked:
            cls += " finding"
        rows.append(
            f'<tr class="{cls}"><td class="num">{l_line or ""}</td>'
            f'<td class="code left">{_line(left, l_line, formatter)}</td>'
            f'<td class="num">{r_line or ""}</td>'
            f'<td class="code right">{_line(right, r_line, formatter)}</td>'
            f'<td class="src">{html.escape(_source_text(source_of.get(l_line), sources))}</td></tr>')
    findings = "".join(
        f'<li class="{f.category}"><b>[{f.category}] {html.escape(f.kind)}</b>: '
        f'{html.escape(f.detail)}'
        + (f' <i>({html.escape(f.left["source"])})</i>' if f.left and f.left.get("source") else "")
        + "</li>" for f in report.findings)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}{formatter.get_style_defs('.code')}</style></head><body>"
            f"<h1>{html.escape(title)} <span class='badge {report.verdict}'>{report.verdict}"
            f"</span></h1><ul class='findings'>{findings or '<li>no findings</li>'}</ul>"
            f"<table class='ir'><tr><th></th><th>{html.escape(report.left_label)}</th><th></th>"
            f"<th>{html.escape(report.right_label)}</th><th>source</th></tr>"
            + "".join(rows) + "</table></body></html>")


def _line(lines: list[str], number: int | None, formatter) -> str:
    if not number or number > len(lines):
        return ""
    return highlight(lines[number - 1], TileIRLexer(), formatter).rstrip("\n")


def _source_text(side: dict | None, sources: dict[str, list[str]]) -> str:
    if not side or not side.get("source"):
        return ""
    file, line, _ = side["source"].rsplit(":", 2)
    lines = sources.get(file)
    if lines is None:
        path = Path(file)
        lines = path.read_text().splitlines() if path.is_file() else []
        sources[file] = lines
    text = lines[int(line) - 1].strip() if 0 < int(line) <= len(lines) else ""
    return f"{Path(file).name}:{line}  {text}"


def write_html(report: DiffReport, title: str, path: str | Path) -> None:
    Path(path).write_text(render_html(report, title, {}))
