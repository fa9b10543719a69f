"""`for v in ct.static_iter(..)` in the offline drafter (workbench/port/rules/loops.py): the
body once per item, `v` bound to the item as a constant, as cuTile Python unrolls it; what it
cannot unroll is refused with the reason; the drafted fixtures build and their IR matches."""
from __future__ import annotations

import re

import pytest

from drafter_fixture import DrafterFixture

FIXTURE = DrafterFixture("static_iter.py", {
    "weighted_rows": ["f32[4,128]", "f32[1024]"],
    "taps": ["f32[64,128]", "f32[64,128]"],
    "unrolled_break": ["f32[4,128]", "f32[64,128]", "i32=3"],
    "unrolled_runtime": ["f32[4,128]", "f32[64,128]", "i32=3"]}, {"COLS": 128})
drafted = FIXTURE.drafted


def test_the_body_is_drafted_once_per_item_with_the_item_as_a_constant():
    d = drafted("weighted_rows")
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    assert not re.search(r"\bfor \w+ in ", rust), rust                # unrolled: no loop
    for k in (1, 2, 3):
        assert f"let idx{k}: i32 = {k}i32;" in rust, rust
    assert len(re.findall(r"\.load\(\[(zero|idx\d), zero\]\)", rust)) == 4, rust
    # weights 1..4 are the folded `k + 1`
    for w in ("1.0f32", "2.0f32", "3.0f32", "4.0f32"):
        assert w in rust, rust


def test_loads_at_constant_tile_indices_make_the_entry_unchecked_as_cutile_would_assert_them():
    d = drafted("weighted_rows")
    assert "#[cutile::entry(unchecked_accesses = true)]" in d.files["src/kernel.rs"]
    assert any("constant tile index" in n for n in d.notes), d.notes


def test_items_of_a_tuple_are_unrolled_in_order():
    d = drafted("taps")
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    order = [rust.index(w) for w in ("0.25f32", "0.5f32")]
    assert order == sorted(order), rust


@pytest.mark.parametrize("kernel, reason", [
    ("unrolled_break", "a `break` or `continue` in an unrolled loop is not drafted"),
    ("unrolled_runtime", "reads runtime value(s) n"),
])
def test_what_cannot_be_unrolled_is_refused_with_the_reason(kernel, reason):
    d = drafted(kernel)
    assert not d.ok
    assert any(reason in x.message for x in d.diagnostics), d.diagnostics


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("kernel", ["weighted_rows", "taps"])
def test_the_drafted_fixture_builds_and_its_ir_matches_cutile_python(kernel, cli, tmp_path):
    FIXTURE.assert_ports(kernel, cli, tmp_path / "port")
