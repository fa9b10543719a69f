"""`Array.slice(axis, start, stop)` in the offline drafter (workbench/port/rules/ops_slice.py):
the view cuTile Python makes (base offset by `start * strides[axis]` through exti to u64, the
axis's extent `stop - start`, static for constant bounds, strides unchanged), in cuTile's
order; a slice of a slice; the bounds cuTile refuses; a write through a slice refused with its
reason; and the drafted fixtures built and IR-diffed against cuTile Python."""
from __future__ import annotations

import re

import pytest

from drafter_fixture import DrafterFixture

FIXTURE = DrafterFixture("array_slice.py", {
    "block_rows": ["f32[256,64]", "f32[256,64]"],
    "column_window": ["f32[256,80]", "f32[256,64]"],
    "nested_window": ["f32[256,128]", "f32[256,64]"],
    "store_into_rows": ["f32[256,64]", "f32[256,64]"],
    "split_halves": ["f32[256,64]", "f32[256,128]"],
    "halves_unless_past": ["f32[256,64]", "f32[256,128]", "i32=256"],
    "store_rows_in_loop": ["f32[256,64]", "f32[256,64]"],
    "rows_then_whole": ["f32[256,64]", "f32[256,64]"],
    "shift_rows": ["f32[256,64]", "f32[256,64]"]}, {"ROWS": 16, "COLS": 64})
drafted, body = FIXTURE.drafted, FIXTURE.body


def test_a_row_slice_offsets_the_base_by_start_times_the_row_stride_then_makes_the_view():
    rust = body("block_rows")
    order = [rust.index(s) for s in (
        "let rows_offset: i32 = start * x_stride0;",
        "exti(rows_offset_t)",
        "addptr_tile(x_base, rows_offset_u64)",
        "let rows_extent0: i32 = s - start;",
        "let rows_dim0: i32 = unsafe { assume_bounds_lower::<_, 0>(rows_extent0) };",
        "make_tensor_view(rows_base, rows_shape, rows_strides, x.token())")]
    assert order == sorted(order), rust
    assert "let rows_shape: Shape<{ [-1, -1] }> = Shape::<{ [-1, -1] }> " \
           "{ dims: &[rows_dim0, x_dim1] };" in rust
    assert "let rows_strides: Array<{ [-1, 1] }> = Array::<{ [-1, 1] }> " \
           "{ dims: &[x_stride0] };" in rust
    # the load reads the view, not the parameter
    assert re.search(r"make_partition_view\(&rows, shape!\[ROWS, COLS\]", rust), rust


def test_constant_bounds_give_a_static_extent_and_the_unit_stride_is_a_constant():
    rust = body("column_window")
    assert "let x_stride1: i32 = 1i32;" in rust
    assert re.search(r"let window_offset: i32 = idx4 \* x_stride1;", rust), rust
    assert "let window_shape: Shape<{ [-1, 64] }> = Shape::<{ [-1, 64] }> { dims: &[x_dim0] };" \
        in rust, rust


def test_a_slice_of_a_slice_reads_the_first_views_metadata():
    rust = body("nested_window")
    assert "get_tensor_base(&rows)" in rust, rust
    assert "get_shape_dim(tensor_strides_2(&rows), 0i32)" in rust, rust
    assert "get_shape_dim(rows.shape(), 0i32)" in rust, rust
    assert re.search(r"make_tensor_view\(window_base, window_shape, window_strides, "
                     r"rows\.token\(\)\)", rust), rust


def test_a_store_through_a_slice_takes_the_whole_output_and_stores_through_the_slices_view():
    rust = body("store_into_rows")
    assert "y: &Tensor<f32, { [-1, -1] }>," in rust, rust       # not a partitioned &mut
    assert re.search(r"let y_slice_part: PartitionMut<f32, \{ \[ROWS, COLS\] \}> = unsafe \{ "
                     r"make_partition_view_mut\(&y_slice, shape!\[ROWS, COLS\], padding::None, "
                     r"zt00_y\) \};", rust), rust
    assert "store_view_raw(&y_slice_part, x_tile, [zero, zero], Some(zt00_y)," in rust, rust


def test_stores_through_two_slices_of_one_output_are_ordered_by_its_token():
    rust = body("split_halves")
    first = re.search(r"let mut zt00_y: Token = y\.token\(\);", rust)
    chained = re.search(r"(\w+) = unsafe \{ store_view_raw\(&lo_part, .*Some\(zt00_y\)", rust)
    assert first and chained, rust
    assert re.search(r"store_view_raw\(&hi_part, \w+, \[\w+, \w+\], Some\(zt00_y\)", rust), rust
    assert rust.index("&lo_part") < rust.index("&hi_part")


def test_a_token_only_one_branch_uses_is_declared_in_that_branch():
    # token_dce.sink_declarations: cutile would yield a token declared outside the `if`
    rust = body("halves_unless_past")
    branch = rust.index("} else {")
    declared = rust.index("let mut zt00_y: Token = y.token();")
    assert declared > branch, rust
    assert rust.count("let mut zt00_y: Token") == 1, rust


@pytest.mark.parametrize("kernel, message", [
    ("store_rows_in_loop", "in a loop: the drafter threads no loop-carried token"),
    ("shift_rows", "x is read and written through slices"),
    ("rows_then_whole", "a ct.store of y after a store through a slice of it"),
])
def test_a_store_through_a_slice_whose_tokens_the_drafter_cannot_order_is_refused(kernel,
                                                                                  message):
    d = drafted(kernel)
    assert not d.ok
    [diag] = [x for x in d.diagnostics if x.construct == "ct.store"]
    lines = FIXTURE.path.read_text().splitlines()
    start = lines.index(f"def {kernel}(x, y, ROWS: ConstInt, COLS: ConstInt):")
    assert lines[diag.line - 1].strip().startswith("ct.store(") and diag.line > start
    assert message in diag.message, diag.message


@pytest.mark.parametrize("bounds, message", [
    ("-1, 8", "must be non-negative"),
    ("8, 4", "stop must be greater than or equal to start"),
])
def test_constant_bounds_cutile_refuses_are_refused(bounds, message):
    source = FIXTURE.path.read_text().replace("x.slice(-1, 4, 4 + COLS)", f"x.slice(-1, {bounds})")
    d = drafted("column_window", source)
    assert not d.ok and any(message in x.message for x in d.diagnostics), d.diagnostics


def test_an_axis_out_of_range_is_refused():
    source = FIXTURE.path.read_text().replace("x.slice(-1, 4, 4 + COLS)", "x.slice(2, 4, 4 + COLS)")
    d = drafted("column_window", source)
    assert not d.ok and any("out of range for rank 2" in x.message for x in d.diagnostics)


@pytest.mark.parametrize("kernel", ["block_rows", "column_window", "nested_window",
                                    "store_into_rows", "split_halves",
                                    "halves_unless_past"])
def test_the_drafted_fixture_builds_and_its_ir_matches_cutile_python(kernel, cli, tmp_path):
    FIXTURE.assert_ports(kernel, cli, tmp_path / "port")
