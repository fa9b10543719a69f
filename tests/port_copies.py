"""Ports the widget and magic tests work on: fresh copies under runs/tests/ (ignored by git),
so a killed test run leaves kernels_src/ as it was. A fixed folder per test keeps the
copy's crate name (and so cargo's cached build of it) the same from one run to the next."""
import shutil
from pathlib import Path

import pytest

from workbench.catalog import REPO_ROOT, get_operator
from workbench.session import copy_port

WORK = REPO_ROOT / "runs" / "tests"
# a test whose fixture may make the first build on a fresh machine (the cutile crates take
# ~7 min on 2 cores) gets more than pytest's 900 s
COLD_BUILD = pytest.mark.timeout(3600)


def fresh_folder(name: str) -> Path:
    """runs/tests/<name>/port, empty."""
    folder = WORK / name / "port"
    if folder.parent.exists():
        shutil.rmtree(folder.parent)
    folder.parent.mkdir(parents=True)
    return folder


def fresh_copy(name: str, op: str = "softmax"):
    """A fresh copy of a catalog port that builds on its own -> the Operator working on it."""
    return copy_port(get_operator(op), fresh_folder(name))


def build_first(op) -> None:
    """Build a port before any timed wait: the first build on a fresh machine compiles the
    cutile crates (~7 min on 2 cores, cargo.BUILD_TIMEOUT_S allows an hour), which no UI
    wait should have to cover."""
    from workbench.rust.cargo import build
    result = build(op)
    assert result.ok, result.summary()
