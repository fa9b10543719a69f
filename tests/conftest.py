import os
import subprocess
import sys
from pathlib import Path

import pytest

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
