"""Lazy builds of a port with hot reload.

A build is identified by a content hash of what goes into it (the port's sources, the
shared FFI crate, the workspace manifest and lock file, the Rust toolchain), never by
mtimes. Each build is copied to `kernels_src/.build/<op>/libport_<op>-<hash>.so`: a new
file name per build is what lets a running process (a notebook kernel) dlopen the new
code, which a second dlopen of one fixed path cannot do. A failed build leaves the last
good library in place and returns the compiler's diagnostics as file:line.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import time
import tomllib
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

from ..operators import DRAFT_MARK, KERNELS_DIR, Operator, display_path
from ..errors import ToolTimeout, WorkbenchError
from ..tools import run_tool
from .prune import forget_drafts, prune_libraries, record_draft
from .toolchain import TARGET_DIR, cargo_env, cargo_path, prepare_target_dir, target_dir
from .tuned import TUNED_FILES

BUILD_DIR = KERNELS_DIR / ".build"
BUILD_TIMEOUT_S = 3600
SHARED_INPUTS = ("Cargo.toml", "Cargo.lock", "wb_ffi")
BUILD_SCHEMA = "workbench.build/1"


@dataclass
class RustcMessage:
    level: str
    message: str
    file: str | None
    line: int | None
    column: int | None
    rendered: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}: " if self.file else ""
        return f"{where}{self.level}: {self.message}"

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "RustcMessage":
        return cls(**data)


@dataclass
class BuildResult:
    op: str
    status: str                      # up-to-date, built, failed, prebuilt
    library: Path | None             # the library to load: new, or the last good one
    build_id: str
    seconds: float
    diagnostics: list[RustcMessage] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status != "failed"

    def to_json(self) -> dict:
        """Schema `workbench.build/1`: op, status, library (a path or null), build_id,
        seconds, diagnostics [{level, message, file, line, column, rendered}]."""
        return {"schema": BUILD_SCHEMA, "op": self.op, "status": self.status,
                "library": str(self.library) if self.library else None,
                "build_id": self.build_id, "seconds": self.seconds,
                "diagnostics": [d.to_json() for d in self.diagnostics]}

    @classmethod
    def from_json(cls, data: dict) -> "BuildResult":
        return cls(data["op"], data["status"], Path(data["library"]) if data["library"] else None,
                   data["build_id"], data["seconds"],
                   [RustcMessage.from_json(d) for d in data.get("diagnostics", [])])

    def summary(self) -> str:
        if self.status == "failed":
            errors = [d for d in self.diagnostics if d.level == "error"]
            kept = f"; still using {self.library.name}" if self.library else ""
            return (f"{self.op}: build FAILED in {self.seconds:.1f} s{kept}\n"
                    + "\n".join(f"  {d}" for d in errors[:20]))
        return f"{self.op}: {self.status} ({self.library.name}, {self.seconds * 1e3:.0f} ms)"


def _manifest(op: Operator) -> dict:
    try:
        return tomllib.loads((op.port_folder / "Cargo.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def crate_name(op: Operator) -> str:
    """The port's package name, from its Cargo.toml."""
    return _manifest(op).get("package", {}).get("name", f"port_{op.name}")


def workspace_root(op: Operator) -> Path:
    """The folder cargo names the port's files relative to: the port's own folder where its
    Cargo.toml is a workspace of its own (a standalone copy), else kernels_src/."""
    return op.port_folder if "workspace" in _manifest(op) else KERNELS_DIR


def in_workspace(op: Operator) -> bool:
    return op.port_folder.resolve().is_relative_to(KERNELS_DIR.resolve())


def is_plain_copy(folder: Path) -> bool:
    """A kernels_src port copied as it is (`cp -r`) to a folder outside kernels_src/: its
    manifest inherits settings from a workspace it is not in."""
    manifest = Path(folder) / "Cargo.toml"
    if Path(folder).resolve().is_relative_to(KERNELS_DIR.resolve()) or not manifest.exists():
        return False
    text = manifest.read_text()
    return ".workspace = true" in text and "[workspace]" not in text


def target_name(op: Operator) -> str:
    """How the command line names `op`: the catalog name, FILE.py:KERNEL or MODULE:KERNEL."""
    if op.kernel_module:
        return f"{op.kernel_module}:{op.kernel_name}"
    if op.kernel_path and op.kernel_path != op.folder / "kernel.py":
        return f"{display_path(op.kernel_path)}:{op.kernel_name}"
    return op.name


def check_not_plain_copy(op: Operator) -> None:
    """Say what a plain copy is and how to make it build (cargo's own error does not)."""
    folder = display_path(op.port_folder)
    if is_plain_copy(op.port_folder):
        raise WorkbenchError(
            f"{folder}/Cargo.toml: a plain copy of a kernels_src port: it takes its settings from the "
            "kernels_src workspace (`.workspace = true`), which it has no access to here",
            f"`workbench port {target_name(op)} --copy --out {folder}` makes it build on its "
            "own (its sources stay as they are; in a notebook, `%port ... --out` does the same)")


def folder_tag(folder: Path) -> str:
    """A short name for a port folder outside kernels_src/. Inside the checkout it comes from
    the relative path, so it is the same on the GPU host."""
    folder, root = Path(folder).resolve(), KERNELS_DIR.parent.resolve()
    name = str(folder.relative_to(root)) if folder.is_relative_to(root) else str(folder)
    return hashlib.sha256(name.encode()).hexdigest()[:10]


def has_port(op: Operator) -> bool:
    return (op.port_folder / "Cargo.toml").exists()


def port_sources(op: Operator) -> list[Path]:
    # tuned.toml is read at launch, never compiled: tuning does not rebuild the port
    files = [p for p in sorted(op.port_folder.rglob("*")) if p.is_file()
             and "target" not in p.parts and not p.name.endswith((".orig", ".bak", ".md"))
             and ".history" not in p.parts and p.name not in (DRAFT_MARK, *TUNED_FILES)]
    for name in SHARED_INPUTS:
        path = KERNELS_DIR / name
        files += sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else \
            ([path] if path.exists() else [])
    return files


@cache
def _toolchain_identity() -> str:
    """rustc and cargo binaries, identified without running them (a run costs ~50 ms)."""
    parts = []
    for tool in ("rustc", "cargo"):
        path = Path(shutil.which(tool) or Path.home() / ".cargo" / "bin" / tool)
        stat = path.stat() if path.exists() else None
        parts.append(f"{path}:{stat.st_size if stat else 0}:{stat.st_mtime_ns if stat else 0}")
    return "|".join(parts)


def _digest(op: Operator, seed: str, files: list[Path]) -> str:
    digest = hashlib.sha256(seed.encode())
    for path in files:
        base = op.port_folder if path.is_relative_to(op.port_folder) else KERNELS_DIR
        digest.update(str(path.relative_to(base)).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def source_hash(op: Operator) -> str:
    """Names a build on this machine: every input, the Rust toolchain included."""
    return _digest(op, _toolchain_identity(), port_sources(op))


def code_hash(op: Operator) -> str:
    """Names what a library was built from, the same on every machine: the port's Rust
    sources and port.toml and the shared FFI crate. Manifests are left out (a copied port's
    Cargo.toml holds absolute paths; Cargo.lock pins the rest). A machine without cargo
    (the GPU host) loads only a library whose code hash matches the sources it has."""
    return _digest(op, "code", [p for p in port_sources(op)
                                if p.name not in ("Cargo.toml", "Cargo.lock")])


def build_folder(op: Operator) -> Path:
    """Where an operator's built libraries go; a port outside kernels_src/ (a draft with
    --out) gets its own, so it never becomes the catalog port's last good build."""
    if in_workspace(op):
        return BUILD_DIR / op.name
    tag = folder_tag(op.port_folder)
    return BUILD_DIR / "external" / f"{op.name}-{tag}"


def library_path(op: Operator, build_id: str) -> Path:
    return build_folder(op) / f"lib{crate_name(op)}-{build_id}.so"


def is_built(op: Operator) -> bool:
    """A library built from the port's current sources is here (decided without cargo)."""
    return library_path(op, source_hash(op)).exists()


def last_good(op: Operator) -> Path | None:
    marker = build_folder(op) / "last_good"
    if marker.exists():
        path = marker.parent / marker.read_text().strip()
        return path if path.exists() else None
    return None


@contextmanager
def _locked(op: Operator):
    """One build of an operator at a time, across processes."""
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    with open(BUILD_DIR / f"{op.name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build(op: Operator) -> BuildResult:
    """Build the port if its sources changed since the last good build; never raises on
    a compile error (the result says FAILED and keeps the last good library)."""
    if not has_port(op):
        raise WorkbenchError(f"{op.name} has no Rust port yet (no {display_path(op.port_folder)}/"
                             "Cargo.toml)", f"draft one with `workbench port {target_name(op)}"
                             f"{' --out ' + display_path(op.port_folder) if op.port_path else ''}`"
                             " (in the widget: the Draft button)")
    check_not_plain_copy(op)
    start = time.perf_counter()
    if os.environ.get("WORKBENCH_PREBUILT"):
        return _prebuilt(op, Path(os.environ["WORKBENCH_PREBUILT"]), start)
    build_id = source_hash(op)
    target = library_path(op, build_id)
    if target.exists():
        if last_good(op) != target:       # back to an earlier version: it is the good one now
            _mark_last_good(target)
        if not _code_file(target).exists():
            _code_file(target).write_text(code_hash(op) + "\n")
        return BuildResult(op.name, "up-to-date", target, build_id, time.perf_counter() - start)
    with _locked(op):
        if target.exists():      # another process built it while we waited
            return BuildResult(op.name, "up-to-date", target, build_id,
                               time.perf_counter() - start)
        ok, diagnostics = _run_cargo(op, build_id)
        if not ok:
            return BuildResult(op.name, "failed", last_good(op), build_id,
                               time.perf_counter() - start, diagnostics)
        _install(op, target)
        _tidy(op)
    return BuildResult(op.name, "built", target, build_id, time.perf_counter() - start,
                       diagnostics)


def _code_file(library: Path) -> Path:
    return library.with_suffix(".code")


def bundle_codes(bundle: Path) -> dict[str, str]:
    """Operator -> code hash of each port in a bundle (tools/make_bundle.sh writes them)."""
    index = bundle.with_name(bundle.name.split(".")[0] + ".codes.json")
    return json.loads(index.read_text()) if index.exists() else {}


def _prebuilt(op: Operator, bundle: Path, start: float) -> BuildResult:
    """On a machine without cargo: a library built elsewhere from exactly these sources,
    from the bundle or from a carried build folder. Anything else is a failed build that
    says what to do; the bundle is never passed off as an edited port."""
    code = code_hash(op)
    if in_workspace(op) and bundle.is_file() and bundle_codes(bundle).get(op.name) == code:
        library = bundle
    else:
        library = next((p.with_suffix(".so") for p in sorted(build_folder(op).glob("*.code"))
                        if p.read_text().strip() == code and p.with_suffix(".so").exists()),
                       None)
    seconds = time.perf_counter() - start
    if library is not None:
        return BuildResult(op.name, "prebuilt", library, code, seconds)
    message = (f"no cargo on this machine (WORKBENCH_PREBUILT is set) and no library built "
               f"from these sources (code {code}) in {bundle.name} or "
               f"{display_path(build_folder(op))}: build the port where cargo "
               f"is (`workbench build {op.name}`, or run the notebook there) and carry "
               f"kernels_src/.build")
    return BuildResult(op.name, "failed", None, code, seconds,
                       [RustcMessage("error", message, None, None, None)])


def _run_cargo(op: Operator, build_id: str) -> tuple[bool, list[RustcMessage]]:
    # Cargo.lock is committed and pins every dependency; cargo only adds entries (a new
    # port crate), it does not move existing pins.
    prepare_target_dir()
    args = [cargo_path(), "build", "--release", "--manifest-path",
            str(op.port_folder / "Cargo.toml"), "--message-format=json"]
    try:
        proc = run_tool(args, cwd=KERNELS_DIR, env=cargo_env(build_id), text=True,
                        timeout=BUILD_TIMEOUT_S, check=False)
    except ToolTimeout:
        return False, [RustcMessage("error", f"cargo did not finish in {BUILD_TIMEOUT_S} s",
                                  None, None, None)]
    diagnostics = parse_cargo_messages(proc.stdout, workspace_root(op))
    if proc.returncode != 0 and not any(d.level == "error" for d in diagnostics):
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        diagnostics.append(RustcMessage("error", f"cargo failed:\n{tail}", None, None, None))
    return proc.returncode == 0, diagnostics


def parse_cargo_messages(stdout: str, root: Path = KERNELS_DIR) -> list[RustcMessage]:
    """compiler-message lines of `cargo --message-format=json` -> file:line diagnostics.
    cargo names files relative to the workspace `root`; they are named again the way the
    user sees them (relative to the checkout, else absolute)."""
    out = []
    for line in stdout.splitlines():
        if not line.startswith("{"):
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            continue
        if item.get("reason") != "compiler-message":
            continue
        message = item["message"]
        if message.get("level") not in ("error", "warning") or not message.get("message"):
            continue
        span = next((s for s in message.get("spans", []) if s.get("is_primary")), None)
        file = display_path(root / span["file_name"]) if span else None
        out.append(RustcMessage(message["level"], message["message"], file,
                              span["line_start"] if span else None,
                              span["column_start"] if span else None,
                              message.get("rendered") or ""))
    return out


def _install(op: Operator, target: Path) -> None:
    """Copy cargo's output to its versioned name atomically; a crash mid-copy leaves only
    a temporary file that is never loaded."""
    built = target_dir() / "release" / f"lib{crate_name(op)}.so"
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(f".tmp{os.getpid()}")
    shutil.copyfile(built, temporary)
    with open(temporary, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(temporary, target)
    _code_file(target).write_text(code_hash(op) + "\n")
    _mark_last_good(target)


def _tidy(op: Operator) -> None:
    """After a build: old libraries of this port go, and so does what drafts whose folders
    are gone left behind (workbench/rust/prune.py says why)."""
    folder = build_folder(op)
    prune_libraries(folder)
    if not in_workspace(op):
        record_draft(folder, op.port_folder, crate_name(op))
    forget_drafts(BUILD_DIR / "external", sorted({TARGET_DIR, target_dir()}))


def _mark_last_good(target: Path) -> None:
    marker = target.parent / "last_good"
    marker_tmp = marker.with_suffix(f".tmp{os.getpid()}")
    marker_tmp.write_text(target.name + "\n")
    os.replace(marker_tmp, marker)
