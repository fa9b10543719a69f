"""Build output stays bounded: old libraries go, and a draft whose folder is gone leaves
nothing behind (workbench/rust/prune.py). Here on a made-up layout; test_rust_side.py
checks that a real build does it."""
import json
import os

from workbench.rust.prune import (DRAFT_RECORD, forget_drafts, prune_libraries, record_draft,
                                  remove_crate_output)


def _library(folder, name, age_s):
    path = folder / f"{name}.so"
    path.write_bytes(b"\x7fELF")
    path.with_suffix(".code").write_text("code\n")
    os.utime(path, (1_000_000 - age_s, 1_000_000 - age_s))
    return path


def test_a_build_folder_keeps_the_newest_libraries_and_the_last_good_one(tmp_path):
    libraries = [_library(tmp_path, f"libport_x-{i:02d}", age_s=i) for i in range(10)]
    (tmp_path / "last_good").write_text(libraries[8].name + "\n")    # an old one, restored
    removed = prune_libraries(tmp_path, keep=3)
    kept = sorted(p.name for p in tmp_path.glob("*.so"))
    assert kept == sorted(p.name for p in [*libraries[:3], libraries[8]])
    assert sorted(removed) == sorted([*libraries[3:8], libraries[9]])
    assert not libraries[9].with_suffix(".code").exists()
    assert libraries[8].with_suffix(".code").exists()


def _target_with(target, crate):
    release = target / "release"
    # what cargo leaves of a port crate (a cdylib + rlib: no hash on its deps/ outputs)
    for relative in (f"lib{crate}.so", f"lib{crate}.rlib", f"lib{crate}.d", f"deps/lib{crate}.so",
                     f"deps/lib{crate}.rlib", f"deps/{crate}.d", f"deps/lib{crate}-ab12.rmeta",
                     f".fingerprint/{crate}-ab12/lib"):
        path = release / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    return release


def test_a_draft_whose_folder_is_gone_takes_its_build_output_with_it(tmp_path):
    external, target = tmp_path / "external", tmp_path / "target"
    kept_port, gone_port = tmp_path / "kept" / "port", tmp_path / "gone" / "port"
    kept_port.mkdir(parents=True)
    for name, port in (("kept", kept_port), ("gone", gone_port)):
        (external / name).mkdir(parents=True)
        record_draft(external / name, port, f"port_{name}_0123456789")
        _target_with(target, f"port_{name}_0123456789")
    (external / "unrecorded").mkdir()                  # built before records were kept
    # a crate whose name starts like the forgotten one is another crate
    release = _target_with(target, "port_gone_0123456789_b")

    assert forget_drafts(external, [target]) == [str(gone_port.resolve())]
    assert sorted(p.name for p in external.iterdir()) == ["kept", "unrecorded"]
    names = sorted(p.name for p in release.rglob("*") if p.is_file())
    assert not [n for n in names if "port_gone_0123456789" in n and "_b" not in n]
    assert "libport_kept_0123456789.so" in names and "libport_gone_0123456789_b.so" in names
    assert (release / ".fingerprint" / "port_kept_0123456789-ab12").is_dir()


def test_drafts_under_a_folder_are_forgotten_while_it_still_exists(tmp_path):
    external, port = tmp_path / "external", tmp_path / "session" / "draft" / "port"
    port.mkdir(parents=True)
    (external / "draft").mkdir(parents=True)
    record_draft(external / "draft", port, "port_draft_0123456789")
    assert forget_drafts(external, [tmp_path / "target"], under=tmp_path / "other") == []
    assert forget_drafts(external, [tmp_path / "target"], under=tmp_path / "session") == [str(port)]
    assert not (external / "draft").exists()


def test_a_record_that_cannot_be_read_is_left_alone(tmp_path):
    (tmp_path / "external" / "odd").mkdir(parents=True)
    (tmp_path / "external" / "odd" / DRAFT_RECORD).write_text("{not json")
    (tmp_path / "external" / "partial").mkdir()
    (tmp_path / "external" / "partial" / DRAFT_RECORD).write_text(json.dumps({"crate": "c"}))
    assert forget_drafts(tmp_path / "external", []) == []
    assert len(list((tmp_path / "external").iterdir())) == 2


def test_removing_a_crate_that_was_never_built_is_quiet(tmp_path):
    remove_crate_output(tmp_path / "no-target", "port_never_0123456789")
