"""The corpus run for a person: one aligned row per entry, each non-PASS entry's first
reasons under it, and a summary; the same table as Markdown for bench/corpus.md.

    print(format_table(results))
    print(summary_line(results))
"""
from __future__ import annotations

import re
from collections import Counter

from .run import GOOD, VERDICTS, EntryResult

REASONS_SHOWN = 3
SHORT = {"PASS": "PASS", "PASS_WITH_NOTES": "NOTES", "FAIL": "FAIL", "UNSUPPORTED": "UNSUP",
         "ERROR": "ERROR"}


def case_column(result: EntryResult) -> str:
    return " ".join(SHORT.get(c.verdict, c.verdict) for c in result.cases) or "-"


def format_table(results: list[EntryResult]) -> str:
    width = max([len(r.short) for r in results] + [6])
    cases = max([len(case_column(r)) for r in results] + [5])
    lines = [f"{'entry':{width}}  exp  {'cases':{cases}}  verdict", "-" * (width + cases + 24)]
    for r in results:
        lines.append(f"{r.short:{width}}  {'yes' if r.experimental else '   '}  "
                     f"{case_column(r):{cases}}  {r.verdict}")
        if r.verdict != "PASS":
            lines += [f"    {reason}" for reason in r.reasons[:REASONS_SHOWN]]
    return "\n".join(lines)


def counts(results: list[EntryResult]) -> Counter:
    return Counter(r.verdict for r in results)


def summary_line(results: list[EntryResult]) -> str:
    c = counts(results)
    main = [r for r in results if not r.experimental]
    good = sum(r.verdict in GOOD for r in main)
    share = f"{100 * good / len(main):.0f}%" if main else "-"
    tally = ", ".join(f"{v} {c.get(v, 0)}" for v in VERDICTS)
    return (f"{len(results)} entries ({len(main)} not experimental): {tally}; "
            f"not experimental PASS/PASS_WITH_NOTES {good}/{len(main)} ({share})")


def top_reasons(results: list[EntryResult], n: int = 10) -> list[tuple[str, int]]:
    """The most common `construct: why` among the entries' first reasons (file:line dropped)."""
    tally = Counter()
    for r in results:
        if r.verdict in GOOD:
            continue
        seen = {_construct_why(reason) for reason in r.reasons}
        tally.update(seen)
    # ties by text: the table is the same from one run to the next (sets iterate by hash)
    return sorted(tally.items(), key=lambda item: (-item[1], item[0]))[:n]


def _construct_why(reason: str) -> str:
    """`construct: why` with the file:line and the case numbers dropped."""
    parts = reason.split(": ", 1)
    text = parts[1] if len(parts) == 2 and ":" in parts[0] else reason
    return re.sub(r"\(cases? [\d, ]+\)$", "", re.sub(r"\bcase \d+ ", "case N ", text)).strip()


def markdown(results: list[EntryResult], title: str) -> str:
    lines = [f"# {title}", "", summary_line(results), "",
             "| entry | experimental | verdict per case | verdict | first reason |",
             "| --- | --- | --- | --- | --- |"]
    for r in results:
        reason = r.reasons[0] if r.reasons and r.verdict != "PASS" else ""
        lines.append(f"| `{r.short}` | {'yes' if r.experimental else ''} | {case_column(r)} | "
                     f"{r.verdict} | {_cell(reason)} |")
    lines += ["", "## The most common reasons (entries that are not PASS / PASS_WITH_NOTES)", "",
              "| entries | construct: why |", "| --- | --- |"]
    lines += [f"| {n} | {_cell(text)} |" for text, n in top_reasons(results)]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
