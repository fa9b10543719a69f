"""SASS timings per operator: compile (tileiras, sm_90) + disassemble + summarize, cold and
cached, for the Python kernel and the Rust port of case 0.

    .venv/bin/python bench/sass_bench.py

Cold runs use an empty cache folder; the reference is the bytecode export of the same
kernel, measured in the same run. Targets: < 3 s per kernel cold, < 100 ms cached.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        os.environ["WORKBENCH_CACHE"] = cache
        from workbench.catalog import load_catalog
        from workbench.ownership.pairs import side_bytecode
        from workbench.sass import compile as sass_compile
        from workbench.sass.stages import sass_of
        sass_compile.CACHE_DIR = Path(cache) / "cubin"
        print(f"{'kernel':22} {'export s':>9} {'cold s':>8} {'cached ms':>10} {'cold/export':>12}  summary")
        worst_cold = worst_cached = 0.0
        for op in load_catalog().values():
            for side in ("python", "rust"):
                start = time.perf_counter()
                bytecode = side_bytecode(op, side, 0)
                t_export = time.perf_counter() - start
                start = time.perf_counter()
                result = sass_of(bytecode)
                t_cold = time.perf_counter() - start
                start = time.perf_counter()
                sass_of(bytecode)
                t_cached = time.perf_counter() - start
                worst_cold, worst_cached = max(worst_cold, t_cold), max(worst_cached, t_cached)
                s = result.summary
                print(f"{op.name + ' ' + side:22} {t_export:9.3f} {t_cold:8.2f} {t_cached * 1e3:10.1f} "
                      f"{t_cold / t_export:12.1f}  {s.instructions} instr, regs {s.registers}, "
                      f"matrix {s.matrix or '-'}, loads {s.global_loads or '-'}")
        print(f"\nslowest cold: {worst_cold:.2f} s (target < 3 s: {'met' if worst_cold < 3 else 'MISSED'}); "
              f"slowest cached: {worst_cached * 1e3:.0f} ms (target < 100 ms: "
              f"{'met' if worst_cached < 0.1 else 'MISSED'})")


if __name__ == "__main__":
    main()
