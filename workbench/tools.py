"""One way to run external tools: no shell, a timeout, and errors that carry stderr."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from .errors import ToolError, ToolTimeout

DEFAULT_TIMEOUT_S = 120


def run_tool(args: list[str], *, timeout: float = DEFAULT_TIMEOUT_S,
             input: bytes | str | None = None, cwd: str | Path | None = None,
             env: dict | None = None, check: bool = True, text: bool = False,
             name: str | None = None) -> subprocess.CompletedProcess:
    """Run `args` (never through a shell) and return the completed process; with `text`,
    input and output are str. `name` is how errors call the tool (default: the program).

    Raises ToolError when the tool is missing or (with check) exits non-zero, and
    ToolTimeout, carrying what it had printed, when it runs past `timeout`.
    """
    tool = name or Path(args[0]).name
    try:
        proc = subprocess.run(args, input=input, capture_output=True, timeout=timeout,
                              cwd=cwd, env=env, shell=False, text=text)
    except FileNotFoundError:
        raise ToolError(tool, f"not found at {args[0]}",
                        hint="run the README's set-up command, then `workbench doctor`")
    except subprocess.TimeoutExpired as e:
        raise ToolTimeout(tool, f"did not finish within {timeout:.0f} s", _decoded(e.stderr))
    if check and proc.returncode != 0:
        raise ToolError(tool, f"exited with code {proc.returncode}", _decoded(proc.stderr))
    return proc


def _decoded(output: bytes | str | None) -> str:
    if isinstance(output, bytes):
        return output.decode(errors="replace")
    return output or ""


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
