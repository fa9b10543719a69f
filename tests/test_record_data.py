"""A record that keeps its launches' values (`workbench record --keep-data`): the inputs the
user's host code made, and, where the launch ran, what the user's kernel wrote. A check then
runs on those inputs and judges the user's kernel against what it wrote when recorded."""
import json

import numpy as np
import pytest
import torch

from port_copies import COLD_BUILD
from workbench.catalog import REPO_ROOT
from workbench.check import cpu_common
from workbench.check.compare import AGAINST_RECORDED
from workbench.check.report import CPU, check_operator, format_check
from workbench.port.recorded import record_operator
from workbench.sources.record import Record
from workbench.sources.record_data import load_launch_data, save_launch_data, snapshot

EXAMPLE = REPO_ROOT / "examples" / "own_kernel" / "my_norm.py"

CHAIN = '''
import torch
import cuda.tile as ct

@ct.kernel
def scale(x, out, TILE: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(out, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,)) * 2.0)

def twice(x):
    y = torch.empty_like(x)
    z = torch.empty_like(x)
    stream = torch.cuda.current_stream()
    ct.launch(stream, (x.shape[0] // 64,), scale, (x, y, 64))
    ct.launch(stream, (x.shape[0] // 64,), scale, (y, z, 64))
    return z

torch.manual_seed(3)
twice(torch.randn(256))
'''


def test_the_inputs_the_host_code_made_are_kept_beside_the_record(tmp_path, cli):
    script = tmp_path / "chain.py"
    script.write_text(CHAIN)
    out = tmp_path / "chain.json"
    result = cli("record", str(script), "--out", str(out), "--keep-data")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "values kept: chain.data/launch0.npz" in result.stdout
    launches = json.loads(out.read_text())["launches"]
    assert [launch.get("data") for launch in launches] == ["chain.data/launch0.npz", None]
    inputs, outputs = load_launch_data(tmp_path / "chain.data" / "launch0.npz")
    torch.manual_seed(3)
    assert np.array_equal(inputs["x"], torch.randn(256).numpy())
    # nothing ran (no GPU): no output kept, and launch 1's input, which launch 0 would have
    # written, was never computed, so it is not kept either
    assert outputs == {} and not (tmp_path / "chain.data" / "launch1.npz").exists()
    assert Record.load(out).kept_values(Record.load(out).launches[1]) is None


def test_bf16_values_keep_their_bits():
    value = torch.tensor([1.5, -0.0078125, 3.0e38], dtype=torch.bfloat16)
    bits = snapshot(value)
    assert bits.dtype == np.int16
    assert torch.equal(torch.from_numpy(bits).view(torch.bfloat16), value)
    assert snapshot(torch.empty(3, device="meta")) is None


def _rms_norm(x: np.ndarray, w: np.ndarray, eps: float) -> np.ndarray:
    t = x.astype(np.float64)
    return t / np.sqrt((t * t).mean(axis=1, keepdims=True) + eps) * w.astype(np.float64)


@COLD_BUILD
def test_the_cpu_check_runs_on_the_kept_inputs_and_judges_the_kernel_by_the_kept_output(
        tmp_path, cli):
    out = tmp_path / "my_norm.json"
    assert cli("record", str(EXAMPLE), "--out", str(out), "--keep-data").returncode == 0
    record = Record.load(out)
    # what a recording on a GPU keeps as well: what the kernel wrote, here made in float64
    # from the kept inputs (had the check made inputs of its own, nothing would match)
    for launch in record.launches:
        path = out.parent / launch.data
        inputs, _ = load_launch_data(path)
        eps = next(a.value for a in launch.runtime if a.name == "eps")
        wrote = _rms_norm(inputs["x"], inputs["weight"], eps).astype(inputs["x"].dtype)
        save_launch_data(path, inputs, {"out": wrote})
    op = record_operator(out, out=tmp_path / "port")
    result = cli("port", "--record", str(out), "--out", str(tmp_path / "port"), timeout=1800)
    assert "ir_diff        #1 PASS" in result.stdout, result.stdout + result.stderr
    response = check_operator(op, on=CPU)
    assert response.status == "ok", response.to_json()
    assert format_check("my_norm", response).count("python ok rel.err") == 2
    assert "(vs its recorded output)" in format_check("my_norm", response)
    for case in response.results:
        assert case["sides"]["python"]["note"] == AGAINST_RECORDED
        assert case["sides"]["python"]["ok"] and case["sides"]["rust"]["ok"]
    # a recorded call too large to run whole runs a sample of its blocks, on the kept inputs,
    # judged by the kept output where the sample wrote
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cpu_common, "ELEMENT_BUDGET", 100_000)      # launch 0: 1 M elements
        patch.setattr(cpu_common, "SAMPLE_ELEMENTS", 50_000)
        sampled = check_operator(op, [0], on=CPU)
    assert sampled.status == "ok", sampled.to_json()
    assert "[sampled: 4.9% of each launch's blocks]" in sampled.results[0]["label"]
    assert sampled.results[0]["sides"]["python"]["note"] == AGAINST_RECORDED
    # the kernel wrote something else when recorded than it writes now: its own fault (the
    # reference's), not the port's, which still matches it
    path = out.parent / record.launches[0].data
    inputs, outputs = load_launch_data(path)
    save_launch_data(path, inputs, {"out": outputs["out"] * np.float16(2)})
    response = check_operator(op, [0], on=CPU)
    assert response.status == "fail"
    assert response.results[0]["sides"]["rust"]["ok"]
    assert [o["owner"] for o in response.owners] == ["reference"]


def test_kept_values_that_are_gone_say_what_to_do(tmp_path):
    with pytest.raises(Exception, match="record again with --keep-data"):
        load_launch_data(tmp_path / "gone.npz")
