"""A real Jupyter server (or JupyterLab) for the browser tests: started on a free port from
this environment, with no token, logging to a file; stopped when the `with` ends."""
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

START_TIMEOUT_S = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def jupyter(app: str, root: Path, log_path: Path, *extra: str):
    """`jupyter lab` or `jupyter server` serving `root`; yields its base URL."""
    port = free_port()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as log:
        proc = subprocess.Popen([str(Path(sys.executable).parent / "jupyter"), app, "--no-browser",
                                 f"--port={port}", "--ip=127.0.0.1", "--ServerApp.token=",
                                 "--ServerApp.password=", "--allow-root",
                                 f"--ServerApp.root_dir={root}", *extra],
                                stdout=log, stderr=subprocess.STDOUT, cwd=root)
        try:
            _wait_for(port, proc)
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


def _wait_for(port: int, proc: subprocess.Popen) -> None:
    deadline = time.time() + START_TIMEOUT_S
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.5)
    proc.kill()
    pytest.fail(f"jupyter did not start in {START_TIMEOUT_S} s")
