"""`Array.tiled_view` in the offline drafter (workbench/port/rules/tiled_view.py): each access
becomes the `ct.load` / `ct.store` / `ct.num_tiles` cuTile Python lowers it to (same Tile IR),
a view's atomics become `atomic_red_view_raw`, the passes that order memory see them, and what
the rewrite does not follow is refused with its reason. The drafted fixtures are built and
IR-diffed against cuTile Python. Also `Array.strides`, the other view-of-an-array attribute."""
from __future__ import annotations

import ast
import re

import pytest

from drafter_fixture import DrafterFixture
from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.port.analyze import analyze
from workbench.port.rules import draft
from workbench.port.rules.tiled_view import MARK, desugar

CONSTS = {"ROWS": 16, "COLS": 64}
FIXTURE = DrafterFixture("tiled_views.py", {
    "doubled_rows": ["f32[256,300]", "f32[256,300]"],
    "column_sums_everywhere": ["f32[256,128]", "f32[256,128]"],
    "accumulate_blocks": ["f32[256,64]", "f32[32,64]"],
    "counts_max": ["i32[256,64]", "i32[16,64]"],
    "overlapping_rows": ["f32[256,64]", "f32[256,64]"],
    "view_into_helper": ["f32[256,64]", "f32[256,64]"]}, CONSTS)
drafted, body = FIXTURE.drafted, FIXTURE.body


def rewritten(source: str) -> str:
    return ast.unparse(desugar(ast.parse(source)))


def test_each_access_of_a_named_view_becomes_the_ct_call_of_its_array_and_tile_shape():
    text = rewritten("def k(x, y):\n"
                     "    v = x.tiled_view((4, 8), padding_mode=ct.PaddingMode.ZERO)\n"
                     "    n = v.num_tiles(1)\n"
                     "    t = v.load((0, j), latency=2)\n"
                     "    y.tiled_view((4, 8)).store((0, j), t)\n"
                     "    s = v.tile_shape\n"
                     "    d = v.dtype\n")
    assert "tiled_view" not in text, text
    assert "n = ct.num_tiles(x, 1, (4, 8))" in text
    assert "t = ct.load(x, (0, j), shape=(4, 8), padding_mode=ct.PaddingMode.ZERO, latency=2)" in text
    assert "ct.store(y, (0, j), t)" in text
    assert "s = (4, 8)" in text and "d = x.dtype" in text


def test_rewritten_calls_carry_the_views_tile_shape():
    tree = desugar(ast.parse("def k(x):\n    x.tiled_view((4, 8)).store((0, 0), 1.0)\n"))
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and hasattr(n, MARK))
    method, shape = getattr(call, MARK)
    assert method == "store" and ast.unparse(shape) == "(4, 8)"


@pytest.mark.parametrize("source", [
    # the name is bound twice: which view an access means depends on the path taken
    "def k(x, y):\n    v = x.tiled_view((4, 8))\n    v = y.tiled_view((4, 8))\n    v.load((0, 0))\n",
    # the array name is rebound
    "def k(x, y):\n    v = x.tiled_view((4, 8))\n    x = y\n    v.load((0, 0))\n",
    # passed on to a helper
    "def k(x):\n    v = x.tiled_view((4, 8))\n    helper(v)\n",
])
def test_a_view_the_rewrite_cannot_follow_keeps_its_tiled_view_call(source):
    assert "tiled_view" in rewritten(source)


def test_a_loop_over_a_views_tiles_loads_and_stores_through_partitions_of_the_arrays():
    rust = body("doubled_rows")
    assert "make_partition_view(x, shape![ROWS, COLS], padding::Zero" in rust or \
        "x.partition(shape![ROWS, COLS])" in rust, rust
    assert re.search(r"num_tiles\(&x_part\w*, 1i32\)", rust), rust
    assert "y_part" in rust and "partition_full_mut(shape![ROWS, COLS])" in rust, rust


def test_a_store_through_a_view_broadcasts_the_tile_to_the_views_tile_shape():
    rust = body("column_sums_everywhere")
    assert ".broadcast(shape![ROWS, COLS])" in rust, rust
    assert "Some(3)" in rust, rust          # the load's latency hint went along


def test_a_views_atomic_add_is_a_relaxed_device_scope_atomic_red_view_ordered_as_a_store():
    rust = body("accumulate_blocks")
    adds = re.findall(r"(\w+) = unsafe \{ atomic_red_view_raw\(&(\w+), (\w+), \[(.*?)\], "
                      r"atomic::AddF, ordering::Relaxed, scope::Device, Some\((\w+)\)\) \}", rust)
    assert len(adds) == 2, rust
    # the second takes the token the first gave: cuTile orders them as stores of acc
    assert adds[0][0] == adds[1][4], adds
    # the f16 update is cast back to acc's f32 (cuTile's implicit widening)
    assert "convert_tile" in rust, rust


def test_a_views_integer_max_is_atomic_max():
    assert "atomic::Max, ordering::Relaxed" in body("counts_max")


@pytest.mark.parametrize("kernel, reason", [
    ("overlapping_rows", "traversal_steps other than the tile shape make a strided view"),
    ("view_into_helper", "the drafter follows a tiled view bound once to a name"),
])
def test_views_the_drafter_does_not_follow_are_refused_with_the_reason(kernel, reason):
    d = drafted(kernel)
    assert not d.ok
    assert any(reason in x.message and x.construct == ".tiled_view()" for x in d.diagnostics), \
        d.diagnostics


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("kernel", ["doubled_rows", "column_sums_everywhere",
                                    "accumulate_blocks", "counts_max"])
def test_the_drafted_fixture_builds_and_its_ir_matches_cutile_python(kernel, cli, tmp_path):
    FIXTURE.assert_ports(kernel, cli, tmp_path / "port")


STRIDES = """import cuda.tile as ct

@ct.kernel
def scaled_by_stride(x, y, ROWS: ct.Constant[int], COLS: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0), 0), shape=(ROWS, COLS))
    ct.store(y, (ct.bid(0), 0), t * x.strides[0] + x.strides[1])
"""


def test_an_arrays_stride_is_read_from_its_view_and_a_unit_last_stride_is_the_constant_1():
    case = Case(index=0, args=(parse_arg("f32[256,64]"), parse_arg("f32[256,64]")), consts=CONSTS)
    d = draft(analyze(STRIDES, "strides.py", "scaled_by_stride", [case]), STRIDES, "strides")
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    assert "get_shape_dim(tensor_strides_2(x), 0i32)" in rust, rust
    assert "let x_stride1: i32 = 1i32;" in rust, rust
    # the strides the port reads are checked by the C ABI on every call
    assert "strides_read" in d.files["port.toml"], d.files["port.toml"]
