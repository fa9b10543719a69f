"""The recording CUDA driver (cuda_stub/cuda_stub.c) and the stand-in tileiras it pairs with,
made once per source version in the cargo target folder: what lets a port's host code (its
lib.rs, through cutile's launcher) run on a machine with no GPU. The stand-in tileiras wraps
the Tile IR bytecode cutile hands it instead of compiling it, so the "module" the driver
loads is the exact program the host code asked for; its `--version` is the real tool's, so
cutile picks the bytecode version it would pick with a GPU.
"""
from __future__ import annotations

import functools
import hashlib
import os
import shutil
import stat
import sys
from pathlib import Path

from ..errors import WorkbenchError
from ..rust.toolchain import cuda_toolkit_path, target_dir
from ..tools import ToolError, nvidia_tool, run_tool

SOURCE = Path(__file__).with_name("cuda_stub") / "cuda_stub.c"
# the wrapper's first bytes (cuda-core takes only an ELF's); cuda_stub.c checks them
MAGIC = b"\x7fELFWBIR"
COMPILE_TIMEOUT_S = 120


class NoHostRun(WorkbenchError):
    """The host code cannot be run here (no C compiler); the caller falls back and says so."""


def stub_library() -> Path:
    """libcuda.so.1 of the recording driver, compiled once per version of its source (a
    machine with no C compiler, the GPU host, can be given the folder already built)."""
    folder = target_dir() / "cuda_stub" / _digest(SOURCE.read_bytes())
    library = folder / "libcuda.so.1"
    if library.exists():
        return library
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise NoHostRun("no C compiler (cc) to build the recording CUDA driver",
                        "install one (Debian: apt install gcc) to run ports' host code on the CPU")
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f"libcuda.so.1.{os.getpid()}"
    try:
        run_tool([compiler, "-shared", "-fPIC", "-O1", "-Wl,-soname,libcuda.so.1",
                  f"-I{cuda_toolkit_path() / 'include'}", "-o", str(partial), str(SOURCE)],
                 timeout=COMPILE_TIMEOUT_S)
    except ToolError as e:
        raise NoHostRun(f"the recording CUDA driver did not compile: {e}",
                        "check that cuda.h is installed (pip's nvidia-cuda-runtime headers)")
    partial.replace(library)            # atomic: a concurrent reader sees all of it or none
    return library


def stand_in_tileiras() -> Path:
    """The executable cutile runs as tileiras (CUTILE_TILEIRAS_PATH) during a host run."""
    text = _SCRIPT.format(python=sys.executable, magic=MAGIC, version=tileiras_version(),
                          versions=bytecode_versions())
    script = target_dir() / "cuda_stub" / _digest(text.encode()) / "tileiras"
    if script.exists():
        return script
    script.parent.mkdir(parents=True, exist_ok=True)
    partial = script.with_name(f"tileiras.{os.getpid()}")
    partial.write_text(text)
    partial.chmod(partial.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    partial.replace(script)
    return script


def _digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()[:16]


@functools.cache
def tileiras_version() -> str:
    return run_tool([str(nvidia_tool("tileiras")), "--version"], timeout=30,
                    text=True).stdout


@functools.cache
def bytecode_versions() -> str:
    """What the real tileiras answers to --list-versions: cutile (0.5) asks it which bytecode
    to write, so the host run writes what the GPU host's would."""
    return run_tool([str(nvidia_tool("tileiras")), "--list-versions"], timeout=30,
                    text=True).stdout


_SCRIPT = '''#!{python}
"""tileiras as the workbench's recording driver needs it: the bytecode, wrapped, as the cubin."""
import struct
import sys

args = sys.argv[1:]
if "--version" in args:
    sys.stdout.write({version!r})
    sys.exit(0)
if "--list-versions" in args:
    sys.stdout.write({versions!r})
    sys.exit(0)
with open(args[-1], "rb") as source:
    bytecode = source.read()
with open(args[args.index("-o") + 1], "wb") as out:
    out.write({magic!r} + struct.pack("<Q", len(bytecode)) + bytecode)
'''
