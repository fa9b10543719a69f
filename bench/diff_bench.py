"""Structural diff timings: each bundled operator, and a synthetic module of 5,000 ops.

    .venv/bin/python bench/diff_bench.py [--repeat N]

Each diff compares the Python kernel's normalized IR with its Rust port's where the port
exists, else with a copy whose values are renamed (the full alignment still runs). The
ratio column is diff time over the parse+normalize time of the same two texts, measured
in the same run. Targets: the largest real kernel < 50 ms; the synthetic module < 1 s.
"""
from __future__ import annotations

import argparse
import re
import time

from timing import median_time
from workbench.catalog import load_catalog
from workbench.diff import diff_modules
from workbench.goldens import golden_path
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse



def synthetic(n_ops: int, inserted_every: int = 0) -> str:
    lines = ["entry @synthetic(%arg0: tile<ptr<f32>>, %arg1: tile<i32>) {",
             "  %c = constant <f32: 1.000000e+00> : tile<128xf32>"]
    previous = "%c"
    for i in range(n_ops):
        op = ("addf", "mulf", "subf", "maxf")[i % 4]
        lines.append(f"  %v{i} = {op} {previous}, %c : tile<128xf32>")
        if inserted_every and i % inserted_every == inserted_every - 1:
            lines.append(f"  %x{i} = negf %v{i} : tile<128xf32>")
        previous = f"%v{i}"
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def row(label: str, left_text: str, right_text: str, repeat: int) -> tuple[float, str]:
    left, right = normalize(parse(left_text)), normalize(parse(right_text))
    t_prep = median_time(lambda: (normalize(parse(left_text)), normalize(parse(right_text))),
                         repeat)[0]
    t_diff = median_time(lambda: diff_modules(left, right), repeat)[0]
    verdict = diff_modules(left, right).verdict
    n_ops = sum(1 for _ in left.walk())
    print(f"{label:26} {n_ops:6d} {t_diff * 1e3:9.2f} {t_prep * 1e3:12.2f} "
          f"{t_diff / t_prep:9.2f}  {verdict}")
    return t_diff, verdict


def rust_text(op, case_index: int) -> str | None:
    """The port's Tile IR, or None where the port cannot give it (no port, a failed build,
    no cargo): those rows are left out of the table."""
    from workbench.errors import WorkbenchError
    from workbench.rust.emit import operator_rust_ir
    try:
        return operator_rust_ir(op, case_index).text
    except WorkbenchError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    print(f"{'pair':26} {'ops':>6} {'diff ms':>9} {'parse+norm ms':>12} {'ratio':>9}  verdict")
    worst = 0.0
    for op in load_catalog().values():
        for case in op.cases:
            left = golden_path(op, "python", case.index).read_text()
            right = rust_text(op, case.index)
            label = f"{op.name}[{case.index}] vs " + ("rust" if right else "renamed")
            right = right or re.sub(r"%([A-Za-z_]\w*)", r"%r_\1", left)
            worst = max(worst, row(label, left, right, repeat)[0])
    big, big_edit = synthetic(5000), synthetic(5000, inserted_every=500)
    t_big, _ = row("synthetic 5000 (same)", big, big, max(3, repeat // 2))
    t_edit, _ = row("synthetic 5000 (+10 ops)", big, big_edit, max(3, repeat // 2))
    print()
    print(f"largest real kernel: {worst * 1e3:.1f} ms (target < 50 ms: "
          f"{'met' if worst < 0.05 else 'MISSED'})")
    slowest = max(t_big, t_edit)
    print(f"synthetic 5,000 ops: {slowest * 1e3:.0f} ms (target < 1 s: "
          f"{'met' if slowest < 1 else 'MISSED'})")


if __name__ == "__main__":
    main()
