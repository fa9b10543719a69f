import os
import subprocess
import sys
from pathlib import Path

import pytest

import tracked_files

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def run_cli(*args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the installed `workbench` command the way a user would."""
    exe = Path(sys.executable).parent / "workbench"
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=timeout,
                          cwd=REPO, env=full_env)


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture(scope="session", autouse=True)
def forget_drafts_built_in_tmp(tmp_path_factory):
    """Drafts the tests built in temporary folders leave their libraries and cargo output
    behind in kernels_src/ (about 5 GB a run): removed when the run ends."""
    yield
    from workbench.rust.cargo import BUILD_DIR
    from workbench.rust.prune import forget_drafts
    from workbench.rust.toolchain import TARGET_DIR
    forget_drafts(BUILD_DIR / "external", [TARGET_DIR],
                  under=tmp_path_factory.getbasetemp().resolve())


# -- no test changes a tracked file: checked once, around the whole run --------------------

def pytest_sessionstart(session):
    session.config.stash[_BEFORE] = tracked_files.snapshot(REPO)


def pytest_sessionfinish(session, exitstatus):
    before = session.config.stash.get(_BEFORE, None)
    if isinstance(before, dict):
        after = tracked_files.snapshot(REPO)
        found = tracked_files.changed(before, after) if isinstance(after, dict) else []
        session.config.stash[_CHANGED] = found
        if found and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    before, found = config.stash.get(_BEFORE, None), config.stash.get(_CHANGED, [])
    if isinstance(before, str):
        terminalreporter.write_line(f"tracked files: not checked: {before}", yellow=True)
    elif found:
        terminalreporter.section("the suite changed files of the checkout", red=True)
        for line in found:
            terminalreporter.write_line(f"  {line}", red=True)
        terminalreporter.write_line("tests work on copies (tmp_path, or under runs/): "
                                    "find the test that wrote these", red=True)


_BEFORE = pytest.StashKey[object]()
_CHANGED = pytest.StashKey[list]()
