"""The README.md of an export (port/export.py): what the folder holds and how to build and
call it, then the port itself: what it declares (port.toml, the C call), the calls it serves
(its cases, with the launch rule's grid where it takes one) and the verdicts it had."""
from __future__ import annotations

import os
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..catalog import all_operators
from ..operators import Case, Operator, display_path
from ..rust.export import FFI
from ..rust.manifest import load_manifest
from ..sources.kernel import load_operator_kernel
from .verdicts import current_verdicts, recorded_verdicts, run_artifacts

# what each file of an export is, in the order the README lists them
FILE_ROLES = (
    ("README.md", "this file"),
    ("Cargo.toml", "the crate: a workspace of its own, cutile pinned exactly as the workbench pins it"),
    ("Cargo.lock", "every dependency pinned (the workbench's lock, cut down to this crate's)"),
    ("port.toml", "what the C call takes (ranks, dtypes, unit strides): checked on every call, "
                  "read at compile time by `wb_ffi::port!`"),
    ("src/", "the port: `kernel.rs` (the `#[cutile::module]`) and `lib.rs` (its C ABI)"),
    (f"{FFI}/", "the C ABI helper crate, vendored (see below)"),
    ("loader.py", "calls the C symbol from Python (ctypes, standard library only)"),
    ("golden/", "the Tile IR of each case: `python.caseN.tileir` (cuTile Python's, through "
                "tileirdisasm -g) and `rust.caseN.tileir` (this port's, through cutile's "
                "KernelCompiler and the same tileirdisasm), for sm_90"),
)


@dataclass
class Provenance:
    """Where the verdicts come from: the port's last pipeline run, if any."""
    run: Path | None


def render(op: Operator, package: str, files: list[str], cases: tuple[Case, ...],
           abi: dict, provenance: Provenance) -> str:
    parts = [_head(op, package), _files(files), _build(package, abi), _vendored(),
             _declares(op, abi), _serves(op, cases, abi), _verdicts(op, provenance)]
    return "\n".join(parts)


def _head(op: Operator, package: str) -> str:
    return (f"# {package}: the cuTile Rust port of `{Path(op.kernel_file).name}:"
            f"{op.kernel_name}`\n\nExported by `workbench export` on {time.strftime('%Y-%m-%d')} "
            f"from the port in `{_shown(op.port_folder)}` (kernel `{_shown(op.kernel_file)}`). "
            "A crate of its own: nothing here points outside this folder.\n")


def _shown(path: Path) -> str:
    """A path as the workbench names it, never absolute: outside the checkout, its name."""
    text = display_path(path)
    return Path(text).name if os.path.isabs(text) else text


def _files(files: list[str]) -> str:
    lines = ["## Files", "", "| file | what it is |", "| --- | --- |"]
    for name, role in FILE_ROLES:
        held = sorted(f for f in files if f == name or f.startswith(name) and name.endswith("/"))
        shown = name if not name.endswith("/") else name + " (" + ", ".join(
            Path(f).name for f in held) + ")"
        lines.append(f"| `{shown}` | {role} |")
    return "\n".join(lines) + "\n"


def _build(package: str, abi: dict) -> str:
    consts = ", ".join(f"{c}=..." for c in abi["consts"])
    call = ", ".join(abi["params"] + ([consts] if consts else []) + ["stream=..."]
                     + (["grid=(x, y, z)"] if abi["launch"] else []))
    return ("## Build and call it\n\n```sh\ncargo build --release      # target/release/"
            f"lib{package}.so\n```\n\nIt needs Rust >= 1.89 and, for the `cutile` crates' "
            "bindings, the CUDA 13 headers `cuda.h` and `curand.h` (a CUDA 13 toolkit, or pip's "
            "`nvidia-cuda-runtime`, `nvidia-curand` and `nvidia-cuda-crt` with "
            "`CUDA_TOOLKIT_PATH=.../site-packages/nvidia/cu13`); no GPU. At run time the port "
            "compiles its kernel at first launch with `tileiras` (`CUTILE_TILEIRAS_PATH`, "
            "`$CUDA_TOOLKIT_PATH/bin` or `PATH`).\n\n```python\nimport torch\n"
            f"from loader import Port\nport = Port()\nport({call})\n```\n")


def _vendored() -> str:
    return (f"## Why `{FFI}/` is vendored\n\n`{FFI}` is the workbench's C ABI helper: the "
            "`#[repr(C)]` tensor descriptor, the launch guard that turns errors and panics into "
            "return codes with a message (`wb_last_error`), the check of `port.toml`'s promises "
            "before any CUDA call, and the Tile IR emitter. It is not published on crates.io, "
            "so it is copied here unchanged, as the workbench built this port with it, and "
            "Cargo.toml names it by a relative path.\n")


def _declares(op: Operator, abi: dict) -> str:
    manifest = load_manifest(op)
    raw = tomllib.loads((op.port_folder / "port.toml").read_text())
    lines = ["## What it declares", "",
             f"- C symbol `{abi['symbol']}` (tensors, scalars, constants, stream; 0 or an error "
             "code, the message in `wb_last_error`); parameters in the kernel's order: "
             + ", ".join(f"`{p}`" for p in abi["params"])
             + (f"; constants: {', '.join(f'`{c}`' for c in abi['consts'])}" if abi["consts"] else ""),
             f"- entry `{manifest.module}::{manifest.entry}`, generics "
             f"[{', '.join(manifest.generics) or 'none'}]"
             + (", one entry per constant specialization: " + "; ".join(
                 f"{','.join(f'{n}={v}' for n, v in key)} -> `{e}`" for key, e in manifest.entries)
                if manifest.entries else "")]
    for name, rule in manifest.tensors.items():
        strides = ", ".join(map(str, rule.unit_stride)) or "none"
        lines.append(f"- `{name}`{' (a list of arrays)' if rule.is_list else ''}: rank "
                     f"{rule.rank}, dtypes {', '.join(rule.dtypes)}, unit stride in dims {strides}")
    if manifest.launch:
        lines.append("- takes its launch from the caller: grid (x, y, z) and the hints "
                     "occupancy, num_ctas, num_worker_warps")
    if raw.get("partitions"):
        lines.append(f"- outputs taken as partitions of their tile: {', '.join(raw['partitions'])}")
    return "\n".join(lines) + "\n"


def _serves(op: Operator, cases: tuple[Case, ...], abi: dict) -> str:
    kernel, manifest = load_operator_kernel(op), load_manifest(op)
    runtime = [p for p in kernel.params if p not in kernel.const_params]
    lines = ["## The calls it serves", "",
             "The port was compiled and diffed for these calls (a call of another shape, "
             "dtype or constant runs where `port.toml` and the launcher allow it, but was not "
             "diffed):", "", "| case | arguments | constants | entry | launch |",
             "| --- | --- | --- | --- | --- |"]
    for case in cases:
        args = " ".join(f"{name}={arg}" for name, arg in zip(runtime, case.args))
        consts = ", ".join(f"{k}={v}" for k, v in case.consts.items()) or "none"
        launch = (f"grid {case.grid}" + (f", hints {case.hints}" if case.hints else "")
                  if case.grid else "the port's own grid")
        lines.append(f"| {case.index} | `{args}` | {consts} | "
                     f"`{manifest.entry_for(case, kernel.params)}` | {launch} |")
    if abi["launch"] and op.family:
        lines += ["", f"The grids are the launch rule's (`{_shown(op.folder.parent / 'launch.py')}`"
                  f" in the workbench, for {op.family}'s launcher)."]
    return "\n".join(lines) + "\n"


def _verdicts(op: Operator, provenance: Provenance) -> str:
    lines = ["## Verdicts it had", ""]
    run = provenance.run
    artifacts = run_artifacts(run) if run else []
    if artifacts:
        lines += [f"From the workbench's last run of this port (`{_shown(run)}`):", "",
                  "| stage | verdict | summary |", "| --- | --- | --- |"]
        lines += [f"| {a.stage} | {a.verdict} | {a.summary} |" for a in artifacts]
        if _changed_since(op, run):
            lines += ["", "The port's sources changed after that run: its verdicts are of an "
                      "earlier text (`workbench diff` judges this one)."]
    else:
        lines.append("No run of the workbench's pipeline is recorded for this port folder.")
    catalog = all_operators().get(op.name)
    record = recorded_verdicts().get(op.name) if catalog and \
        catalog.kernel_file == op.kernel_file else None
    if record:
        shown = ", ".join(f"case {c}: {v}" for c, v in zip(record["cases"],
                                                           current_verdicts(record, op)))
        lines += ["", f"The catalog's recorded IR verdicts (`workbench ops`): {shown}."]
    lines += ["", "`golden/` holds both sides' Tile IR of each case, exported with this "
              "folder's sources."]
    return "\n".join(lines) + "\n"


def _changed_since(op: Operator, run: Path) -> bool:
    finished = max((p.stat().st_mtime for p in run.glob("*.json")), default=0)
    sources = [p for p in (op.port_folder / "src").rglob("*.rs")] + [op.port_folder / "port.toml"]
    return any(p.exists() and p.stat().st_mtime > finished for p in sources)
