"""The README's first command, `bash scripts/run-workbench`, as a user runs it (here: as root,
as containers and cloud notebooks run): it sets up, starts JupyterLab, prints the URL to
open; the URL serves the softmax notebook; Ctrl-C (SIGTERM to its process group) stops it."""
import json
import os
import queue
import signal
import subprocess
import threading
import time
import urllib.request

from jupyter_process import free_port
from workbench.catalog import REPO_ROOT

START_TIMEOUT_S = 600          # includes scripts/setup, which reinstalls when its inputs changed


def read_lines(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def test_run_workbench_prints_a_url_that_serves_the_notebook(tmp_path):
    port = free_port()
    env = dict(os.environ, WORKBENCH_PORT=str(port), JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    proc = subprocess.Popen(["bash", "scripts/run-workbench"], cwd=REPO_ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    lines, seen = queue.Queue(), []
    threading.Thread(target=read_lines, args=(proc.stdout, lines), daemon=True).start()
    try:
        url, deadline = None, time.time() + START_TIMEOUT_S
        while url is None and time.time() < deadline:
            try:
                line = lines.get(timeout=5)
            except queue.Empty:
                continue
            assert line is not None, "run-workbench ended:\n" + "".join(seen[-30:])
            seen.append(line)
            if line.startswith("workbench:   http://"):
                url = line.split("workbench:", 1)[1].strip()
        assert url, "no URL printed:\n" + "".join(seen[-30:])
        print(f"run-workbench printed {url}")
        assert url.startswith(f"http://localhost:{port}/lab/tree/notebooks/01_port_softmax.ipynb?token=")
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200 and "JupyterLab" in page.read().decode()
        token = url.split("token=", 1)[1]
        api = f"http://localhost:{port}/api/contents/notebooks/01_port_softmax.ipynb?token={token}"
        with urllib.request.urlopen(api, timeout=30) as reply:
            notebook = json.loads(reply.read())
        assert notebook["type"] == "notebook" and any(
            "%port softmax" in "".join(c["source"]) for c in notebook["content"]["cells"])
        assert proc.poll() is None
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert not any("Running as root is not recommended" in line for line in seen)
