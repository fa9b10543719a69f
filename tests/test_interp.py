"""The Tile IR interpreter (workbench/interp) on real IR: kernels exported by the workbench's own
export path (cuda-tile, then tileirdisasm), run on small NumPy inputs, compared with NumPy."""
import numpy as np
import pytest

from workbench.argspec import parse_arg
from workbench.catalog import get_operator
from workbench.interp import (AssumeViolated, InterpError, MemoryFault, Options, UnsupportedOp,
                              compile_entry, covered_ops, run_entry)
from workbench.check.cpu_common import case_args, make_array
from workbench.ir.parse import parse
from workbench.ir.stages import file_python_ir
from workbench.operators import KERNELS_DIR

ml_dtypes = pytest.importorskip("ml_dtypes")

KERNELS = '''
import cuda.tile as ct


@ct.kernel
def vector_add(a, b, out, TILE: ct.Constant[int]):
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i,), tile=x + y)


@ct.kernel
def elementwise(x, y, f, g, h, q, TILE: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,))
    u = ct.load(y, index=(i,), shape=(TILE,))
    r = ct.exp(t) - ct.exp2(u) + ct.rsqrt(ct.abs(t) + 1.0) * ct.sqrt(ct.abs(u))
    r = r + ct.tanh(t) * ct.maximum(t, u) / (ct.minimum(t, u) - 4.0)
    r = ct.where(t > u, r, -r)
    ct.store(f, index=(i,), tile=r)
    k = ct.astype(t * 16.0, ct.int32)
    m = k // 3 + k % 5 + (k >> 2) - (ct.bitcast(t, ct.int32) & 7)
    ct.store(g, index=(i,), tile=m)
    ct.store(h, index=(i,), tile=ct.astype(t, ct.bfloat16))
    ct.store(q, index=(i,), tile=ct.astype(t, ct.float8_e4m3fn))


@ct.kernel
def reductions(x, sums, maxes, where, prefix, ROWS: ct.Constant[int], COLS: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0), shape=(ROWS, COLS), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(maxes, index=(i,), tile=ct.max(t, axis=1))
    ct.store(where, index=(i,), tile=ct.astype(ct.argmax(t, axis=1), ct.int32))
    z = ct.where(t == -float("inf"), 0.0, t)
    ct.store(sums, index=(i,), tile=ct.sum(z, axis=1))
    ct.store(prefix, index=(i, 0), tile=ct.cumsum(z, axis=1))


@ct.kernel
def gather_scatter(src, idx, out, hist, TILE: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.load(idx, index=(i,), shape=(TILE,))
    v = ct.gather(src, j, padding_value=-1.0)
    positions = ct.arange(TILE, dtype=ct.int32) + i * TILE
    ct.scatter(out, positions, v * 2.0)
    ct.atomic_add(hist, j, ct.full((TILE,), 1, dtype=ct.int32))


@ct.kernel
def unchecked_gather(src, idx, out, TILE: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.load(idx, index=(i,), shape=(TILE,))
    ct.store(out, index=(i,), tile=ct.gather(src, j, check_bounds=False))


@ct.kernel
def int8_matmul(a, b, c, T: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((T, T), dtype=ct.int32)
    for k in range(ct.num_tiles(a, 1, (T, T))):
        acc = ct.mma(ct.load(a, index=(i, k), shape=(T, T)),
                     ct.load(b, index=(k, j), shape=(T, T)), acc)
    ct.store(c, index=(i, j), tile=acc)


@ct.kernel
def persistent_rows(x, out, n_rows, COLS: ct.Constant[int]):
    total = ct.zeros((1, COLS), dtype=ct.float32)
    for r in range(ct.bid(0), n_rows, ct.num_blocks(0)):
        t = ct.load(x, index=(r, 0), shape=(1, COLS))
        if r % 2 == 0:
            t = t * 2.0
        else:
            t = t - 1.0
        total = total + t
    ct.store(out, index=(ct.bid(0), 0), tile=total)


@ct.kernel
def countdown(out, start):
    n = start
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    ct.store(out, index=(0,), tile=ct.full((1,), steps, dtype=ct.int32))
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = tmp_path_factory.mktemp("interp") / "kernels.py"
    path.write_text(KERNELS)
    return path


def module_of(path, name, args, consts):
    """Real Tile IR: the kernel exported (cuda-tile) and disassembled (tileirdisasm), parsed."""
    return file_python_ir(str(path), name, [parse_arg(a) for a in args], consts).module()


RNG = np.random.default_rng(7)


def test_vector_add_with_a_partial_last_tile(kernels):
    module = module_of(kernels, "vector_add", ["f32[100]"] * 3, {"TILE": 32})
    a, b = RNG.standard_normal((2, 100)).astype(np.float32)
    buffer = np.full(128, np.nan, np.float32)       # out is the first 100; the rest must stay
    run_entry(module, (4, 1, 1), [a, b, buffer[:100]])
    np.testing.assert_array_equal(buffer[:100], a + b)
    assert np.isnan(buffer[100:]).all()              # the partial tile's store was masked


def test_elementwise_math_integers_and_casts(kernels):
    module = module_of(kernels, "elementwise",
                       ["f32[64]", "f32[64]", "f32[64]", "i32[64]", "bf16[64]", "f8e4m3[64]"],
                       {"TILE": 32})
    t, u = RNG.standard_normal((2, 64)).astype(np.float32)
    f, g = np.full(64, np.nan, np.float32), np.zeros(64, np.int32)
    h, q = np.zeros(64, ml_dtypes.bfloat16), np.zeros(64, ml_dtypes.float8_e4m3fn)
    run_entry(module, (2, 1, 1), [t, u, f, g, h, q])
    r = (np.exp(t) - np.exp2(u) + 1 / np.sqrt(np.abs(t) + 1) * np.sqrt(np.abs(u))
         + np.tanh(t) * np.maximum(t, u) / (np.minimum(t, u) - 4))
    np.testing.assert_allclose(f, np.where(t > u, r, -r), rtol=1e-5, atol=1e-6)
    k = (t * 16).astype(np.int32)
    np.testing.assert_array_equal(g, k // 3 + k % 5 + (k >> 2) - (t.view(np.int32) & 7))
    np.testing.assert_array_equal(h, t.astype(ml_dtypes.bfloat16))
    np.testing.assert_array_equal(q, t.astype(ml_dtypes.float8_e4m3fn))


def test_reductions_argmax_and_scan_over_padded_tiles(kernels):
    module = module_of(kernels, "reductions",
                       ["f32[8,100]", "f32[8]", "f32[8]", "i32[8]", "f32[8,128]"],
                       {"ROWS": 4, "COLS": 128})
    x = RNG.standard_normal((8, 100)).astype(np.float32)
    sums, maxes = np.zeros(8, np.float32), np.zeros(8, np.float32)
    where, prefix = np.zeros(8, np.int32), np.zeros((8, 128), np.float32)
    run_entry(module, (2, 1, 1), [x, sums, maxes, where, prefix])
    np.testing.assert_allclose(sums, x.sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(maxes, x.max(1))
    np.testing.assert_array_equal(where, x.argmax(1))
    padded = np.concatenate([x, np.zeros((8, 28), np.float32)], axis=1)
    np.testing.assert_allclose(prefix, np.cumsum(padded, 1), rtol=1e-5, atol=1e-4)


def test_gather_scatter_and_atomics(kernels):
    module = module_of(kernels, "gather_scatter", ["f32[50]", "i32[64]", "f32[64]", "i32[50]"],
                       {"TILE": 32})
    src = RNG.standard_normal(50).astype(np.float32)
    idx = RNG.integers(0, 60, 64).astype(np.int32)      # some past the end: padding, skipped
    out, hist = np.full(64, np.nan, np.float32), np.zeros(50, np.int32)
    run_entry(module, (2, 1, 1), [src, idx, out, hist])
    np.testing.assert_array_equal(out, np.where(idx < 50, src[np.minimum(idx, 49)], -1.0) * 2)
    np.testing.assert_array_equal(hist, np.bincount(idx[idx < 50], minlength=50))


def test_an_access_outside_every_array_is_a_memory_fault(kernels):
    module = module_of(kernels, "unchecked_gather", ["f32[50]", "i32[32]", "f32[32]"],
                       {"TILE": 32})
    idx = np.arange(32, dtype=np.int32)
    idx[5] = 1000
    with pytest.raises(MemoryFault) as caught:
        run_entry(module, (1, 1, 1), [np.zeros(50, np.float32), idx, np.zeros(32, np.float32)])
    assert "load_ptr_tko" in str(caught.value) and "past the end of argument 0" in str(caught.value)


def test_int8_mma_in_a_for_loop(kernels):
    module = module_of(kernels, "int8_matmul", ["i8[64,64]", "i8[64,64]", "i32[64,64]"], {"T": 32})
    a, b = RNG.integers(-128, 128, (2, 64, 64)).astype(np.int8)
    c = np.zeros((64, 64), np.int32)
    run_entry(module, (2, 2, 1), [a, b, c])
    np.testing.assert_array_equal(c, a.astype(np.int32) @ b.astype(np.int32))


def test_persistent_loop_with_branches(kernels):
    module = module_of(kernels, "persistent_rows", ["f32[10,64]", "f32[3,64]", "i32"],
                       {"COLS": 64})
    x = RNG.standard_normal((10, 64)).astype(np.float32)
    out = np.full((3, 64), np.nan, np.float32)
    run_entry(module, (3, 1, 1), [x, out, 10])
    expected = [sum(x[r] * 2 if r % 2 == 0 else x[r] - 1 for r in range(b, 10, 3))
                for b in range(3)]
    np.testing.assert_allclose(out, np.array(expected), rtol=1e-6)


def test_while_loop_with_break(kernels):
    module = module_of(kernels, "countdown", ["i32[1]", "i32"], {})
    assert {"loop", "break"} <= {op.name for op in module.walk()}
    out = np.zeros(1, np.int32)
    run_entry(module, (1, 1, 1), [out, 27])
    assert out[0] == 111                              # the Collatz sequence from 27


# -- the project's own kernels (kernels_src) on small shapes -----------------------------------

def own_module(name, args, consts):
    op = get_operator(name)
    return module_of(op.kernel_file, op.kernel_name, args, consts)


def test_softmax_bf16_partial_row_into_a_strided_output():
    module = own_module("softmax", ["bf16[37,777]", "bf16[37,777]:strides=(800,1)"],
                        {"TILE_COLS": 1024})
    x = RNG.standard_normal((37, 777)).astype(ml_dtypes.bfloat16)
    buffer = np.full((37, 800), np.nan, ml_dtypes.bfloat16)
    run_entry(module, (37, 1, 1), [x, buffer[:, :777]])
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(1, keepdims=True))
    ref = e / e.sum(1, keepdims=True)
    out = buffer[:, :777].astype(np.float64)
    assert np.linalg.norm(out - ref) / np.linalg.norm(ref) < 1.6e-2
    assert np.isnan(buffer[:, 777:].astype(np.float32)).all()


def test_rms_norm_f16():
    module = own_module("rms_norm", ["f16[33,513]", "f16[513]", "f16[33,513]", "f32"],
                        {"TILE_COLS": 1024})
    x = RNG.standard_normal((33, 513)).astype(np.float16)
    w = RNG.standard_normal(513).astype(np.float16)
    out = np.full((33, 513), np.nan, np.float16)
    run_entry(module, (33, 1, 1), [x, w, out, 1e-5])
    x64 = x.astype(np.float64)
    ref = x64 / np.sqrt((x64 ** 2).mean(1, keepdims=True) + 1e-5) * w
    assert np.linalg.norm(out - ref) / np.linalg.norm(ref) < 2e-3


def test_matmul_f16_with_partial_tiles():
    module = own_module("matmul", ["f16[100,70]", "f16[70,50]", "f16[100,50]"],
                        {"TILE_M": 32, "TILE_N": 32, "TILE_K": 32})
    a = RNG.standard_normal((100, 70)).astype(np.float16)
    b = RNG.standard_normal((70, 50)).astype(np.float16)
    c = np.full((100, 50), np.nan, np.float16)
    run_entry(module, (4, 2, 1), [a, b, c])
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert np.linalg.norm(c - ref) / np.linalg.norm(ref) < 2e-3


def test_catalog_case_args_follow_the_specs():
    spec = parse_arg("f32[4,6]:strides=(10,1):offset=3")
    array = make_array(spec, np.random.default_rng(0))
    assert array.shape == (4, 6) and array.strides == (40, 4)
    args = case_args([spec, parse_arg("list[f16[8,8]]*3"), parse_arg("f32=0.5")], outputs={0})
    assert np.isnan(args[0]).all() and len(args[1]) == 3 and args[2] == 0.5


def test_the_rust_ports_ir_runs_with_its_partitioned_output():
    """The Rust side lays out arrays as the Python side does, but a `&mut Tensor` partitioned on
    the host adds the partition's extents and strides: Partitioned(array, tile)."""
    from workbench.interp import Partitioned
    from workbench.rust.cargo import is_built
    op = get_operator("softmax")
    if not is_built(op):
        pytest.skip("the softmax port is not built (a cold cargo build takes minutes)")
    from workbench.rust.emit import operator_rust_ir
    module = operator_rust_ir(op, 0).module()          # case 0: f32[256,1000], TILE_COLS=1024
    x = RNG.standard_normal((256, 1000)).astype(np.float32)
    out = np.full_like(x, np.nan)
    run_entry(module, (256, 1, 1), [x, Partitioned(out, (1, 1024))])
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-7)


# -- what the interpreter refuses -----------------------------------------------------------------

def softmax_ir_text(rows=256):
    op = get_operator("softmax")
    return file_python_ir(str(op.kernel_file), op.kernel_name,
                          [parse_arg(f"f32[{rows},1000]")] * 2, {"TILE_COLS": 1024}).text


def test_an_unknown_op_is_refused_by_name_and_line():
    module = parse(softmax_ir_text())
    op = next(o for o in module.walk() if o.name == "exp")
    op.name = "frobnicate"
    with pytest.raises(UnsupportedOp) as caught:
        compile_entry(module)
    assert "`frobnicate`" in str(caught.value) and f"IR line {op.line}" in str(caught.value)
    assert isinstance(caught.value, InterpError) and caught.value.line == op.line


def test_a_broken_assume_div_by_is_reported():
    module = parse(softmax_ir_text(256))      # compiled for 256 rows: rows % 16 == 0 assumed
    x = RNG.standard_normal((250, 1000)).astype(np.float32)
    with pytest.raises(AssumeViolated) as caught:
        run_entry(module, (250, 1, 1), [x, np.zeros_like(x)])
    message = str(caught.value)
    assert "div_by<16>" in message and "it is 250" in message
    assert f"IR line {caught.value.line}" in message
    assert caught.value.op_name == "assume"
    assert "kernels_src/softmax/kernel.py:" in message        # the source line, from -g
    run_entry(module, (250, 1, 1), [x, np.zeros_like(x)], options=Options(check_assumes=False))


def test_every_op_in_the_catalog_goldens_is_covered():
    used = {op.name for path in KERNELS_DIR.rglob("python.case*.tileir")
            for op in parse(path.read_text()).walk()}
    assert used and used <= covered_ops(), sorted(used - covered_ops())


def test_a_sample_of_blocks_is_the_same_on_both_sides_and_refuses_what_it_cannot_cut():
    """Options.sample: the first and the last block and others spread between, the same
    ones for the same grid; a persistent grid too small to sample, or a sample whose first
    block says it would run too long, is refused with what to do."""
    from workbench.interp import OverBudget
    from workbench.interp.execute import _within_time, sampled_blocks
    blocks = sampled_blocks((1000, 1, 1), 0.005)
    assert blocks == [(0, 0, 0), (250, 0, 0), (500, 0, 0), (749, 0, 0), (999, 0, 0)]
    assert sampled_blocks((1000, 1, 1), 0.005) == blocks
    assert sampled_blocks((4, 3, 2), 0.5)[-1] == (3, 2, 1)
    assert len(sampled_blocks((4, 3, 2), None)) == 24
    with pytest.raises(OverBudget, match="a grid of 2 blocks cannot be sampled down"):
        sampled_blocks((2, 1, 1), 0.05)
    with pytest.raises(OverBudget, match="would take about 200 s"):
        _within_time(2.0, 100)
