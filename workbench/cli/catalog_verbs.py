"""`workbench ops`: every operator of the catalog, where it comes from, and its entries with
the provenance of their ports and the IR verdict of each case.

Verdicts are recorded in kernels_src/verdicts.json (`workbench ops --refresh` reruns every
diff, no GPU needed); each record carries the code hash of the port it was made from, so a
port edited since shows `stale` instead of an old verdict.
"""
from __future__ import annotations

import json

from .common import EXIT_OK, Verb
from ..catalog import all_families
from ..errors import WorkbenchError
from ..ownership.pairs import operator_diff
from ..port.verdicts import current_verdicts, recorded_verdicts, verdicts_file
from ..rust.cargo import code_hash, has_port

OWN_PROVENANCE = "hand-written"


def _ops_arguments(p) -> None:
    p.add_argument("--json", action="store_true", help="the listing as JSON")
    p.add_argument("--markdown", action="store_true", help="the README's table")
    p.add_argument("--refresh", action="store_true",
                   help="rerun every entry's IR diff and record the verdicts")


def refresh_verdicts() -> dict:
    """Every entry's diff verdict per case, with the port's code hash."""
    records = {}
    for family in all_families().values():
        for op, key in _listed(family):
            if not has_port(op):
                continue
            verdicts = []
            for case in op.cases:
                try:
                    verdicts.append(operator_diff(op, case.index).verdict)
                except WorkbenchError as e:
                    verdicts.append(f"ERROR: {e.message[:120]}")
            records[key] = {"code": code_hash(op), "cases": [c.index for c in op.cases],
                            "verdicts": verdicts}
    verdicts_file().write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    return records


def listing(records: dict) -> list[dict]:
    out = []
    for family in all_families().values():
        entries = []
        for op, key in _listed(family):
            record = records.get(key)
            if not has_port(op):
                verdicts = ["no port"]
            elif record is None:
                verdicts = ["unknown"]
            else:
                verdicts = current_verdicts(record, op)
            entries.append({"name": op.name, "kernel": op.kernel_name,
                            "provenance": (op.provenance or OWN_PROVENANCE) if has_port(op)
                            else "missing",
                            "ir_verdicts": verdicts, "chain_step": key != op.name})
        out.append({"name": family.name, "source": family.source, "bound": family.bound,
                    "summary": family.summary, "entries": entries,
                    "chain": [s.name for s in family.steps]})
    return out


def _listed(family):
    """(operator, record key) for each entry, then each chain step from another family (on
    this family's cases: recorded as FAMILY>STEP)."""
    listed = [(op, op.name) for op in family.entries]
    return listed + [(s, f"{family.name}>{s.name}") for s in family.steps
                     if s not in family.entries]


def markdown(rows: list[dict]) -> str:
    lines = ["| operator | source | entry (kernel) | port | IR verdict per case |",
             "| --- | --- | --- | --- | --- |"]
    for row in rows:
        for entry in row["entries"]:
            lines.append(f"| {row['name']} | `{row['source']}` | `{entry['kernel']}` | "
                         f"{entry['provenance']} | {', '.join(entry['ir_verdicts'])} |")
    return "\n".join(lines)


def cmd_ops(args) -> int:
    records = refresh_verdicts() if args.refresh else recorded_verdicts()
    rows = listing(records)
    if args.json:
        print(json.dumps(rows, indent=1))
    elif args.markdown:
        print(markdown(rows))
    else:
        for row in rows:
            print(f"{row['name']:28} {row['source']}")
            for entry in row["entries"]:
                print(f"    {entry['name']:40} {entry['provenance']:14} "
                      f"{' '.join(entry['ir_verdicts'])}")
    return EXIT_OK


VERBS = (
    Verb("ops", _ops_arguments, cmd_ops),
)
