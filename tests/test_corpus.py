"""The TileGym corpus: the manifest matches the installed package, every case compiles, the
launch rules evaluate, `workbench corpus` reports a verdict and precise reasons per entry
(a crash is that entry's ERROR row), and bad MODULE:KERNEL targets are one message, exit 2."""
import json
import re
from pathlib import Path

import pytest

from workbench.argspec import parse_arg
from workbench.cli import main
from workbench.sources.corpus_expr import evaluate, next_power_of_2
from workbench.sources.corpus_manifest import load_manifest
from workbench.corpus.run import GOOD, VERDICTS, run_entry
from workbench.errors import WorkbenchError
from workbench.sources.module import kernel_entries
from workbench.resolve import kernel_parameters, module_file, resolve_target

REASON = re.compile(r"^[^\s:]+:(\d+|\?): [^:]+: .+")
ROOT = "tilegym.ops.cutile"


def installed_entries() -> dict[str, bool]:
    """module:kernel -> experimental, for every @ct.kernel of the installed package's
    top-level operator modules."""
    folder = module_file(f"{ROOT}.softmax").parent
    found = {}
    for path in sorted(folder.glob("*.py")):
        for entry in kernel_entries(path.read_text(), str(path)):
            found[f"{ROOT}.{path.stem}:{entry.name}"] = entry.experimental
    return found


def test_the_manifest_lists_exactly_the_installed_entries():
    listed = {e.target: e.experimental for e in load_manifest().entries}
    installed = installed_entries()
    assert sorted(set(installed) - set(listed)) == [], "entries missing from the manifest"
    assert sorted(set(listed) - set(installed)) == [], "manifest entries the package lacks"
    assert {k for k, v in listed.items() if v} == {k for k, v in installed.items() if v}
    assert all(1 <= len(e.cases) <= 3 for e in load_manifest().entries)


def test_every_case_compiles_through_workbench_ir(capsys):
    failed = []
    for entry in load_manifest().entries:
        op = resolve_target(entry.target)
        for case in op.cases:
            argv = ["ir", entry.target] + [x for a in case.args for x in ("--arg", str(a))]
            argv += [x for k, v in case.consts.items() for x in ("--const", f"{k}={v}")]
            if main(argv) != 0:
                failed.append(f"{entry.short} case {case.index}: {capsys.readouterr().err}")
            capsys.readouterr()
    assert failed == []


def test_launch_rules_give_each_case_a_grid():
    for entry in load_manifest().entries:
        params = kernel_parameters(module_file(entry.module), entry.kernel, strict=True)
        for case in entry.resolve(params):
            assert case.grid and all(isinstance(g, int) and g > 0 for g in case.grid), entry.short
    tma = load_manifest().entry(f"{ROOT}.softmax", "_softmax_kernel_tma")
    resolved = tma.resolve(["output", "input", "N_ROWS", "N_COLS", "TILE_SIZE"])
    assert resolved[1].consts == {"N_ROWS": 256, "N_COLS": 1009, "TILE_SIZE": 1024}
    assert resolved[1].grid == (256, 1, 1)          # min(132 SMs * occupancy 2, 256 rows)


def test_a_module_kernel_named_without_args_takes_the_manifest_cases(capsys):
    op = resolve_target(f"{ROOT}.softmax:_softmax_kernel_tma")
    assert [str(a) for a in op.cases[1].args] == ["f16[256,1009]", "f16[256,1009]"]
    assert main(["ir", f"{ROOT}.softmax:_softmax_kernel_tma", "--case", "1"]) == 0
    assert "_I1024" in capsys.readouterr().out      # TILE_SIZE = next_power_of_2(1009)


def test_rules_are_expressions_over_the_case_and_nothing_else():
    assert [next_power_of_2(n) for n in (1, 2, 3, 1000, 1024)] == [1, 2, 4, 1024, 1024]
    assert evaluate("min(NUM_SM * 2, n) if n > 0 else 1", {"NUM_SM": 132, "n": 1000}) == 264
    for bad in ("__import__('os')", "open('x')", "n.__class__", "[n for n in x]"):
        with pytest.raises(WorkbenchError, match="not allowed|unknown name"):
            evaluate(bad, {"n": 1, "x": [1]})
    with pytest.raises(WorkbenchError, match="unknown name 'm'"):
        evaluate("m + 1", {"n": 1})


def test_a_list_of_arrays_is_an_argspec():
    spec = parse_arg("list[f16[1024,512]]")
    assert spec.is_list and spec.shape == (1024, 512) and str(spec) == "list[f16[1024,512]]"
    with pytest.raises(WorkbenchError, match="a list holds arrays"):
        parse_arg("list[f32]")


# -- workbench corpus --------------------------------------------------------------------

def check_result_shape(item: dict) -> None:
    assert set(item) >= {"kernel", "experimental", "cases", "verdict", "reasons"}
    assert item["verdict"] in VERDICTS
    assert all(set(c) >= {"args", "consts", "verdict"} for c in item["cases"])
    if item["verdict"] not in GOOD:
        assert item["reasons"], item
        assert all(REASON.match(r) for r in item["reasons"]), item["reasons"]


def test_corpus_runs_real_entries_with_verdicts_and_reasons(cli, tmp_path):
    only = f"{ROOT}.transpose:*"
    result = cli("corpus", "--only", only, "--json", "--out", str(tmp_path), timeout=900)
    assert result.returncode in (0, 1), result.stderr
    items = json.loads(result.stdout)
    assert [i["kernel"] for i in items] == [f"{ROOT}.transpose:_transpose_kernel"]
    for item in items:
        check_result_shape(item)
    assert items[0]["cases"][1]["consts"]["BLOCK_M"] == 128     # bf16 and both dims >= 4096
    assert "Traceback" not in result.stderr


def test_corpus_on_a_dask_cluster_reports_in_manifest_order(cli, tmp_path):
    result = cli("corpus", "--only", "softmax:*", "--jobs", "2", "--out", str(tmp_path),
                 timeout=600)
    assert result.returncode in (0, 1), result.stderr
    rows = [line.split()[0] for line in result.stdout.splitlines()
            if line.startswith("softmax:")]
    assert rows == [e.short for e in load_manifest().select("softmax:*")]
    assert result.stdout.splitlines()[-1].startswith("4 entries (3 not experimental): PASS ")
    for line in result.stdout.splitlines():
        if line.startswith("    "):                  # a reason under a non-PASS row
            assert REASON.match(line.strip()), line


def test_a_crash_in_one_entry_is_its_error_row(monkeypatch, tmp_path):
    import workbench.port.stages as stages

    def crash(*args, **kwargs):
        return {}["no such key"]
    monkeypatch.setattr(stages, "analyze", crash)      # a bug inside a pipeline stage
    result = run_entry(f"{ROOT}.dropout:_dropout_kernel", tmp_path)
    assert result.verdict == "ERROR" and [c.verdict for c in result.cases] == ["ERROR"] * 2
    assert len(result.reasons) == 1
    assert re.match(r"^workbench/port/stages\.py:\d+: crash: KeyError: 'no such key'$",
                    result.reasons[0]), result.reasons


SPEC = {"spec": {"filename": "tilegym/ops/cutile/x.py", "line": 7}}


def test_a_run_that_stops_in_the_drafter_is_unsupported_with_its_diagnostics():
    from workbench.corpus.run import classify
    from workbench.port.artifacts import Artifact
    artifacts = [Artifact("analyze", "OK", "", SPEC),
                 Artifact("write_kernel", "UNSUPPORTED", "", {"diagnostics": [
                     {"line": 12, "construct": "ct.gather", "message": "no translation rule"}]})]
    assert classify("UNSUPPORTED", artifacts) == (
        "UNSUPPORTED", ["tilegym/ops/cutile/x.py:12: ct.gather: no translation rule"])
    # a Triton kernel refused by its translation stops before analyze
    refused = [Artifact("translate", "UNSUPPORTED", "line 59: tl.rand", {"diagnostics": [
        {"line": 59, "construct": "tl.rand", "message": "no random-number generator",
         "file": "tilegym/ops/triton/dropout.py"}]})]
    assert classify("UNSUPPORTED", refused) == (
        "UNSUPPORTED", ["tilegym/ops/triton/dropout.py:59: tl.rand: no random-number generator"])


def test_a_failed_build_or_diff_is_fail_with_the_finding():
    from workbench.corpus.run import classify
    from workbench.port.artifacts import Artifact
    build = Artifact("build", "BUILD_FAILED", "", {"diagnostics": [
        {"level": "error", "message": "cannot find value `ids`", "file": "runs/p/src/kernel.rs",
         "line": 33}]})
    assert classify("FAIL", [Artifact("analyze", "OK", "", SPEC), build]) == (
        "FAIL", ["runs/p/src/kernel.rs:33: rustc: cannot find value `ids`"])
    finding = {"category": "critical", "kind": "dataflow", "detail": "`reshape` differs",
               "left": {"source": "tilegym/ops/cutile/x.py:15:9"}, "right": None}
    diff = Artifact("ir_diff", "FAIL", "", {"cases": [
        {"case": 0, "verdict": "FAIL", "findings": [finding, finding]},
        {"case": 1, "verdict": "FAIL", "findings": [finding]}]})
    assert classify("FAIL", [Artifact("analyze", "OK", "", SPEC), diff]) == (
        "FAIL", ["tilegym/ops/cutile/x.py:15: dataflow: `reshape` differs (cases 0, 1)"])
    perf = {"category": "perf", "kind": "div_by", "detail": "a pointer: weaker in the port",
            "left": {"source": "tilegym/ops/cutile/x.py:21:3"}, "right": None}
    hint = dict(perf, category="hint", detail="x.stride[0]: stronger in the port")
    perf_only = Artifact("ir_diff", "FAIL", "", {"cases": [
        {"case": 1, "verdict": "FAIL", "findings": [hint, perf]}]})
    assert classify("FAIL", [Artifact("analyze", "OK", "", SPEC), perf_only]) == (
        "FAIL", ["tilegym/ops/cutile/x.py:21: div_by: a pointer: weaker in the port (case 1)"])


def test_a_port_whose_kernel_cutile_cannot_compile_is_a_finding_at_its_line(tmp_path):
    from workbench.errors import ToolError
    from workbench.port.stages import _emission_failure
    from workbench.rust.emit import EMITTER
    error = ToolError(EMITTER, "failed for k", "k port (libk-1.so): Tile IR compile failed "
                      "(compile): Unexpected dense value.\n  --> src/kernel.rs:12:71\n")
    finding = _emission_failure(error, tmp_path / "port")
    assert finding["category"] == "critical" and finding["kind"] == "rust ir"
    assert finding["detail"] == "Tile IR compile failed (compile): Unexpected dense value."
    assert finding["right"]["source"] == f"{tmp_path}/port/src/kernel.rs:12:71"


def test_cargo_diagnostics_of_a_port_outside_the_workspace_point_into_it(tmp_path):
    from workbench.rust.cargo import parse_cargo_messages
    message = {"reason": "compiler-message", "message": {
        "level": "error", "message": "cannot find value `ids`", "rendered": "",
        "spans": [{"is_primary": True, "file_name": "src/kernel.rs", "line_start": 33,
                   "column_start": 5}]}}
    (diag,) = parse_cargo_messages(json.dumps(message), tmp_path)
    assert (diag.file, diag.line) == (str(tmp_path / "src" / "kernel.rs"), 33)


def test_corpus_only_matching_nothing_is_exit_2(capsys):
    assert main(["corpus", "--only", "nosuch:*"]) == 2
    assert "matches no entry" in capsys.readouterr().err


# -- bad MODULE:KERNEL targets -----------------------------------------------------------

@pytest.fixture
def bad_package(tmp_path, monkeypatch):
    """A package whose modules fail in the ways a real one can."""
    package = tmp_path / "badpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "broken.py").write_text("import cuda.tile as ct\n\n@ct.kernel\ndef k(x):\n"
                                       "    y = = 1\n")
    (package / "needs_torch.py").write_text(
        "import cuda.tile as ct\nimport torch\n\nSCALE = torch.finfo(torch.float16).max\n\n"
        "@ct.kernel\ndef k(x, y):\n    t = ct.load(x, index=(0,), shape=(16,))\n"
        "    ct.store(y, index=(0,), tile=t * SCALE)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return package


BAD_TARGETS = [
    (f"{ROOT}.nosuch:_k", f"no module named '{ROOT}.nosuch' is installed"),
    (f"{ROOT}.softmax:_nosuch", "tilegym/ops/cutile/softmax.py: no @ct.kernel named '_nosuch'"),
    ("nosuchpkg.mod:_k", "no module named 'nosuchpkg' is installed"),
    ("badpkg.broken:k", "badpkg/broken.py:5: syntax error"),
    ("badpkg.needs_torch:k", "badpkg/needs_torch.py:9: k uses `SCALE`, which comes from line 4"),
]


@pytest.mark.parametrize("verb", ["port", "ir", "diff", "sass", "specialize"])
@pytest.mark.parametrize("target, message", BAD_TARGETS)
def test_a_bad_target_is_one_message_and_exit_2(verb, target, message, bad_package, capsys,
                                                tmp_path):
    extra = ["--out", str(tmp_path / "port")] if verb == "port" else []
    assert main([verb, target, *extra]) == 2
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert lines[0].startswith("error: ") and message in lines[0], err
    assert len(lines) <= 2 and (len(lines) == 1 or lines[1].startswith("  what to do: "))
    assert not (tmp_path / "port").exists()          # nothing was drafted


@pytest.mark.parametrize("verb, message", [("port", "branchy: no case to compile"),
                                            ("sass", "branchy: no case to compile"),
                                            ("ir", "0 --arg given; branchy(x, y, n, FLAG)")])
def test_a_kernel_outside_the_manifest_named_without_a_call_says_so(verb, message, capsys,
                                                                    tmp_path):
    kernel = Path(__file__).parent / "fixtures" / "branchy.py"
    extra = ["--out", str(tmp_path / "port")] if verb == "port" else []
    assert main([verb, f"{kernel}:branchy", *extra]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "port").exists()
