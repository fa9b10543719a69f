"""One way to run external tools: no shell, a timeout, and errors that carry stderr."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from .errors import ToolError

DEFAULT_TIMEOUT_S = 120


def run_tool(args: list[str], *, timeout: float = DEFAULT_TIMEOUT_S, input: bytes | None = None,
             cwd: str | Path | None = None, env: dict | None = None,
             check: bool = True) -> subprocess.CompletedProcess:
    """Run `args` (never through a shell) and return the completed process.

    Raises ToolError when the tool is missing, times out, or (with check) exits non-zero.
    """
    tool = Path(args[0]).name
    try:
        proc = subprocess.run(args, input=input, capture_output=True, timeout=timeout,
                              cwd=cwd, env=env, shell=False)
    except FileNotFoundError:
        raise ToolError(tool, f"not found at {args[0]}",
                        hint="run the README's set-up command, then `workbench doctor`")
    except subprocess.TimeoutExpired:
        raise ToolError(tool, f"did not finish within {timeout:.0f} s")
    if check and proc.returncode != 0:
        raise ToolError(tool, f"exited with code {proc.returncode}",
                        proc.stderr.decode(errors="replace"))
    return proc


def nvidia_bin_dir() -> Path:
    """The pinned CUDA 13 tools (tileiras, tileirdisasm, ptxas): this environment's pip
    install, or the folder WORKBENCH_NVIDIA_BIN names (the GPU host, where the toolchain is
    carried in, not installed)."""
    if os.environ.get("WORKBENCH_NVIDIA_BIN"):
        return Path(os.environ["WORKBENCH_NVIDIA_BIN"])
    purelib = Path(sysconfig.get_paths()["purelib"])
    return purelib / "nvidia" / "cu13" / "bin"


def nvidia_tool(name: str) -> Path:
    path = nvidia_bin_dir() / name
    if not path.exists():
        raise ToolError(name, f"not installed (looked in {path.parent})",
                        hint=f"install the pinned toolchain: {sys.executable} -m pip install -e .")
    return path
