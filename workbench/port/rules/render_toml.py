"""Cargo.toml and port.toml of a drafted port (port.toml: how catalog cases map onto the
entries; see workbench/port/manifest.py)."""
from __future__ import annotations

from ..analyze import KernelSpec
from .branches import entry_key
from .types import KernelTypes

# what a port's code assumes of an array, which wb_ffi checks on every call (port.toml)
ALIGNED_BASE = "aligned_base"       # div_by = ["base 16"]: read at index 0, the base
STRIDES_READ = "strides_read"       # strides read by position: none but the last may be 1

CANONICAL = ["f32", "f16", "bf16", "f64", "f8e4m3", "f8e5m2", "i64", "i32", "i16", "i8", "u64",
             "u32", "u16", "u8", "bool"]


def render_cargo(op_name: str, kernel: str = "") -> str:
    """`kernel`: where the ported kernel comes from (FILE:KERNEL); the catalog's own
    kernel.py when not given."""
    source = kernel or f"kernels_src/{op_name}/kernel.py"
    return f"""[package]
name = "port_{op_name}"
description = "cuTile Rust port of {source} (drafted by workbench/port/rules)"
edition.workspace = true
version.workspace = true
publish.workspace = true

[lib]
crate-type = ["rlib", "cdylib"]

[dependencies]
cutile.workspace = true
wb_ffi.workspace = true
"""


def ordered(dtypes) -> list[str]:
    return sorted(dict.fromkeys(dtypes),
                  key=lambda d: CANONICAL.index(d) if d in CANONICAL else len(CANONICAL))


def array_dtypes(spec: KernelSpec, name: str) -> list[str]:
    """The argspec dtypes (f32, i8, ..) the cases give one array."""
    return ordered(s.dtypes[name] for s in spec.specializations if s.dtypes.get(name))


def case_dtypes(spec: KernelSpec) -> list[str]:
    return ordered(s.dtypes[p.name] for s in spec.specializations for p in spec.arrays
                   if s.dtypes.get(p.name))


def render_port_toml(spec: KernelSpec, op_name: str, types: KernelTypes,
                     entries: list[tuple[str, dict]] | None = None,
                     launch: bool = False, partitions: list[str] | None = None,
                     promises: dict[str, set[str]] | None = None,
                     bits: list[str] = ()) -> str:
    """`entries`: (entry name, constant assignment) per split entry; None: one entry.
    `launch`: the port takes its grid and hints from the caller (rules/launch_form.py), and
    `partitions` are the outputs taken as partitions (None: not the same in every entry);
    the IR diff names the entry's arguments by them (evidence.argument_names). `promises`:
    array -> what the port's code assumes of it, which wb_ffi checks on every call. `bits`:
    the float constants the entries take as f32-bits generics."""
    generics = [f'"{g}"' for g in types.dtype_generics()] + \
        [f'"{c.name}"' for c in spec.constants if all(type(v) is int for v in c.values)] + \
        [f'"bits({c})"' for c in bits]
    entry = entries[0][0] if entries else spec.kernel_name
    lines = ["# How catalog cases map onto the Rust entry (see workbench/port/manifest.py).",
             "# Drafted by workbench/port/rules.",
             f'module = "{op_name}_port"', f'entry = "{entry}"',
             f"generics = [{', '.join(generics)}]"]
    if launch:
        lines += ["# the grid and hints are the caller's: not every output is stored only "
                  "at the program's own tile", "launch = true"]
    else:
        lines += ["# takes occupancy, num_ctas, num_worker_warps (workbench tune)",
                  "hints = true"]
    if partitions is not None:
        names = ", ".join(f'"{n}"' for n in partitions)
        lines += ["# the outputs taken as partitions (the entry's arguments add their "
                  "partition shape and strides)", f"partitions = [{names}]"]
    for p in spec.arrays:
        dtypes = ", ".join(f'"{d}"' for d in array_dtypes(spec, p.name))
        lines += ["", f"[tensors.{p.name}]", f"rank = {p.rank}", f"dtypes = [{dtypes}]",
                  f"unit_stride = [{(p.rank or 1) - 1}]"]
        promised = (promises or {}).get(p.name, set())
        if ALIGNED_BASE in promised:
            lines.append('div_by = ["base 16"]   # read at index 0: the port assumes the '
                         "base's alignment; the C ABI checks it")
        if STRIDES_READ in promised:
            lines.append("strides_read = true   # read by position: no unit stride but the "
                         "last (cutile makes one static); the C ABI checks it")
    if entries:
        lines += ["", "# one entry per specialization of the constant branches", "[entries]"]
        lines += [f'"{entry_key(combo)}" = "{name}"' for name, combo in entries]
    return "\n".join(lines) + "\n"
