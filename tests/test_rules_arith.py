"""Arithmetic in drafted ports (workbench/port/rules/passes.py, ops_create.py, ops_matmul.py,
ops_reduce.py):
cuTile's multiply-add fusion rule (rewrite_patterns.py) on tests/fixtures/drafter/fma_rules.py,
literals of narrow float types (narrow_literals.py), reductions over every axis
(reduce_all.py), first as drafted Rust (no cargo), then
drafted, built and diffed against the cuTile Python kernel's Tile IR (PASS or
PASS_WITH_NOTES). Ports go to tmp_path."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.port.analyze import analyze
from workbench.port.rules import draft

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "drafter"
TILE = ["f32[8,128]"]
KERNELS = {
    # kernel: (file, args, consts)
    "fused_terms": ("fma_rules.py", TILE * 4 + ["i32"], {"TILE": 128}),
    "split_fma": ("fma_rules.py", TILE * 3 + ["i32"], {"TILE": 128}),
    "renamed_mul": ("fma_rules.py", TILE * 3 + ["i32"], {"TILE": 128}),
    "narrow_literals": ("narrow_literals.py", ["f16[64,32]", "f16[32,32]"] + ["f16[64,32]"] * 2,
                        {"TILE": 32}),
    "reduce_all": ("reduce_all.py", ["f32[16,64]", "f32[16,64]"], {"TILE": 64}),
    "rescale": ("liveness.py", ["f16[256]", "f16[256]", "i32"], {"TILE": 64, "WIDE": True}),
    "row_total": ("single_element.py", ["f32[16,64]", "f32[16]"], {"TILE": 64}),
    "larger_or_floor": ("comparisons.py", ["f32[512]"] * 3 + ["f32"], {"TILE": 128}),
}
BUILT = [*KERNELS, "narrow_literals:bf16", "row_total:f16"]


def kernel_rs(kernel: str) -> str:
    file, args, consts = KERNELS[kernel]
    source = (FIXTURES / file).read_text()
    case = Case(index=0, args=tuple(parse_arg(a) for a in args), consts=consts)
    d = draft(analyze(source, f"tests/fixtures/drafter/{file}", kernel, [case]), source, kernel)
    assert d.ok, [str(x) for x in d.diagnostics]
    return d.files["src/kernel.rs"]


def let(rust: str, name: str) -> str:
    found = re.search(rf"let (?:mut )?{name}: [^=]+= (.*);$", rust, re.M)
    assert found, f"no let {name} in\n{rust}"
    return found.group(1)


def test_fusion_follows_cutiles_operand_rule():
    rust = kernel_rs("fused_terms")
    assert let(rust, "plus").startswith("fma(x_tile, y_tile, z_tile,")
    assert let(rust, "minus").startswith("fma(x_tile, y_tile, z_tile_neg,")
    assert let(rust, "z_tile_neg") == "negf(z_tile)"
    assert let(rust, "rminus").startswith("fma(x_tile_neg, y_tile, z_tile,")
    # a left mul with a second use fuses nothing: the right one is not tried
    assert let(rust, "left_blocks") == "twice + prod_4"
    assert let(rust, "prod_4") == "y_tile * z_tile"
    # a use that dead code elimination removes first does not count
    assert let(rust, "after_dead").startswith("fma(y_tile, z_tile, x_tile,")
    # a different rounding mode or flush-to-zero: no fusion
    assert let(rust, "rz") == "prod_5 + z_tile"
    assert let(rust, "ftz_2").startswith("addf(prod_6, y_tile,")
    # the mul before the loop moves into the fma in the loop
    assert let(rust, "acc_next").startswith("fma(x_tile, y_tile, acc,")


def test_split_loops_fuse_as_one_loop():
    rust = kernel_rs("split_fma")
    loops = re.findall(r"for j in .*?\n        \}", rust, re.S)
    assert len(loops) == 2
    for body in loops:
        assert "let u: Tile<f32, { [1, TILE] }> = x_tile * w_tile;" in body
        assert re.search(r"= fma\(acc, lit_\w+, prod_2,", body), body


def test_assignment_is_a_rename_for_fusion():
    rust = kernel_rs("renamed_mul")
    assert let(rust, "state_next_2") == "x_tile + prod"
    assert let(rust, "g_next_2").startswith("fma(g, lit_2_b, y_tile,")
    assert "g_next: " not in rust


def test_narrow_literals_go_through_f32():
    rust = kernel_rs("narrow_literals")
    # cuTile's f16 constant of 0.3 holds 0.300048828125: that value, exact in f32, converted
    assert "constant(0.300048828125f32, shape![TILE, TILE]);" in rust
    assert let(rust, "fill") == "convert_tile(wide)"
    # the tf32 matmul accumulates in f32 (cuTile's mma table), no tf32 zero is written
    assert "mma(x_tile_f32_tf32, w_tile_f32_tf32, acc_2)" in rust
    assert re.search(r"let acc_2: Tile<f32, [^=]+= constant\(0\.0f32", rust)


def test_reduction_over_every_axis_reduces_axis_0_per_axis():
    rust = kernel_rs("reduce_all")
    reduces = re.findall(r"= (reduce_\w+)\((\w+), (\d)i32\);$", rust, re.M)
    assert [(op, axis) for op, _, axis in reduces] == [("reduce_max", "0"), ("reduce_max", "0"),
                                                       ("reduce_sum", "0"), ("reduce_sum", "0")]
    assert reduces[0][1] == "x_tile" and let(rust, reduces[1][1]) == "reduce_max(x_tile, 0i32)"
    assert let(rust, "total").endswith(".reshape(shape![1, 1])")


def test_comparison_functions_draft_as_comparisons():
    rust = kernel_rs("larger_or_floor")
    assert "= gt_tile(x_tile, y_tile);" in rust
    assert "= le_tile(larger, floor_t_b);" in rust


def test_a_value_assigned_first_in_a_constant_branch_is_not_carried():
    rust = kernel_rs("rescale")
    assert "let mut acc" in rust and "let mut t" not in rust


def test_a_one_element_pointer_assumes_its_element_alignment():
    rust = kernel_rs("row_total")
    assert "let x_ptrs_a: PointerTile<*mut f32, { [] }> = unsafe { assume_div_by::<_, 4>(x_ptrs) };" \
        in rust
    assert "assume_div_by::<_, 4>(totals_ptrs)" in rust


def test_a_pointer_at_index_zero_assumes_the_base_alignment_the_c_abi_checks():
    """x[0, 0] is x's base: cuTile assumes it 16-byte aligned, so the port does and its
    port.toml makes wb_ffi check it; the built diff (below) names the promise checked."""
    import tomllib
    file, args, consts = KERNELS["row_total"]
    source = (FIXTURES / file).read_text()
    case = Case(index=0, args=tuple(parse_arg(a) for a in args), consts=consts)
    d = draft(analyze(source, f"tests/fixtures/drafter/{file}", "row_total", [case]), source,
              "row_total")
    assert re.search(r"assume_div_by::<_, 16>\(x_ptrs_\d+\)", d.files["src/kernel.rs"])
    tensors = tomllib.loads(d.files["port.toml"])["tensors"]
    assert tensors["x"]["div_by"] == ["base 16"] and "div_by" not in tensors["totals"]
    # x's stride 0 is read by position (a rank-1 `totals` has no stride to read)
    assert tensors["x"]["strides_read"] is True and "strides_read" not in tensors["totals"]


@pytest.mark.parametrize("kernel", BUILT)
def test_fixture_drafts_builds_and_matches(kernel, cli, tmp_path):
    kernel, _, dtype = kernel.partition(":")
    file, args, consts = KERNELS[kernel]
    args = [a.replace("f16", dtype).replace("f32", dtype) for a in args] if dtype else args
    out = tmp_path / "port"
    command = ["port", f"tests/fixtures/drafter/{file}:{kernel}", "--out", str(out)]
    for a in args:
        command += ["--arg", a]
    for name, value in consts.items():
        command += ["--const", f"{name}={value}"]
    result = cli(*command, timeout=900)
    assert "build          #1 BUILT" in result.stdout, result.stdout + result.stderr
    assert re.search(r"final verdict: (PASS|PASS_WITH_NOTES)\b", result.stdout), \
        result.stdout + result.stderr + (out / "src" / "kernel.rs").read_text()


def test_a_unit_stride_before_the_last_dim_is_refused_before_building():
    """cutile makes a call's unit strides static in the view and drops them from the strides
    metadata: a port reading a stride by position would read another dim's (or panic)."""
    source = (FIXTURES / "gather_scatter.py").read_text()
    def drafted(x_arg):
        case = Case(index=0, args=tuple(parse_arg(a) for a in [x_arg, "f32[100]", "f32[64,100]"]),
                    consts={"N": 100, "TILE": 128})
        spec = analyze(source, "tests/fixtures/drafter/gather_scatter.py", "gather_rows", [case])
        return draft(spec, source, "gather_rows")
    assert drafted("f32[64,100]").ok
    refused = drafted("f32[64,1]:strides=(1,1)")
    assert not refused.ok
    assert any(d.construct == "strides" and "x has stride 1 in dim(s) 0" in d.message
               for d in refused.diagnostics), [str(d) for d in refused.diagnostics]


def test_a_list_of_arrays_parameter_is_refused_by_name():
    source = '''import cuda.tile as ct


@ct.kernel
def first_of(xs, out, T: ct.Constant[int]):
    n = len(xs)
    ct.store(out, index=(0,), tile=ct.load(xs[0], index=(0,), shape=(T,)) * n)
'''
    case = Case(index=0, args=(parse_arg("list[f32[64]]"), parse_arg("f32[64]")), consts={"T": 64})
    d = draft(analyze(source, "first_of.py", "first_of", [case]), source, "first_of")
    assert not d.ok
    assert any(u.construct == "parameter" and "xs is a list of arrays" in u.message
               for u in d.diagnostics), [str(u) for u in d.diagnostics]


def test_an_acquiring_atomic_is_waited_for_by_the_pointer_accesses_after_it():
    """ACQ_REL (the default) and ACQUIRE make every later access wait for the atomic's token;
    the drafter threads the release join (default_order builds in test_rules_families) and
    that wait into a later scatter, gather or atomic of another array (count_then_copy builds
    there too); in a loop, the acquire token is carried from the loop's start, so that the
    gather before the atomic waits for the previous trip's (count_in_loop: the IR diff of
    its port in test_rules_families checks the joins)."""
    source = (FIXTURES / "atomics.py").read_text()
    def drafted(kernel, args, consts):
        case = Case(index=0, args=tuple(parse_arg(a) for a in args), consts=consts)
        return draft(analyze(source, "tests/fixtures/drafter/atomics.py", kernel, [case]),
                     source, kernel)
    joined = drafted("default_order", ["i32[64]", "i32[1000]"], {"TILE": 128})
    assert joined.ok and re.search(r"let bins_release: Token = join_tokens\(&\[zt01_bins, "
                                   r"zt00_ids\]\);", joined.files["src/kernel.rs"])
    after = drafted("count_then_copy", ["i32[64]", "i32[128]", "i32[1000]"], {"TILE": 128})
    kernel = after.files["src/kernel.rs"]
    assert after.ok and re.search(r"let after_acquire: Token = join_tokens\(&\[zt\d+_out, "
                                  r"bins_rmw_token\]\);", kernel), kernel
    assert "Some(after_acquire)" in kernel[kernel.index("store_ptr_tko"):]
    looped = drafted("count_in_loop", ["i32[64]", "i32[1000]"], {"STEPS": 4, "TILE": 64})
    kernel = looped.files["src/kernel.rs"]
    assert looped.ok, looped.diagnostics
    declared = kernel.index("let mut zt02_acquire: Token = bins.token();")
    loop = kernel[kernel.index("for step in"):]
    assert declared < kernel.index("for step in")
    assert loop.index("join_tokens(&[zt01_ids_st, zt02_acquire])") < \
        loop.index("join_tokens(&[zt00_bins, zt01_ids, zt02_acquire])") < \
        loop.index("zt02_acquire = bins_rmw_token;"), loop


def test_an_atomic_mode_follows_the_array_dtype_as_cutile_picks_it():
    source = '''import cuda.tile as ct


@ct.kernel
def peak(out, x, T: ct.Constant[int]):
    ct.atomic_max(out, ct.arange(T, dtype=ct.int32), ct.load(x, index=(0,), shape=(T,)),
                  memory_order=ct.MemoryOrder.RELAXED)
'''
    def drafted(dtype):
        case = Case(index=0, args=(parse_arg(f"{dtype}[64]"), parse_arg(f"{dtype}[64]")),
                    consts={"T": 64})
        return draft(analyze(source, "peak.py", "peak", [case]), source, "peak")
    signed = drafted("i64")
    assert signed.ok and "atomic::Max, ordering::Relaxed, scope::Device" in \
        signed.files["src/kernel.rs"]
    refused = drafted("f32")
    assert not refused.ok and any("atomic_max takes arrays of int32" in x.message
                                  for x in refused.diagnostics), refused.diagnostics


def test_a_kernels_own_divisibility_promise_is_kept_and_named_as_its_own():
    """ct.assume_divisible_by on a parameter: the port assumes it for every call, as the
    kernel does; the diff names the kernel's line as whose promise it is (offset_rows builds
    and diffs in test_rules_families)."""
    from workbench.ownership.evidence import kernel_promises
    from workbench.resolve import resolve_target
    source = (FIXTURES / "atomics.py").read_text()
    case = Case(index=0, args=tuple(parse_arg(a) for a in ["f32[1000]", "f32[2000]", "i32=32"]),
                consts={"TILE": 128})
    d = draft(analyze(source, "tests/fixtures/drafter/atomics.py", "offset_rows", [case]),
              source, "offset_rows")
    rust = d.files["src/kernel.rs"]
    assert "assume_div_by::<_, 16>(start)" in rust and "assume_div_by::<_, 1>" not in rust
    op = resolve_target("tests/fixtures/drafter/atomics.py:offset_rows",
                        ["f32[1000]", "f32[2000]", "i32=32"], ["TILE=128"], None)
    [(fact, who)] = kernel_promises(op)["start"]
    assert fact == "div_by<16>" and "line 49" in who
