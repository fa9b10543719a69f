"""Keeps build output bounded on disk.

Every build leaves a 13 MB library under its own name (that is what hot reload needs), and a
draft built from a folder outside kernels_src/ gets a crate of its own in cargo's target. Two
rules keep that from filling a disk: a build folder keeps its last good library and the few
newest; a draft whose folder is gone takes its build folder and its crate's cargo output with
it. Deleting a library a running process has loaded is safe on Linux (the mapping stays).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

KEEP_LIBRARIES = 6
DRAFT_RECORD = "draft.json"          # in an external build folder: what it was built from


def prune_libraries(folder: Path, keep: int = KEEP_LIBRARIES) -> list[Path]:
    """Remove all but the `keep` newest libraries of a build folder; the last good one
    always stays. Returns what was removed."""
    marker = folder / "last_good"
    good = marker.read_text().strip() if marker.exists() else None
    libraries = sorted(folder.glob("lib*.so"), key=_mtime, reverse=True)
    removed = [lib for lib in libraries[keep:] if lib.name != good]
    for library in removed:
        library.unlink(missing_ok=True)
        library.with_suffix(".code").unlink(missing_ok=True)
    return removed


def record_draft(build_folder: Path, port_folder: Path, crate: str) -> None:
    """Remember which port folder an external build folder belongs to, and its crate."""
    record = build_folder / DRAFT_RECORD
    text = json.dumps({"port_folder": str(Path(port_folder).resolve()), "crate": crate})
    if not record.exists() or record.read_text() != text:
        record.write_text(text)


def forget_drafts(external: Path, targets: list[Path], under: Path | None = None) -> list[str]:
    """Remove the build output of every draft whose port folder is gone (or, given `under`,
    lies under it): its build folder and its crate's artifacts in each cargo target.
    Returns the port folders forgotten."""
    forgotten = []
    for folder in sorted(external.iterdir()) if external.is_dir() else []:
        record = _read_record(folder / DRAFT_RECORD)
        if record is None:
            continue
        port_folder = Path(record["port_folder"])
        if port_folder.exists() and not (under and port_folder.is_relative_to(under)):
            continue
        for target in targets:
            remove_crate_output(target, record["crate"])
        shutil.rmtree(folder, ignore_errors=True)
        forgotten.append(str(port_folder))
    return forgotten


def remove_crate_output(target: Path, crate: str) -> None:
    """cargo's files for one crate in a release target folder (names use `_`, not `-`)."""
    release, name = target / "release", crate.replace("-", "_")
    deps = release / "deps"          # a cdylib's outputs there carry no metadata hash
    paths = [*release.glob(f"lib{name}.*"), *deps.glob(f"lib{name}.*"), *deps.glob(f"{name}.*"),
             *deps.glob(f"lib{name}-*"), *deps.glob(f"{name}-*"),
             *(release / ".fingerprint").glob(f"{name}-*"), *(release / "build").glob(f"{name}-*"),
             *(release / "incremental").glob(f"{name}-*")]
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def _read_record(path: Path) -> dict | None:
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return record if {"port_folder", "crate"} <= record.keys() else None


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
