"""Fixtures as patches against softmax: each materialises into a folder as softmax with one
thing planted, the planted port builds, and a patch that no longer applies says where."""
from dataclasses import replace

import pytest

from workbench.catalog import get_operator, load_catalog
from workbench.errors import WorkbenchError
from workbench.fixtures import BASE, FIXTURE_CATALOG, apply_patch, fixture_operator, materialise
from workbench.rust.cargo import build, code_hash, crate_name, folder_tag
from workbench.rust.library import load

def changed_files(folder):
    """The files of a materialised fixture that differ from softmax's."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and p.name not in ("Cargo.toml", "Cargo.lock")
                  and p.read_text() != (BASE / p.relative_to(folder)).read_text())


def test_mistranslated_is_softmax_with_zero_padding(tmp_path):
    folder = materialise("mistranslated", tmp_path / "softmax")
    assert changed_files(folder) == ["port/src/kernel.rs"]
    kernel = (folder / "port" / "src" / "kernel.rs").read_text()
    assert "x.partition(const_shape![1, TILE_COLS])" in kernel and "NegInf" not in kernel


def test_oob_store_builds_and_loads_with_its_own_symbols(tmp_path):
    """What the GPU fault run needs: the planted port builds and its C ABI loads; the
    kernel is softmax's, the planted store is in the host code."""
    folder = materialise("oob_store", tmp_path / "oob_store")
    assert changed_files(folder) == ["port/port.toml", "port/src/kernel.rs", "port/src/lib.rs"]
    assert "stretched.strides[0] *= 65537" in (folder / "port" / "src" / "lib.rs").read_text()
    op = replace(load_catalog(FIXTURE_CATALOG)["oob_store"], folder=folder)
    assert crate_name(op) == f"port_oob_store_{folder_tag(folder / 'port')}"
    library, result = load(op)
    assert result.ok, result.summary()
    assert library.build_id() == result.build_id


def test_the_fixture_catalog_names_what_the_bundle_was_built_from(monkeypatch):
    """The bundle's code hash of oob_store (made here) is the one the GPU host computes
    for the fixture it materialises there from the same patch."""
    op = fixture_operator("oob_store")
    first = code_hash(op)
    monkeypatch.setenv("WORKBENCH_EXTRA_CATALOG", str(FIXTURE_CATALOG))
    again = get_operator("oob_store")
    assert again.folder == op.folder and (again.folder / "port" / "port.toml").exists()
    assert code_hash(fixture_operator("oob_store")) == first


def test_a_patch_that_no_longer_applies_names_the_hunk(tmp_path):
    (tmp_path / "a.txt").write_text("one\ntwo\nthree\n")
    patch = tmp_path / "fix.patch"
    patch.write_text("--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-TWO\n+2\n three\n")
    with pytest.raises(WorkbenchError, match=r"fix.patch:5: does not apply to a.txt:2: "
                                             r"expected 'TWO', found 'two'"):
        apply_patch(patch, tmp_path)
    assert (tmp_path / "a.txt").read_text() == "one\ntwo\nthree\n"
    patch.write_text("--- a/a.txt\n+++ b/a.txt\n@@ -2,0 +3,1 @@\n+two and a half\n"
                     "@@ -3 +4 @@\n-three\n+3\n")
    apply_patch(patch, tmp_path)
    assert (tmp_path / "a.txt").read_text() == "one\ntwo\ntwo and a half\n3\n"


def test_an_unknown_fixture_lists_the_known_ones(tmp_path):
    with pytest.raises(WorkbenchError, match="mistranslated, no_hints, oob_store, slow_sync"):
        materialise("no_such_fixture", tmp_path / "x")


def test_the_bundle_holds_every_port_and_the_planted_fault(tmp_path):
    """tools/make_bundle.py's crate: every port of the catalogs and the fixtures, each with
    its C symbols named (the GPU host loads them from the one library)."""
    import importlib.util
    from workbench.catalog import REPO_ROOT, all_operators
    from workbench.rust.cargo import has_port
    from workbench.rust.library import symbol_stem
    spec = importlib.util.spec_from_file_location("make_bundle", REPO_ROOT / "tools" / "make_bundle.py")
    make_bundle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_bundle)
    ops = make_bundle.bundled_operators()
    ports = {name for name, op in all_operators().items() if has_port(op)}
    fixtures = set(load_catalog(FIXTURE_CATALOG))
    assert {"oob_store", "zero_padding", "miscompiled", "half_grid"} <= fixtures
    assert {op.name for op in ops} == ports | fixtures
    lib_rs = (make_bundle.write_crate(ops, tmp_path / "crate").parent / "src" / "lib.rs").read_text()
    for op in ops:
        assert f"wb_{symbol_stem(op.name)}_emit" in lib_rs

