"""`workbench export TARGET --to DIR` (and the widget's Export): a port as a crate a user can
keep, built outside this checkout. A fixed, reviewable set of files (README.md lists them):

    README.md               what the folder holds, how to build and call it, what the port
                            declares, the calls it serves and the verdicts it had
    Cargo.toml, Cargo.lock  the crate, its own workspace, pinned as the checkout pins it
    port.toml, src/*.rs     the port as it built here
    wb_ffi/                 the C ABI helper crate, vendored (rust/export.py says why)
    loader.py               the C symbol called from Python (ctypes)
    golden/{python,rust}.caseN.tileir   both sides' Tile IR of each case

The export is written into a folder beside DIR and moved into place when complete, so a
failure leaves nothing half-written; a DIR that holds anything is refused, or with `force`
kept whole as DIR.kept-<time> first.
"""
from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from ..errors import WorkbenchError
from ..ir.stages import operator_python_ir
from ..operators import REPO_ROOT, Case, Operator, display_path
from ..rust.cargo import build, has_port, target_name
from ..rust.emit import operator_rust_ir
from ..rust.library import symbol_stem
from ..rust.export import crate_package, loader_text, port_abi, write_crate
from .artifacts import read_operator
from .export_readme import Provenance, render
from .triton_stages import translate_target
from .verdicts import last_run

EXPORTS_DIR = REPO_ROOT / "runs" / "exports"     # where the widget offers to export
# a quoted absolute path in tileirdisasm's locations: the kernel's file and folder
_ABSOLUTE = re.compile(r'"(/[^"]*)"')


@dataclass
class Exported:
    folder: Path
    package: str
    files: list[str]                 # relative to folder, sorted
    kept: Path | None                # what the folder held before (force), kept whole

    def summary(self) -> str:
        kept = f" (what it held is kept in {display_path(self.kept)})" if self.kept else ""
        return (f"{display_path(self.folder)}: {self.package}, {len(self.files)} files{kept}; "
                f"build it there with `cargo build --release` (README.md lists the files and "
                "what the build needs)")


def export_port(op: Operator, dest: Path, force: bool = False,
                progress: Callable[[str, float], None] | None = None) -> Exported:
    """Write `op`'s port as a standalone crate in `dest` (see the module's docstring)."""
    note = progress or (lambda message, fraction: None)
    dest = Path(dest).expanduser().resolve()
    _refuse_bad_input(op, dest, force)
    run, target = last_run(op), named(op)
    op = ported_kernel(op)
    note("building the port...", 0.1)
    built = build(op)
    if not built.ok:
        first = next((d for d in built.diagnostics if d.level == "error"), None)
        raise WorkbenchError(f"{target}'s port does not build" + (f": {first}" if first else ""),
                             f"fix it (`workbench build {target}` shows every error), then "
                             "export again")
    staging = dest.with_name(f".{dest.name}.exporting-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        files = _write(op, staging, note, run)
        kept = _move_into_place(staging, dest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Exported(dest, crate_package(op)[0], sorted(files), kept)


def _refuse_bad_input(op: Operator, dest: Path, force: bool) -> None:
    """Each in one line with what to do, before anything is built or written."""
    _refuse_the_port_itself(op, dest)
    if not has_port(op):
        raise WorkbenchError(f"{named(op)} has no port yet (no "
                             f"{display_path(op.port_folder)}/Cargo.toml)",
                             f"draft one with `workbench port {named(op)}` (in the "
                             "widget: Draft), then export it")
    export_cases(op)
    _refuse_a_full_folder(dest, force)


def named(op: Operator) -> str:
    """How the command line names the target: `--record REC.json` for a recorded kernel."""
    if op.record:
        return f"--record {display_path(Path(op.record['path']))}"
    return target_name(op)


def ported_kernel(op: Operator) -> Operator:
    """The kernel the port is of, with the calls it serves: a Triton kernel's port is of its
    derived cuTile kernel (translated again, as `workbench ir` does)."""
    if op.language == "triton":
        return translate_target(op.triton, op.port_folder)[1]
    return replace(op, cases=export_cases(op))


def default_folder(op: Operator) -> Path:
    """runs/exports/<name>: the folder the widget offers (inside the checkout, git-ignored)."""
    return EXPORTS_DIR / symbol_stem(op.name)


def export_cases(op: Operator) -> tuple[Case, ...]:
    """The calls the port serves: the target's cases, else (a kernel named with no --arg)
    the cases of its last drafting run."""
    if op.cases:
        return op.cases
    run = last_run(op)
    cases = read_operator(run).cases if run else ()
    if not cases:
        raise WorkbenchError(f"{named(op)}: no call to export the port's goldens for",
                             "give the call as you drafted it: --arg SPEC per runtime "
                             "parameter and --const NAME=VALUE per constant")
    return cases


def _refuse_the_port_itself(op: Operator, dest: Path) -> None:
    port = op.port_folder.resolve()
    if dest == port or dest.is_relative_to(port) or port.is_relative_to(dest):
        raise WorkbenchError(f"{display_path(dest)} is the port's own folder, or holds it",
                             "export to a folder outside the port, e.g. --to "
                             f"{display_path(default_folder(op))}")


def _refuse_a_full_folder(dest: Path, force: bool) -> None:
    if dest.exists() and not dest.is_dir():
        raise WorkbenchError(f"{display_path(dest)} is a file", "name a new or empty folder")
    held = sorted(p.name for p in dest.iterdir()) if dest.is_dir() else []
    if held and not force:
        shown = ", ".join(held[:6]) + (" ..." if len(held) > 6 else "")
        raise WorkbenchError(f"{display_path(dest)} already holds {shown}",
                             "name a new or empty folder, or add --force to export there "
                             f"anyway (what it holds is kept whole as {dest.name}.kept-<time>)")


def _write(op: Operator, folder: Path, note, run: Path | None) -> list[str]:
    folder.mkdir(parents=True)
    package = crate_package(op)[0]
    files = write_crate(op, folder)
    abi = port_abi(op, package)
    (folder / "loader.py").write_text(loader_text(abi))
    files.append("loader.py")
    for number, case in enumerate(op.cases):
        note(f"Tile IR of case {case.index} ({number + 1} of {len(op.cases)})...",
             0.2 + 0.7 * number / len(op.cases))
        files += _goldens(op, case.index, folder)
    files.append("README.md")
    (folder / "README.md").write_text(render(op, package, files, op.cases, abi, Provenance(run)))
    return files


def _goldens(op: Operator, index: int, folder: Path) -> list[str]:
    out = []
    for side, emit in (("python", operator_python_ir), ("rust", operator_rust_ir)):
        path = folder / "golden" / f"{side}.case{index}.tileir"
        path.parent.mkdir(exist_ok=True)
        path.write_text(relative_locations(emit(op, index).text))
        out.append(str(path.relative_to(folder)))
    return out


def relative_locations(text: str) -> str:
    """tileirdisasm's output with each absolute path in a location cut to its last part (a
    kernel outside the checkout is named by its absolute path): the export may go anywhere."""
    return _ABSOLUTE.sub(lambda m: f'"{Path(m[1]).name}"', text)


def _move_into_place(staging: Path, dest: Path) -> Path | None:
    kept = None
    if dest.is_dir() and any(dest.iterdir()):
        kept = dest.with_name(f"{dest.name}.kept-{time.strftime('%Y%m%d-%H%M%S')}")
        os.replace(dest, kept)
    elif dest.is_dir():
        dest.rmdir()
    os.replace(staging, dest)
    return kept
