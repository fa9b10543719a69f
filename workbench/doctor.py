"""`workbench doctor`: check each part of the toolchain and say, in plain words, how to fix it."""
from __future__ import annotations

import ctypes
import glob
import os
import re
import shutil
import sys
import tempfile
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

from .errors import ToolError, WorkbenchError
from .tools import nvidia_bin_dir, run_tool
from .catalog import get_operator
from .ir.export import export_bytecode
from .sources.kernel import load_operator_kernel
from .translate.backends import tileir_backend, triton_backends
from .translate.ttir import triton_version
from .versions import toolchain_versions

CUDA_TILE_VERSION = "1.7.0"
TILEIRAS_VERSION = "13.4.92"
MIN_RUST = (1, 89)
MIN_CUDA_H = 13020


@dataclass
class Check:
    name: str
    status: str          # ok, warn, fail, info
    detail: str
    fix: str = ""
    required: bool = False   # the no-GPU IR path needs it

    def to_json(self) -> dict:
        return asdict(self)


def run_checks() -> list[Check]:
    checks = [_python(), _package("cuda-tile", CUDA_TILE_VERSION, required=True),
              _package("nvidia-cuda-tileiras", TILEIRAS_VERSION, required=True),
              _tileirdisasm(), _matching_toolchain(), _cuda_home(), _tileiras_compiles(),
              _rust(), _libclang(), _cuda_headers(), _gpu(), _triton(), _triton_tileir(),
              _newer_versions()]
    return checks


def print_report(checks: list[Check]) -> None:
    marks = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL", "info": "info"}
    for c in checks:
        print(f"[{marks[c.status]}] {c.name}: {c.detail}")
        if c.fix and c.status in ("warn", "fail"):
            print(f"       fix: {c.fix}")
    bad = [c for c in checks if c.status == "fail" and c.required]
    print()
    print("The no-GPU path (Tile IR export, disassembly, parsing) works." if not bad else
          "The no-GPU path is broken: fix the FAIL lines above.")


def _newer_versions() -> Check:
    """The versions in use against the newest the package indexes have (versions.py)."""
    found = toolchain_versions()
    detail = "; ".join(v.describe() for v in found)
    if any(v.newer for v in found):
        detail += (" - the workbench is pinned to the versions in use (README: the toolchain "
                   "versions)")
    return Check("toolchain versions", "info", detail)


def _python() -> Check:
    ok = sys.version_info >= (3, 11)
    return Check("python", "ok" if ok else "fail", sys.version.split()[0],
                 "use Python 3.11 or newer", required=True)


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _package(dist: str, wanted: str, required: bool) -> Check:
    found = _version(dist)
    fix = f'{sys.executable} -m pip install "{dist}=={wanted}"'
    if found is None:
        return Check(dist, "fail", "not installed", fix, required)
    if found != wanted:
        return Check(dist, "warn", f"{found} installed; the workbench is pinned to {wanted}",
                     fix, required)
    return Check(dist, "ok", found, required=required)


def _tileirdisasm() -> Check:
    path = nvidia_bin_dir() / "tileirdisasm"
    try:
        out = run_tool([str(path), "--version"], timeout=20).stdout.decode()
    except ToolError as e:
        return Check("tileirdisasm", "fail", str(e).splitlines()[0],
                     f'{sys.executable} -m pip install "nvidia-cuda-tileiras=={TILEIRAS_VERSION}"',
                     required=True)
    version = re.search(r"V(\d+\.\d+\.\d+)", out)
    return Check("tileirdisasm", "ok", f"{path} (V{version[1] if version else '?'})",
                 required=True)


def _matching_toolchain() -> Check:
    """tileiras loads libNVVM and runs ptxas; both must be of tileiras' own version."""
    versions = {d: _version(d) for d in ("nvidia-cuda-tileiras", "nvidia-nvvm", "nvidia-cuda-nvcc")}
    fix = (f'{sys.executable} -m pip install "nvidia-nvvm=={TILEIRAS_VERSION}" '
           f'"nvidia-cuda-nvcc=={TILEIRAS_VERSION}"')
    detail = ", ".join(f"{d} {v or 'missing'}" for d, v in versions.items())
    minors = {".".join(v.split(".")[:2]) for v in versions.values() if v}
    if None in versions.values() or len(minors) != 1:
        return Check("libNVVM and ptxas match tileiras", "fail",
                     detail + ": tileiras fails with 'failed to compile Tile IR program'", fix)
    return Check("libNVVM and ptxas match tileiras", "ok", detail)


def _cuda_home() -> Check:
    home = os.environ.get("CUDA_HOME")
    ours = nvidia_bin_dir().parent
    if not home:
        return Check("CUDA_HOME", "ok", f"not set: tileiras uses {ours}/lib/libnvvm.so.4")
    if Path(home).resolve() == ours.resolve():
        return Check("CUDA_HOME", "ok", f"points at the pinned toolchain ({home})")
    return Check("CUDA_HOME", "warn",
                 f"set to {home}: tileiras then loads libNVVM from {home}/nvvm/lib64, which "
                 "fails unless it is CUDA " + ".".join(TILEIRAS_VERSION.split(".")[:2]),
                 f"unset CUDA_HOME, or export CUDA_HOME={ours}")


def _tileiras_compiles() -> Check:
    """The real test of the three checks above: compile one kernel to an sm_90 cubin."""
    op = get_operator("softmax")
    case = op.case(0)
    try:
        bytecode, _ = export_bytecode(load_operator_kernel(op), list(case.args), case.consts)
        with tempfile.TemporaryDirectory() as tmp:
            src, out = Path(tmp) / "k.tileirbc", Path(tmp) / "k.cubin"
            src.write_bytes(bytecode)
            run_tool([str(nvidia_bin_dir() / "tileiras"), "--gpu-name=sm_90", "-o", str(out),
                      str(src)], timeout=120)
            size = out.stat().st_size
    except (ToolError, WorkbenchError) as e:
        hint = ("CUDA_HOME is set: tileiras took libNVVM from it; unset it" if
                os.environ.get("CUDA_HOME") else "check the two lines above")
        return Check("tileiras compiles for sm_90", "fail", str(e).splitlines()[0], hint)
    return Check("tileiras compiles for sm_90", "ok", f"softmax case 0 -> {size} byte cubin")


def _rust() -> Check:
    cargo = shutil.which("cargo")
    fix = "install Rust >= 1.89 with rustup (https://rustup.rs), then rerun the set-up"
    if not cargo:
        return Check("Rust toolchain", "warn", "cargo not found (needed for the Rust ports)", fix)
    try:
        out = run_tool([shutil.which("rustc") or "rustc", "--version"], timeout=20).stdout.decode()
    except ToolError as e:
        return Check("Rust toolchain", "warn", str(e).splitlines()[0], fix)
    match = re.search(r"(\d+)\.(\d+)", out)
    if not match or (int(match[1]), int(match[2])) < MIN_RUST:
        return Check("Rust toolchain", "warn", out.strip() + " is older than 1.89", fix)
    return Check("Rust toolchain", "ok", out.strip())


def _libclang() -> Check:
    found = sorted(glob.glob("/usr/lib/llvm-*/lib/libclang*.so*")
                   + glob.glob("/usr/lib/x86_64-linux-gnu/libclang*.so*"))
    builtin = glob.glob("/usr/lib/llvm-*/lib/clang/*/include/stddef.h")
    fix = "sudo apt-get install -y libclang-dev libc6-dev (bindgen for cutile's cuda-bindings)"
    if not found or not builtin:
        return Check("libclang (bindgen)", "warn",
                     "libclang or clang's builtin headers not found", fix)
    return Check("libclang (bindgen)", "ok", found[-1])


def _cuda_headers() -> Check:
    include = nvidia_bin_dir().parent / "include"
    cuda_h, curand_h = include / "cuda.h", include / "curand.h"
    fix = (f'{sys.executable} -m pip install "nvidia-cuda-runtime>=13.2" nvidia-curand '
           "nvidia-cuda-crt")
    if not cuda_h.exists() or not curand_h.exists():
        missing = [p.name for p in (cuda_h, curand_h) if not p.exists()]
        return Check("CUDA headers (cutile build)", "warn",
                     f"{', '.join(missing)} missing in {include}", fix)
    match = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", cuda_h.read_text(errors="replace"))
    version = int(match[1]) if match else 0
    if version < MIN_CUDA_H:
        return Check("CUDA headers (cutile build)", "warn",
                     f"cuda.h has CUDA_VERSION {version}; cutile needs >= {MIN_CUDA_H}", fix)
    return Check("CUDA headers (cutile build)", "ok", f"{include} (CUDA_VERSION {version})")


def _triton() -> Check:
    names = triton_backends()
    if names is None:
        return Check("triton (TTIR of Triton sources)", "warn", "not installed: Triton kernels "
                     "still translate, but show no TTIR", "pip install -e '.[triton]'")
    return Check("triton (TTIR of Triton sources)", "ok",
                 f"{triton_version()}, backends: {', '.join(names)}")


def _triton_tileir() -> Check:
    found = tileir_backend()
    if found is None:
        return Check("Triton-TileIR backend", "info", "none: a Triton source's Tile IR diff "
                     "is against the derived cuTile kernel; its TTIR is shown with no verdict")
    return Check("Triton-TileIR backend", "ok", f"backend {found!r} present")


def _gpu() -> Check:
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return Check("GPU", "info", "no CUDA driver here: on-GPU checks will report skipped")
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = run_tool([smi, "--query-gpu=name,driver_version", "--format=csv,noheader"],
                           timeout=30).stdout.decode().strip()
            return Check("GPU", "ok", out or "driver present")
        except ToolError as e:
            return Check("GPU", "warn", str(e).splitlines()[0])
    return Check("GPU", "ok", "libcuda.so.1 loads")
