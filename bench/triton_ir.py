"""Every Triton kernel of kernels_src/triton/catalog.toml through translate, draft, build and
the two IR diffs, with no GPU: the verdict of the port against the derived cuTile Python
kernel, against TileGym's cuTile kernel of the same operator where the catalog names one, and
what each verdict means (its first finding).

    .venv/bin/python bench/triton_ir.py            (writes bench/triton_ir.md, ~5 min)

The GPU check and timings are `bash tools/gpu_run.sh triton` (bench/RESULTS.md).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from workbench.corpus.run import classify
from workbench.port.pipeline import run_pipeline
from workbench.translate.targets import triton_catalog

BENCH = Path(__file__).resolve().parent
MEANING = {
    "PASS": "the same tile program, fact for fact",
    "PASS_WITH_NOTES": "the same tile program; the notes are facts or hints stated differently",
    "FAIL": "the programs differ",
    "UNSUPPORTED": "refused: a construct with no exact cuTile mapping",
}


def row(name: str, target, root: Path) -> str:
    result = run_pipeline(target.operator(root / name / "port"), runs_dir=root / "runs" / name)
    by_stage = {a.stage: a for a in result.artifacts}
    verdict, reasons = classify(result.verdict, result.artifacts)
    ir = by_stage.get("ir_diff")
    first = reasons[0] if reasons else ""
    if ir is None:
        against_derived = f"{verdict}: {first}"
    else:
        against_derived = f"{ir.verdict} ({MEANING.get(ir.verdict, '')})" + \
            (f": {first}" if first else "")
    corpus = by_stage.get("corpus_diff")
    against_corpus = corpus.summary if corpus else "-"
    gpu = by_stage.get("gpu_check")
    gpu_text = f"{gpu.verdict}: {gpu.summary}" if gpu else "-"
    source = "TileGym" if target.module else "own"
    return f"| `{name}` | {source} | {_cell(against_derived)} | {_cell(against_corpus)} | {_cell(gpu_text)} |"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def main() -> None:
    start = time.perf_counter()
    lines = ["| entry | kernel | port vs derived cuTile kernel | port vs TileGym's cuTile kernel "
             "| GPU step here |", "| --- | --- | --- | --- | --- |"]
    with tempfile.TemporaryDirectory(prefix="triton-ir-") as tmp:
        for name, target in triton_catalog().items():
            lines.append(row(name, target, Path(tmp)).replace(f"{tmp}/", ""))
            print(lines[-1], flush=True)
    minutes = (time.perf_counter() - start) / 60
    text = (f"# Triton kernels: the IR diffs, without a GPU ({minutes:.0f} min)\n\n"
            "Written by `bench/triton_ir.py`. A port is diffed against the cuTile Python kernel "
            "derived from its Triton kernel (the verdict that says whether the port is that "
            "program) and, where the catalog names one, against TileGym's own cuTile kernel of "
            "the operator (a different kernel: a FAIL there says the algorithms or tilings "
            "differ, not that the port is wrong).\n\n" + "\n".join(lines) + "\n")
    (BENCH / "triton_ir.md").write_text(text)


if __name__ == "__main__":
    sys.exit(main())
