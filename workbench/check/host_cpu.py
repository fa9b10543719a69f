"""A port's host code run on the CPU: the port's own C call (lib.rs: its argument checks, the
views and partitions it makes, the grid cutile infers or it gives, the constants it passes)
with a recording CUDA driver in place of the real one (cuda_stub.py), and every kernel it
launches run by the Tile IR interpreter on the caller's arrays. What runs is the program the
host code asked cutile for, so a bug on the host side (a stride, a grid, a shape) shows on the
CPU as it shows on a GPU.

The run happens in a worker process (host_cpu_worker.py), kept between calls: the recording
driver must be the process's libcuda.so.1, and a crash in host code must not take the caller
with it.
"""
from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

from ..interp import Options
from ..operators import REPO_ROOT, Operator
from ..rust.cargo import build
from ..rust.toolchain import runtime_env
from .cpu_common import SideFailed
from .cuda_stub import stand_in_tileiras, stub_library
from .host_transport import copy_back, pack, read_frame, write_frame

HOST_RUN_TIMEOUT_S = 900
WORKER = "workbench.check.host_cpu_worker"
HOST_NOTE = "the port's host code (lib.rs) ran, through the recording CUDA driver"


def run_port_host(op: Operator, values: dict, consts: dict, grid: tuple | None,
                  options: Options | None, hints: dict | None = None) -> list[dict]:
    """Call the port on `values` (by the kernel's parameter names; arrays are written in
    place), with the launch's grid and hints where the port takes them, and return its
    launches ({entry, grid, seconds}). Raises SideFailed with the outcome when the port
    refuses the call, a launch faults or the worker dies, and cuda_stub.NoHostRun where
    nothing can run the host code here (the caller runs the kernel alone and says so)."""
    reply = _call(op, values, consts, grid, options, hints, dry=False)
    for name, packed in reply["values"].items():
        copy_back(packed, values[name])
    if reply["failure"]:
        failure = reply["failure"]
        if reply["launches"]:
            failure["host"] = HOST_NOTE
        raise SideFailed(failure, kernels(reply["launches"]))
    return reply["launches"]


def profile_port_host(op: Operator, values: dict, consts: dict, grid: tuple | None,
                      hints: dict | None = None) -> tuple[list[dict], dict]:
    """What the port's host code does in one call, its kernels not run: the launches it
    makes ({entry, grid, block}) and what it asked of the driver besides, by kind
    (synchronize, copy, allocate, release, memset, host_callback, launch). Raises
    SideFailed when the port refuses the call."""
    reply = _call(op, values, consts, grid, None, hints, dry=True)
    if reply["failure"]:
        raise SideFailed(reply["failure"], kernels(reply["launches"]))
    return reply["launches"], reply["calls"]


def _call(op: Operator, values: dict, consts: dict, grid, options: Options | None, hints,
          dry: bool) -> dict:
    built = build(op)
    if built.library is None:
        raise SideFailed({"ok": False, "rel_error": None,
                          "reason": f"the port did not build: {built.summary()}"})
    options = options or Options()
    return _worker().ask({
        "op": op, "library": str(built.library), "dry": dry,
        "values": {n: pack(v) for n, v in values.items()}, "consts": dict(consts),
        "grid": grid, "hints": dict(hints or {}),
        "options": {"poison": options.poison, "check_assumes": options.check_assumes,
                    "sample": options.sample}})


def kernels(launches: list[dict]) -> list[dict]:
    """A host run's launches as the check's reports list kernels: {name, grid}."""
    return [{"name": run["entry"], "grid": run["grid"]} for run in launches]


class HostWorker:
    """The worker process, kept between calls (its start and cutile's compiled kernels are
    most of a small case's time): one request at a time over a pipe pair, each with a
    deadline; a worker that dies or runs past it is replaced at the next call."""

    def __init__(self):
        self.folder = tempfile.TemporaryDirectory(prefix="workbench-host-")
        tmp = Path(self.folder.name)
        env = {**os.environ, **runtime_env(), "CUTILE_TILEIRAS_PATH": str(stand_in_tileiras()),
               "XDG_CACHE_HOME": str(tmp / "cache"),   # cutile's kernel cache: this run's own
               # loaded before anything else, the recording driver is the libcuda.so.1
               "LD_PRELOAD": " ".join(filter(None, [str(stub_library()),
                                                    os.environ.get("LD_PRELOAD")]))}
        env.pop("WORKBENCH_JIT_CACHE", None)
        request_read, self.requests = os.pipe()
        self.replies, reply_write = os.pipe()
        self.log = tmp / "worker.log"
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", WORKER, str(request_read), str(reply_write)],
                pass_fds=(request_read, reply_write), cwd=REPO_ROOT, env=env,
                stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        os.close(request_read)
        os.close(reply_write)

    def alive(self) -> bool:
        return self.process.poll() is None

    def ask(self, request: dict) -> dict:
        try:
            write_frame(self.requests, pickle.dumps(request))
            return pickle.loads(read_frame(self.replies, HOST_RUN_TIMEOUT_S))
        except (OSError, EOFError, TimeoutError) as e:
            self.close()
            raise SideFailed({"ok": False, "rel_error": None, "reason": self._died(e)}) from None

    def _died(self, error: Exception) -> str:
        if isinstance(error, TimeoutError):
            return (f"the port's host code ran past {HOST_RUN_TIMEOUT_S} s on the CPU "
                    "(stopped): check a smaller case")
        tail = self.log.read_bytes().decode(errors="replace").strip().splitlines()[-6:]
        return (f"the host run's worker died (exit {self.process.poll()}) running the port's "
                "host code: " + " | ".join(tail))

    def close(self) -> None:
        for fd in (self.requests, self.replies):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.alive():
            self.process.kill()
        self.process.wait(timeout=30)
        self.folder.cleanup()


_WORKER: HostWorker | None = None


def _worker() -> HostWorker:
    global _WORKER
    if _WORKER is None or not _WORKER.alive():
        _WORKER = HostWorker()
        atexit.register(_WORKER.close)
    return _WORKER
