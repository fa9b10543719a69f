"""Drafter rules that follow cuTile Python's own semantics (no cargo, no GPU): ct.matmul's
accumulator, 0-d loads, reductions over every axis, a dtype that a constant branch decides,
loop-parallel stores under a constant `if`, helper parameters the helper reassigns, and a
catalog entry's dotted name."""
from __future__ import annotations

import re

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.port.analyze import analyze
from workbench.port.rules import draft

HEAD = "import cuda.tile as ct\n\nConstInt = ct.Constant[int]\nConstBool = ct.Constant[bool]\n\n"


def drafted(body: str, kernel: str, cases: list[tuple[list[str], dict]], name: str = "k"):
    source = HEAD + body
    spec = analyze(source, "k.py", kernel,
                   [Case(index=i, args=tuple(parse_arg(a) for a in args), consts=consts)
                    for i, (args, consts) in enumerate(cases)])
    return draft(spec, source, name)


MATMUL = '''
@ct.kernel
def mm(a, b, c, T: ConstInt):
    x = ct.astype(ct.load(a, index=(0, 0), shape=(T, T)), ct.tfloat32)
    y = ct.astype(ct.load(b, index=(0, 0), shape=(T, T)), ct.tfloat32)
    ct.store(c, index=(0, 0), tile=ct.astype(ct.matmul(x, y), ct.float32))
'''


def test_matmul_of_tf32_accumulates_in_f32_and_converts_back():
    d = drafted(MATMUL, "mm", [(["f32[64,64]"] * 3, {"T": 64})])
    assert d.ok, d.diagnostics
    kernel = d.files["src/kernel.rs"]
    assert re.search(r"Tile<f32, \{ \[T, T\] \}> = constant\(0\.0f32", kernel)
    assert re.search(r"Tile<f32, \{ \[T, T\] \}> = mma\(", kernel)
    # the product is the operands' dtype (tf32), then the kernel's astype makes it f32
    assert re.search(r"Tile<tf32, \{ \[T, T\] \}> = convert_tile\(mma", kernel)


def test_a_zero_d_load_is_a_tile_of_ones_reshaped():
    body = '''
@ct.kernel
def last(x, out, T: ConstInt):
    v = ct.load(x, index=(0, T - 1), shape=())
    ct.store(out, index=(0,), tile=ct.full((T,), 0.0, dtype=ct.float32) + v)
'''
    d = drafted(body, "last", [(["f32[4,64]", "f32[64]"], {"T": 64})])
    assert d.ok, d.diagnostics
    kernel = d.files["src/kernel.rs"]
    assert "Partition<f32, { [1, 1] }>" in kernel and "[1, 1] }> = x_part.load(" in kernel
    assert re.search(r"Tile<f32, \{ \[\] \}> = x_tile\w*\.reshape\(shape!\[\]\)", kernel)


def test_a_reduction_with_no_axis_reduces_every_axis_in_turn():
    body = '''
@ct.kernel
def total(x, out, T: ConstInt):
    t = ct.load(x, index=(0, 0), shape=(T, T))
    ct.store(out, index=(0,), tile=ct.full((1,), 0.0, dtype=ct.float32) + ct.max(t))
'''
    d = drafted(body, "total", [(["f32[64,64]", "f32[1]"], {"T": 64})])
    assert d.ok, d.diagnostics
    kernel = d.files["src/kernel.rs"]
    assert re.search(r"(max_part\w*): Tile<f32, \{ \[T\] \}> = reduce_max\(x_tile, 0i32\)", kernel)
    assert re.search(r"Tile<f32, \{ \[\] \}> = reduce_max\(max_part\w*, 0i32\)", kernel)


CAST = '''
@ct.kernel
def cast(x, y, T: ConstInt, HALF: ConstBool):
    t = ct.astype(ct.load(x, index=(0,), shape=(T,)), ct.float32)
    for i in range(2):
        if HALF:
            ct.store(y, index=(i,), tile=ct.astype(t, ct.bfloat16))
        else:
            ct.store(y, index=(i,), tile=t)
'''


def test_a_store_whose_dtype_a_constant_branch_decides_splits_into_concrete_entries():
    d = drafted(CAST, "cast", [(["bf16[64]", "bf16[128]"], {"T": 64, "HALF": True}),
                               (["f32[64]", "f32[128]"], {"T": 64, "HALF": False})])
    assert d.ok, d.diagnostics
    kernel = d.files["src/kernel.rs"]
    assert "fn cast_bf16_half_true<" in kernel and "fn cast_f32_half_false<" in kernel
    assert "Tile<bf16, { [T] }> = convert_tile(t)" in kernel
    # one store per iteration, indexed by the loop variable: cuTile leaves it unordered
    # (its token order pass sees the taken arm only), so no loop-carried token
    assert "store_view_raw" not in kernel


def test_a_helper_that_reassigns_its_parameter_leaves_the_callers_variable():
    body = '''
def bump(a, n):
    for _ in range(n):
        a = a + 1.0
    return a


@ct.kernel
def use(x, out, T: ConstInt):
    t = ct.load(x, index=(0,), shape=(T,))
    u = bump(t, 2)
    ct.store(out, index=(0,), tile=u + t)
'''
    d = drafted(body, "use", [(["f32[64]", "f32[64]"], {"T": 64})])
    assert d.ok, d.diagnostics
    kernel = d.files["src/kernel.rs"]
    # the caller's t is x_tile: the helper's loop carries its own copy, and t stays as loaded
    assert re.search(r"let mut (a\w*): Tile<f32, \{ \[T\] \}> = x_tile;", kernel)
    assert not re.search(r"\bx_tile = ", kernel)
    assert re.search(r"= a\w* \+ x_tile;", kernel)


def test_a_catalog_entry_name_becomes_rust_identifiers():
    d = drafted(MATMUL, "mm", [(["f32[64,64]"] * 3, {"T": 64})], name="tilegym.x.mm")
    assert 'name = "port_tilegym_x_mm"' in d.files["Cargo.toml"]
    assert "pub mod tilegym_x_mm_port" in d.files["src/kernel.rs"]
    lib = d.files["src/lib.rs"]
    assert "wb_tilegym_x_mm," in lib and 'op "tilegym.x.mm"' in lib
