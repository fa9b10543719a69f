"""Each catalog port's README section on its facts, from the diff as the workbench judges it:
per case the verdict, what the port knows that the reference does not (stronger, and where
it comes from), what it knows less (weaker), what its C ABI checks, and the machine code.

    .venv/bin/python tools/port_fact_notes.py          rewrite the sections
    .venv/bin/python tools/port_fact_notes.py --check  exit 1 naming each README out of date
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workbench.catalog import load_catalog  # noqa: E402

HEADING = "## Facts and verdicts against the Python kernel"
OPS = ["silu_and_mul", "softmax", "rms_norm", "layer_norm", "matmul", "attention"]


def section(name: str) -> str:
    from workbench.diff import diff_modules
    from workbench.ownership.evidence import case_context, manifest_promises
    from workbench.ownership.pairs import operator_pair
    op = load_catalog()[name]
    lines = [HEADING, "", f"Written by `tools/port_fact_notes.py` from `workbench diff {name} "
             "--case N` (the rules: `workbench/diff/facts.py`).", ""]
    any_fixed = False
    for case in op.cases:
        left, right = operator_pair(op, case.index)
        context = case_context(op, case.index, left, right)
        report = diff_modules(left, right, context=context)
        facts = [f for f in report.findings if f.fact and f.category != "noise"]
        stronger = [f for f in facts if f.fact["direction"] == "stronger"]
        weaker = [f for f in facts if f.fact["direction"] == "weaker"]
        fixed = [f for f in facts if f.fact.get("origin") == "port"]
        any_fixed |= bool(fixed)
        machine = context.machine_evidence()
        lines.append(f"- **{case.label()}**: **{report.verdict}**")
        lines.append("  - weaker: " + (_list(weaker) or "none"))
        lines.append("  - stronger, re-derived from every call (cutile `compute_spec`): "
                     + (_list([f for f in stronger if f.fact["origin"] == "call"]) or "none"))
        lines.append("  - fixed by the port's code: " + (_list(fixed) or "none"))
        lines.append(f"  - machine code: {_machine(machine)}")
    promises = manifest_promises(op)
    lines += ["", "Checked on every call by the C ABI (port.toml, `wb_ffi::promises`, before any "
              "CUDA call; `tests/test_promises.py` breaks each): "
              + ", ".join(f"`{subject}`: {fact}" for subject, items in sorted(promises.items())
                          for fact, _ in items) + "; and each tensor's rank and dtypes.",
              ("Facts the port fixes itself are listed per case above, each with the check "
               "that covers it." if any_fixed else
               "A stronger fact the port fixed itself would need such a check to pass; this "
               "port fixes none: every stronger fact is re-derived per call."), ""]
    return "\n".join(lines)


def _list(findings) -> str:
    return "; ".join(f"`{f.fact['subject']}` {f.fact['reference']} -> {f.fact['port']}"
                     for f in findings)


def _machine(machine) -> str:
    if not machine.available:
        return f"no SASS ({machine.reason})"
    if machine.same:
        return ("the port compiled for a call with the reference's per-call facts gives the "
                "reference's SASS")
    return ("with the reference's per-call facts the port's SASS still differs ("
            + "; ".join(machine.changes[:2]) + ")")


def updated(readme: Path, text: str) -> str:
    old = readme.read_text()
    start = old.find(HEADING)
    if start < 0:
        start = old.find("## Differences from the Python kernel's Tile IR")
    kept = old[:start].rstrip() + "\n\n" if start >= 0 else old.rstrip() + "\n\n"
    rest = old[start:] if start >= 0 else ""
    noise = rest[rest.find("- **noise"):] if "- **noise" in rest else ""
    noise_block = ("Noise the diff reports and sets aside:\n\n" + noise.strip() + "\n") if noise else ""
    return kept + text + ("\n" + noise_block if noise_block else "")


def main(check: bool) -> int:
    stale = []
    for name in OPS:
        readme = load_catalog()[name].port_folder / "README.md"
        new = updated(readme, section(name))
        if new != readme.read_text():
            stale.append(str(readme))
            if not check:
                readme.write_text(new)
    if check and stale:
        print("out of date: " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv))
