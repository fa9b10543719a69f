"""The parent side of a check: spawn a fresh worker per request, never touch the GPU here.

A worker that crashes (a CUDA fault aborts the process), hangs past its timeout, or prints
nothing usable becomes a FAIL result carrying its error text; the next request starts a
new worker, so the notebook kernel that asked survives.
"""
from __future__ import annotations

import ctypes
import json
import sys
from dataclasses import dataclass, field

from ..operators import REPO_ROOT
from ..errors import ToolTimeout
from ..tools import run_tool

CHECK_TIMEOUT_S = 600
EXIT_SKIPPED = 3


@dataclass
class CheckResponse:
    status: str                      # ok, skipped, fail, error
    reason: str = ""
    results: list = field(default_factory=list)
    device: dict = field(default_factory=dict)
    ceilings: dict = field(default_factory=dict)
    benches: list = field(default_factory=list)     # a family's timings, when asked for both
    owners: list = field(default_factory=list)      # Ownership.to_json() of each failed case

    def to_json(self) -> dict:
        data = {"status": self.status, "reason": self.reason, "results": self.results,
                "device": self.device, "ceilings": self.ceilings, "owners": self.owners}
        if self.benches:
            data["benches"] = self.benches
        return data

    @classmethod
    def from_json(cls, data: dict) -> "CheckResponse":
        return cls(data["status"], data.get("reason", ""), data.get("results", []),
                   data.get("device", {}), data.get("ceilings", {}), data.get("benches", []))


def has_cuda_driver() -> bool:
    """True where libcuda loads; decided without creating a CUDA context here."""
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def run_worker(request: dict, timeout: float = CHECK_TIMEOUT_S,
               python: str = sys.executable) -> CheckResponse:
    if not has_cuda_driver():
        return CheckResponse("skipped", "no CUDA device")
    try:
        proc = run_tool([python, "-m", "workbench.check.worker"], input=json.dumps(request),
                        text=True, timeout=timeout, cwd=REPO_ROOT, check=False,
                        name="check worker")
    except ToolTimeout as e:
        return CheckResponse("fail", f"the check did not finish in {timeout:.0f} s (a hang?); "
                             f"its worker was killed. {_tail(e.stderr)}")
    return parse_worker_output(proc.returncode, proc.stdout, proc.stderr)


def parse_worker_output(returncode: int, stdout: str, stderr: str) -> CheckResponse:
    line = next((l for l in reversed(stdout.splitlines()) if l.startswith("{")), None)
    if returncode != 0 or line is None:
        how = (f"killed by signal {-returncode}" if returncode < 0 else
               f"exited with code {returncode}")
        return CheckResponse("fail", f"the check's worker {how}: {_tail(stderr) or 'no output'}")
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        return CheckResponse("error", f"unreadable worker reply: {e}")
    response = CheckResponse.from_json({"status": "error", **data})
    if response.status == "ok" and not all_passed(response.results):
        response.status = "fail"
    return response


def all_passed(results: list) -> bool:
    """Every side that ran passed (a side skipped with its reason is neither pass nor fail)."""
    return all(side.get("ok") or side.get("skipped") for r in results
               for side in r.get("sides", {}).values()) and \
        all((r.get("cross") or {"ok": True}).get("ok") for r in results)


def _tail(text: str | bytes | None, lines: int = 12) -> str:
    if not text:
        return ""
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    return "\n".join(text.strip().splitlines()[-lines:])
