"""From a record to a port and its check: `workbench record` on the user's own script,
`workbench port --record` (no --arg typed), and the check that compares the port with the
user's own kernel (here: skipped with the reason; its comparison on CPU tensors)."""
import json
import struct

import pytest
import torch

from port_copies import COLD_BUILD
from recorded_ports import record_and_port
from workbench.argspec import parse_arg
from workbench.catalog import REPO_ROOT, Case
from workbench.check.recorded import compare_arrays, poison
from workbench.errors import WorkbenchError
from workbench.port.recorded import record_operator, specializations
from workbench.port.stages import RunContext, stage_diff_analysis, stage_gpu_check
from workbench.sources.record import Record, RecordedArg, RecordedKernel, RecordedLaunch

EXAMPLE = REPO_ROOT / "examples" / "own_kernel" / "my_norm.py"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """examples/own_kernel/my_norm.py recorded by the CLI, as a user runs it."""
    from conftest import run_cli
    out = tmp_path_factory.mktemp("rec") / "my_norm.json"
    result = run_cli("record", str(EXAMPLE), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"next: workbench port --record {out}" in result.stdout
    return out


def test_the_cli_records_the_script_s_launches(recorded):
    record = Record.load(recorded)
    assert [launch.label() for launch in record.launches] == [
        "launch 0: rms_norm_kernel grid (512, 1, 1) x=f16[512,1000], weight=f16[1000], "
        "out=f16[512,1000]",
        "launch 1: rms_norm_kernel grid (64, 1, 1) x=f32[64,4096], weight=f32[4096], "
        "out=f32[64,4096]"]
    assert record.device == "cpu" and record.problems == []
    assert record.launches[0].consts == {"N": 1000, "TILE": 1024}


def test_a_record_names_the_operator_its_cases_and_grids(recorded):
    op = record_operator(recorded)
    assert op.kernel_file == EXAMPLE and op.outputs == ("out",)
    assert [(str(c.args[0]), c.consts, c.grid) for c in op.cases] == [
        ("f16[512,1000]", {"N": 1000, "TILE": 1024}, (512, 1, 1)),
        ("f32[64,4096]", {"N": 4096, "TILE": 4096}, (64, 1, 1))]
    assert [row["case"] for row in specializations(op)] == [0, 1]
    assert op.port_folder.parent.name.startswith("my_norm.rms_norm_kernel-")


def test_calls_the_jit_compiles_once_are_one_case(tmp_path):
    def launch(index, shape):
        return RecordedLaunch(index, _kernel(), (4, 1, 1), [
            RecordedArg("x", f"f32[{shape}]"), RecordedArg("weight", "f32[1000]"),
            RecordedArg("out", f"f32[{shape}]", role="out"), RecordedArg("eps", "f32=1e-06"),
            RecordedArg("N", "", constant=True, value=1000),
            RecordedArg("TILE", "", constant=True, value=1024)])
    record = Record([launch(0, "64,1000"), launch(1, "128,1000"), launch(2, "7,1000")])
    record.save(tmp_path / "rec.json")
    op = record_operator(record)
    # 64 and 128 rows: both divisible by 16, one kernel; 7 rows: another
    assert len(op.cases) == 2 and op.record["case_of"] == {"0": 0, "1": 0, "2": 1}


def test_several_kernels_need_a_launch_and_an_empty_record_says_what_to_do(tmp_path):
    other = RecordedKernel("other", "cutile", str(EXAMPLE), 99)
    two = Record([RecordedLaunch(0, _kernel(), (1, 1, 1), []),
                  RecordedLaunch(1, other, (1, 1, 1), [])])
    two.save(tmp_path / "two.json")
    with pytest.raises(WorkbenchError, match="holds 2 kernels") as e:
        record_operator(two)
    assert "--launch 0" in e.value.hint and "--launch 1" in e.value.hint
    Record([]).save(tmp_path / "empty.json")
    with pytest.raises(WorkbenchError, match="no kernel launch was recorded"):
        record_operator(tmp_path / "empty.json")


def test_a_malformed_record_names_its_file(tmp_path, cli):
    (tmp_path / "bad.json").write_text('{"schema": "workbench.record/1", "launches": [{}]}')
    result = cli("port", "--record", str(tmp_path / "bad.json"))
    assert result.returncode == 2
    assert f"{tmp_path / 'bad.json'}: a launch is malformed" in result.stderr
    assert "Traceback" not in result.stderr


@COLD_BUILD
def test_port_from_a_record_is_checked_against_the_user_s_kernel_on_the_cpu(recorded, tmp_path,
                                                                             cli):
    out = tmp_path / "port"
    result = cli("port", "--record", str(recorded), "--out", str(out), timeout=1800)
    assert "build          #1 BUILT" in result.stdout, result.stdout + result.stderr
    assert "ir_diff        #1 PASS" in result.stdout
    # no GPU here: the pipeline's check ran both sides' Tile IR in the interpreter, and says so
    assert "gpu_check      #1 PASS             on the CPU (no CUDA device)" in result.stdout
    assert result.returncode == 0
    # one entry serves both calls: N (1000, 4096) is a const generic the kernel computes
    # with, not a literal of one call
    kernel = out / "src" / "kernel.rs"
    source = kernel.read_text()
    assert source.count("#[cutile::entry") == 1 and "const N: i32" in source
    assert "1000" not in source and "4096" not in source
    check = cli("check", "--record", str(recorded), "--out", str(out), timeout=600)
    assert check.returncode == 3 and "skipped: no CUDA device (add --cpu" in check.stdout
    on_cpu = cli("check", "--cpu", "--record", str(recorded), "--out", str(out), timeout=600)
    assert on_cpu.returncode == 0, on_cpu.stdout + on_cpu.stderr
    assert "OK (on the CPU: the Tile IR interpreter)" in on_cpu.stdout
    assert on_cpu.stdout.count("python ok; rust ok rel.err 0.00e+00; rust-vs-python 0.00e+00") \
        == 2
    # a planted fault in the port: the check fails, and names its owner from the IR diff
    kernel.write_text(source.replace("scalar_to_tile(N)", "scalar_to_tile(TILE)", 1))
    planted = cli("check", "--cpu", "--record", str(recorded), "--out", str(out), timeout=600)
    assert planted.returncode == 1, planted.stdout + planted.stderr
    assert "owner of case 0 (wrong values): kernel: the Tile IR differs: [arithmetic] " \
        "constant_value: `constant` (f32): 1.000000e+03 -> 1.024000e+03" in planted.stdout
    # the pipeline's stages on it: the check fails on the CPU, and the fix goes to the kernel
    ctx = RunContext(record_operator(recorded, out=out), tmp_path / "run", out, drafter=None)
    ctx.folder.mkdir()
    check = ctx.record(stage_gpu_check(ctx))
    assert check.verdict == "FAIL" and check.summary.startswith("on the CPU (no CUDA device)")
    analysis = stage_diff_analysis(ctx)
    assert (analysis.verdict, analysis.data["fix_stage"]) == ("FIX_KERNEL", "write_kernel")
    assert "constant_value" in analysis.data["finding"]["kind"]


def test_the_check_compares_every_array_with_the_user_s_kernel():
    launch = RecordedLaunch(0, _kernel(), (1, 1, 1), [
        RecordedArg("x", "f32[4]"), RecordedArg("out", "f32[4]", role="out"),
        RecordedArg("idx", "i32[4]", role="out", range=[0, 3])])
    x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    theirs = {"x": x, "out": torch.tensor([1.0, float("nan"), 3.0, 4.0]),
              "idx": torch.tensor([0, 1, 2, 3], dtype=torch.int32)}
    same = {"x": x.clone(), "out": theirs["out"].clone(), "idx": theirs["idx"].clone()}
    assert compare_arrays(launch, same, theirs, torch)["ok"]       # NaN where theirs has one
    unwritten = {**same, "out": poison(torch.empty(4), torch)}
    unwritten["out"][[0, 2, 3]] = torch.tensor([1.0, 3.0, 4.0])
    assert compare_arrays(launch, unwritten, theirs, torch)["ok"]   # only where theirs is NaN
    missing = {**same, "out": poison(torch.empty(4), torch)}
    result = compare_arrays(launch, missing, theirs, torch)
    assert not result["ok"] and "out: 3 of 4 elements NaN where the reference has a value" \
        in result["reason"]
    off_by_one = {**same, "idx": theirs["idx"] + 1}
    result = compare_arrays(launch, off_by_one, theirs, torch)
    assert result["outputs"]["idx"]["reason"] == \
        "4 of 4 elements differ (integers compare exactly)"
    skipped = {**same, "idx": poison(theirs["idx"].clone(), torch)}
    assert "4 of 4 elements never written" in \
        compare_arrays(launch, skipped, theirs, torch)["reason"]


def _float_eps_draft(source: str, epsilons: list[float]):
    from workbench.port.analyze import analyze
    from workbench.port.rules import draft
    source = source.replace("eps, N:", "N:").replace(
        "TILE: ct.Constant[int]):", "TILE: ct.Constant[int], eps: ct.Constant[float]):")
    cases = [Case(i, tuple(parse_arg(a) for a in (f"f32[8,{n}]", f"f32[{n}]", f"f32[8,{n}]")),
                  {"N": n, "TILE": tile, "eps": eps}) for i, (n, tile, eps) in
             enumerate([(1000, 1024, epsilons[0]), (64, 64, epsilons[1])])]
    drafted = draft(analyze(source, "my_norm.py", "rms_norm_kernel", cases), source,
                    "rms_norm_kernel")
    assert drafted.ok, drafted.diagnostics
    return drafted.files


def test_a_float_constant_is_one_generic_of_its_f32_bits():
    """eps as a ct.Constant[float] with two values: one entry, which takes eps's f32 bits as
    an i32 const generic (cutile's are integers), from the f64 bits the C call carries."""
    files = _float_eps_draft(EXAMPLE.read_text(), [1e-6, 1e-5])
    assert files["src/kernel.rs"].count("#[cutile::entry") == 1
    assert "const EPS_BITS: i32" in files["src/kernel.rs"] and "1e-06" not in files["src/kernel.rs"]
    assert '"bits(eps)"' in files["port.toml"] and "[entries]" not in files["port.toml"]
    assert "(f64::from_bits(call.consts[2] as u64) as f32).to_bits()" in files["src/lib.rs"]


def test_an_entry_chosen_by_a_float_constant_has_its_arm():
    """Constants travel as i64, a float as its f64's bits: a port split by a float
    constant (here a test reads its value) dispatches on those bits (the drafter once left
    such arms out, and every call of TileGym's rms_norm port failed "has no entry")."""
    source = EXAMPLE.read_text().replace(
        "mean_square + eps", "(mean_square + eps if eps > 0.0 else mean_square)")
    files = _float_eps_draft(source, [1e-6, 1e-5])
    bits = [struct.unpack("<q", struct.pack("<d", eps))[0] for eps in (1e-6, 1e-5)]
    lib = files["src/lib.rs"]
    assert f"({bits[0]},) => launch_" in lib and f"({bits[1]},) => launch_" in lib


def _kernel() -> RecordedKernel:
    return RecordedKernel("rms_norm_kernel", "cutile", str(EXAMPLE), 11)


def test_hand_edits_survive_a_round_trip(recorded, tmp_path):
    data = json.loads(recorded.read_text())
    data["launches"][0]["args"][2]["tolerance"] = 1e-2
    del data["launches"][1]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    op = record_operator(path)
    assert len(op.cases) == 1 and Record.load(path).launches[0].args[2].tolerance == 1e-2


@COLD_BUILD
def test_a_batch_takes_a_record(recorded, tmp_path, cli):
    result = cli("batch", str(recorded), "--stages", "port", "--no-gpu",
                 "--out", str(tmp_path / "batch"), timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "rms_norm_kernel (my_norm.json launch 0)  NOTES" in result.stdout


def test_a_recorded_triton_launch_keeps_its_grid_and_needs_no_catalog(tmp_path, monkeypatch):
    """A Triton kernel of the user's is resolved without the Triton catalog (which needs
    TileGym installed: a GPU machine may not have it), and its cases carry the recorded
    grids through the check worker's JSON."""
    from workbench.sources.recorder import record_script
    from workbench.translate import targets
    from workbench.translate.targets import TritonTarget
    script = tmp_path / "tri.py"
    script.write_text(
        "import torch\nimport triton\nimport triton.language as tl\n"
        "@triton.jit\n"
        "def double(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)\n"
        "x = torch.randn(3000); out = torch.empty_like(x)\n"
        "double[(3,)](x, out, 3000, BLOCK=1024)\n")
    record_script(script, [], out=tmp_path / "rec.json")

    def no_catalog():
        raise WorkbenchError("the catalog was read", "")
    monkeypatch.setattr(targets, "triton_catalog", no_catalog)
    op = record_operator(tmp_path / "rec.json")
    assert op.language == "triton" and [c.grid for c in op.cases] == [(3, 1, 1)]
    assert op.outputs == ("out_ptr",)
    again = TritonTarget.from_json(op.triton.to_json())
    assert [c.grid for c in again.cases] == [(3, 1, 1)]


@COLD_BUILD
def test_a_triton_kernel_whose_helpers_its_package_imports_ports_from_another_folder(
        tmp_path, cli):
    """Helpers and a constant imported from the kernel's own package (relative and absolute
    imports, a helper defined under a module-level `if` on the environment) are read from
    their file, for the translation and for Triton's interpreter (its module's host function
    annotated `float | torch.Tensor` with no torch there), with the port made from a folder
    outside the package."""
    package = REPO_ROOT / "tests" / "fixtures" / "triton_package"
    script = tmp_path / "use_it.py"
    script.write_text(f"import sys\nsys.path.insert(0, {str(package)!r})\nimport torch\n"
                      "from scaled_ops.kernels import gain_and_clip_forward\n"
                      "gain_and_clip_forward(torch.randn(5000))\n")
    result = record_and_port(cli, script, tmp_path)
    assert "Triton's interpreter against the Tile IR interpreter: ok" in result.stdout, \
        result.stdout + result.stderr
    assert "final verdict: PASS" in result.stdout
    derived = next((tmp_path / "derived").glob("*.py")).read_text()
    assert "3.0" in derived and "ct.minimum" in derived, derived
    assert "0.5" in derived and "0.25" not in derived, derived


@COLD_BUILD
def test_a_recorded_bf16_triton_kernel_updating_in_place_is_checked_against_triton(
        tmp_path, cli):
    """Triton as its own host code launches it, checked on the CPU: an array updated in place
    (read, then written: not poisoned), a constexpr between runtime parameters (launched by
    name), a float argument the kernel converts (`eps.to(tl.float32)`: an fp32 scalar, not a
    Python float), bf16 products, sums and constants (f32's rounded, not NumPy's on the raw
    bits) and bf16 outputs judged at bf16's tolerance."""
    script = tmp_path / "gate.py"
    script.write_text(
        "import torch\nimport triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def gate_in_place(x_ptr, gate_ptr, total_ptr, BLOCK: tl.constexpr, n, eps):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)\n"
        "    g = tl.load(gate_ptr + offs, mask=offs < n, other=0.0)\n"
        "    tl.store(total_ptr + tl.program_id(0), tl.sum(x * g, 0))\n"
        "    tl.store(x_ptr + offs, x * (1.0 + g) + eps.to(tl.float32), mask=offs < n)\n\n\n"
        "x = torch.randn(5000, dtype=torch.bfloat16)\n"
        "gate = torch.randn(5000, dtype=torch.bfloat16)\n"
        "total = torch.empty(5, dtype=torch.bfloat16)\n"
        "gate_in_place[(5,)](x, gate, total, 1024, 5000, 0.25)\n")
    result = record_and_port(cli, script, tmp_path)
    assert "Triton's interpreter against the Tile IR interpreter: ok" in result.stdout, \
        result.stdout + result.stderr
    assert "final verdict: PASS" in result.stdout


def test_check_needs_a_target_and_bench_without_one_still_means_every_operator(cli):
    check = cli("check")
    assert check.returncode == 2 and "name an OPERATOR, or --record REC.json" in check.stderr
    bench = cli("bench")
    assert bench.returncode == 3 and "skipped: no CUDA device" in bench.stdout


@COLD_BUILD
def test_constants_a_cutile_kernel_imports_from_its_package_are_read_from_their_file(
        cli, tmp_path):
    """`from .constants import GAIN as SCALE` and `from scaling.constants import OFFSET`:
    the literal constants are read from the package's file (never imported: it needs torch)
    for the kernel's own Tile IR and for the draft, which builds and matches it."""
    kernel = "tests/fixtures/cutile_package/scaling/kernels.py:gain_offset"
    args = ["--arg", "f32[4096]", "--arg", "f32[4096]", "--const", "TILE=256"]
    ir = cli("ir", kernel, *args, timeout=300)
    assert ir.returncode == 0, ir.stdout + ir.stderr
    assert "1.44269502" in ir.stdout and "5.000000e-01" in ir.stdout, ir.stdout
    result = cli("port", kernel, *args, "--out", str(tmp_path / "port"), timeout=900)
    assert "final verdict: PASS" in result.stdout, result.stdout + result.stderr


def test_a_launch_passing_none_ports_it_as_a_compile_time_none(tmp_path, cli):
    """Triton makes a None argument a compile-time None: the recorded launch ports with the
    `is not None` branch folded away and the parameter gone, checked against Triton."""
    script = tmp_path / "optional.py"
    script.write_text(
        "import torch\nimport triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def scaled(x_ptr, w_ptr, y_ptr, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    x = tl.load(x_ptr + offs)\n"
        "    if w_ptr is not None:\n"
        "        x = x * tl.load(w_ptr + offs)\n"
        "    tl.store(y_ptr + offs, x)\n\n\n"
        "x = torch.randn(256)\ny = torch.empty(256)\n"
        "scaled[(1,)](x, None, y, BLOCK=256)\n")
    result = record_and_port(cli, script, tmp_path)
    assert "Triton's interpreter against the Tile IR interpreter: ok" in result.stdout, \
        result.stdout + result.stderr
    assert "final verdict: PASS" in result.stdout
    kernel = (tmp_path / "port" / "src" / "kernel.rs").read_text()
    assert "x_ptr" in kernel and "w_ptr" not in kernel, kernel


def test_launches_passing_none_for_different_arguments_are_ported_one_pattern_at_a_time(
        tmp_path):
    """Triton compiles a kernel per pattern of None arguments: `--launch N` takes the launches
    with launch N's Nones (each pattern its own port folder); with no launch named, one line
    lists a launch of each pattern."""
    rec = _recorded_triton(tmp_path, "norms.py",
        "def norm(x_ptr, w_ptr, mean_ptr, y_ptr, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    x = tl.load(x_ptr + offs)\n"
        "    if mean_ptr is not None:\n"
        "        tl.store(mean_ptr, tl.sum(x, 0) / BLOCK)\n"
        "    if w_ptr is not None:\n"
        "        x = x * tl.load(w_ptr + offs)\n"
        "    tl.store(y_ptr + offs, x)\n\n\n"
        "x = torch.randn(256)\ny = torch.empty(256)\nw = torch.randn(256)\n"
        "m = torch.empty(1)\n"
        "norm[(1,)](x, w, m, y, BLOCK=256)\n"
        "norm[(1,)](x, w, None, y, BLOCK=256)\n"
        "norm[(1,)](x, None, m, y, BLOCK=256)\n"
        "norm[(1,)](x, w, None, y, BLOCK=256)\n")
    with_mean = record_operator(rec, launch=0)
    no_mean = record_operator(rec, launch=3)
    assert no_mean.record["launches"] == [1, 3] and len(no_mean.cases) == 1
    assert with_mean.record["launches"] == [0]
    assert len({with_mean.port_path, no_mean.port_path,
                record_operator(rec, launch=2).port_path}) == 3
    with pytest.raises(WorkbenchError) as e:
        record_operator(rec)
    assert "--launch 0: no None; --launch 1: mean_ptr None; --launch 2: w_ptr None" in \
        e.value.hint, e.value.hint


def test_launches_setting_a_flag_differently_are_ported_one_flag_value_at_a_time(tmp_path):
    """A boolean constexpr picks code (Triton compiles a kernel per value): launches that set
    it differently are ports of their own, as None patterns are; launches that agree on it
    share one port, a case per other difference."""
    rec = _recorded_triton(tmp_path, "flags.py",
        "def scale(x_ptr, y_ptr, HALF: tl.constexpr, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    if HALF:\n        at = offs // 2\n    else:\n        at = offs\n"
        "    tl.store(y_ptr + offs, tl.load(x_ptr + at))\n\n\n"
        "x = torch.randn(256)\ny = torch.empty(256)\n"
        "scale[(1,)](x, y, HALF=True, BLOCK=256)\n"
        "scale[(1,)](x, y, HALF=False, BLOCK=256)\n"
        "scale[(1,)](x, y, HALF=True, BLOCK=128)\n")
    halved = record_operator(rec, launch=2)
    whole = record_operator(rec, launch=1)
    assert halved.record["launches"] == [0, 2] and len(halved.cases) == 2
    assert whole.record["launches"] == [1] and halved.port_path != whole.port_path
    with pytest.raises(WorkbenchError) as e:
        record_operator(rec)
    assert "--launch 0: no None, HALF=True; --launch 1: no None, HALF=False" in e.value.hint
    from workbench.batch.plan import select_kernels        # a batch task per flag value
    assert [k.ref.rsplit("#", 1)[1] for k in select_kernels([str(rec)])] == ["0", "1"]


def _recorded_triton(tmp_path, name: str, kernel_and_calls: str):
    """A Triton script (the imports, then one @triton.jit kernel and its launches) recorded:
    the record's path."""
    from workbench.sources.recorder import record_script
    script = tmp_path / name
    script.write_text("import torch\nimport triton\nimport triton.language as tl\n\n\n"
                      "@triton.jit\n" + kernel_and_calls)
    record_script(script, [], out=tmp_path / "rec.json")
    return tmp_path / "rec.json"
