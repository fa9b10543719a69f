"""Recording a call (workbench/sources/recorder.py): the user's own host code runs on CPU
tensors, every kernel launch is captured, not run, and the record reads back as written."""
import json
import textwrap

import pytest
import torch

from workbench.errors import WorkbenchError
from workbench.sources.record import Record
from workbench.sources.recorder import record, record_script

HOST = '''
import torch
import cuda.tile as ct
from cuda.tile import launch


@ct.kernel
def scale(x, y, alpha, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(ct.bid(0), 0), tile=ct.astype(t * alpha, y.dtype))


def make_add(block):
    @ct.kernel
    def add(a, b, out):
        i = ct.bid(0)
        ct.store(out, index=(i,), tile=ct.load(a, index=(i,), shape=(block,))
                 + ct.load(b, index=(i,), shape=(block,)))
    return add


ADD = make_add(256)


def host_scale(x, alpha):
    y = torch.empty_like(x)
    tile = 1 << (x.shape[1] - 1).bit_length()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    launch(torch.cuda.current_stream(), (min(x.shape[0], sms * 100),), scale, (x, y, alpha, tile))
    return y


def host_add(a, b):
    out = torch.empty_like(a)
    ct.launch(torch.cuda.current_stream(), (a.shape[0] // 256,), ADD, (a, b, out))
    return host_scale(out.view(-1, 256), 2.0)
'''


@pytest.fixture
def host(tmp_path, monkeypatch):
    """The host module above, imported from a file of the user's (a temporary folder)."""
    (tmp_path / "user_ops.py").write_text(HOST)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib
    import sys
    sys.modules.pop("user_ops", None)
    return importlib.import_module("user_ops")


def test_a_host_function_on_cpu_tensors_is_recorded_not_run(host):
    x = torch.randn(64, 1000)
    with record() as rec:
        y = host.host_scale(x, 0.5)
    [launch] = rec.launches
    assert not launch.ran and y.shape == x.shape             # captured, not run
    assert launch.kernel.name == "scale" and launch.kernel.line == 7
    assert launch.grid == (64, 1, 1)
    assert [(a.name, a.spec, a.role) for a in launch.args] == [
        ("x", "f32[64,1000]", "in"), ("y", "f32[64,1000]", "out"), ("alpha", "f32=0.5", "in"),
        ("TILE", "", "in")]
    assert launch.consts == {"TILE": 1024}
    assert launch.caller.endswith("user_ops.py:29")     # the host code's own line


def test_the_stand_ins_answer_as_the_target_and_are_gone_afterwards(host):
    with record() as rec:
        host.host_scale(torch.randn(20000, 8), 1.0)
    assert rec.launches[0].grid == (132 * 100, 1, 1)      # the H200's 132 SMs
    with pytest.raises(RuntimeError):                     # torch's own again: no GPU here
        torch.cuda.current_stream()


def test_a_factory_kernel_keeps_what_it_closed_over_and_a_chain_is_seen(host):
    with record() as rec:
        host.host_add(torch.randn(1024), torch.randn(1024))
    add, scale = rec.launches
    assert add.kernel.qualname == "make_add.<locals>.add" and add.kernel.closure == {"block": 256}
    assert add.kernel.from_factory and not scale.kernel.from_factory
    assert rec.chains() == [(0, 1, add.args[2].buffer)]    # scale reads what add wrote


def test_the_record_reads_back_as_it_was_written(host, tmp_path):
    path = tmp_path / "rec.json"
    with record(path) as rec:
        host.host_add(torch.randn(512), torch.randn(512))
    again = Record.load(path)
    assert again.to_json() == rec.to_json()
    raw = json.loads(path.read_text())
    assert "value" not in raw["launches"][0]["args"][0]     # defaults left out, for people


def test_an_edited_record_with_an_unknown_dtype_names_the_launch_and_argument(host, tmp_path):
    path = tmp_path / "rec.json"
    with record(path):
        host.host_scale(torch.randn(4, 8), 1.0)
    data = json.loads(path.read_text())
    data["launches"][0]["args"][0]["spec"] = "f12[4,8]"
    path.write_text(json.dumps(data))
    with pytest.raises(WorkbenchError, match=r"launch 0, argument x: unknown dtype 'f12'"):
        Record.load(path)


def test_a_launch_of_something_that_is_not_a_kernel_is_refused_at_its_line(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(textwrap.dedent('''
        import torch
        import cuda.tile as ct
        ct.launch(torch.cuda.current_stream(), (1,), print, ())
    '''))
    rec = record_script(script, [], out=tmp_path / "bad.json")
    assert rec.launches == []
    assert rec.problems == [f"{script}:4: ct.launch of <built-in function print>, which is not "
                            "a @ct.kernel"]
    assert Record.load(tmp_path / "bad.json").problems == rec.problems


def test_a_script_that_raises_keeps_what_it_recorded_and_says_where(host, tmp_path):
    script = tmp_path / "main.py"
    script.write_text("import sys, torch, user_ops\n"
                      "user_ops.host_scale(torch.randn(8, int(sys.argv[1])), 1.0)\n"
                      "raise ValueError('the model broke')\n")
    rec = record_script(script, ["100"])
    assert [a.spec for a in rec.launches[0].runtime][:1] == ["f32[8,100]"]   # argv reached it
    assert rec.problems == [f"{script}:3: ValueError: the model broke"]


def test_an_autotuned_choice_takes_the_first_candidate_with_no_gpu_and_says_so(tmp_path):
    script = tmp_path / "tuned.py"
    script.write_text(textwrap.dedent('''
        from types import SimpleNamespace
        import torch
        import cuda.tile as ct
        from cuda.tile.tune import exhaustive_search

        @ct.kernel
        def copy(x, y, B: ct.Constant[int]):
            ct.store(y, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(B,)))

        x = torch.randn(4096); y = torch.empty_like(x)
        found = exhaustive_search([SimpleNamespace(occupancy=o) for o in (2, 4)],
                                  torch.cuda.current_stream(), lambda c: (16,), copy,
                                  lambda c: (x, y, 256), lambda c: {"occupancy": c.occupancy})
        kernel = copy.replace_hints(occupancy=found.best.config.occupancy)
        ct.launch(torch.cuda.current_stream(), (16,), kernel, (x, y, 256))
    '''))
    rec = record_script(script, [])
    assert rec.problems == []
    [launch] = rec.launches
    assert launch.hints == {"occupancy": 2}
    assert launch.options["tuned"] == [{"occupancy": 2}, {"occupancy": 4}]


def test_a_triton_launch_is_recorded_with_its_grid_function_resolved(tmp_path):
    script = tmp_path / "tri.py"
    script.write_text(textwrap.dedent('''
        import torch
        import triton
        import triton.language as tl

        @triton.jit
        def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < n
            tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask)
                     + tl.load(y_ptr + offs, mask=mask), mask=mask)

        x = torch.randn(5000); y = torch.randn(5000); out = torch.empty_like(x)
        grid = lambda meta: (triton.cdiv(5000, meta["BLOCK"]),)
        add_kernel[grid](x, y, out, 5000, BLOCK=1024, num_warps=4)
    '''))
    rec = record_script(script, [])
    assert rec.problems == []
    [launch] = rec.launches
    assert launch.kernel.language == "triton" and launch.grid == (5, 1, 1)
    assert [(a.name, a.spec, a.role) for a in launch.runtime] == [
        ("x_ptr", "f32[5000]", "in"), ("y_ptr", "f32[5000]", "in"),
        ("out_ptr", "f32[5000]", "out"), ("n", "i32=5000", "in")]
    assert launch.consts == {"BLOCK": 1024} and launch.options == {"num_warps": 4}
