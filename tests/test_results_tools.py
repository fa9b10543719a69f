"""The tools that turn a GPU session's outputs into bench/RESULTS.md (no GPU needed: they read
what the session wrote)."""
from __future__ import annotations

import importlib.util
import json

from workbench.catalog import REPO_ROOT


def tool(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_writing_results_again_keeps_the_sessions_added_below_the_generated_part():
    module = tool("write_results")
    page = ("# GPU results\n\ngenerated tables\n\n## Session of 2026-12-01 (late): one\n\nrows\n"
            "\n## Session of 2026-11-30: two\n")
    kept = module.later_sessions(page)
    assert kept.startswith("\n## Session of 2026-12-01 (late)") and kept.endswith("two\n")
    assert "generated tables" not in kept
    assert module.later_sessions("# GPU results\n\nno sessions yet\n") == ""


def test_the_status_table_takes_each_operator_from_the_newest_run_and_names_it(tmp_path):
    status = tool("operator_status")
    def run(folder, ok_rust, parity):
        folder.mkdir()
        result = {"case": 0, "entry": "tilegym.swiglu.forward", "label": "case 0",
                  "sides": {"rust": {"ok": ok_rust}, "tilegym": {"ok": True}}}
        (folder / "tilegym_checks.json").write_text(json.dumps(
            {"tilegym.swiglu": {"status": "ok", "results": [result, {**result, "case": 1}]}}))
        (folder / "tilegym_bench.json").write_text(json.dumps(
            {"parity_geomean": {"tilegym.swiglu": parity},
             "rows": [{"op": "tilegym.swiglu", "rust_us": 2.0, "torch_us": 8.0},
                      {"op": "tilegym.swiglu", "rust_us": 4.0, "torch_us": 4.0}]}))
    run(tmp_path / "newer", False, 0.98)
    run(tmp_path / "older", True, 1.01)
    lines = status.table([tmp_path / "newer", tmp_path / "older"])
    [swiglu] = [line for line in lines if line.startswith("| tilegym.swiglu |")]
    assert "| 0/2, 2/2 | 0.980 | 2.00x | - | newer/tilegym |" in swiglu
    [chunked] = [line for line in lines if line.startswith("| tilegym.chunk_gated_delta_rule |")]
    assert "| not run | - | - | - | - |" in chunked
