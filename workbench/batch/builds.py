"""How batch workers avoid rebuilding the cutile crates: one prebuilt target folder per node
(`workbench build` once, when the node is set up), and for each further worker on that node
its own copy of it, made the first time that worker builds.

Why copies: cargo locks its target folder for a whole build, so workers sharing one folder
build one at a time. A copy keeps every compiled dependency (the cutile crates, bindgen's
output) and leaves out the ports' own artifacts, so a worker's first build in it costs the
copy plus one warm port build, never the 7-minute cold build. What a build makes (the
content-hashed library in kernels_src/.build/) is shared by every worker of the node, the GPU
workers too, so a check finds the library the CPU worker built.

The first worker process of a node takes slot 0 (the checkout's own target folder, no copy);
slot N >= 1 is kernels_src/target/workers/N. A slot is held by an flock for the process's
life, so a restarted worker takes a free one. WORKBENCH_CARGO_TARGET_DIR set by the operator
wins over all of this.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import time
from pathlib import Path

from ..rust.toolchain import TARGET_DIR, TARGET_DIR_VARIABLE

WORKERS_DIR = TARGET_DIR / "workers"
MAX_SLOTS = 64
_held: dict[str, object] = {}          # this process's slot: its index and its lock file


def ensure_target() -> float:
    """Point this process's cargo at its own target folder, copying the node's prebuilt one
    the first time; returns the seconds the copy took (0 when none was needed)."""
    if "index" not in _held:
        if os.environ.get(TARGET_DIR_VARIABLE):
            _held["index"] = None        # set by whoever started the worker
            return 0.0
        _take_slot()
    index = _held["index"]
    if not index:
        return 0.0
    folder = WORKERS_DIR / str(index)
    os.environ[TARGET_DIR_VARIABLE] = str(folder)
    if (folder / "release").is_dir():
        return 0.0
    start = time.perf_counter()
    copy_target(TARGET_DIR, folder)
    return time.perf_counter() - start


def _take_slot() -> None:
    WORKERS_DIR.mkdir(parents=True, exist_ok=True)
    for index in range(MAX_SLOTS):
        handle = open(WORKERS_DIR / f"{index}.lock", "w")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        _held.update(index=index, lock=handle)
        return
    _held["index"] = 0               # more workers than slots: share the checkout's folder


def copy_target(source: Path, folder: Path) -> None:
    """The compiled dependencies of `source` into `folder` (mtimes kept: cargo's freshness
    checks read them), without the ports' artifacts or other workers' folders."""
    temporary = folder.with_name(f".{folder.name}.tmp{os.getpid()}")
    shutil.rmtree(temporary, ignore_errors=True)
    shutil.copytree(source, temporary, symlinks=True, ignore=_not_copied)
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(temporary, folder)


def _not_copied(directory: str, names: list[str]) -> set[str]:
    if Path(directory) == TARGET_DIR:
        return {"workers"}
    return {n for n in names if n.startswith(("libport_", "port_", "libwb_bundle", "wb_bundle"))}
