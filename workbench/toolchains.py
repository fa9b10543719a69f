"""tileiras versions side by side, without a second virtual environment: the pinned one in
.venv, and others installed under .toolchains/VERSION/ (pip --target, pruned to the tools the
workbench runs). `selected(version)` points every tool lookup (tools.nvidia_bin_dir) at one
of them for the duration of a `with` block.

    workbench toolchain install 13.5.37
    workbench diff softmax --toolchain 13.4.92 --toolchain 13.5.37
"""
from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import sys
from pathlib import Path

from .errors import ToolError, WorkbenchError
from .operators import REPO_ROOT
from .tools import nvidia_bin_dir, run_tool

TOOLCHAINS_DIR = REPO_ROOT / ".toolchains"
# one CUDA minor version's tileiras needs libNVVM and ptxas of the same version (FACTS.md)
WHEELS = ("nvidia-cuda-tileiras", "nvidia-nvvm", "nvidia-cuda-nvcc", "nvidia-cuda-cuobjdump",
          "nvidia-cuda-nvdisasm")
KEPT_TOOLS = ("tileiras", "tileirdisasm", "ptxas", "cuobjdump", "nvdisasm")
INSTALL_TIMEOUT_S = 1200
VERSION_PATTERN = re.compile(r"\d+\.\d+\.\d+")
BIN_VARIABLE = "WORKBENCH_NVIDIA_BIN"      # tools.nvidia_bin_dir reads it


# WORKBENCH_NVIDIA_BIN as it was before the outermost `selected` (None: unset)
_outside: list[str | None] = []


def home_bin_dir() -> Path:
    """The tools every command uses: this environment's, or the carried ones of a GPU host
    (WORKBENCH_NVIDIA_BIN), even inside `selected`."""
    if not _outside:
        return nvidia_bin_dir()
    with _environment(_outside[0]):
        return nvidia_bin_dir()


def pinned_version() -> str:
    """The tileiras version every command uses (what its `--version` says)."""
    return version_of(home_bin_dir())


def current_version() -> str:
    """The tileiras version in use now (inside `selected`, that one)."""
    return version_of(nvidia_bin_dir())


@functools.cache
def version_of(tools: Path) -> str:
    """13.5.37 from `tileiras --version` (V13.5.37); "unknown" when it cannot say."""
    try:
        text = run_tool([str(tools / "tileiras"), "--version"], timeout=30, text=True).stdout
    except ToolError:
        return "unknown"
    found = re.search(r"V(\d+\.\d+\.\d+)", text)
    return found.group(1) if found else "unknown"


def installed() -> dict[str, Path]:
    """Each usable tileiras version and its bin folder, the pinned one first."""
    found = {pinned_version(): home_bin_dir()}
    if TOOLCHAINS_DIR.is_dir():
        for folder in sorted(TOOLCHAINS_DIR.iterdir()):
            tools = folder / "nvidia" / "cu13" / "bin"
            if (tools / "tileiras").exists():
                found.setdefault(folder.name, tools)
    return found


def bin_dir(version: str) -> Path:
    """The bin folder of an installed version, or a message that says how to install it."""
    _check_spelling(version)
    tools = installed().get(version)
    if tools is None:
        have = ", ".join(installed())
        raise WorkbenchError(f"tileiras {version} is not installed here (installed: {have})",
                             f"workbench toolchain install {version}")
    return tools


@contextlib.contextmanager
def selected(version: str):
    """Every tool the workbench runs inside the block is this version's."""
    tools = bin_dir(version)
    _outside.append(os.environ.get(BIN_VARIABLE))
    try:
        with _environment(str(tools)):
            yield tools
    finally:
        _outside.pop()


@contextlib.contextmanager
def _environment(value: str | None):
    previous = os.environ.get(BIN_VARIABLE)
    _set(value)
    try:
        yield
    finally:
        _set(previous)


def _set(value: str | None) -> None:
    if value is None:
        os.environ.pop(BIN_VARIABLE, None)
    else:
        os.environ[BIN_VARIABLE] = value


def install(version: str) -> Path:
    """pip-install one version's wheels under .toolchains/VERSION and keep only the tools
    the workbench runs (tileiras, tileirdisasm, ptxas, cuobjdump, nvdisasm, libNVVM)."""
    _check_spelling(version)
    if version in installed():
        return installed()[version]
    final = TOOLCHAINS_DIR / version
    partial = TOOLCHAINS_DIR / f".{version}.partial{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    try:
        run_tool([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                  "--disable-pip-version-check", "--target", str(partial)]
                 + [f"{wheel}=={version}" for wheel in WHEELS],
                 timeout=INSTALL_TIMEOUT_S, text=True, name="pip")
    except ToolError as e:
        shutil.rmtree(partial, ignore_errors=True)
        said = e.stderr.strip().splitlines()[-1] if e.stderr.strip() else e.message
        raise WorkbenchError(f"tileiras {version} could not be installed: pip says: {said}",
                             "`pip index versions nvidia-cuda-tileiras` lists the versions the "
                             "index has (each needs nvidia-nvvm and nvidia-cuda-nvcc of the same "
                             "version)")
    _prune(partial / "nvidia" / "cu13")
    shutil.rmtree(final, ignore_errors=True)
    os.replace(partial, final)
    return final / "nvidia" / "cu13" / "bin"


def _prune(toolkit: Path) -> None:
    for tool in (toolkit / "bin").iterdir():
        if tool.name not in KEPT_TOOLS:
            shutil.rmtree(tool) if tool.is_dir() else tool.unlink()
    for folder in ("include", "nvvm"):
        shutil.rmtree(toolkit / folder, ignore_errors=True)


def _check_spelling(version: str) -> None:
    if not VERSION_PATTERN.fullmatch(version):
        raise WorkbenchError(f"{version!r} is not a tileiras version (they read like 13.5.37)",
                             "`workbench toolchain list` shows the installed ones")
