"""Bytecode -> sm_90 cubin with the pinned tileiras, cached by content hash; SASS text and
resource usage through cuobjdump (which needs nvdisasm on PATH)."""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from ..target import TARGET
from ..tools import nvidia_bin_dir, nvidia_tool, run_tool

CACHE_DIR = Path(os.environ.get("WORKBENCH_CACHE", Path.home() / ".cache" / "workbench")) / "cubin"
COMPILE_TIMEOUT_S = 300


def _tool_env() -> dict:
    """tileiras takes libNVVM from $CUDA_HOME when set: point it at the pinned toolkit."""
    env = dict(os.environ)
    env["CUDA_HOME"] = str(nvidia_bin_dir().parent)
    env["PATH"] = str(nvidia_bin_dir()) + os.pathsep + env.get("PATH", "")
    return env


def tileiras() -> Path:
    """The pinned tileiras, or the one WORKBENCH_TILEIRAS names (the compiler fixture's)."""
    override = os.environ.get("WORKBENCH_TILEIRAS")
    return Path(override) if override else nvidia_tool("tileiras")


def _compiler_identity(tool: Path) -> bytes:
    """Part of a cubin's cache key: another compiler makes another cubin."""
    try:
        stat = tool.stat()
        return f"{tool.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode()
    except OSError:
        return str(tool).encode()


def compile_cubin(bytecode: bytes, target: str = TARGET) -> Path:
    """The cubin for this bytecode, compiled once and then read from the cache."""
    tool = tileiras()
    key = hashlib.sha256(bytecode + target.encode() + _compiler_identity(tool)).hexdigest()[:24]
    cubin = CACHE_DIR / f"{key}.cubin"
    if cubin.exists():
        return cubin
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="workbench-") as tmp:
        source, out = Path(tmp) / "kernel.tileirbc", Path(tmp) / "kernel.cubin"
        source.write_bytes(bytecode)
        run_tool([str(tool), f"--gpu-name={target}", "-O3", "-o", str(out),
                  str(source)], timeout=COMPILE_TIMEOUT_S, env=_tool_env())
        temporary = cubin.with_suffix(f".tmp{os.getpid()}")
        temporary.write_bytes(out.read_bytes())
        os.replace(temporary, cubin)
    return cubin


def sass_text(cubin: Path) -> str:
    return run_tool([str(nvidia_tool("cuobjdump")), "-sass", str(cubin)], timeout=120,
                    env=_tool_env()).stdout.decode()


def resource_usage(cubin: Path) -> str:
    return run_tool([str(nvidia_tool("cuobjdump")), "-res-usage", str(cubin)], timeout=120,
                    env=_tool_env()).stdout.decode()
