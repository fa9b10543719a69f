"""The CPU interpreter's verdicts against the H200's (issue 32): on the GPU machine, the same
cases checked on the GPU and on the CPU (`workbench check --cpu`), in one run; a table of both
verdicts per case and side, and of the planted faults.

    bash tools/gpu_run.sh interp            # there: carry .gpu-batch (tools/pack_batch.sh:
                                            # tileirdisasm), .gpu and the bundle
    .venv/bin/python tools/gpu_interp.py table interp_agreement.json > bench/interp_gpu.md

INTERP_TARGETS=a,b picks operators (default: the own operators, every TileGym family, the
planted fixtures); INTERP_CASES=all takes every case of a family the CPU check makes. Each operator is checked on the cases the CPU check makes (an own
operator: all of them up to SAMPLE_LIMIT elements, past the budget a sample of the blocks; a
family: its smallest case), so both sides of the table ran the same cases. The CPU side runs
the ports' host code (carry kernels_src/target/cuda_stub: the recording driver, built here).
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

OUT = Path(os.environ.get("OUT", "gpu-out"))
FIXTURES = ("zero_padding", "oob_store", "half_grid")       # kernels_src/fixtures/catalog.toml


def _elements(specs) -> int:
    return sum(math.prod(a.shape) for a in specs if a.is_array)


def cpu_cases(name: str) -> list[int]:
    """An own operator's cases the CPU check makes (past its budget it runs a sample of the
    blocks); a family's smallest case."""
    from workbench.catalog import all_families
    from workbench.check.cpu_common import SAMPLE_LIMIT
    from workbench.tilegym_catalog import family_rules
    family = all_families()[name]
    if family.source == "own":
        return [c.index for c in family.entries[0].cases if _elements(c.args) <= SAMPLE_LIMIT]
    problems = family_rules(name).problems
    sizes = {i: _elements(t.spec for t in p.tensors.values()) for i, p in enumerate(problems)}
    if os.environ.get("INTERP_CASES") == "all":     # every case the CPU check makes
        return [i for i, size in sizes.items() if size <= SAMPLE_LIMIT]
    return [min(sizes, key=sizes.get)]


def verdicts(response) -> dict:
    """(entry, case) -> {side: ok (True/False) or None where skipped}; TileGym's side is
    `python` on both machines."""
    out = {}
    for r in response.results:
        key = f"{r.get('entry', '')}|{r['case']}"
        out[key] = {("python" if side == "tilegym" else side):
                    (None if o.get("skipped") else bool(o.get("ok")))
                    for side, o in r.get("sides", {}).items()}
    return out


def _both(name: str, gpu, cpu, cases) -> dict:
    from workbench.check.report import format_check
    gpu_response, cpu_response = gpu(), cpu()
    print(format_check(f"{name} (GPU)", gpu_response), flush=True)
    print(format_check(f"{name} (CPU)", cpu_response), flush=True)
    return {"cases": cases, "gpu": verdicts(gpu_response), "cpu": verdicts(cpu_response),
            "gpu_status": gpu_response.status, "cpu_status": cpu_response.status}


def run() -> None:
    from workbench.catalog import all_families
    from workbench.check.cpu import check_on_cpu, cpu_targets
    from workbench.check.family_report import check_family
    from workbench.check.report import check_operator
    from workbench.fixtures import fixture_operator
    chosen = os.environ.get("INTERP_TARGETS", "")
    names = chosen.split(",") if chosen else cpu_targets() + list(FIXTURES)
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    for name in names:
        start = time.time()
        try:
            if name in FIXTURES:
                op = fixture_operator(name)
                results[name] = _both(name, lambda: check_operator(op, [0]),
                                      lambda: check_on_cpu(op, [0]), [0])
            elif all_families()[name].source == "own":
                cases = cpu_cases(name)
                results[name] = _both(name, lambda: check_operator(name, cases),
                                      lambda: check_on_cpu(name, cases), cases)
            else:
                cases = cpu_cases(name)
                results[name] = _both(name, lambda: check_family(name, cases,
                                                                  sides=("rust", "tilegym")),
                                      lambda: check_on_cpu(name, cases), cases)
        except Exception as e:     # one target's error must not hide the others'
            results[name] = {"error": f"{type(e).__name__}: {e}"}
            print(f"{name}: ERROR {e}", flush=True)
        results[name]["seconds"] = round(time.time() - start, 1)
        (OUT / "interp_agreement.json").write_text(json.dumps(results, indent=1))


def table(path: str) -> None:
    data = json.loads(Path(path).read_text())
    print("| operator | entry, case | side | H200 | CPU | agree |")
    print("| --- | --- | --- | --- | --- | --- |")
    word = {True: "ok", False: "FAIL", None: "skipped"}
    agree = disagree = 0
    for name, result in data.items():
        if "error" in result:
            print(f"| {name} | - | - | error: {result['error'][:80]} | - | - |")
            continue
        for key in sorted(set(result["gpu"]) | set(result["cpu"])):
            gpu, cpu = result["gpu"].get(key, {}), result["cpu"].get(key, {})
            for side in sorted(set(gpu) | set(cpu)):
                g, c = gpu.get(side), cpu.get(side)
                same = g == c
                if g is not None and c is not None:
                    agree, disagree = agree + same, disagree + (not same)
                entry, case = key.split("|")
                print(f"| {name} | {entry or name} {case} | {side} | {word[g]} | {word[c]} | "
                      f"{'yes' if same else '**no**'} |")
    print(f"\n{agree} verdicts agree, {disagree} differ (where both ran).")


if __name__ == "__main__":
    {"run": lambda: run(), "table": lambda: table(sys.argv[2])}[sys.argv[1]]()
