"""The rule-based drafter (workbench/port/analyze.py, rules.py), without cargo or a GPU:
what analyze() reads from the six bundled kernels, what draft() writes for them, and that
an untranslatable construct gives a diagnostic naming its line instead of a wrong port."""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from workbench.argspec import parse_arg
from workbench.catalog import Case, load_catalog
from workbench.port.analyze import KernelSpec, analyze
from workbench.port.drafters import Diagnostic, Draft
from workbench.port.rules import draft, store_shapes

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "drafter"
OPS = ["silu_and_mul", "softmax", "rms_norm", "layer_norm", "matmul", "attention"]
FILES = {"Cargo.toml", "port.toml", "src/kernel.rs", "src/lib.rs"}


def spec_for(name: str) -> tuple[KernelSpec, str]:
    op = load_catalog()[name]
    source = op.kernel_file.read_text()
    return analyze(source, f"kernels_src/{name}/kernel.py", op.kernel_name, list(op.cases)), source


def draft_for(name: str) -> Draft:
    spec, source = spec_for(name)
    return draft(spec, source, name)


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def fixture(file: str, kernel: str, args: list[str], consts: dict) -> tuple[KernelSpec, str]:
    source = (FIXTURES / file).read_text()
    case = Case(index=0, args=tuple(parse_arg(a) for a in args), consts=consts)
    return analyze(source, f"tests/fixtures/drafter/{file}", kernel, [case]), source


# ------------------------------------------------------------------------------ analyze

EXPECTED_PARAMS = {
    "silu_and_mul": [("gate", "array", 2), ("up", "array", 2), ("out", "array", 2),
                     ("TILE_ROWS", "constant", None), ("TILE_COLS", "constant", None)],
    "softmax": [("x", "array", 2), ("out", "array", 2), ("TILE_COLS", "constant", None)],
    "rms_norm": [("x", "array", 2), ("weight", "array", 1), ("out", "array", 2),
                 ("eps", "scalar", None), ("TILE_COLS", "constant", None)],
    "layer_norm": [("x", "array", 2), ("weight", "array", 1), ("bias", "array", 1),
                   ("out", "array", 2), ("eps", "scalar", None), ("TILE_COLS", "constant", None)],
    "matmul": [("a", "array", 2), ("b", "array", 2), ("c", "array", 2),
               ("TILE_M", "constant", None), ("TILE_N", "constant", None),
               ("TILE_K", "constant", None)],
    "attention": [("q", "array", 3), ("k", "array", 3), ("v", "array", 3), ("out", "array", 3),
                  ("scale", "scalar", None), ("TILE_Q", "constant", None),
                  ("TILE_KV", "constant", None), ("HEAD_DIM", "constant", None)],
}


@pytest.mark.parametrize("name", OPS)
def test_analyze_parameters(name):
    spec, _ = spec_for(name)
    assert [(p.name, p.kind, p.rank) for p in spec.params] == EXPECTED_PARAMS[name]
    op = load_catalog()[name]
    assert spec.outputs == list(op.outputs)
    for p in spec.arrays:
        assert set(p.dtypes) <= {"f32", "f16", "bf16"} and p.dtypes
    for p in spec.scalars:
        assert p.dtypes == ["f32"]
    # the specializations the cases need: one per case, with its constants and dtypes
    assert len(spec.specializations) == len(op.cases)
    for s, case in zip(spec.specializations, op.cases):
        assert s.constants == case.consts
        assert len(set(s.dtypes[p.name] for p in spec.arrays)) == 1
    for c in spec.constants:
        assert c.values == [case.consts[c.name] for case in op.cases]


def test_analyze_constants_and_dtypes():
    spec, _ = spec_for("attention")
    assert spec.param("q").dtypes == ["f16", "bf16"]
    assert spec.param("TILE_KV").values == [64, 64, 32, 64]
    assert spec.specializations[2].scalars == {"scale": 0.08838834764831845}
    spec, _ = spec_for("softmax")
    assert spec.param("x").dtypes == ["f32", "f16", "bf16"]
    assert spec.param("TILE_COLS").values == [1024, 4096, 1024, 4096]


def test_analyze_tile_shapes():
    """Loads and num_tiles carry their tile shape; a store's is the stored value's, which the
    drafter infers (store_shapes): analyze does not import the drafter."""
    def shaped(spec, source):
        shapes = store_shapes(spec, source)
        return [(a.kind, a.array, shapes[a.line] if a.kind == "store" else a.shape)
                for a in spec.tile_accesses]

    spec, source = spec_for("softmax")
    load, store = spec.tile_accesses
    assert (load.kind, load.array, load.index, load.shape, load.padding) == \
        ("load", "x", ["row", "0"], ["1", "TILE_COLS"], "NEG_INF")
    assert (store.kind, store.array, store.index, store.shape) == ("store", "out", ["row", "0"], [])
    assert store_shapes(spec, source) == {store.line: ["1", "TILE_COLS"]}

    spec, source = spec_for("rms_norm")
    assert shaped(spec, source) == [
        ("load", "x", ["1", "TILE_COLS"]), ("load", "weight", ["TILE_COLS"]),
        ("store", "out", ["1", "TILE_COLS"])]

    spec, source = spec_for("matmul")
    assert shaped(spec, source) == [
        ("num_tiles", "a", ["TILE_M", "TILE_K"]), ("load", "a", ["TILE_M", "TILE_K"]),
        ("load", "b", ["TILE_K", "TILE_N"]), ("store", "c", ["TILE_M", "TILE_N"])]
    assert spec.tile_accesses[0].axis == 1
    assert [lp.var for lp in spec.loops] == ["k"] and spec.loops[0].bound == "k_tiles"

    spec, source = spec_for("attention")
    assert ["1", "TILE_Q", "HEAD_DIM"] in spec.tile_shapes
    assert ["1", "TILE_KV", "HEAD_DIM"] in spec.tile_shapes
    assert shaped(spec, source)[-1][2] == ["1", "TILE_Q", "HEAD_DIM"]


def test_analyze_operations_with_lines():
    spec, source = spec_for("layer_norm")
    lines = source.splitlines()
    by_name = {}
    for o in spec.operations:
        by_name.setdefault(o.name, []).append(o.line)
    for name in ("ct.arange", "ct.where", "ct.rsqrt", "ct.sum", "ct.load", "ct.store"):
        assert name in by_name, name
        for line in by_name[name]:
            assert name.removeprefix("ct.") in lines[line - 1]
    assert spec.const_branches == []
    spec, _ = spec_for("attention")
    assert {"ct.mma", "ct.transpose", "ct.maximum", "ct.cdiv", "ct.full", "for"} <= \
        spec.operation_names()


@pytest.mark.parametrize("name", OPS)
def test_kernelspec_json_round_trip(name):
    spec, _ = spec_for(name)
    data = spec.to_json()
    assert data["schema"] == "workbench.kernelspec/1"
    text = json.dumps(data)
    assert KernelSpec.from_json(json.loads(text)) == spec
    assert KernelSpec.from_json(text) == spec
    with pytest.raises(ValueError):
        KernelSpec.from_json({**data, "schema": "something/2"})


def test_analyze_constant_branch():
    spec, _ = fixture("const_branch.py", "scale_rows", ["f32[64]", "f32[64]"],
                      {"TILE": 64, "DOUBLE": 1})
    assert [(b.line, b.constants) for b in spec.const_branches] == [(10, ["DOUBLE"])]


# ------------------------------------------------------------------------------ draft

@pytest.mark.parametrize("name", OPS)
def test_draft_files_and_layout(name):
    d = draft_for(name)
    assert d.ok, d.diagnostics
    assert set(d.files) == FILES
    cargo = tomllib.loads(d.files["Cargo.toml"])
    assert cargo["package"]["name"] == f"port_{name}"
    assert cargo["dependencies"] == {"cutile": {"workspace": True}, "wb_ffi": {"workspace": True}}
    assert cargo["lib"]["crate-type"] == ["rlib", "cdylib"]
    manifest = tomllib.loads(d.files["port.toml"])
    op = load_catalog()[name]
    hand = tomllib.loads((op.port_folder / "port.toml").read_text())
    # the outputs it partitions are the catalog's (a hand-written port's are op.outputs)
    assert manifest.pop("partitions") == list(op.outputs)
    hand.pop("programs", None)   # other tile programs are written by hand, never drafted
    assert manifest == hand      # the same mapping as the hand-written port
    lib = d.files["src/lib.rs"]
    # the launcher's C call, the emitter and build id exports come from wb_ffi's macro
    assert f"wb_ffi::port! {{" in lib
    assert f"wb_{name}, wb_{name}_emit, wb_{name}_build_id, {name}_port;" in lib
    kernel = d.files["src/kernel.rs"]
    assert f"pub mod {name}_port" in kernel and "#[cutile::module]" in kernel


ENTRY_SIGNATURES = {
    "silu_and_mul": "pub fn silu_and_mul<E: ElementType, const TILE_ROWS: i32, const TILE_COLS: i32>("
                    " gate: &Tensor<E, { [-1, -1] }>, up: &Tensor<E, { [-1, -1] }>,"
                    " out: &mut Tensor<E, { [TILE_ROWS, TILE_COLS] }>, )",
    "softmax": "pub unsafe fn softmax<E: ElementType, const TILE_COLS: i32>("
               " x: &Tensor<E, { [-1, -1] }>, out: &mut Tensor<E, { [1, TILE_COLS] }>, )",
    "rms_norm": "pub unsafe fn rms_norm<E: ElementType, const TILE_COLS: i32>("
                " x: &Tensor<E, { [-1, -1] }>, weight: &Tensor<E, { [-1] }>,"
                " out: &mut Tensor<E, { [1, TILE_COLS] }>, eps: f32, )",
    "layer_norm": "pub unsafe fn layer_norm<E: ElementType, const TILE_COLS: i32>("
                  " x: &Tensor<E, { [-1, -1] }>, weight: &Tensor<E, { [-1] }>,"
                  " bias: &Tensor<E, { [-1] }>, out: &mut Tensor<E, { [1, TILE_COLS] }>, eps: f32, )",
    "matmul": "pub fn matmul<E: ElementType, const TILE_M: i32, const TILE_N: i32, const TILE_K: i32>("
              " a: &Tensor<E, { [-1, -1] }>, b: &Tensor<E, { [-1, -1] }>,"
              " c: &mut Tensor<E, { [TILE_M, TILE_N] }>, )",
    "attention": "pub unsafe fn attention<E: ElementType, const TILE_Q: i32, const TILE_KV: i32,"
                 " const HEAD_DIM: i32>( q: &Tensor<E, { [-1, -1, -1] }>,"
                 " k: &Tensor<E, { [-1, -1, -1] }>, v: &Tensor<E, { [-1, -1, -1] }>,"
                 " out: &mut Tensor<E, { [1, TILE_Q, HEAD_DIM] }>, scale: f32, )",
}


@pytest.mark.parametrize("name", OPS)
def test_draft_entry_signature(name):
    kernel = squash(draft_for(name).files["src/kernel.rs"])
    assert ENTRY_SIGNATURES[name] in kernel


def test_draft_softmax_constructs():
    k = squash(draft_for("softmax").files["src/kernel.rs"])
    assert "make_partition_view(x, shape![1, TILE_COLS], padding::NegInf, dim_map::Identity, x.token())" in k
    assert "reduce_max(t, 1i32)" in k and "reduce_sum(" in k and "exp(" in k
    assert "out.set_token(entry_token)" in k
    assert re.search(r"\.partition_full_mut\(shape!\[1, TILE_COLS\]\) \}; \w+\.store\(\w+, \[row, zero\]\)", k)
    assert "let zero: i32 = 0i32;" in k


def test_draft_silu_constructs():
    k = squash(draft_for("silu_and_mul").files["src/kernel.rs"])
    assert "gate.partition(shape![TILE_ROWS, TILE_COLS])" in k
    assert "get_tile_block_id().0" in k and "get_tile_block_id().1" in k
    assert "negf(" in k and "scalar_to_tile(1.0f32)" in k
    # the 1.0 is built where Python reads the literal, before exp(-g) (cuTile makes a
    # literal's constant when it evaluates it; its Tile IR has the constant first)
    assert k.index("scalar_to_tile(1.0f32)") < k.index("exp(")
    assert "out.store(" in k


def test_draft_norm_constructs():
    k = squash(draft_for("rms_norm").files["src/kernel.rs"])
    assert "get_shape_dim(x.shape(), 1i32)" in k
    assert "rsqrt(" in k and "ftz::Disabled" in k
    assert "scalar_to_tile(eps)" in k and "convert_tile(cols_t)" in k
    k = squash(draft_for("layer_norm").files["src/kernel.rs"])
    assert "iota(shape![TILE_COLS])" in k and "lt_tile(" in k and "select(" in k
    assert "fma(" in k and "rounding::NearestEven, ftz::Disabled)" in k
    # two int->float conversions of cols, as Python has (one per mean)
    assert k.count("convert_tile(cols_t") == 2


def test_draft_matmul_mma_in_loop():
    k = draft_for("matmul").files["src/kernel.rs"]
    loop = re.search(r"for k in 0i32\.\.k_tiles \{(.*?)\n        \}", k, re.S)
    assert loop, k
    body = loop.group(1)
    assert "acc = " in body and "mma(" in body
    assert ".load([m_block, k])" in body and ".load([k, n_block])" in body
    assert "let mut acc: Tile<f32, { [TILE_M, TILE_N] }> = constant(0.0f32, shape![TILE_M, TILE_N]);" in k
    assert "padding::None" in k and "num_tiles(&" in k
    # partitions are hoisted out of the loop
    assert ".partition(shape![" not in body
    assert "#[cutile::entry()]" in k


def test_draft_attention_constructs():
    k = draft_for("attention").files["src/kernel.rs"]
    assert "#[cutile::entry(unchecked_accesses = true)]" in k
    assert "ceil_div(seq_kv, TILE_KV)" in k and "max_tile(" in k
    assert re.search(r"permute\(k_tile\w*, const_array!\[1, 0\]\)", k)     # the transpose
    assert "constant(f32::NEG_INFINITY, shape![TILE_Q, 1])" in k
    loop = k[k.index("for j in"):]
    assert "row_sum = " in loop and "acc = " in loop and "row_max = new_max;" in loop
    assert "fma(row_sum, correction" in loop
    # invariants hoisted before the loop: the iota and the -inf fill
    assert k.index("iota(shape![TILE_KV])") < k.index("for j in")
    assert k.index("constant(f32::NEG_INFINITY, shape![])") < k.index("for j in")


# ------------------------------------------------------------------------------ unsupported

def test_a_store_after_an_acquiring_atomic_waits_for_its_token():
    spec, source = fixture("atomic_hist.py", "atomic_hist", ["f32[256]", "f32[1]", "f32[256]"],
                           {"TILE": 64})
    d = draft(spec, source, "atomic_hist")
    assert d.ok, d.diagnostics
    k = d.files["src/kernel.rs"]
    assert "let after_acquire: Token = join_tokens(&[zt02_out, counts_rmw_token]);" in k, k
    assert "store_view_raw(&out_part, t_2, [block], Some(after_acquire)," in k, k


def test_a_load_of_the_acquired_array_waits_for_the_atomic_itself():
    """The array's last store is the atomic's token, which is the acquire: one token (the
    IR diff normalizes the port's join of it with itself: self_joins)."""
    spec, source = fixture("atomics.py", "count_then_read", ["f32[256]", "f32[1]", "f32[256]"],
                           {"TILE": 64})
    d = draft(spec, source, "count_then_read")
    assert d.ok, d.diagnostics
    k = d.files["src/kernel.rs"]
    assert "let after_acquire: Token = join_tokens(&[zt01_counts_st, counts_rmw_token]);" in k
    assert "load_view_raw(&counts_part, [zero], Some(after_acquire)," in k, k


def test_unsupported_scan():
    spec, source = fixture("scan_rows.py", "scan_rows", ["f32[8,128]", "f32[8,128]"],
                           {"TILE_COLS": 128})
    d = draft(spec, source, "scan_rows")
    assert not d.ok
    assert any(u.line == 10 and u.construct == "ct.scan" for u in d.diagnostics), d.diagnostics
    assert all(isinstance(u, Diagnostic) for u in d.diagnostics)
    assert set(d.files) == FILES          # a partial draft still comes back


def cases_for(args: list[str], consts: list[dict]) -> list[Case]:
    return [Case(index=i, args=tuple(parse_arg(a) for a in args), consts=c)
            for i, c in enumerate(consts)]


def entry_fns(kernel_rs: str) -> dict[str, str]:
    """Each `#[cutile::entry]` fn's name -> its text (up to the next entry)."""
    parts = re.split(r"(?=    #\[cutile::entry)", kernel_rs)[1:]
    return {re.search(r"fn (\w+)<", p).group(1): p for p in parts}


def test_constant_branch_split_into_entries():
    source = (FIXTURES / "const_branch.py").read_text()
    cases = cases_for(["f32[256]", "f32[256]"], [{"TILE": 64, "DOUBLE": 1},
                                                 {"TILE": 64, "DOUBLE": 0},
                                                 {"TILE": 128, "DOUBLE": 1}])
    spec = analyze(source, "tests/fixtures/drafter/const_branch.py", "scale_rows", cases)
    d = draft(spec, source, "scale_rows")
    assert d.ok, d.diagnostics
    fns = entry_fns(d.files["src/kernel.rs"])
    assert list(fns) == ["scale_rows_double_1", "scale_rows_double_0"]     # one per value
    for name, text in fns.items():      # the same generics for every entry; x is f32 in
        # every case, so it has the concrete element type f32 (no generic E)
        assert f"fn {name}<const TILE: i32, const DOUBLE: i32>(" in text
        assert "x: &Tensor<f32, { [-1] }>" in text
    assert "scalar_to_tile(2.0f32)" in fns["scale_rows_double_1"] and \
        " * lit_b" in fns["scale_rows_double_1"]
    assert "2.0f32" not in fns["scale_rows_double_0"]
    assert "fn scale_rows<" not in d.files["src/kernel.rs"]
    manifest = tomllib.loads(d.files["port.toml"])
    assert manifest["entries"] == {"DOUBLE=1": "scale_rows_double_1",
                                   "DOUBLE=0": "scale_rows_double_0"}
    assert manifest["generics"] == ["TILE", "DOUBLE"]
    assert manifest["entry"] == "scale_rows_double_1"
    lib = squash(d.files["src/lib.rs"])
    assert "match (call.consts[1],) {" in lib
    assert "(1,) => launch_scale_rows_double_1(call, tile, double)," in lib
    assert "(0,) => launch_scale_rows_double_0(call, tile, double)," in lib
    assert "call.require_dtype(0, wb_ffi::DTYPE_F32)?;" in lib
    assert "Error::BadArgument, format!(\"scale_rows: DOUBLE={} has no entry" in lib
    assert "scale_rows_port::scale_rows_double_0(x, out.partition([tile]))" in lib


def test_constant_if_else_split():
    source = (FIXTURES / "const_branch_else.py").read_text()
    cases = cases_for(["f32[64]", "f32[64]"], [{"TILE": 64, "MODE": m} for m in (7, 1, 0, 1)])
    spec = analyze(source, "const_branch_else.py", "shift_rows", cases)
    d = draft(spec, source, "shift_rows")
    assert d.ok, d.diagnostics
    fns = entry_fns(d.files["src/kernel.rs"])
    assert list(fns) == ["shift_rows_mode_7", "shift_rows_mode_1", "shift_rows_mode_0"]
    for name in ("shift_rows_mode_7", "shift_rows_mode_1"):      # MODE == 1 or MODE > 5
        assert "scalar_to_tile(1.0f32)" in fns[name] and "exp(" not in fns[name]
    assert "exp(" in fns["shift_rows_mode_0"] and "1.0f32" not in fns["shift_rows_mode_0"]
    assert tomllib.loads(d.files["port.toml"])["entries"] == {
        "MODE=7": "shift_rows_mode_7", "MODE=1": "shift_rows_mode_1",
        "MODE=0": "shift_rows_mode_0"}


def test_manifest_entry_for(tmp_path):
    from workbench.rust.manifest import PortManifest, _assignment
    m = PortManifest("m", "k_a_1", ("dtype(x)", "A"), {},
                     (( _assignment("A=1"), "k_a_1"), (_assignment("A=2,B=0"), "k_a_2_b_0")))
    case = lambda **c: Case(index=0, args=(), consts=c)     # noqa: E731
    assert m.entry_for(case(A=1, B=5)) == "k_a_1"
    assert m.entry_for(case(A=2, B=0)) == "k_a_2_b_0"
    assert m.entry_for(case(A=3)) == "k_a_1"                 # no match: `entry`
    plain = PortManifest("m", "k", ("dtype(x)",), {})
    assert plain.entry_for(case(A=1)) == "k"
    with pytest.raises(ValueError):
        _assignment("A")


def test_port_constant_branch_end_to_end(tmp_path, cli):
    """`workbench port FILE.py:KERNEL --const .. --out ..` on the fixture for two values of
    DOUBLE: analyze, draft, build (cargo) and the Tile IR diff against the Python kernel
    (the GPU check is skipped: an ad hoc kernel has no PyTorch reference)."""
    for value in (1, 0):
        out = tmp_path / f"double{value}"                # any folder name will do
        result = cli("port", "tests/fixtures/drafter/const_branch.py:scale_rows",
                     "--arg", "f32[256]", "--arg", "f32[256]", "--const", "TILE=64",
                     "--const", f"DOUBLE={value}", "--out", str(out), timeout=900)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "ir_diff" in result.stdout and "build          #1 BUILT" in result.stdout
        assert "gpu_check      #1 SKIPPED" in result.stdout
        manifest = tomllib.loads((out / "port.toml").read_text())
        assert manifest["entries"] == {f"DOUBLE={value}": f"scale_rows_double_{value}"}
        assert f"fn scale_rows_double_{value}<" in (out / "src" / "kernel.rs").read_text()

