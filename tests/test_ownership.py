"""The owner of a failed GPU check, from the workbench's own evidence: one planted fixture
per owner (kernels_src/fixtures), classified here from the result the check worker returns
for it (on the H200 the worker's real result: tools/gpu_session.py ownership)."""
import dataclasses
import os
import subprocess

import pytest

from workbench.catalog import KERNELS_DIR, load_catalog
from workbench.ownership import repro as ownership_repro
from workbench.fixtures import environment, planted_compiler
from workbench.ownership.owner import (COMPILER, FAULT, HOST, KERNEL, REFERENCE, REFUSED, TIMEOUT,
                                       WRONG_VALUES, classify, failed_cases)
from workbench.check.runner import CheckResponse

FIXTURE_CATALOG = KERNELS_DIR / "fixtures" / "catalog.toml"


def fixture(name, tmp_path):
    """The fixture operator, materialised from its patch into tmp_path."""
    from workbench.fixtures import materialise
    folder = materialise(name, tmp_path / name)
    op = load_catalog(FIXTURE_CATALOG)[name]
    return dataclasses.replace(op, folder=folder, kernel_path=None, port_path=None)


def rust_failed(reason="512000 of 256000 elements never written (still NaN)", launches=None):
    result = {"case": 0, "label": "f32[256,1000]", "cross": {"ok": False},
              "sides": {"python": {"ok": True}, "rust": {"ok": False, "reason": reason}}}
    if launches:
        result["launches"] = launches
    return result


def launches(rust_grid):
    side = lambda grid: {"kernels": [{"name": "softmax", "grid": grid, "block": [256, 1, 1],  # noqa: E731
                                      "stream": 7}], "arguments": ["out: f32 shape (256, 1000)"]}
    return {"python": side([256, 1, 1]), "rust": side(rust_grid)}


def test_kernel_owner_points_to_the_finding(tmp_path):
    op = fixture("zero_padding", tmp_path)
    found = classify(op, 0, WRONG_VALUES, rust_failed())
    assert found.owner == KERNEL, found.summary
    assert found.finding["kind"] == "padding_value" and found.finding["right"]["ir_line"]
    assert "padding_value" in found.summary and "rust L" in found.summary


def test_compiler_owner_saves_a_reproduction(tmp_path, monkeypatch):
    monkeypatch.setattr(ownership_repro, "REPRO_DIR", tmp_path / "repro")
    op = fixture("miscompiled", tmp_path)
    plain = classify(op, 0, WRONG_VALUES, rust_failed(launches=launches([256, 1, 1])))
    assert plain.owner == HOST            # without the planted compiler the port is softmax
    with environment(planted_compiler(op)):
        found = classify(op, 0, WRONG_VALUES, rust_failed(launches=launches([256, 1, 1])))
        assert found.owner == COMPILER, found.summary
        assert "equivalent" in found.summary and found.machine["same"] is False
        repro = found.repro and __import__("pathlib").Path(found.repro)
        assert {p.name for p in repro.iterdir()} >= {"python.tileirbc", "rust.tileirbc",
                                                      "rust_matched.tileirbc", "repro.sh",
                                                      "tileiras-version.txt"}
        assert "planted miscompile" in (repro / "tileiras-version.txt").read_text()
        from workbench.tools import nvidia_bin_dir
        env = dict(os.environ, PATH=f"{nvidia_bin_dir()}{os.pathsep}{os.environ['PATH']}")
        shown = subprocess.run(["sh", str(repro / "repro.sh")], capture_output=True, text=True,
                               env=env, timeout=600)
        assert shown.returncode == 0, shown.stderr
        assert "no difference" not in shown.stdout and shown.stdout.count("\n") > 10


def test_host_owner_shows_both_sides_launch_parameters(tmp_path):
    op = fixture("half_grid", tmp_path)
    found = classify(op, 0, WRONG_VALUES, rust_failed(launches=launches([128, 1, 1])))
    assert found.owner == HOST, found.summary
    assert "grid (256, 1, 1) (python) vs (128, 1, 1) (rust)" in found.summary
    assert any(line.startswith("rust kernel softmax: grid [128, 1, 1]") for line in found.evidence)
    assert found.machine["same"] is True


def test_failures_are_told_apart():
    def response(status, reason, results):
        return CheckResponse(status, reason, results)
    assert failed_cases(response("ok", "", [rust_failed()]), [0])[0][1] == WRONG_VALUES
    fault = rust_failed("CUDA error: an illegal memory access was encountered")
    assert failed_cases(response("ok", "", [fault]), [0])[0][1] == FAULT
    refused = rust_failed("PortError: softmax port (x.so): launch failed (bad argument): x: ...")
    assert failed_cases(response("ok", "", [refused]), [0])[0][1] == REFUSED
    timeout = response("fail", "the check did not finish in 600 s (a hang?)", [])
    assert failed_cases(timeout, [0, 1]) == [(0, TIMEOUT, {}), (1, TIMEOUT, {})]
    killed = response("fail", "the check's worker killed by signal 6: ...", [])
    assert failed_cases(killed, [2]) == [(2, FAULT, {})]
    passed = {"case": 0, "sides": {"python": {"ok": True}, "rust": {"ok": True}}, "cross": None}
    assert failed_cases(response("ok", "", [passed]), [0]) == []


def test_a_refused_call_and_a_failing_reference_need_no_ir():
    op = load_catalog()["softmax"]
    refused = classify(op, 0, REFUSED, rust_failed("launch failed (bad argument): x: stride 2"))
    assert refused.owner == HOST and "refused before any launch" in refused.summary
    reference = {"case": 0, "sides": {"python": {"ok": False, "reason": "relative error 1"},
                                      "rust": {"ok": True}}}
    assert classify(op, 0, WRONG_VALUES, reference).owner == REFERENCE


def test_without_a_gpu_the_check_says_it_skipped(tmp_path):
    from workbench.check.report import check_operator, format_check
    from workbench.check.runner import has_cuda_driver
    if has_cuda_driver():
        pytest.skip("there is a GPU here: tools/gpu_session.py ownership runs the real check")
    response = check_operator(fixture("half_grid", tmp_path))
    assert response.status == "skipped"
    assert response.reason.startswith("no CUDA device (add --cpu to run both sides' Tile IR")
    assert format_check("half_grid", response).startswith("half_grid: skipped: no CUDA device")
