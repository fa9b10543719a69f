"""Triton kernels as port sources: reading without torch, translation to a derived cuTile
kernel (exported to Tile IR by cuda-tile), refusals that name the construct, TTIR with no
GPU, and the pipeline's translate stage. Everything here runs without a GPU."""
from __future__ import annotations

import pytest

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.ir.stages import file_python_ir
from workbench.translate.derive import DERIVED_MARK, derive
from workbench.translate.targets import triton_catalog, triton_target

TILEGYM = ["triton_dropout", "triton_rms_norm", "triton_rms_norm_persistent",
           "triton_layer_norm_persistent", "triton_layer_norm_fused", "triton_rope",
           "triton_rope_tma"]


def _derive(name, tmp_path):
    target = triton_catalog()[name]
    derived = derive(target.source(), list(target.cases), target.label)
    path = tmp_path / f"{target.kernel_name}.py"
    path.write_text(derived.text)
    return target, derived, path


@pytest.mark.parametrize("name", TILEGYM + ["triton_vec_add", "triton_tile_copy_2d",
                                            "triton_row_scale", "triton_gather_rows",
                                            "triton_advancing_pointer"])
def test_translated_kernel_exports_tile_ir(name, tmp_path):
    target, derived, path = _derive(name, tmp_path)
    assert derived.ok, derived.translation.diagnostics
    assert DERIVED_MARK in derived.text and "not the original" in derived.text
    for case in derived.cases:
        ir = file_python_ir(str(path), target.kernel_name, list(case.args), case.consts)
        assert "entry" in ir.text


def test_block_access_becomes_a_tile_load(tmp_path):
    _, derived, _ = _derive("triton_rms_norm", tmp_path)
    assert "ct.load(X, index=(row, j_tile)" in derived.text
    assert "stride" not in derived.params       # the row stride is the array's own


def test_mask_on_the_tensor_bounds_is_dropped(tmp_path):
    _, derived, _ = _derive("triton_vec_add", tmp_path)
    assert "n" not in derived.params and "ct.where" not in derived.text


@pytest.mark.parametrize("name, construct", [
    ("triton_dropout_philox", "tl.rand"),
    # its helpers are inlined (constexpr branches folded); Out is given as an array
    ("triton_attention_variant", ".store(...)"),
])
def test_refusals_name_the_triton_construct(name, construct, tmp_path):
    _, derived, _ = _derive(name, tmp_path)
    assert not derived.ok
    assert construct in {d["construct"] for d in derived.translation.diagnostics}
    assert all(d["line"] > 0 for d in derived.translation.diagnostics)


def test_constexpr_branch_folded_per_cases(tmp_path):
    _, derived, _ = _derive("triton_dropout", tmp_path)
    assert "USE_PHILOX" not in derived.text
    assert any("folded" in n["message"] for n in derived.notes)


def test_triton_module_is_read_without_torch():
    import importlib.util
    target = triton_target("tilegym.ops.triton.rms_norm:_rms_norm_kernel")
    assert target is not None and target.kernel_name == "_rms_norm_kernel"
    if importlib.util.find_spec("torch") is None:   # the module itself imports torch
        assert target.source().jit_function().__name__ == "_rms_norm_kernel"
    assert triton_target("tilegym.ops.cutile.rms_norm:_rms_norm_kernel_gather") is None


def test_ttir_without_a_gpu():
    pytest.importorskip("triton")
    from workbench.translate.ttir import compile_ttir
    target = triton_catalog()["triton_layer_norm_persistent"]
    ttir = compile_ttir(target.source(), target.cases[0])
    assert "tt.func public @_persistent_layer_norm_fwd" in ttir
    assert "tensordesc" in ttir


def test_a_kernel_triton_refuses_names_the_error_and_its_file_line():
    pytest.importorskip("triton")
    from workbench.errors import WorkbenchError
    from workbench.translate.ttir import compile_ttir
    target = triton_target("tests/fixtures/triton_everyday.py:row_max_typed",
                           ["f16[64,1000]", "f32[64]", "i32=1000"], ["BLOCK=256"])
    with pytest.raises(WorkbenchError) as refused:
        compile_ttir(target.source(), target.cases[0])
    assert ("did not compile row_max_typed: TypeError(\"'dtype' object is not callable\") "
            "(tests/fixtures/triton_everyday.py:90, column 12)") in str(refused.value)


def test_descriptor_block_in_argspec():
    spec = parse_arg("bf16[64,128]:block=(8,128)")
    assert spec.block == (8, 128) and str(spec) == "bf16[64,128]:block=(8,128)"


def test_translate_stage_writes_the_derived_kernel(tmp_path):
    from workbench.port.artifacts import Artifact
    from workbench.port.triton_stages import translate_target
    target = triton_catalog()["triton_vec_add"]
    derived, op, ttir, why = translate_target(target, tmp_path / "work" / "port")
    assert op.kernel_file == tmp_path / "work" / "derived" / "vec_add.py"
    assert op.kernel_file.read_text() == derived.text
    assert [str(a) for a in op.cases[0].args] == ["f32[100000]"] * 3
    raw = Artifact("translate", "TRANSLATED", "x",
                   {"triton": target.to_json(), "diagnostics": [], "params": derived.params,
                    "derived_file": str(op.kernel_file)}).to_json()
    assert Artifact.from_json(raw).data["params"] == ["x_ptr", "y_ptr", "out_ptr"]


def test_ad_hoc_triton_file_target(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def scale(x_ptr, n, B: tl.constexpr):\n"
                      "    o = tl.program_id(0) * B + tl.arange(0, B)\n"
                      "    tl.store(x_ptr + o, tl.load(x_ptr + o, mask=o < n) * 3.0, mask=o < n)\n")
    target = triton_target(f"{kernel}:scale", ["f32[5000]", "i32=5000"], ["B=512"])
    derived = derive(target.source(), list(target.cases), target.label)
    assert derived.ok
    assert "ct.load(x_ptr, index=(ct.bid(0),), shape=(512,)" in derived.text
    assert "ct.store(x_ptr, index=(ct.bid(0),)" in derived.text


def test_an_atomic_becomes_ct_atomic_at_the_scatter_indices_and_is_ported(cli, tmp_path):
    fixture = "tests/fixtures/triton_atomics.py"
    target = triton_target(f"{fixture}:histogram_kernel", ["i32[64]", "i32[1000]", "i32=1000"],
                           ["BLOCK=128"])
    derived = derive(target.source(), list(target.cases), target.label)
    assert derived.ok, derived.translation.diagnostics
    assert ("= ct.atomic_add(bins_ptr, ids, ct.full((128,), 1, dtype=bins_ptr.dtype), "
            "memory_order=ct.MemoryOrder.RELAXED, memory_scope=ct.MemoryScope.DEVICE)") \
        in derived.text
    masked = triton_target(f"{fixture}:row_sum_kernel", ["f32[128]", "f32[64,100]", "i32=100"],
                           ["BLOCK=128"])
    sent_past = derive(masked.source(), list(masked.cases), masked.label)
    assert sent_past.ok and ("ct.atomic_add(out_ptr, ct.where(((ct.arange(128, dtype=ct.int32))"
                             " < n_cols), ct.arange(128, dtype=ct.int32), out_ptr.shape[0]), "
                             "ct.astype(x, out_ptr.dtype), memory_order=ct.MemoryOrder.ACQ_REL"
                             ) in sent_past.text
    result = cli("port", f"{fixture}:histogram_kernel", "--arg", "i32[64]", "--arg", "i32[1000]",
                 "--arg", "i32=1000", "--const", "BLOCK=128", "--grid", "8",
                 "--out", str(tmp_path / "port"), timeout=900)
    assert "gpu_check      #1 PASS             on the CPU" in result.stdout, result.stdout
    assert "final verdict: PASS_WITH_NOTES" in result.stdout, result.stdout + result.stderr



def test_a_package_helper_calls_a_helper_of_its_own_file_through_its_own_imports():
    """`eased` (imported from scaled_ops.common) calls `_halved` beside it, which the
    kernel's module never imports, and `tl_math.exp2` through common.py's own alias of
    libdevice: both are read from common.py and inlined."""
    target = triton_target("tests/fixtures/triton_package/scaled_ops/kernels.py:eased_copy",
                           ["f32[1000]", "f32[1000]", "i32=1000"], ["BLOCK=256"])
    derived = derive(target.source(), list(target.cases), target.label)
    assert derived.ok, derived.translation.diagnostics
    assert "ct.exp2((ct.load(x_ptr, index=(ct.bid(0),), shape=(256,), " \
           "padding_mode=ct.PaddingMode.ZERO) * 0.5))" in derived.text, derived.text


def test_a_refusal_inside_a_package_helper_names_the_helpers_file_and_line(cli, tmp_path):
    """`softened_plus` (common.py) calls `_soft_step` beside it, whose log1p cuTile lacks:
    the refusal points at common.py's line, not at that line number of the kernel's file."""
    target = triton_target("tests/fixtures/triton_package/scaled_ops/kernels.py:soft_copy",
                           ["f32[1000]", "f32[1000]", "i32=1000"], ["BLOCK=256"])
    [why] = derive(target.source(), list(target.cases), target.label).translation.diagnostics
    assert (why["file"], why["line"], why["construct"]) == \
        ("tests/fixtures/triton_package/scaled_ops/common.py", 45, "tl_math.log1p"), why
    result = cli("port", "tests/fixtures/triton_package/scaled_ops/kernels.py:soft_copy",
                 "--arg", "f32[1000]", "--arg", "f32[1000]", "--arg", "i32=1000", "--const",
                 "BLOCK=256", "--grid", "4", "--out", str(tmp_path / "port"), timeout=300)
    assert "scaled_ops/common.py:45: tl_math.log1p" in result.stdout, result.stdout
