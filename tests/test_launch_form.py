"""Which outputs a drafted port takes as partitions, and when it takes its launch (grid and
hints) from the caller (workbench/port/rules/launch_form.py), without cargo or a GPU: cutile
launches on the grid of its partitioned outputs, so an output stored anywhere but at the
program's own tile is a plain tensor, and a port with no such partition to take a grid from
says `launch = true` and refuses a call that gives no grid."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from workbench.argspec import parse_arg
from workbench.catalog import Case, load_catalog
from workbench.operators import Operator
from workbench.port.analyze import analyze
from workbench.port.rules import draft
from workbench.rust.ffi import LAUNCH_SLOTS, ArgumentError, CallPlan, launch_words

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "drafter"


def fixture_draft(file: str, kernel: str, args: list[str], consts: dict):
    source = (FIXTURES / file).read_text()
    case = Case(index=0, args=tuple(parse_arg(a) for a in args), consts=consts)
    spec = analyze(source, f"tests/fixtures/drafter/{file}", kernel, [case])
    return draft(spec, source, kernel), case


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


class FakeArray:
    """A device array as __cuda_array_interface__ describes it (nothing is dereferenced)."""

    def __init__(self, shape, typestr="<f4", ptr=0x10000):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr,
                                         "data": (ptr, False), "strides": None, "version": 3}


class RecordingLibrary:
    def __init__(self):
        self.calls = []

    def call(self, tensors, n_tensors, scalars, n_scalars, consts, n_consts, stream):
        self.calls.append([consts[i] for i in range(n_consts)])


GATHER = ("gather_scatter.py", "gather_rows", ["f32[64,100]", "f32[100]", "f32[64,100]"],
          {"N": 100, "TILE": 128})


def test_scatter_only_port_takes_its_launch():
    d, _ = fixture_draft(*GATHER)
    manifest = tomllib.loads(d.files["port.toml"])
    assert manifest["launch"] is True and manifest["partitions"] == []
    lib = squash(d.files["src/lib.rs"])
    # two constants of its own (N, TILE), then grid x, y, z and three hints
    assert "tensors 3, scalars 0, consts 8;" in lib
    assert "let caller = call.launch_at(2)?;" in lib
    assert ".generics(generics) .grid(caller.grid) .compile_options(caller.options)" in lib
    assert ".partition([" not in lib


def gather_operator(tmp_path) -> Operator:
    """The drafted gather_rows port's manifest in tmp_path, as a catalog-like operator."""
    d, case = fixture_draft(*GATHER)
    port = tmp_path / "port"
    port.mkdir()
    (port / "port.toml").write_text(d.files["port.toml"])
    return Operator(name="gather_rows", summary="gather_rows", kernel_name="gather_rows",
                    outputs=("out",), tolerance={}, cases=(case,), folder=tmp_path,
                    kernel_path=FIXTURES / "gather_scatter.py", port_path=port)


def test_call_without_a_grid_is_refused_before_any_launch(tmp_path):
    op = gather_operator(tmp_path)
    case = op.cases[0]
    plan = CallPlan(op)
    assert plan.launch_slots == LAUNCH_SLOTS
    values = {"x": FakeArray((64, 100)), "w": FakeArray((100,)), "out": FakeArray((64, 100))}
    library = RecordingLibrary()
    with pytest.raises(ArgumentError, match="takes its launch from the caller.*no grid"):
        plan.launch(library, values, case.consts, 0)
    assert library.calls == []
    plan.launch(library, values, case.consts, 0, grid=(64,), hints={"occupancy": 2})
    assert library.calls == [[100, 128, 64, 1, 1, 2, 0, 0]]


def test_launch_words_pad_the_grid_and_refuse_an_empty_one():
    assert launch_words((7, 2), {}) == [7, 2, 1, 0, 0, 0]
    with pytest.raises(ArgumentError, match="each at least 1"):
        launch_words((0,), {})
    with pytest.raises(ArgumentError, match="cannot cross the C ABI"):
        launch_words((1,), {"num_stages": 3})


def test_loop_stored_output_is_a_plain_tensor():
    d, _ = fixture_draft("persistent.py", "row_scale", ["f32[64,128]", "f32[64,128]"],
                         {"ROWS": 64, "TILE": 128})
    kernel = squash(d.files["src/kernel.rs"])
    # stored at (r, 0) for every r of the persistent loop: not the program's own tile
    assert "out: &Tensor<f32, { [-1, -1] }>," in kernel
    assert "out.partition_full_mut(shape![1, TILE])" in kernel
    lib = squash(d.files["src/lib.rs"])
    assert "let out = call.input::<f32>(0)?;" in lib and ".partition([" not in lib
    assert tomllib.loads(d.files["port.toml"])["launch"] is True


def test_loop_stored_output_next_to_an_own_tile_one():
    """Triton's RMSNorm, derived: Y stored at (row, j_tile) in a loop over column blocks, Rstd
    at (row,): Y is plain in the one entry that serves both cases (N=1000: one block;
    N=4096: two; N is a const generic, also where the kernel divides by it), Rstd stays a
    partition whose grid the caller's is checked against."""
    from workbench.translate.derive import derive
    from workbench.translate.targets import triton_catalog
    target = triton_catalog()["triton_rms_norm"]
    derived = derive(target.source(), list(target.cases), target.label)
    spec = analyze(derived.text, "derived.py", target.kernel_name, list(derived.cases))
    d = draft(spec, derived.text, "triton_rms_norm")
    kernel, lib = squash(d.files["src/kernel.rs"]), squash(d.files["src/lib.rs"])
    entries = re.findall(r"pub unsafe fn (\w+)<", kernel)
    assert entries == ["_rms_norm_kernel"], entries
    assert kernel.count("Y: &Tensor<E, { [-1, -1] }>,") == 1
    assert kernel.count("Rstd: &mut Tensor<f32, { [1] }>,") == 1
    assert lib.count("(X, W, Y, Rstd.partition([1]))") == 1
    assert lib.count(".grid(caller.grid)") == 1
    manifest = tomllib.loads(d.files["port.toml"])
    assert manifest["launch"] is True and manifest["partitions"] == ["Rstd"]


def test_own_tile_outputs_keep_the_inferred_grid():
    """silu_and_mul stores at (bid(0), bid(1)), softmax at (row, 0) with one column block:
    partitioned, and the port infers its grid (as the hand-written ports do)."""
    for name in ("silu_and_mul", "softmax"):
        op = load_catalog()[name]
        source = op.kernel_file.read_text()
        spec = analyze(source, f"kernels_src/{name}/kernel.py", op.kernel_name, list(op.cases))
        d = draft(spec, source, name)
        manifest = tomllib.loads(d.files["port.toml"])
        assert "launch" not in manifest and manifest["partitions"] == ["out"]
        assert "launch_at" not in d.files["src/lib.rs"]
        assert "out.partition([" in d.files["src/lib.rs"]


def test_kernel_target_names_its_partition_arguments(tmp_path):
    """A kernel named as FILE.py:KERNEL has no catalog outputs: the drafted port.toml's
    `partitions` alone says that `out` comes with partition shape and strides, so the diff
    names every entry argument (splitk_reduce's scalars had been 'value %arg10', an
    unchecked promise, for want of it)."""
    from workbench.ownership.evidence import argument_names
    d, case = fixture_draft("mixed_dtypes.py", "masked_pick",
                            ["f16[256]", "i8[256]", "i32[256]", "f16[256]"], {"TILE": 64})
    port = tmp_path / "port"
    port.mkdir()
    (port / "port.toml").write_text(d.files["port.toml"])
    op = Operator(name="masked_pick", summary="masked_pick", kernel_name="masked_pick",
                  outputs=(), tolerance={}, cases=(case,), folder=tmp_path,
                  kernel_path=FIXTURES / "mixed_dtypes.py", port_path=port)
    names = list(argument_names(op, "rust").values())
    assert names[:3] == ["x.base", "x.shape[0]", "x.stride[0]"]
    assert names[-5:] == ["out.base", "out.shape[0]", "out.stride[0]",
                          "out.partition_shape[0]", "out.partition_stride[0]"]


def test_evidence_names_only_the_listed_partitions(tmp_path):
    """The port's entry arguments are named by port.toml's `partitions`: a plain output has
    no partition shape or strides among them."""
    from workbench.ownership.evidence import argument_names
    op = gather_operator(tmp_path)                # its port.toml: partitions = []
    names = list(argument_names(op, "rust").values())
    assert names[-5:] == ["out.base", "out.shape[0]", "out.shape[1]", "out.stride[0]",
                          "out.stride[1]"]
    manifest = op.port_path / "port.toml"
    manifest.write_text(manifest.read_text().replace("partitions = []\n", ""))
    assert "out.partition_shape[1]" in argument_names(op, "rust").values()


def test_check_worker_gives_the_rust_side_kernel_py_grid():
    """The check worker's Rust launcher falls back on kernel.py's grid() (a drafted port of
    a catalog operator may take its launch)."""
    from workbench.check.worker import _grid_of
    grid_of = _grid_of(load_catalog()["softmax"])
    values = {"x": FakeArray((256, 1000)), "out": FakeArray((256, 1000))}
    values["out"].shape = (256, 1000)
    assert tuple(grid_of(values, {"TILE_COLS": 1024})) == (256, 1, 1)


def test_rust_launcher_falls_back_on_the_grid_it_is_given(tmp_path, monkeypatch):
    import types

    import workbench.rust.ffi as ffi_module
    from workbench.rust.ffi import rust_launcher
    op = gather_operator(tmp_path)
    case = op.cases[0]
    library = RecordingLibrary()
    monkeypatch.setattr(ffi_module, "open_library", lambda name, path: library)
    launch = rust_launcher(op, str(tmp_path / "lib.so"), None,
                           grid_of=lambda values, consts: (values["x"].rows,))
    values = {"x": FakeArray((64, 100)), "w": FakeArray((100,)), "out": FakeArray((64, 100))}
    values["x"].rows = 64
    stream = types.SimpleNamespace(cuda_stream=0)
    launch(values, case.consts, stream)
    launch(values, case.consts, stream, grid=(3, 2))          # a given grid wins
    assert [c[2:] for c in library.calls] == [[64, 1, 1, 0, 0, 0], [3, 2, 1, 0, 0, 0]]
