"""The environment every cargo invocation gets: always the same, so cargo never rebuilds
the cutile crates because a variable changed (their build scripts watch CUDA_HOME,
CUDA_TOOLKIT_PATH and CUTILE_SETUP_DIAGNOSTICS)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..catalog import KERNELS_DIR
from ..errors import WorkbenchError
from ..tools import nvidia_bin_dir

TARGET_DIR = KERNELS_DIR / "target"


def cuda_toolkit_path() -> Path:
    """pip's nvidia/cu13: cuda.h and curand.h for bindgen, tileiras for the runtime."""
    return nvidia_bin_dir().parent


def cargo_path() -> str:
    cargo = shutil.which("cargo") or str(Path.home() / ".cargo" / "bin" / "cargo")
    if not Path(cargo).exists():
        raise WorkbenchError("cargo not found (the Rust ports need Rust >= 1.89)",
                             "install Rust with rustup, then run `workbench doctor`")
    return cargo


def cargo_env(build_id: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("CUDA_HOME", "CUDA_PATH", "CUTILE_SETUP_DIAGNOSTICS", "RUSTFLAGS",
                        "CARGO_TARGET_DIR", "WB_BUILD_ID")}
    cargo_bin = str(Path(cargo_path()).parent)
    env["PATH"] = cargo_bin + os.pathsep + env.get("PATH", "")
    env["CUDA_TOOLKIT_PATH"] = str(cuda_toolkit_path())
    env["CARGO_TARGET_DIR"] = str(TARGET_DIR)
    env["CARGO_TERM_COLOR"] = "never"
    if build_id:
        env["WB_BUILD_ID"] = build_id
    return env


def runtime_env() -> dict[str, str]:
    """What a process that launches or compiles a port needs: the pinned tileiras, and
    CUDA_HOME pointing at the same toolkit (tileiras loads libNVVM from $CUDA_HOME)."""
    toolkit = cuda_toolkit_path()
    return {"CUTILE_TILEIRAS_PATH": str(toolkit / "bin" / "tileiras"),
            "CUDA_HOME": str(toolkit)}
