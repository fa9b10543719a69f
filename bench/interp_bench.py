"""The check on the CPU over the catalog (`workbench check OP --cpu` for every operator): per
case within the CPU budget, the interpreter's seconds on each side (the Python kernel's Tile
IR and the Rust port's), and the verdict against the float64 reference; then the total time,
and which ops the interpreter covers out of those the catalog's and the corpus's IR use.

    .venv/bin/python bench/interp_bench.py [--only SUBSTRING] [--all-cases] [--poison]

Default: each operator's smallest case (what the test suite checks). --poison runs every case
again with unspecified loads (out of bounds, no padding value) poisoned with NaN and names the
operators whose output depends on them. Needs torch (CPU) for the references.
"""
from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from workbench.catalog import all_families, all_operators
from workbench.check.cpu import check_on_cpu, cpu_targets
from workbench.interp import Options, covered_ops
from workbench.ir.stages import operator_python_ir
from workbench.tilegym_catalog import family_rules


def _elements(specs) -> int:
    return sum(math.prod(a.shape) for a in specs if a.is_array)


def smallest_case(name: str) -> int:
    family = all_families()[name]
    if family.source == "own":
        return min(family.entries[0].cases, key=lambda c: _elements(c.args)).index
    problems = family_rules(name).problems
    return min(range(len(problems)),
               key=lambda i: _elements(t.spec for t in problems[i].tensors.values()))


def ops_used() -> Counter:
    """op name -> how many catalog entries' Python IR (first case) use it."""
    used: Counter = Counter()
    for op in all_operators().values():
        if op.cases:
            used.update({o.name for o in operator_python_ir(op, op.cases[0].index).module().walk()})
    return used


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="", help="operators whose name holds this")
    parser.add_argument("--all-cases", action="store_true")
    parser.add_argument("--poison", action="store_true")
    args = parser.parse_args()
    targets = [t for t in cpu_targets() if args.only in t]
    header = f"{'operator / entry':46} {'case':>4} {'python s':>9} {'rust s':>8} {'rel err':>9}  verdict"
    print(header)
    print("-" * len(header))
    total, failed, sensitive, skipped = 0.0, [], [], 0
    for name in targets:
        cases = None if args.all_cases else [smallest_case(name)]
        response = check_on_cpu(name, cases)
        for r in response.results:
            sides = r["sides"]
            if all(s.get("skipped") for s in sides.values()):
                skipped += 1
                continue
            secs = [sides.get(s, {}).get("seconds") for s in ("python", "rust")]
            total += sum(s for s in secs if s)
            err = sides.get("rust", {}).get("rel_error")
            ok = all(s.get("ok") for s in sides.values()) and (r["cross"] or {"ok": True})["ok"]
            label = r.get("entry", name)
            print(f"{label:46} {r['case']:4d} " + " ".join(
                f"{s:{w}.2f}" if s is not None else f"{'-':>{w}}" for s, w in zip(secs, (9, 8)))
                + f" {err if err is None else format(err, '.2e'):>9}  "
                + ("ok" if ok else "FAIL " + "; ".join(
                    f"{k}: {v.get('reason', '')[:80]}" for k, v in sides.items() if not v.get("ok"))))
            if not ok:
                failed.append(f"{label} case {r['case']}")
        if args.poison and check_on_cpu(name, cases, options=Options(poison=True)).status == "fail":
            sensitive.append(name)
    print(f"\ninterpreter time, both sides, all cases run: {total:.1f} s; cases over the "
          f"budget: {skipped}; failed: {', '.join(failed) or 'none'}")
    if args.poison:
        print("outputs that depend on unspecified loads (poisoned runs failed): "
              + (", ".join(sensitive) or "none"))
    used, covered = ops_used(), covered_ops()
    print(f"\nops: the catalog's Python IR uses {len(used)}; the interpreter covers "
          f"{len(set(used) & covered)} of them ({len(covered)} in all); missing: "
          + (", ".join(sorted(set(used) - covered)) or "none"))


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"\nbench wall time: {time.perf_counter() - start:.1f} s")
