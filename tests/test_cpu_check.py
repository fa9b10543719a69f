"""The check on the CPU (workbench/check/cpu.py): both sides' Tile IR run by the interpreter and
compared with the float64 reference and with each other, with no GPU. Every catalog operator
is checked here on every run, every case shrunk to a small one of the same structure
(check/shrink.py); a planted kernel fault fails."""
import dataclasses
import json
import math

import pytest

from recorded_ports import record_and_port
from workbench.catalog import all_families, get_operator
from workbench.check.cpu import check_on_cpu, cpu_targets
from workbench.check.cpu_common import ELEMENT_BUDGET
from workbench.fixtures import materialise
from workbench.rust.cargo import is_built

pytest.importorskip("torch")


def elements(specs) -> int:
    return sum(math.prod(a.shape) for a in specs if a.is_array)


@pytest.mark.parametrize("name", cpu_targets())
def test_every_case_of_every_catalog_operator_shrunk_is_correct_on_the_cpu(name):
    """Every case, shrunk to a small one with its structure (check/shrink.py), both sides;
    one no smaller shape keeps runs a sample of its blocks."""
    family = all_families()[name]
    if not all(is_built(op) for op in family.entries):
        pytest.skip(f"{name}'s ports are not built (scripts/setup builds them)")
    response = check_on_cpu(name, shrink=True)
    assert response.device["kind"] == "cpu"
    assert response.status == "ok", json.dumps(response.to_json(), indent=1)[:3000]
    ran = [r for r in response.results if not all(s.get("skipped") for s in r["sides"].values())]
    assert ran, f"{name}: no case ran"
    for result in response.results:
        assert result["shrunk"], result          # says what the case became
        if result not in ran:                    # too large even shrunk and sampled
            assert all("check a smaller case" in s["reason"]
                       for s in result["sides"].values()), result
            continue
        assert set(result["sides"]) == {"python", "rust"}
        assert all(side["ok"] and side["rel_error"] is not None
                   for side in result["sides"].values()), result
        assert result["cross"]["ok"]


def test_a_shrunk_case_keeps_its_structure():
    """Partial tiles stay partial, loop trips stay more than one, constants stay, a strided
    view stays strided with its offset following; equal shrunk cases run once."""
    from workbench.check.shrink import shrink_operator
    shrunk = shrink_operator(get_operator("matmul"))
    case = shrunk.op.case(1)                   # bf16 1000x777 @ 777x500, tiles 64/128/64
    (m, k), (_, n) = case.args[0].shape, case.args[1].shape
    assert case.consts == get_operator("matmul").case(1).consts
    assert m % 64 and m > 64 and k % 64 and k > 64 and n % 128 and n > 128
    assert elements(case.args) < elements(get_operator("matmul").case(1).args) / 20
    silu = shrink_operator(get_operator("silu_and_mul")).op.case(2)
    gate, up, out = silu.args
    assert gate.strides == (2 * gate.shape[1], 1) and up.offset == gate.shape[1]
    assert out.strides is None and gate.shape == out.shape
    softmax = shrink_operator(get_operator("softmax"))
    assert softmax.same == {3: 1} and softmax.indexes() == [0, 1, 2]
    assert "f16[16384,4096] -> f16[16,4096]" in softmax.notes[3]


def fixture_op(name, tmp_path):
    folder = materialise(name, tmp_path / name)
    op = get_operator("softmax")
    return dataclasses.replace(op, name=name, folder=folder, kernel_path=None, port_path=None)


def test_a_port_that_pads_with_zero_fails_on_the_cpu_as_on_the_gpu(tmp_path):
    """The zero_padding fixture (kernels_src/fixtures): a partial row padded with 0, not -inf;
    softmax's case 0 has 1000 columns in a 1024 tile, so every row's sum is wrong."""
    op = fixture_op("zero_padding", tmp_path)
    response = check_on_cpu(op, [0])
    assert response.status == "fail"
    (result,) = response.results
    assert result["sides"]["python"]["ok"]
    rust = result["sides"]["rust"]
    assert not rust["ok"] and "relative error" in rust["reason"]
    assert not result["cross"]["ok"]


def test_a_case_over_the_budget_runs_a_sample_of_its_blocks(monkeypatch, tmp_path):
    """Past the budget a case runs a sample of its blocks (the first, the last, others
    spread between), the same ones on both sides, compared where they wrote; a port that
    launches a different grid still fails."""
    from workbench.check import cpu_common
    monkeypatch.setattr(cpu_common, "ELEMENT_BUDGET", 20_000)    # case 0: 512 K elements
    monkeypatch.setattr(cpu_common, "SAMPLE_ELEMENTS", 20_000)
    response = check_on_cpu("softmax", [0])
    assert response.status == "ok", response.to_json()
    (result,) = response.results
    assert "[sampled: 3.9% of each launch's blocks]" in result["label"]
    for side in ("python", "rust"):
        assert result["sides"][side]["ok"] and result["sides"][side]["rel_error"] < 1e-6
        assert result["sides"][side]["note"] == "compared where the sampled blocks wrote"
    assert result["launches"]["rust"]["kernels"][0]["grid"] == [256, 1, 1]
    assert result["cross"]["ok"]
    halved = check_on_cpu(fixture_op("half_grid", tmp_path), [0])
    assert halved.status == "fail" and not halved.results[0]["sides"]["rust"]["ok"]


def test_a_case_past_what_the_cpu_check_makes_is_skipped_with_what_to_do(monkeypatch):
    from workbench.check import cpu_common, cpu_own
    from workbench.check.report import format_check
    for module in (cpu_common, cpu_own):
        monkeypatch.setattr(module, "SAMPLE_LIMIT", 100_000)
    response = check_on_cpu("softmax", [0])
    assert response.status == "skipped"
    shown = format_check("softmax", response)
    assert "0.5 M elements, over the 0.1 M the CPU check makes arrays for" in shown, shown
    assert "smaller case" in shown and "on the CPU" in shown


def test_check_cpu_on_the_command_line_reports_both_sides(cli):
    result = cli("check", "softmax", "--cpu", "--case", "2", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["device"]["kind"] == "cpu"
    (case,) = data["results"]
    assert case["sides"]["python"]["ok"] and case["sides"]["rust"]["ok"]


def test_an_op_the_interpreter_lacks_skips_that_side_by_name(monkeypatch):
    from workbench.interp import registry
    monkeypatch.delitem(registry.BUILDERS, "exp")
    response = check_on_cpu("softmax", [0], sides=["python"])
    assert response.status == "skipped"
    assert "no handler for op `exp`" in response.reason


def test_the_notebook_check_without_a_gpu_runs_on_the_cpu_and_says_so(monkeypatch):
    from workbench.check import report
    from workbench.session import PortSession
    from workbench.ui.results import check_result
    monkeypatch.setattr(report, "has_cuda_driver", lambda: False)
    session = PortSession("softmax", case=2)
    response = session.check()
    assert response.status == "ok" and response.device["kind"] == "cpu"
    shown = check_result("softmax", response)
    assert "on the CPU" in shown["title"] and shown["ok"]
    assert "the port's host code (lib.rs) ran" in shown["tables"][0]["title"]


@pytest.mark.parametrize("name, shows", [
    ("oob_store", "outside every array"),
    ("half_grid", "NaN where the reference has a value"),
])
def test_a_planted_host_fault_fails_on_the_cpu_as_on_the_gpu(tmp_path, name, shows):
    """The port's own C call (lib.rs) runs on the CPU through the recording CUDA driver, so a
    bug in the launch it makes fails there: a stretched row stride stores outside the
    output, a halved output leaves half the rows unwritten. The kernel and its Tile IR are
    softmax's, so the owner is the host side."""
    from workbench.check.report import check_operator
    op = fixture_op(name, tmp_path)
    response = check_operator(op, [0], on="cpu")
    assert response.status == "fail"
    (result,) = response.results
    assert result["sides"]["python"]["ok"]
    rust = result["sides"]["rust"]
    assert not rust["ok"] and shows in rust["reason"], rust
    assert rust["host"].startswith("the port's host code (lib.rs) ran")
    (owner,) = response.owners
    assert owner["owner"] == "host", owner
    if name == "half_grid":
        assert "grid (256, 1, 1) (python) vs (128, 1, 1) (rust)" in owner["summary"]


def test_the_port_call_on_the_cpu_is_the_port_s_own(tmp_path):
    """What runs is lib.rs: its argument checks refuse a call as they would on a GPU, and the
    launch reported is the one cutile made for it."""
    import numpy as np
    from workbench.check.cpu_common import SideFailed
    from workbench.check.host_cpu import run_port_host
    op = get_operator("softmax")
    x = np.random.default_rng(0).standard_normal((8, 1000)).astype(np.float32)
    out = np.full_like(x, np.nan)
    launches = run_port_host(op, {"x": x, "out": out}, {"TILE_COLS": 1024}, None, None)
    assert [run["grid"] for run in launches] == [[8, 1, 1]]
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5)
    with pytest.raises(SideFailed) as refused:
        run_port_host(op, {"x": x, "out": out}, {"TILE_COLS": 512}, None, None)
    assert "a row must fit one tile" in refused.value.outcome["reason"]


def test_without_a_c_compiler_the_cpu_check_runs_the_kernel_alone_and_says_so(monkeypatch):
    from workbench.check import cpu_own
    from workbench.check.cuda_stub import NoHostRun

    def no_compiler(*args, **kwargs):
        raise NoHostRun("no C compiler (cc) to build the recording CUDA driver")
    monkeypatch.setattr(cpu_own, "run_port_host", no_compiler)
    response = check_on_cpu("softmax", [2])
    assert response.status == "ok"
    rust = response.results[0]["sides"]["rust"]
    assert rust["host"].startswith("the port's kernel alone: its host code did not run")


def test_an_array_the_recorded_kernel_updates_in_place_keeps_its_inputs(tmp_path, monkeypatch):
    """A kernel that reads an array and writes it back: the check runs it on the recorded
    inputs, not on NaN (NaN in, NaN out on both sides would agree, and say nothing)."""
    from workbench.check import cpu_own
    from workbench.port.recorded import record_operator
    from workbench.sources.recorder import record_script
    (tmp_path / "in_place.py").write_text(
        "import cuda.tile as ct\n\n\n@ct.kernel\n"
        "def doubled_plus_one(x, TILE: ct.Constant[int]):\n"
        "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
        "    ct.store(x, index=(ct.bid(0),), tile=t * 2.0 + 1.0)\n")
    script = tmp_path / "use_it.py"
    script.write_text("import cuda.tile as ct\nimport torch\n"
                      "from in_place import doubled_plus_one\n\n"
                      "x = torch.randn(4096)\n"
                      "ct.launch(torch.cuda.current_stream(), (4,), doubled_plus_one, (x, 1024))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    record_script(script, [], out=tmp_path / "rec.json")
    op = record_operator(tmp_path / "rec.json", out=tmp_path / "port")
    seen = {}
    run_side = cpu_own.run_side

    def watched(op, case, side, values, outputs, options, grid=None):
        seen["before"] = values["x"].copy()
        ran = run_side(op, case, side, values, outputs, options, grid)
        seen["after"] = ran.values["x"]
        return ran
    monkeypatch.setattr(cpu_own, "run_side", watched)
    result = cpu_own.check_case(op, op.cases[0], ["python"], 0, None)
    assert result["sides"]["python"]["ok"], result
    assert math.isfinite(float(seen["before"].sum())), "the in-place array was poisoned"
    assert (seen["after"] == seen["before"] * 2.0 + 1.0).all()


def test_a_negative_integer_constant_reaches_the_port_s_kernel(cli, tmp_path):
    """`ignore_index = -100`, as loss kernels take it: the port's host code holds it as a
    signed integer (`as usize` wrapped it, and the launch refused the generic), checked by
    running the port's own host code on the recorded launch."""
    (tmp_path / "masked.py").write_text(
        "import cuda.tile as ct\n\n\n@ct.kernel\n"
        "def zero_ignored(labels, x, y, IGNORE: ct.Constant[int], TILE: ct.Constant[int]):\n"
        "    lab = ct.load(labels, index=(ct.bid(0),), shape=(TILE,))\n"
        "    v = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
        "    ct.store(y, index=(ct.bid(0),), tile=ct.where(lab == IGNORE, 0.0, v))\n")
    script = tmp_path / "use_it.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
        "import cuda.tile as ct\nimport torch\nfrom masked import zero_ignored\n"
        "labels = torch.randint(-100, 3, (1024,), dtype=torch.int32)\n"
        "x = torch.randn(1024)\ny = torch.empty(1024)\n"
        "ct.launch(torch.cuda.current_stream(), (4,), zero_ignored, (labels, x, y, -100, 256))\n")
    result = record_and_port(cli, script, tmp_path)
    assert "final verdict: PASS" in result.stdout, result.stdout + result.stderr
    assert "gpu_check      #1 PASS             on the CPU" in result.stdout, result.stdout
