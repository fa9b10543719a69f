"""The verdict of a diff: PASS, PASS_WITH_NOTES or FAIL, as JSON (schema below) and text.

JSON schema `workbench.diff/1`:
  schema        "workbench.diff/1"
  verdict       "PASS" | "PASS_WITH_NOTES" | "FAIL"
  left, right   {"label": str, "symbol": str}   (left: the Python kernel, right: the port)
  counts        {"critical": n, "hint": n, "arithmetic": n, "noise": n}
  findings      [{category, severity, kind, detail, noise_id,
                  left: {ir_line, text, source, source_line} | null, right: same | null}]
  alignment     [[left_ir_line | null, right_ir_line | null, status]]
                status: same, changed, moved, missing, extra
  left_text, right_text   the normalized IR both line numbers refer to
  left_sources, right_sources     {ir_line: "file:line:column"}  (the op's source location)
  left_locations, right_locations {ir_line: [file, line, column]}  (the same, unparsed: the
                                  widget links IR lines to the lines of its source panes)
Rules: any critical or arithmetic finding -> FAIL; else any hint -> PASS_WITH_NOTES;
else PASS. Noise never changes the verdict.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.model import Module
from ..ir.printer import print_module
from .align import align_modules
from .findings import ARITHMETIC, CRITICAL, HINT, NOISE, Finding, findings_for

SCHEMA = "workbench.diff/1"
PASS, PASS_WITH_NOTES, FAIL = "PASS", "PASS_WITH_NOTES", "FAIL"


@dataclass
class DiffReport:
    verdict: str
    findings: list[Finding]
    alignment: list[tuple[int | None, int | None, str]]
    left_text: str
    right_text: str
    left_label: str = "python"
    right_label: str = "rust"
    symbols: dict = field(default_factory=dict)
    # IR line -> the source line it came from (through loc), per side
    left_sources: dict[int, object] = field(default_factory=dict)
    right_sources: dict[int, object] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        counts = {CRITICAL: 0, HINT: 0, ARITHMETIC: 0, NOISE: 0}
        for f in self.findings:
            counts[f.category] += 1
        return counts

    def to_json(self) -> dict:
        return {
            "schema": SCHEMA, "verdict": self.verdict,
            "left": {"label": self.left_label, "symbol": self.symbols.get("left")},
            "right": {"label": self.right_label, "symbol": self.symbols.get("right")},
            "counts": self.counts(),
            "findings": [f.to_json() for f in self.findings],
            "alignment": [list(a) for a in self.alignment],
            "left_text": self.left_text, "right_text": self.right_text,
            "left_sources": {str(k): str(v) for k, v in self.left_sources.items()},
            "right_sources": {str(k): str(v) for k, v in self.right_sources.items()},
            "left_locations": _locations(self.left_sources),
            "right_locations": _locations(self.right_sources),
        }

    def to_text(self, show_noise: bool = False) -> str:
        counts = self.counts()
        lines = [f"verdict: {self.verdict}   ({self.left_label} vs {self.right_label}; "
                 + ", ".join(f"{n} {k}" for k, n in counts.items()) + ")"]
        for f in self.findings:
            if f.category == NOISE and not show_noise:
                continue
            lines.append(f"  [{f.category}] {f.kind}: {f.detail}")
            for side, label in ((f.left, self.left_label), (f.right, self.right_label)):
                if side:
                    where = f"   ({side['source']})" if side.get("source") else ""
                    lines.append(f"      {label:6} L{side['ir_line']}: {side['text']}{where}")
        hidden = counts[NOISE] if not show_noise else 0
        if hidden:
            lines.append(f"  ({hidden} noise finding(s) hidden; --noise shows them)")
        return "\n".join(lines)


def _locations(sources: dict) -> dict[str, list]:
    return {str(k): [loc.file, loc.line, loc.column] for k, loc in sources.items()}


def diff_modules(left: Module, right: Module, left_label: str = "python",
                 right_label: str = "rust") -> DiffReport:
    """Diff two *normalized* modules."""
    left_lines, right_lines = {}, {}
    left_text = print_module(left, left_lines)
    right_text = print_module(right, right_lines)
    alignment = align_modules(left, right)
    findings = findings_for(alignment, left_lines, right_lines, _sources(left), _sources(right))

    categories = {f.category for f in findings}
    verdict = FAIL if categories & {CRITICAL, ARITHMETIC} else \
        PASS_WITH_NOTES if HINT in categories else PASS
    rows = sorted(((left_lines.get(id(p.left)) if p.left else None,
                    right_lines.get(id(p.right)) if p.right else None, p.status)
                   for p in alignment.pairs),
                  key=lambda r: (r[0] if r[0] is not None else 10**9,
                                 r[1] if r[1] is not None else 10**9))
    left_src, right_src = _sources(left), _sources(right)
    return DiffReport(verdict, findings, rows, left_text, right_text, left_label, right_label,
                      {"left": left.symbols.get("kernel"), "right": right.symbols.get("kernel")},
                      {left_lines[i]: loc for i, loc in left_src.items() if i in left_lines},
                      {right_lines[i]: loc for i, loc in right_src.items() if i in right_lines})


def _sources(module: Module) -> dict[int, object]:
    return {id(op): module.locations[i] for i, op in enumerate(module.walk())
            if i in module.locations}
