"""Cheap stage bodies for the batch tests: the workers import them by name, like the real
stages in workbench/batch/stages.py, and the engine runs them for real.

A task writes <root>/started/<slug>.<pid>.<ns> when it starts; the one named in
<root>/victim waits there, the first time, until the test kills its worker process.
"""
from __future__ import annotations

import os
import time
from pathlib import Path


def quick_stage(kind: str, ref: str, root: str, slug: str) -> dict:
    started = Path(root) / "started"
    started.mkdir(parents=True, exist_ok=True)
    earlier = list(started.glob(f"{slug}.*"))
    (started / f"{slug}.{os.getpid()}.{time.time_ns()}").write_text("")
    victim = Path(root) / "victim"
    if victim.exists() and victim.read_text() == slug and not earlier:
        time.sleep(120)                  # killed here by the test; the retry goes on
    time.sleep(0.2)
    return {"verdict": "PASS", "summary": f"{ref} ok", "data": {"tries_seen": len(earlier) + 1},
            "pid": os.getpid(), "seconds": 0.2}


def always_dies(kind: str, ref: str, root: str, slug: str) -> dict:
    os._exit(13)                         # the worker process dies every time it runs this


def square(item: int, arg: int) -> int:
    return item * item + arg


def visible_device(seconds: float) -> tuple[str, int]:
    """The GPU this task's worker may use, and the worker's pid (after `seconds` of work)."""
    time.sleep(seconds)
    return os.environ.get("CUDA_VISIBLE_DEVICES", "unset"), os.getpid()
