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
    assert lines[-1] == "Parity geomean over the 1 operator timed: 0.980 (lowest 0.980)."


def _line(kind, family, case, entry, ok=True, **extra):
    sides = {"rust": {"ok": ok, "cupti_us": 2.0}, "tilegym": {"ok": True, "cupti_us": 2.2},
             "torch": {"ok": True, "cupti_us": 4.0}}
    return json.dumps({"kind": kind, "family": family, "seconds": 1.0, "case": case,
                       "entry": entry, "label": f"case {case}", "sides": sides,
                       "launch": {"grid": [1, 1, 1], "hints": {}, "consts": {}},
                       "bytes": 1 << 20, "flops": None, "rotation": 1, "tuned": [], **extra})


def test_results_lost_with_their_files_are_rebuilt_from_the_progress_lines(tmp_path):
    """A call brings back 8 files: a family whose result files stayed behind is rebuilt from
    its progress lines, one cut short says how far it got, one already answered is left out."""
    module = tool("progress_results")
    lines = [_line("start", "tilegym.swiglu", 0, "tilegym.swiglu.forward")]
    for case in range(4):
        lines += [_line(kind, "tilegym.swiglu", case, "tilegym.swiglu.forward", ok=case != 2)
                  for kind in ("check", "bench")]
    lines += [_line("check", "tilegym.dropout", 0, "tilegym.dropout.forward"),
              _line("check", "tilegym.rope", 0, "tilegym.rope.forward")]
    (tmp_path / "progress.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "tilegym_checks.json").write_text(json.dumps({"tilegym.rope": {"status": "ok"}}))
    checks, report = module.rebuild(tmp_path, {"copy_gbps": 4000.0})
    assert set(checks) == {"tilegym.swiglu", "tilegym.dropout"}
    assert checks["tilegym.swiglu"]["status"] == "fail"          # case 2's Rust side failed
    assert [r["case"] for r in checks["tilegym.swiglu"]["results"]] == [0, 1, 2, 3]
    assert checks["tilegym.dropout"]["status"] == "partial"
    assert checks["tilegym.dropout"]["reason"].startswith("1 of 5 cases")
    assert [r["op"] for r in report["rows"]] == ["tilegym.swiglu"] * 4
    assert abs(report["parity_geomean"]["tilegym.swiglu"] - 1.1) < 1e-9
