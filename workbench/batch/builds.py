"""How batch workers avoid rebuilding the cutile crates: one prebuilt target folder per node
(`workbench build` once, when the node is set up), and for each further worker process on
that node its own copy of it.

Why copies: cargo locks its target folder for a whole build, so workers sharing one folder
build one at a time. A copy (workbench/rust/toolchain.py, prepare_target_dir, made the first
time that worker runs cargo) keeps every compiled dependency (the cutile crates, bindgen's
output) and leaves out the ports' own artifacts: a worker's first build costs the copy plus
one warm port build, never the 7-minute cold build. What a build makes (the content-hashed
library in kernels_src/.build/) is shared by every worker of the node, the GPU workers too,
so a check finds the library that a CPU worker built.

The first worker process of a node takes slot 0 (the checkout's own target folder, no copy);
slot N >= 1 is kernels_src/target/workers/N. A slot is held by an flock for the process's
life, so a restarted worker takes a free one. WORKBENCH_CARGO_TARGET_DIR set by whoever
started the worker wins over all of this.
"""
from __future__ import annotations

import fcntl
import os

from ..rust.toolchain import TARGET_DIR, TARGET_DIR_VARIABLE

WORKERS_DIR = TARGET_DIR / "workers"
MAX_SLOTS = 64
_held: dict[str, object] = {}          # this process's slot: its index and its lock file


def take_slot() -> int | None:
    """This process's slot (taken once; None when the target folder was set from outside),
    and its cargo pointed at that slot's folder."""
    if "index" not in _held:
        if os.environ.get(TARGET_DIR_VARIABLE):
            _held["index"] = None
        else:
            _held["index"] = _free_slot()
            if _held["index"]:
                os.environ[TARGET_DIR_VARIABLE] = str(WORKERS_DIR / str(_held["index"]))
    return _held["index"]


def _free_slot() -> int:
    WORKERS_DIR.mkdir(parents=True, exist_ok=True)
    for index in range(MAX_SLOTS):
        handle = open(WORKERS_DIR / f"{index}.lock", "w")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        _held["lock"] = handle
        return index
    return 0                         # more workers than slots: share the checkout's folder
