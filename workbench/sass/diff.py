"""SASS of two kernels side by side: summaries, and an aligned instruction diff."""
from __future__ import annotations

from dataclasses import dataclass

from ..diff.myers import opcodes
from .model import Instruction, SassSummary


@dataclass
class SassDiff:
    left: SassSummary
    right: SassSummary
    changed: list[tuple[str, list[str], list[str]]]   # (tag, left lines, right lines)

    def summary_rows(self) -> list[tuple[str, str, str]]:
        rows = []
        for a, b in zip(self.left.lines(), self.right.lines()):
            label, left = a.split(": ", 1)
            rows.append((label, left, b.split(": ", 1)[1]))
        return rows

    def text(self, context_limit: int = 40) -> str:
        width = max(len(r[1]) for r in self.summary_rows())
        out = [f"{label:>18}: {l:<{width}} | {r}" + ("" if l == r else "   <--")
               for label, l, r in self.summary_rows()]
        shown = 0
        for tag, left, right in self.changed:
            if shown >= context_limit:
                out.append("  ...")
                break
            out += [f"  - {line}" for line in left] + [f"  + {line}" for line in right]
            shown += 1
        return "\n".join(out)


def diff_sass(left: list[Instruction], right: list[Instruction], left_summary: SassSummary,
              right_summary: SassSummary) -> SassDiff:
    a = [i.normalized() for i in left]
    b = [i.normalized() for i in right]
    changed = [(tag, a[a0:a1], b[b0:b1]) for tag, a0, a1, b0, b1 in opcodes(a, b)
               if tag != "equal"]
    return SassDiff(left_summary, right_summary, changed)
