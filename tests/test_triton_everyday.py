"""Triton kernels as people write them (issue 35): math bound from libdevice (imported inside
`try`/`if` too), module-level `tl.constexpr` constants, accumulators that start as a number,
`.cast(..)` and `tl.float32(..)`, a string constexpr (and `--const NAME=word`), and
`tl.debug_barrier()`. Each is translated, ported end to end (build, IR diff), and its numbers
are checked on the CPU: the Triton kernel under Triton's interpreter (TRITON_INTERPRET=1) and
the derived cuTile kernel under the workbench's Tile IR interpreter, both against NumPy."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from workbench.argspec import parse_arg, parse_const
from workbench.catalog import REPO_ROOT, Case
from workbench.errors import WorkbenchError
from workbench.translate.derive import derive
from workbench.translate.targets import triton_target

FIXTURE = "tests/fixtures/triton_everyday.py"
ROWS = ["f32[64,1000]", "f32[64,1000]", "i32=1000"]
CASES = {     # kernel: (args, consts, launch grid, final verdict of its port)
    "gelu_tanh": (["f16[5000]", "f16[5000]", "i32=5000"], ["BLOCK=512"], "10", "PASS_WITH_NOTES"),
    "math_forms": (["f32[2048]", "f32[2048]"], ["BLOCK=512"], "4", "PASS"),
    "norm_rows": (["f32[64,1000]", "f32[1000]", "f32[64,1000]", "i32=1000"],
                  ["BLOCK=256", "SQUARES=true"], "64", "PASS_WITH_NOTES"),
    "online_softmax": (ROWS, ["BLOCK=256"], "64", "PASS_WITH_NOTES"),
    # Triton 3.6 refuses tl.float32(..); its interpreter, with the gap filled, runs it
    "row_max_typed": (["f16[64,1000]", "f32[64]", "i32=1000"], ["BLOCK=256"], "64",
                      "PASS_WITH_NOTES"),
    "column_sums": (["f32[100,512]", "f32[512]", "i32=100", "i32=512"], ["BLOCK=128"], "4",
                    "PASS_WITH_NOTES"),
    "squared_loss": (["f32[1000]", "f32[1000]", "f32[1]", "i32=1000"],
                     ["BLOCK=1024", "reduction=sum"], "1", "PASS_WITH_NOTES"),
    "softmax_in_place": (["f32[64,1000]", "f32[64]", "i32=1000"], ["BLOCK=1024"], "64",
                         "PASS_WITH_NOTES"),
    "label_loss": (["f32[64,1000]", "i64[64]", "f32[64]", "i32=1000", "i32=1000"],
                   ["BLOCK=1024"], "64", "PASS_WITH_NOTES"),
    # an argument passed as None, an early return, an int64 label as an index
    "optional_loss": (["f32[64,1000]", "i64[64]", "None", "f32[64]", "i64[64]", "i32=1000",
                       "i32=3"], ["BLOCK=256"], "64", "PASS_WITH_NOTES"),
    "rotate_pairs": (["f32[1024,2]", "f32[1024,2]"], ["BLOCK=128"], "8", "PASS_WITH_NOTES"),
    "interleaved": (["f32[512]", "f32[512]", "f32[1024]"], ["BLOCK=128"], "4", "PASS_WITH_NOTES"),
    # Python's min on runtime scalars (the grouped launch order); max with its index
    "grouped_matmul": (["f16[256,128]", "f16[128,192]", "f16[256,192]", "i32=256", "i32=192",
                        "i32=128"], ["BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=32", "GROUP=2"], "12",
                       "PASS_WITH_NOTES"),
    "row_peak": (["f32[16,1000]", "f32[16]", "i32[16]", "i32=1000"], ["BLOCK=1024"], "16",
                 "PASS_WITH_NOTES"),
    # tile methods (x.permute, x.sum), tl.expand_dims, tl.ravel, a 3-D permute, tl.softmax
    "tile_shapes": (["f32[32,32]", "f32[32,32]", "f32[16]"], ["B=32"], "1", "PASS_WITH_NOTES"),
    # a while loop on a value computed from data, carrying a tile and a counter
    "halvings": (["f32[16,256]", "f32[16,256]", "i32[16]"], ["BLOCK=256"], "16",
                 "PASS_WITH_NOTES"),
    # an offset assigned under a runtime `if` in the loop (not carried); a split loop whose
    # second half does nothing (not written, as cuTile drops it)
    "blocks_mix": (["f32[3,16,100]", "f32[16,3]", "f32[16,100]", "i32=3", "i32=16", "i32=100"],
                   ["BLOCK_D=128", "MAX_BLOCKS=4"], "16", "PASS_WITH_NOTES"),
    # numbers a runtime `if` reassigns: variables, so the rows it skips keep their start
    "skipped_rows": (["f32[12,100]", "f32[12]", "i32[12]", "i32=100"], ["BLOCK=128"], "12",
                     "PASS_WITH_NOTES"),
    # a constant offset of minus one row (`(t - 1) * D`) on a 3-D tensor
    "token_deltas": (["f32[2,8,64]", "f32[2,8,64]", "i32=8"], ["D=64"], "2,8", "PASS_WITH_NOTES"),
    # a bf16 tl.dot, checked against Triton's interpreter on the values, not their bits
    "bf16_products": (["bf16[32,32]", "bf16[32,32]", "bf16[32,32]"], ["B=32"], "1",
                      "PASS_WITH_NOTES"),
    # k read and written transposed on a 4-D tensor, one program per flattened (b, h)
    "head_scores": (["f32[2,3,32,16]", "f32[2,3,32,16]", "f32[2,3,32,32]", "f32[2,3,32,16]"],
                    ["N=32", "D=16"], "6", "PASS_WITH_NOTES"),
    # an int64 index tile picks rows (its u64 view is the same Tile IR type: no exti)
    "picked_rows": (["f32[100,32]", "i64[64]", "f32[64,32]"], ["D=32", "BLOCK=16"], "4",
                    "PASS_WITH_NOTES"),
    # a kernel jitted by assignment and wrapped by triton.heuristics
    "halved_copy": (["f32[1000]", "f32[1000]", "i32=1000"], ["BLOCK=256", "EVEN=false"], "4",
                    "PASS_WITH_NOTES"),
    # a loop index widened by `.to(tl.int64)`: a tensor in compiled Triton, made one for
    # Triton's interpreter too (it hands the body a Python int)
    "widened_rows": (["f32[8,64]", "f32[8,64]", "i32=8", "i32=64"], ["D=64"], "1",
                     "PASS_WITH_NOTES"),
    # a loop over a constant range split at a constant: an empty half is not written (cutile
    # cannot write an empty constant range), and the IR diff drops cuTile Python's
    "split_blocks": (["f32[256]", "f32[64]"], ["FIRST=0", "K=256", "BK=64"], "1", "PASS"),
    # `offs % (rot_dim // 2)` of a runtime rot_dim stays in a row; so does twice it
    "rotate_half_pairs": (["f32[8,4,64]", "f32[16,64]", "i64[8]", "i32=256", "i32=64", "i32=4",
                          "i32=64"], ["PAIRED=true", "BLOCK=128"], "8", "PASS_WITH_NOTES"),
    # a tile store after a scatter to the same array waits for it (cuTile's token order)
    "two_spans": (["f32[1000]", "f32[1000]", "i32=1000"], ["A=128", "B=64"], "6",
                  "PASS_WITH_NOTES"),
    # the block start written inline twice (cuTile Python adds bcast + iota, the port
    # iota + bcast; one value either way)
    "inline_spans": (["f32[1000]", "f32[1000]", "i32=1000"], ["A=128", "B=64"], "6",
                     "PASS_WITH_NOTES"),
    # an index read by a load inside a pointer expression in a loop (cuTile Python reads it
    # once, before the loop)
    "repeated_gather": (["f32[64,32]", "i32[4]", "f32[4,32]", "i32=3"], ["D=32"], "4",
                        "PASS_WITH_NOTES"),
    # atomics on one element: an acquiring count, then a relaxed sum that waits for it
    "scalar_totals": (["f32[1000]", "f32[2]", "i32[1]", "i32=1000"], ["BLOCK=256"], "4,2",
                      "PASS_WITH_NOTES"),
    "bits_peak": (["i32[1000]", "i32[1]", "i32=1000"], ["BLOCK=256"], "4", "PASS_WITH_NOTES"),
    # compare-and-swap: a tile of slots (relaxed), one flag per program (acq_rel, the count
    # after it waits for the claim)
    "claim_slots": (["i32[1024]", "i32[1024]"], ["BLOCK=256"], "4", "PASS_WITH_NOTES"),
    "first_claims": (["i32[8]", "i32[1]"], [], "8", "PASS_WITH_NOTES"),
    # unsigned 32-bit arrays: a hash constant above i32's range (cutile 0.5.0 writes such a
    # u32 literal as 0: the port writes its bits as i32, bitcast), a logical >>, a counter
    "hashed_bits": (["u32[1000]", "u32[1000]", "u32[1]", "i32=1000"], ["BLOCK=256"], "4",
                    "PASS_WITH_NOTES"),
    # a 3-D tl.dot (a batch of products per program), whose block start `g * M * N` has
    # G * M equal to N in this case
    "batched_products": (["f16[4,16,64]", "f16[4,64,32]", "f32[4,16,32]", "i32=64"],
                         ["G=2", "M=16", "BK=32", "N=32"], "2", "PASS_WITH_NOTES"),
}


def _derived(kernel: str, args=None, consts=None, path: str = FIXTURE):
    given_args, given_consts, _, _ = CASES.get(kernel, (None, None, None, None))
    target = triton_target(f"{path}:{kernel}", args or given_args, consts or given_consts)
    return derive(target.source(), list(target.cases), target.label)


def _body(derived) -> str:
    return derived.text.split(f"def {derived.kernel_name}(", 1)[1]


def _notes(derived) -> str:
    return "\n".join(n["message"] for n in derived.notes)


# -- 1. math bound from libdevice ----------------------------------------------------------

def test_libdevice_math_in_every_import_form_maps_by_what_it_computes():
    gelu = _derived("gelu_tanh")      # `tanh` imported inside try/except ImportError
    assert gelu.ok, gelu.translation.diagnostics
    assert "y = ((0.5 * x) * (1.0 + ct.tanh(inner)))" in _body(gelu), gelu.text
    forms = _derived("math_forms")    # libdevice.X (if triton.__version__), tl.extra..., full
    assert forms.ok, forms.translation.diagnostics
    body = _body(forms)
    for line in ("a = ct.rsqrt(((x * x) + 1.0))", "b = ct.pow(ct.abs(x), 1.5)",
                 "c = ct.exp2((-ct.abs(x)))", "d = ct.exp(((-x) * x))"):
        assert line in body, body
    assert "libdevice.fast_expf is libdevice's faster or differently rounded exp" in \
        _notes(forms)


def test_a_math_function_cutile_lacks_is_refused_in_one_line_with_what_to_write(tmp_path):
    [erf] = _derived("erf_gelu", ["f32[2048]", "f32[2048]"], ["BLOCK=512"]).translation.diagnostics
    assert erf["construct"] == "libdevice.erf" and erf["line"] == 48
    assert erf["message"].startswith("computes the error function; cuTile has no erf: write "
                                     "the GELU with its tanh form"), erf["message"]
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n"
                      "from triton.language.extra import libdevice\n"
                      "try:\n    from triton.language.extra.libdevice import tanh as act\n"
                      "except ImportError:\n    from triton.language.extra.libdevice import "
                      "fast_tanf as act\n\n\n@triton.jit\n"
                      "def bessel(x_ptr, B: tl.constexpr):\n"
                      "    o = tl.arange(0, B)\n"
                      "    tl.store(x_ptr + o, libdevice.j0(tl.load(x_ptr + o)))\n\n\n"
                      "@triton.jit\n"
                      "def either(x_ptr, B: tl.constexpr):\n"
                      "    o = tl.arange(0, B)\n"
                      "    tl.store(x_ptr + o, act(tl.load(x_ptr + o)))\n")
    [j0] = _derived("bessel", ["f32[512]"], ["B=512"], str(kernel)).translation.diagnostics
    assert j0["construct"] == "libdevice.j0" and "no cuTile counterpart" in j0["message"]
    assert "\n" not in j0["message"]
    [either] = _derived("either", ["f32[512]"], ["B=512"], str(kernel)).translation.diagnostics
    assert "version-dependent imports bind it to different functions" in either["message"]
    assert "fast_tanf" in either["message"]


def test_the_triton_kernel_with_version_dependent_imports_compiles_to_ttir(tmp_path):
    """The reduced module blanks a module-level try/if; the Triton kernel (TTIR here, the
    GPU check there) runs those imports as the module would: a test only the package can
    evaluate (`compare_version`) takes the first branch that imports."""
    pytest.importorskip("triton")
    from workbench.translate.ttir import compile_ttir
    target = triton_target(f"{FIXTURE}:gelu_tanh", *CASES["gelu_tanh"][:2])
    assert "__nv_tanhf" in compile_ttir(target.source(), target.cases[0])
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n"
                      "from mypackage.utils import compare_version\n"
                      "from triton.language.extra import libdevice\n\n"
                      "if compare_version('triton', '3.0'):\n"
                      "    from triton.language.extra.libdevice import rsqrt\n"
                      "else:\n    from triton.language.math import rsqrt\n"
                      "if hasattr(tl, 'tanh'):\n    act = tl.tanh\n"
                      "else:\n    act = libdevice.tanh\n\n\n@triton.jit\n"
                      "def both(x_ptr, B: tl.constexpr):\n"
                      "    o = tl.arange(0, B)\n"
                      "    tl.store(x_ptr + o, act(rsqrt(tl.load(x_ptr + o))))\n")
    target = triton_target(f"{kernel}:both", ["f32[512]"], ["B=512"])
    derived = derive(target.source(), list(target.cases), target.label)
    assert "ct.store(x_ptr, index=(0,), tile=ct.astype(ct.tanh(ct.rsqrt(" in derived.text
    ttir = compile_ttir(target.source(), target.cases[0])
    assert "__nv_tanhf" in ttir and "__nv_rsqrtf" in ttir


# -- 2. module-level constants -------------------------------------------------------------

def test_module_level_constexpr_constants_are_folded():
    gelu = _derived("gelu_tanh")      # SQRT_2_OVER_PI: tl.constexpr = tl.constexpr(..), CUBIC
    assert "inner = (0.7978845608028654 * (x + (((0.044715 * x) * x) * x)))" in _body(gelu)
    norm = _derived("norm_rows")      # EPS: tl.constexpr = tl.constexpr(1e-6)
    assert "r = ct.rsqrt(((total / n_cols) + 1e-06))" in _body(norm), norm.text


# -- 3. accumulators that start as a number ------------------------------------------------

def test_a_scalar_accumulator_updated_under_a_constexpr_if_keeps_its_running_total():
    for squares, term in ((True, "ct.sum((x * x))"), (False, "ct.sum(ct.abs(x))")):
        norm = _derived("norm_rows", consts=["BLOCK=256", f"SQUARES={squares}"])
        assert norm.ok, norm.translation.diagnostics
        body = _body(norm)
        assert "    total = 0.0\n    for start_tile in range(ct.cdiv(n_cols, 256)):" in body
        assert f"        total = (total + {term})\n" in body, body
    softmax = _derived("online_softmax")
    body = _body(softmax)
    assert '    m = -float("inf")\n' in body and "    d = 0.0\n" in body, body
    assert "        d = ((d * ct.exp((m - m_new))) + ct.sum(ct.exp((x - m_new)), axis=0))" in body
    assert "        m = m_new\n" in body


def test_a_tile_accumulator_that_starts_as_a_number_starts_as_a_tile_of_it():
    sums = _derived("column_sums")
    assert sums.ok, sums.translation.diagnostics
    assert "    acc = ct.full((128,), 0.0, dtype=ct.float32)\n    for r in range(n_rows):" in \
        _body(sums), sums.text
    assert "Triton's compiler refuses a loop-carried value whose type changes" in _notes(sums)


def test_a_pointer_offset_a_loop_carries_stays_refused(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def walk(x_ptr, y_ptr, B: tl.constexpr):\n"
                      "    p = x_ptr + tl.arange(0, B)\n"
                      "    s = 0.0\n"
                      "    for i in range(4):\n"
                      "        s += tl.sum(tl.load(p))\n"
                      "        p = p + B * (i + 1)\n"
                      "    tl.store(y_ptr, s)\n")
    derived = _derived("walk", ["f32[8192]", "f32[1]"], ["B=512"], str(kernel))
    assert [d["construct"] for d in derived.translation.diagnostics] == ["loop-carried pointer"]


# -- 4. .cast(..) and tl.float32(..) -------------------------------------------------------

def test_cast_as_a_method_and_a_dtype_called_as_a_scalar_constructor():
    gelu = _derived("gelu_tanh")
    assert "x = ct.astype(ct.load(x_ptr, index=(ct.bid(0),), shape=(512,), " \
           "padding_mode=ct.PaddingMode.ZERO), ct.float32)" in _body(gelu), gelu.text
    typed = _derived("row_max_typed")
    assert typed.ok, typed.translation.diagnostics
    assert '    best = ct.float32(-float("inf"))\n' in _body(typed), typed.text
    assert "Triton 3.6's compiler refuses to call a dtype" in _notes(typed)


# -- 5. a string constexpr -----------------------------------------------------------------

def test_a_string_constexpr_is_folded_and_given_by_const_as_a_word_or_quoted():
    assert parse_const("reduction=mean") == ("reduction", "mean")
    assert parse_const("reduction='sum'") == ("reduction", "sum")
    assert parse_const('mode="batch mean"') == ("mode", "batch mean")
    assert parse_const("TILE=1024") == ("TILE", 1024) and parse_const("X=inf")[1] == float("inf")
    assert parse_const("FLAG=false") == ("FLAG", False) and parse_const("E=1e-5")[1] == 1e-5
    for bad in ("X=12x", "X=None", "X=a b"):
        with pytest.raises(WorkbenchError, match="bad constant value"):
            parse_const(bad)
    args = CASES["squared_loss"][0]
    mean = _body(_derived("squared_loss", args, ["BLOCK=1024"]))          # the default
    assert "total = (total / n)" in mean and "reduction" not in mean
    total = _body(_derived("squared_loss", args, ["BLOCK=1024", "reduction=sum"]))
    assert "ct.sum(loss, axis=0)" in total and "/ n" not in total
    none = _body(_derived("squared_loss", ["f32[1000]"] * 3 + ["i32=1000"],
                          ["BLOCK=1024", "reduction=none"]))
    assert "ct.sum" not in none and \
        "ct.store(out_ptr, index=(0,), tile=ct.astype(loss, out_ptr.dtype))" in none


def test_a_flag_that_differs_between_cases_gives_each_case_its_branch():
    """`if DOUBLE: k = 2.0 else: k = 0.5` with DOUBLE true in one case and false in the other:
    k is each case's number; index arithmetic set under such a flag (the rotary kernel's
    pair positions) cannot be both, and is refused by name (a record ports each flag value
    as a kernel of its own)."""
    target = triton_target(f"{FIXTURE}:flagged_scale", ["f32[256]", "f32[256]"],
                           ["DOUBLE=true", "BLOCK=256"])
    cases = [Case(i, tuple(parse_arg(a) for a in ("f32[256]", "f32[256]")),
                  {"DOUBLE": flag, "BLOCK": 256}) for i, flag in enumerate((True, False))]
    derived = derive(target.source(), cases, target.label)
    assert derived.ok, derived.translation.diagnostics
    assert "(2.0 if DOUBLE else 0.5)" in _body(derived), derived.text
    args = CASES["rotate_half_pairs"][0]
    rope = triton_target(f"{FIXTURE}:rotate_half_pairs", args, CASES["rotate_half_pairs"][1])
    cases = [Case(i, tuple(parse_arg(a) for a in args), {"PAIRED": flag, "BLOCK": 128})
             for i, flag in enumerate((True, False))]
    [refused] = derive(rope.source(), cases, rope.label).translation.diagnostics
    assert refused["construct"] == "if on a constant" and "`a_at` is set differently under " \
        "`if PAIRED`" in refused["message"], refused


def test_a_string_constexpr_that_differs_between_cases_is_refused():
    target = triton_target(f"{FIXTURE}:squared_loss", *CASES["squared_loss"][:2])
    cases = [Case(i, tuple(parse_arg(a) for a in CASES["squared_loss"][0]),
                  {"BLOCK": 1024, "reduction": r}) for i, r in enumerate(("mean", "sum"))]
    derived = derive(target.source(), cases, target.label)
    [reason] = derived.translation.diagnostics
    assert reason["construct"] == "string tl.constexpr" and "['mean', 'sum']" in reason["message"]


# -- 6. tl.debug_barrier -------------------------------------------------------------------

def test_debug_barrier_is_dropped_with_a_note():
    derived = _derived("softmax_in_place")
    assert derived.ok and "barrier" not in _body(derived)
    assert "tl.debug_barrier() dropped" in _notes(derived)


# -- 7. an i64 label narrowed to i32 and read at, as cross entropy does ------------------------

def test_a_label_narrowed_to_i32_is_read_at_without_a_bounds_assert(cli, tmp_path):
    """cutile 0.5.0 writes no wrapping `trunci` (overflow::None writes no attribute, which its
    bytecode writer refuses) and bounds-checks a load at an index it cannot prove with an
    assert cuTile Python does not make: the draft states no signed wrap, and the entry is
    unchecked, each said in a note."""
    args, consts, grid, _ = CASES["label_loss"]
    command = ["port", f"{FIXTURE}:label_loss", "--grid", grid, "--out", str(tmp_path / "port")]
    command += [x for a in args for x in ("--arg", a)] + ["--const", consts[0]]
    result = cli(*command, timeout=900)
    assert "final verdict: PASS_WITH_NOTES" in result.stdout, result.stdout + result.stderr
    kernel = (tmp_path / "port" / "src" / "kernel.rs").read_text()
    assert "trunci(labels_ptr_tile_r, overflow::NoSignedWrap)" in kernel, kernel
    assert "unchecked_accesses = true" in kernel and "pub unsafe fn label_loss" in kernel
    assert "an index computed from data" in kernel, kernel
    run = REPO_ROOT / result.stdout.split("run ", 1)[1].split()[0]
    [diffed] = json.loads((run / "06-ir_diff.json").read_text())["cases"]
    [flag] = [f for f in diffed["findings"] if f["kind"] == "overflow_flag"]
    assert flag["severity"] == "warning", flag
    assert "cutile cannot write a wrapping trunci" in flag["detail"], flag


def test_a_stride_whose_value_is_not_given_is_refused_by_name():
    args = ["f32[64,1000]", "i64[64]", "f32[64]", "i32", "i32=1000"]
    derived = _derived("label_loss", args, ["BLOCK=1024"])
    assert not derived.ok
    [first, *_] = derived.translation.diagnostics
    assert first["construct"] == "pointer arithmetic" and first["line"] == 140, first
    assert "row * stride has stride, whose value the case does not give" in first["message"]
    assert "--arg i32=VALUE" in first["message"]


def test_a_dtype_taken_before_the_value_is_rebound_stays_that_dtype(tmp_path):
    """`d = x.dtype; x = x.to(tl.float32); ...; x.to(d)` rounds back to x's own dtype (a
    norm's llama-mode rounding); read at the use, `x.dtype` would be f32 there: a no-op."""
    kernel = tmp_path / "rounding.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def rounded(x_ptr, y_ptr, BLOCK: tl.constexpr):\n"
                      "    offs = tl.arange(0, BLOCK)\n"
                      "    x = tl.load(x_ptr + offs)\n"
                      "    x_dtype = x.dtype\n"
                      "    x = x.to(tl.float32)\n"
                      "    x = (x * 1.5).to(x_dtype)\n"
                      "    tl.store(y_ptr + offs, x.to(tl.float32) * 2.0)\n")
    derived = _derived("rounded", ["bf16[256]", "f32[256]"], ["BLOCK=256"], str(kernel))
    assert derived.ok, derived.translation.diagnostics
    body = _body(derived)
    assert "    x_dtype = x.dtype\n" in body and "ct.astype((x * 1.5), x_dtype)" in body, body


# -- arguments passed as None, early returns, labels as indices ------------------------------

OPTIONAL = CASES["optional_loss"][0]


def test_an_argument_passed_as_none_is_a_compile_time_none():
    """Triton specializes a None argument as a constexpr None: `is not None` folds, the
    branch it guards goes, and the parameter leaves the derived kernel."""
    assert str(parse_arg("None")) == "None" and parse_arg("None").is_none
    derived = _derived("optional_loss")
    assert derived.ok, derived.translation.diagnostics
    assert "weight_ptr" not in derived.params and "weight_ptr" not in _body(derived)
    weighted = _derived("optional_loss", OPTIONAL[:2] + ["f32[8]"] + OPTIONAL[3:])
    assert weighted.ok and "weight_ptr" in weighted.params
    # an int64 label read from memory indexes as cuTile's int32 tile index
    assert "ct.load(weight_ptr, index=(ct.astype(label, ct.int32),)" in _body(weighted), \
        weighted.text


def test_a_none_argument_that_is_computed_with_is_refused_by_name(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def scaled(x_ptr, w_ptr, y_ptr, BLOCK: tl.constexpr):\n"
                      "    offs = tl.arange(0, BLOCK)\n"
                      "    tl.store(y_ptr + offs, tl.load(x_ptr + offs) * tl.load(w_ptr + offs))\n")
    [used] = _derived("scaled", ["f32[64]", "None", "f32[64]"], ["BLOCK=64"],
                      str(kernel)).translation.diagnostics
    assert used["construct"] == "None operand" and used["line"] == 8, used
    assert used["message"].startswith("`w_ptr + offs` computes with None"), used["message"]
    target = triton_target(f"{kernel}:scaled", ["f32[64]", "f32[64]", "f32[64]"], ["BLOCK=64"])
    mixed = [Case(0, tuple(parse_arg(a) for a in ("f32[64]", "None", "f32[64]")),
                  {"BLOCK": 64}), Case(1, target.cases[0].args, {"BLOCK": 64})]
    [both] = derive(target.source(), mixed, target.label).translation.diagnostics
    assert both["construct"] == "None argument" and "give each its own target" in both["message"]


def test_a_stride_the_kernel_names_is_preferred_to_constants_that_equal_it():
    """`rows * K` with K = 128 = 2 * BLOCK_M: the row index is `pid_m` (rows of K), not
    `pid_m * 2 * 64 / K` read as rows of 2 * 64 (right only while K is 128)."""
    matmul = _derived("grouped_matmul")
    assert matmul.ok, matmul.translation.diagnostics
    body = _body(matmul)
    assert "a = ct.load(a_ptr, index=((pid // per_group) * 2 + " in body, body
    assert "ct.gather(a_ptr" not in body and "group_rows = ct.minimum(" in body, body


def test_a_product_scan_is_translated_and_its_port_refused_for_what_cutile_writes(cli, tmp_path):
    """tl.cumprod is ct.cumprod; cutile 0.5.0's scan with a closure writes the identity 0
    whatever it is given, so the Rust port is refused naming that, not as a gap of ours."""
    derived = _derived("running_product", ["f32[128]", "f32[128]"], ["BLOCK=128"])
    assert derived.ok and "ct.cumprod(" in _body(derived), derived.text
    result = cli("port", f"{FIXTURE}:running_product", "--arg", "f32[128]", "--arg",
                 "f32[128]", "--const", "BLOCK=128", "--grid", "1", "--out",
                 str(tmp_path / "port"), timeout=600)
    assert "final verdict: UNSUPPORTED" in result.stdout, result.stdout + result.stderr
    assert "writes the identity 0 whatever" in result.stdout, result.stdout
    # the partial draft kept for the user says where its gap is
    kept = (tmp_path / "port" / "src" / "kernel.rs").read_text()
    assert "// NOT DRAFTED: line 13: ct.cumprod: cutile 0.5.0's scan with a closure" in kept


def test_a_pointer_advanced_under_a_runtime_if_is_refused_by_name(tmp_path):
    """The translation keeps pointers symbolic; one advanced in a branch decided at run time
    would be the branch's address after it in every program."""
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def shifted(x_ptr, y_ptr, flag, SCALE: tl.constexpr):\n"
                      "    if flag > 0:\n"
                      "        x_ptr += 1\n"
                      "    tl.store(y_ptr, tl.load(x_ptr) * SCALE)\n")
    [advanced] = _derived("shifted", ["f32[8]", "f32[1]", "i32=1"], ["SCALE=2.0"],
                          str(kernel)).translation.diagnostics
    assert advanced["construct"] == "pointer in a runtime if" and advanced["line"] == 7
    assert "`x_ptr` is advanced inside `if flag > 0`" in advanced["message"], advanced


def test_a_one_element_atomic_is_translated_and_a_float_max_refused_with_what_to_write():
    totals = _derived("scalar_totals")
    assert totals.ok, totals.translation.diagnostics
    body = _body(totals)
    assert "ct.atomic_add(positives_ptr, 0, " in body and \
        "ct.atomic_add(total_ptr, ct.bid(1), " in body, body
    [why] = _derived("float_peak", ["f32[256]", "f32[1]"], ["BLOCK=256"]).translation.diagnostics
    assert why["construct"] == "tl.atomic_max" and "takes integer arrays only" in why["message"]
    assert "v.to(tl.int32, bitcast=True)" in why["message"]


def test_compare_and_swap_is_translated_and_a_spin_lock_retries_it_at_every_trip():
    slots = _body(_derived("claim_slots"))
    assert "ct.atomic_cas(slots_ptr, pid * 256 + ct.arange(256, dtype=ct.int32), " \
           "ct.astype(free, slots_ptr.dtype), ct.astype(((free + pid) + 1), slots_ptr.dtype), " \
           "memory_order=ct.MemoryOrder.RELAXED" in slots, slots
    locked = _derived("locked_total", ["f32[1000]", "f32[1]", "i32[1]", "i32=1000"],
                      ["BLOCK=256"])
    assert locked.ok, locked.translation.diagnostics
    lines = [line.strip() for line in _body(locked).splitlines()]
    loop = lines.index("while True:")
    assert lines[loop + 1].startswith("atomic_old1 = ct.atomic_cas(lock_ptr, 0, ") and \
        "memory_order=ct.MemoryOrder.ACQ_REL" in lines[loop + 1], lines
    assert lines[loop + 2:loop + 4] == ["if not ((atomic_old1 == 1)):", "break"], lines
    assert lines[loop + 4].startswith("ct.store(total_ptr"), lines


def test_a_spin_lock_ports_with_its_acquire_token_carried_by_the_loop(cli, tmp_path):
    """cuTile carries an acquiring atomic's token through the loop around it and makes every
    later access wait for it: the Rust port declares it before the loop, sets it from the CAS,
    and joins it into the locked load, store and release (the IR diff checks the joins)."""
    result = cli("port", f"{FIXTURE}:locked_total", "--grid", "4", "--out", str(tmp_path / "p"),
                 "--arg", "f32[1000]", "--arg", "f32[1]", "--arg", "i32[1]", "--arg", "i32=1000",
                 "--const", "BLOCK=256", timeout=900)
    out = result.stdout + result.stderr
    assert "write_kernel   #1 DRAFTED" in out and "ir_diff        #1 PASS" in out, out
    kernel = (tmp_path / "p" / "src" / "kernel.rs").read_text()
    lines = [line.strip() for line in kernel.splitlines()]
    declared = lines.index("let mut zt02_acquire: Token = lock_ptr.token();  // the last "
                           "acquiring atomic's token, which later accesses wait for")
    assert declared < lines.index("loop {") < lines.index("zt02_acquire = lock_ptr_cas_token;")
    assert "let after_acquire: Token = join_tokens(&[zt03_total_ptr_st, zt02_acquire]);" in lines
    assert "let lock_ptr_release_2: Token = join_tokens(&[zt01_lock_ptr, zt00_x_ptr, " \
           "zt02_acquire, zt03_total_ptr]);" in lines, kernel


def test_an_access_before_an_acquire_in_its_loop_waits_for_the_previous_trip(cli, tmp_path):
    """cuTile carries the acquire token from the loop's start: the load before the CAS waits
    for the previous trip's acquire (a join the IR diff checks); Triton's interpreter and the
    Tile IR interpreter agree on the result."""
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def flagged(x_ptr, flags_ptr, N: tl.constexpr):\n"
                      "    for i in range(N):\n"
                      "        v = tl.load(x_ptr + i)\n"
                      "        tl.atomic_cas(flags_ptr + i, 0, v)\n")
    result = cli("port", f"{kernel}:flagged", "--grid", "1", "--out", str(tmp_path / "p"),
                 "--arg", "i32[4]", "--arg", "i32[4]", "--const", "N=4", timeout=900)
    out = result.stdout + result.stderr
    assert "ir_diff        #1 PASS" in out and "interpreter: ok" in out, out
    rust = (tmp_path / "p" / "src" / "kernel.rs").read_text()
    loop = rust[rust.index("for i in"):]
    assert re.search(r"join_tokens\(&\[zt\d+_x_ptr_st, zt\d+_acquire\]\)", loop), loop
    assert rust.index("_acquire: Token = ") < rust.index("for i in")


def test_a_batch_of_products_is_a_3d_mma_indexed_by_the_stride_written_last(tmp_path):
    """`c + g * M * N + ..` with g = pid * G + arange: the block start's stride is M * N (the
    factors written last), not G * M, which equals N in this case: read that way, programs
    stored their batch into rows of batch 0 (the CPU check failed it)."""
    products = _derived("batched_products")
    assert products.ok, products.translation.diagnostics
    body = _body(products)
    assert "acc = ct.mma(a, b, acc)" in body and "ct.zeros((2, 16, 32)" in body, body
    assert "ct.store(c_ptr, index=(ct.bid(0), 0, 0)" in body, body
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def mixed(a_ptr, b_ptr, B: tl.constexpr):\n"
                      "    i = tl.arange(0, B)\n"
                      "    a = tl.load(a_ptr + i[:, None, None] * B * B + i[None, :, None] * B"
                      " + i[None, None, :])\n"
                      "    b = tl.load(b_ptr + i[:, None] * B + i[None, :])\n"
                      "    tl.store(b_ptr + i[:, None] * B + i[None, :], tl.sum(tl.dot(a, b), 0))\n")
    [why] = _derived("mixed", ["f16[16,16,16]", "f16[16,16]"], ["B=16"],
                     path=str(kernel)).translation.diagnostics
    assert why["construct"] == "tl.dot" and "operands of 2 dimensions, or 3" in why["message"]


def _products(tmp_path, dtype: str, call: str):
    kernel = tmp_path / "products.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def products(a_ptr, b_ptr, c_ptr, B: tl.constexpr):\n"
                      "    i = tl.arange(0, B)\n"
                      "    a = tl.load(a_ptr + i[:, None] * B + i[None, :])\n"
                      "    b = tl.load(b_ptr + i[:, None] * B + i[None, :])\n"
                      f"    tl.store(c_ptr + i[:, None] * B + i[None, :], {call})\n")
    derived = _derived("products", [f"{dtype}[16,16]", f"{dtype}[16,16]", "f32[16,16]"],
                       ["B=16"], path=str(kernel))
    assert derived.ok, derived.translation.diagnostics
    return derived


def test_f32_products_are_multiplied_in_tf32_as_triton_multiplies_them(tmp_path):
    """On the GPU, Triton multiplies f32 tiles in tf32 unless told otherwise: a port in f32
    computed other numbers (head_scores on the H200: relative error 7.7e-4 against Triton,
    over f32's tolerance) than the kernel it ports."""
    from workbench.port.triton_stages import derived_tolerance
    from workbench.translate.targets import triton_target
    default = _products(tmp_path, "f32", "tl.dot(a, b)")
    assert "ct.mma(ct.astype(a, ct.tfloat32), ct.astype(b, ct.tfloat32), " in _body(default)
    assert default.translation.tf32_products and "multiplies them in tf32" in _notes(default)
    target = triton_target(f"{tmp_path / 'products.py'}:products",
                           ["f32[16,16]", "f32[16,16]", "f32[16,16]"], ["B=16"])
    assert derived_tolerance(target, default)["f32"] == 2e-3
    for exact in ('tl.dot(a, b, input_precision="ieee")', "tl.dot(a, b, allow_tf32=False)"):
        derived = _products(tmp_path, "f32", exact)
        assert "ct.mma(a, b, " in _body(derived) and not derived.translation.tf32_products
        assert "f32" not in derived_tolerance(target, derived)
    halves = _products(tmp_path, "f16", "tl.dot(a, b)")
    assert "ct.mma(a, b, " in _body(halves) and not halves.translation.tf32_products
    widened = _products(tmp_path, "f16", "tl.dot(a.to(tl.float32), b.to(tl.float32))")
    assert "ct.astype(ct.astype(a, ct.float32), ct.tfloat32)" in _body(widened)
    # lightning attention's `qk = tl.where(index >= 0, qk, 0)` before its next tl.dot
    kept = _products(tmp_path, "f32", "tl.dot(tl.where(a > 0, a, 0.0), tl.exp(b) * 2.0)")
    assert kept.translation.tf32_products and "dtypes" not in _notes(kept), _body(kept)


# -- end to end: build and IR diff ---------------------------------------------------------

@pytest.mark.parametrize("kernel", sorted(CASES))
def test_each_idiom_ports_and_is_checked_against_triton(kernel, cli, tmp_path):
    """Built, diffed, and run against the Triton kernel itself (on the CPU here: Triton's
    interpreter against the Tile IR interpreter) on the given grid."""
    args, consts, grid, verdict = CASES[kernel]
    command = ["port", f"{FIXTURE}:{kernel}", "--grid", grid, "--out", str(tmp_path / "port")]
    command += [x for a in args for x in ("--arg", a)]
    command += [x for c in consts for x in ("--const", c)]
    result = cli(*command, timeout=900)
    assert f"final verdict: {verdict}\n" in result.stdout, result.stdout + result.stderr


# -- numbers on the CPU: Triton's interpreter and the Tile IR interpreter -------------------

# Triton's interpreter, in a process of its own (TRITON_INTERPRET=1 must be set before triton
# is imported), with two stand-ins: libdevice as tl's own math (the interpreter has no extern
# functions), and a scalar read as an index from its one-element array (NumPy 2 refuses
# int() of a 1-D array, which Triton 3.6's interpreter does for `range(n)`)
TRITON_RUNNER = r"""
import importlib.util, json, sys
import numpy as np, torch
import triton.language as tl
from triton.language.extra import libdevice
from triton.runtime import interpreter


def index_from_one(tensor, scope, original=interpreter._patch_lang_tensor):
    original(tensor, scope)
    scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.reshape(-1)[0]))


def tanh(x):
    e = tl.exp(-2.0 * tl.abs(x))
    return tl.where(x >= 0, (1.0 - e) / (1.0 + e), -(1.0 - e) / (1.0 + e))


interpreter._patch_lang_tensor = index_from_one
for name, fn in {"tanh": tanh, "rsqrt": lambda x: tl.rsqrt(x), "fast_expf": lambda x: tl.exp(x),
                 "pow": lambda x, y: tl.exp2(y * tl.log2(x))}.items():
    setattr(libdevice, name, fn)
fixture, folder = sys.argv[1:3]
spec = importlib.util.spec_from_file_location("everyday", fixture)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
for job in json.load(open(f"{folder}/jobs.json")):
    arrays = np.load(f"{folder}/{job['name']}.npz")
    values = [torch.from_numpy(arrays[f"arr_{i}"].copy()) if v is None else v
              for i, v in enumerate(job["scalars"])]
    getattr(module, job["kernel"])[tuple(job["grid"])](*values, **job["consts"])
    np.savez(f"{folder}/{job['name']}.out.npz",
             *[v.numpy() for v in values if isinstance(v, torch.Tensor)])
"""


def _rows(shape=(64, 1000), seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _gelu(x):
    return 0.5 * x * (1 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def _numeric_cases() -> dict:
    """name: (kernel, grid, runtime values, constexprs, {output number: reference})."""
    x, w, t, v = _rows(), _rows((1000,), 1), _rows((1000,), 2), _rows((1000,), 3)
    flat, cols = _rows((5000,)), _rows((100, 512))
    loss = (v - t) ** 2
    return {
        "gelu_tanh": ("gelu_tanh", (10,), [flat, np.zeros_like(flat), 5000], {"BLOCK": 512},
                      {1: _gelu(flat)}),
        "math_forms": ("math_forms", (4,), [flat[:2048], np.zeros(2048, np.float32)],
                       {"BLOCK": 512}, {1: 1 / np.sqrt(flat[:2048] ** 2 + 1) + np.abs(
                           flat[:2048]) ** 1.5 + np.exp2(-np.abs(flat[:2048])) +
                           np.exp(-flat[:2048] ** 2)}),
        "norm_rows": ("norm_rows", (64,), [x, w, np.zeros_like(x), 1000],
                      {"BLOCK": 256, "SQUARES": True},
                      {2: x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6) * w}),
        "norm_rows_abs": ("norm_rows", (64,), [x, w, np.zeros_like(x), 1000],
                          {"BLOCK": 256, "SQUARES": False},
                          {2: x / np.sqrt(np.abs(x).mean(axis=1, keepdims=True) + 1e-6) * w}),
        "online_softmax": ("online_softmax", (64,), [x, np.zeros_like(x), 1000],
                           {"BLOCK": 256}, {1: _softmax(x)}),
        "column_sums": ("column_sums", (4,), [cols, np.zeros(512, np.float32), 100, 512],
                        {"BLOCK": 128}, {1: cols.sum(axis=0)}),
        "squared_loss_mean": ("squared_loss", (1,), [v, t, np.zeros(1, np.float32), 1000],
                              {"BLOCK": 1024}, {2: np.array([loss.mean()])}),
        "squared_loss_sum": ("squared_loss", (1,), [v, t, np.zeros(1, np.float32), 1000],
                             {"BLOCK": 1024, "reduction": "sum"}, {2: np.array([loss.sum()])}),
        "squared_loss_none": ("squared_loss", (1,), [v, t, np.zeros(1000, np.float32), 1000],
                              {"BLOCK": 1024, "reduction": "none"}, {2: loss}),
        "softmax_in_place": ("softmax_in_place", (64,), [x.copy(), np.zeros(64, np.float32),
                                                         1000], {"BLOCK": 1024},
                             {0: _softmax(x), 1: np.log(np.exp(x).sum(axis=1))}),
    }


NUMERIC = _numeric_cases()


@pytest.fixture(scope="module")
def triton_numbers(tmp_path_factory) -> dict:
    """Every numeric case's outputs from the Triton kernel, under Triton's interpreter."""
    import json
    import subprocess
    import sys
    pytest.importorskip("torch")
    pytest.importorskip("triton")
    folder = tmp_path_factory.mktemp("triton_interpreter")
    jobs = []
    for name, (kernel, grid, values, consts, _) in NUMERIC.items():
        np.savez(folder / f"{name}.npz", *[a for a in values if isinstance(a, np.ndarray)])
        jobs.append({"name": name, "kernel": kernel, "grid": grid, "consts": consts,
                     "scalars": [None if isinstance(a, np.ndarray) else a for a in values]})
    (folder / "jobs.json").write_text(json.dumps(jobs))
    done = subprocess.run([sys.executable, "-c", TRITON_RUNNER, FIXTURE, str(folder)],
                          capture_output=True, text=True, timeout=600,
                          env={**__import__("os").environ, "TRITON_INTERPRET": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    return {name: [a for _, a in sorted(np.load(folder / f"{name}.out.npz").items(),
                                        key=lambda kv: int(kv[0].split("_")[1]))]
            for name in NUMERIC}


def _run_derived(tmp_path, kernel: str, grid: tuple, values: list, consts: dict) -> list:
    """The derived cuTile kernel's Tile IR run by the workbench's interpreter on copies of
    `values` (the Triton kernel's runtime arguments, in its order); the arrays, written."""
    interp = pytest.importorskip("workbench.interp")
    from workbench.ir.stages import file_python_ir
    args = [f"f32[{','.join(map(str, v.shape))}]" if isinstance(v, np.ndarray) else f"i32={v}"
            for v in values]
    derived = _derived(kernel, args, [f"{k}={v}" for k, v in consts.items()])
    assert derived.ok, derived.translation.diagnostics
    path = tmp_path / f"{kernel}.py"
    path.write_text(derived.text)
    case = derived.cases[0]
    ir = file_python_ir(str(path), kernel, list(case.args), case.consts)
    names = [p.name for p in triton_target(f"{FIXTURE}:{kernel}").source().runtime_params]
    copies = [v.copy() if isinstance(v, np.ndarray) else v for v in values]
    interp.run_entry(ir.module(), grid=grid, args=[v for n, v in zip(names, copies)
                                                    if n in derived.params])
    return [v for v in copies if isinstance(v, np.ndarray)]


@pytest.mark.parametrize("name", sorted(NUMERIC))
def test_the_triton_kernel_and_its_derived_kernel_compute_numpys_numbers(name, tmp_path,
                                                                         triton_numbers):
    kernel, grid, values, consts, expected = NUMERIC[name]
    derived = _run_derived(tmp_path, kernel, grid, values, consts)
    for side, outputs in (("derived cuTile kernel", derived), ("Triton kernel",
                                                               triton_numbers[name])):
        for number, reference in expected.items():
            np.testing.assert_allclose(outputs[number].reshape(reference.shape), reference,
                                       rtol=2e-5, atol=2e-5, err_msg=f"{name}: the {side}")


def test_the_numbers_of_a_kernel_triton_does_not_compile_match_numpy(tmp_path):
    """tl.float32(..): Triton 3.6 neither compiles nor interprets it; the derived kernel is
    checked against NumPy alone."""
    x = _rows()
    [_, best] = _run_derived(tmp_path, "row_max_typed", (64,), [x, np.zeros(64, np.float32),
                                                                 1000], {"BLOCK": 256})
    np.testing.assert_array_equal(best, x.max(axis=1))


def test_arrays_only_atomics_touch_start_at_zero_in_a_check():
    """A lock, a counter, a histogram: host code allocates them zeroed, and so does a check
    (a spin lock on a random lock is never taken; the total is read and written, random)."""
    from workbench.check.triton_cpu import triton_inputs
    target = triton_target(f"{FIXTURE}:locked_total", ["f32[1000]", "f32[1]", "i32[8]",
                                                       "i32=1000"], ["BLOCK=256"])
    assert target.source().atomic_only_params == {"lock_ptr"}
    values = triton_inputs(target, target.cases[0], np.random.default_rng(0))
    assert values["lock_ptr"].tolist() == [0] * 8 and values["total_ptr"].all()
