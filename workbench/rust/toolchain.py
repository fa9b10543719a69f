"""The environment every cargo invocation gets: always the same, so cargo never rebuilds
the cutile crates because a variable changed (their build scripts watch CUDA_HOME,
CUDA_TOOLKIT_PATH and CUTILE_SETUP_DIAGNOSTICS)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..operators import KERNELS_DIR
from ..errors import WorkbenchError
from ..tools import nvidia_bin_dir

TARGET_DIR = KERNELS_DIR / "target"
TARGET_DIR_VARIABLE = "WORKBENCH_CARGO_TARGET_DIR"


COPY_NOTE = ".copied-from-checkout"        # in a copy: how long making it took


def target_dir() -> Path:
    """cargo's target folder: the checkout's, or a batch worker's own copy of it (cargo locks
    its target folder for a whole build, so workers sharing one would build one at a time)."""
    return Path(os.environ.get(TARGET_DIR_VARIABLE) or TARGET_DIR)


def prepare_target_dir() -> None:
    """Before a build in a target folder other than the checkout's: if it is new, make it a
    copy of the checkout's compiled dependencies (mtimes kept, for cargo's freshness checks),
    so the cutile crates are not built again. One process copies; others wait for it."""
    folder = target_dir()
    if folder == TARGET_DIR or (folder / "release").is_dir() or not (TARGET_DIR / "release").is_dir():
        return
    import fcntl
    import time
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.with_name(folder.name + ".copying"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (folder / "release").is_dir():
            return
        start = time.perf_counter()
        temporary = folder.with_name(f".{folder.name}.tmp{os.getpid()}")
        shutil.rmtree(temporary, ignore_errors=True)
        shutil.copytree(TARGET_DIR, temporary, symlinks=True, ignore=_not_copied)
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(temporary, folder)
        (folder / COPY_NOTE).write_text(f"{time.perf_counter() - start:.1f} s\n")


def _not_copied(directory: str, names: list[str]) -> set[str]:
    """The ports' own artifacts (rebuilt in seconds) and other copies inside the folder."""
    if Path(directory) == TARGET_DIR:
        return {"workers"} | {n for n in names if n.endswith(".copying")}
    return {n for n in names if n.startswith(("libport_", "port_", "libwb_bundle", "wb_bundle"))}


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
                        "CARGO_TARGET_DIR", "WB_BUILD_ID", TARGET_DIR_VARIABLE)}
    cargo_bin = str(Path(cargo_path()).parent)
    env["PATH"] = cargo_bin + os.pathsep + env.get("PATH", "")
    env["CUDA_TOOLKIT_PATH"] = str(cuda_toolkit_path())
    env["CARGO_TARGET_DIR"] = str(target_dir())
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
