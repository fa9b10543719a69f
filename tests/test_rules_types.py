"""Element types in drafted ports: an array whose dtype varies over the cases is a generic of
the entry (arrays with the same dtypes share one), an array of one dtype is a concrete type;
the launcher checks and dispatches per array. cuTile's own promotion decides every dtype."""
from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.port.analyze import analyze
from workbench.port.rules import draft
from workbench.port.rules.dtypes import DT, promote, promote_dt

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "drafter"
MIXED = [["f16[256]", "i8[256]", "i32[256]", "f16[256]"],
         ["bf16[256]", "i8[256]", "i32[256]", "bf16[256]"]]


def mixed_cases():
    return [Case(i, tuple(parse_arg(a) for a in args), {"TILE": 64}) for i, args in enumerate(MIXED)]


def test_promotion_is_cuda_tiles():
    assert promote(("loose", 2.0), "float16") == "float16"
    assert promote(("loose", 1.5), "int32") == "float32"
    assert promote("int8", "int32") == "int32"
    assert promote_dt(DT(("float16", "bfloat16")), DT(("float32", "float32")), 2) == \
        DT(("float32", "float32"))


def test_per_array_element_types():
    source = (FIXTURES / "mixed_dtypes.py").read_text()
    spec = analyze(source, "mixed_dtypes.py", "masked_pick", mixed_cases())
    d = draft(spec, source, "masked_pick")
    assert d.ok, [str(x) for x in d.diagnostics]
    k = d.files["src/kernel.rs"]
    assert "pub fn masked_pick<E: ElementType, const TILE: i32>(" in k
    assert "mask: &Tensor<i8, { [-1] }>" in k and "idx: &Tensor<i32, { [-1] }>" in k
    assert "x: &Tensor<E, { [-1] }>" in k and "out: &mut Tensor<E, { [TILE] }>" in k
    manifest = tomllib.loads(d.files["port.toml"])
    assert manifest["generics"] == ["dtype(x)", "TILE"]
    assert manifest["tensors"]["mask"]["dtypes"] == ["i8"]
    assert manifest["tensors"]["x"]["dtypes"] == ["f16", "bf16"]
    lib = d.files["src/lib.rs"]
    assert "call.require_dtype(1, wb_ffi::DTYPE_I8)?;" in lib
    assert "call.same_dtype(3, 0)?;" in lib
    assert "(wb_ffi::DTYPE_BF16,) => launch::<bf16>(&call, tile)," in lib
    assert "let mask = call.input::<i8>(1)?;" in lib


def test_mixed_dtypes_over_two_cases_build_and_match(tmp_path, monkeypatch):
    """Both cases (f16 and bf16 data with an int8 mask) compile from one generic port and
    match the Python kernel's Tile IR."""
    from workbench.port import pipeline
    from workbench.resolve import resolve_target
    monkeypatch.setattr(pipeline, "RUNS_DIR", tmp_path / "runs")
    out = tmp_path / "port"
    op = resolve_target(f"{FIXTURES}/mixed_dtypes.py:masked_pick", MIXED[0], ["TILE=64"], out=out)
    op = replace(op, cases=tuple(mixed_cases()))
    result = pipeline.run_pipeline(op, "rules", out=out)
    assert result.verdict in ("PASS", "PASS_WITH_NOTES"), result.summary()


def test_coverage_table_is_current():
    """bench/drafter_coverage.md is what the rule table says (regenerate it with
    `python -m workbench.port.rules.coverage`)."""
    from workbench.port.rules import coverage
    assert coverage.OUTPUT.read_text() == coverage.render()
    assert coverage.function_status("gather")[0] == "translated"
    assert coverage.function_status("atomic_add")[0] == "translated"
    assert coverage.function_status("atomic_cas")[0] == "translated"
    assert coverage.function_status("printf")[0] == "refused"


def test_literals_of_a_varying_dtype_split_the_kernel_by_dtype(tmp_path, monkeypatch):
    """`t + 1.0` with t f32 in one case and f16 in the other has no generic Rust spelling:
    one entry per dtype (concrete types, f16::ONE), chosen by port.toml `dtype(x)=..` keys;
    both cases build and match."""
    from workbench.port import pipeline
    from workbench.resolve import resolve_target
    monkeypatch.setattr(pipeline, "RUNS_DIR", tmp_path / "runs")
    args = [["f32[256]", "f32[256]"], ["f16[256]", "f16[256]"]]
    cases = tuple(Case(i, tuple(parse_arg(a) for a in a_), {"T": 64}) for i, a_ in enumerate(args))
    out = tmp_path / "port"
    op = resolve_target(f"{FIXTURES}/dtype_split.py:dsplit", args[0], ["T=64"], out=out)
    result = pipeline.run_pipeline(replace(op, cases=cases), "rules", out=out)
    assert result.verdict in ("PASS", "PASS_WITH_NOTES"), result.summary()
    manifest = tomllib.loads((out / "port.toml").read_text())
    assert manifest["entries"] == {"dtype(x)=f32": "dsplit_f32", "dtype(x)=f16": "dsplit_f16"}
    assert "f16::ONE" in (out / "src" / "kernel.rs").read_text()


def test_bf16_constants_are_f32_constants_converted(tmp_path, monkeypatch):
    """cutile 0.5.0 writes bf16::ONE as 1.875 and bf16::NEG_INFINITY as a NaN (it reads the
    bf16 bits as f16's): the draft writes f32 constants converted, which the IR diff reads as
    the same bf16 constants (-inf too, printed in hex)."""
    from workbench.port import pipeline
    from workbench.resolve import resolve_target
    monkeypatch.setattr(pipeline, "RUNS_DIR", tmp_path / "runs")
    out = tmp_path / "port"
    op = resolve_target(f"{FIXTURES}/bf16_constants.py:bf16_constants",
                        ["bf16[256]", "bf16[256]"], ["T=64"], out=out)
    result = pipeline.run_pipeline(op, "rules", out=out)
    assert result.verdict in ("PASS", "PASS_WITH_NOTES"), result.summary()
    kernel = (out / "src" / "kernel.rs").read_text()
    assert "bf16::" not in kernel and "constant(f32::NEG_INFINITY" in kernel, kernel


def test_a_bounds_assert_cutile_adds_is_fixed_by_an_unchecked_entry(tmp_path, monkeypatch):
    """The drafter's one fix: the IR diff finds cutile's partition bounds assert in the port
    only (an index of a block id and a loop index), and the entry is redrafted unchecked."""
    from workbench.port import pipeline
    from workbench.resolve import resolve_target
    monkeypatch.setattr(pipeline, "RUNS_DIR", tmp_path / "runs")
    out = tmp_path / "port"
    op = resolve_target(f"{FIXTURES}/channel_scale.py:channel_scale",
                        ["f32[8,512]", "f32[16]", "f32[8,512]"], ["CHANNELS=4", "TILE=128"],
                        out=out)
    result = pipeline.run_pipeline(op, "rules", out=out)
    assert result.verdict in ("PASS", "PASS_WITH_NOTES"), result.summary()
    assert "fix            #1 FIXED" in result.summary(), result.summary()
    kernel = (out / "src" / "kernel.rs").read_text()
    assert "unchecked_accesses = true" in kernel and "which the IR diff found" in kernel
