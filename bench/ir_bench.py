"""Tile IR stage timings per operator: export, disassembly, parse, normalize, the whole CLI.

    .venv/bin/python bench/ir_bench.py [--repeat N]

Each time is the median of N runs. Ratios are against references measured in the same run:
parse+normalize against the tileirdisasm call that produced the text, and the whole
`workbench ir OP` command against a bare `python -c "import cuda.tile"` start-up.
Targets (2-core machine): parse + normalize of the largest kernel < 20 ms; `workbench ir OP`
< 1.5 s.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from timing import median_time
from workbench.catalog import load_catalog
from workbench.ir.disasm import disassemble
from workbench.ir.export import export_bytecode
from workbench.sources.kernel import load_operator_kernel
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse



def command_time(args: list[str], repeat: int) -> float:
    return median_time(lambda: subprocess.run(args, capture_output=True, check=True,
                                              timeout=120), repeat)[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    workbench = str(Path(sys.executable).parent / "workbench")
    startup = command_time([sys.executable, "-c", "import cuda.tile"], repeat)

    header = (f"{'operator':13} {'ops':>4} {'export ms':>9} {'disasm ms':>9} {'parse ms':>8} "
              f"{'norm ms':>8} {'p+n/disasm':>10} {'ops/s':>8} {'cli s':>6} {'cli/import':>10}")
    print(header)
    print("-" * len(header))
    worst_parse, worst_cli = 0.0, 0.0
    for op in load_catalog().values():
        kernel = load_operator_kernel(op)
        # the case with the most ops stands for the operator
        case = max(op.cases, key=lambda c: len(disassemble(
            export_bytecode(kernel, list(c.args), c.consts)[0])))
        t_export, (bytecode, _) = median_time(
            lambda: export_bytecode(kernel, list(case.args), case.consts), repeat)
        t_disasm, text = median_time(lambda: disassemble(bytecode), repeat)
        t_parse, module = median_time(lambda: parse(text), repeat)
        t_norm, _ = median_time(lambda: normalize(module), repeat)
        n_ops = sum(1 for _ in module.walk())
        t_cli = command_time([workbench, "ir", op.name, "--case", str(case.index),
                              "--stage", "normalized"], max(3, repeat // 2))
        worst_parse, worst_cli = max(worst_parse, t_parse + t_norm), max(worst_cli, t_cli)
        print(f"{op.name:13} {n_ops:4d} {t_export * 1e3:9.1f} {t_disasm * 1e3:9.1f} "
              f"{t_parse * 1e3:8.2f} {t_norm * 1e3:8.2f} {(t_parse + t_norm) / t_disasm:10.2f} "
              f"{n_ops / (t_parse + t_norm):8.0f} {t_cli:6.2f} {t_cli / startup:10.2f}")
    print()
    print(f"reference: `python -c 'import cuda.tile'` = {startup:.2f} s")
    print(f"largest parse+normalize: {worst_parse * 1e3:.1f} ms (target < 20 ms: "
          f"{'met' if worst_parse < 0.020 else 'MISSED'})")
    print(f"slowest `workbench ir OP`: {worst_cli:.2f} s (target < 1.5 s: "
          f"{'met' if worst_cli < 1.5 else 'MISSED'})")


if __name__ == "__main__":
    main()
