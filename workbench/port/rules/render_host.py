"""The host side of a drafted port: Cargo.toml, port.toml and src/lib.rs (the C ABI through
wb_ffi's `port!` macro: only the port's own checks, dtype dispatch and launch)."""
from __future__ import annotations

from ..analyze import KernelSpec
from .branches import entry_key
from .core import Translator

FFI_DTYPES = {"f32": ("DTYPE_F32", "f32"), "f16": ("DTYPE_F16", "f16"),
              "bf16": ("DTYPE_BF16", "bf16")}


def render_cargo(op_name: str) -> str:
    return f"""[package]
name = "port_{op_name}"
description = "cuTile Rust port of kernels_src/{op_name}/kernel.py (drafted by workbench/port/rules)"
edition.workspace = true
version.workspace = true
publish.workspace = true

[lib]
crate-type = ["rlib", "cdylib"]

[dependencies]
cutile.workspace = true
wb_ffi.workspace = true
"""


def case_dtypes(spec: KernelSpec) -> list[str]:
    order = []
    for s in spec.specializations:
        for p in spec.arrays:
            d = s.dtypes.get(p.name)
            if d and d not in order:
                order.append(d)
    canonical = ["f32", "f16", "bf16"]
    return sorted(order, key=lambda d: canonical.index(d) if d in canonical else len(canonical))


def render_port_toml(spec: KernelSpec, op_name: str,
                     entries: list[tuple[str, dict]] | None = None) -> str:
    """`entries`: (entry name, constant assignment) per split entry; None: one entry."""
    arrays = spec.arrays
    generics = [f'"dtype({arrays[0].name})"'] + [f'"{c.name}"' for c in spec.constants]
    dtypes = ", ".join(f'"{d}"' for d in case_dtypes(spec))
    entry = entries[0][0] if entries else spec.kernel_name
    lines = ["# How catalog cases map onto the Rust entry (see workbench/port/manifest.py).",
             "# Drafted by workbench/port/rules.",
             f'module = "{op_name}_port"', f'entry = "{entry}"',
             f"generics = [{', '.join(generics)}]"]
    for p in arrays:
        lines += ["", f"[tensors.{p.name}]", f"rank = {p.rank}", f"dtypes = [{dtypes}]",
                  f"unit_stride = [{(p.rank or 1) - 1}]"]
    if entries:
        lines += ["", "# one entry per specialization of the constant branches", "[entries]"]
        lines += [f'"{entry_key(combo)}" = "{name}"' for name, combo in entries]
    return "\n".join(lines) + "\n"


def render_launch(t: Translator, spec: KernelSpec, op_name: str, fn_name: str, entry: str,
                  cparams: str) -> str:
    """A `fn <fn_name><T>(call, constants..)` launching `entry` (the translator's outputs)."""
    arrays, scalars, consts = spec.arrays, spec.scalars, spec.constants
    cvars = [c.name.lower() for c in consts]
    mod = f"{op_name}_port"
    loads = []
    args = []
    for i, p in enumerate(arrays):
        if p.name in t.outputs:
            loads.append(f"    let {p.name} = call.output::<T>({i})?;")
            dims = ", ".join(d.lower() if not d.isdigit() else d
                             for d in t.outputs[p.name]["shape"])
            args.append((p.name, f"{p.name}.partition([{dims}])"))
        else:
            loads.append(f"    let {p.name} = call.input::<T>({i})?;")
            args.append((p.name, p.name))
    for k, p in enumerate(scalars):
        rust = t.env[p.name].kind.dtype
        loads.append(f"    let {p.name} = call.scalars[{k}] as {rust};")
        args.append((p.name, p.name))
    order = {p.name: i for i, p in enumerate(spec.params)}
    args.sort(key=lambda a: order[a[0]])
    generics = ", ".join(["T::DTYPE.as_str().to_string()"] + [f"{c}.to_string()" for c in cvars])
    outs = [p for p in arrays if p.name in t.outputs]
    grid = (f"    // {outs[0].name} partitioned by its stored tile: the grid is its tile count "
            "(check it against kernel.py's grid())") if outs else "    // no output"
    return f"""fn {fn_name}<T: DType>(call: &Call{cparams}) -> Result<(), Error> {{
{chr(10).join(loads)}
    let generics = vec![{generics}];
{grid}
    unsafe {{
        {mod}::{entry}({', '.join(a[1] for a in args)})
            .generics(generics)
            .async_on(&call.stream)
    }}
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}}"""


def render_dispatch(entries: list[tuple[str, Translator, dict]], spec: KernelSpec,
                    op_name: str, cparams: str, cargs: str) -> str:
    """`launch<T>` choosing the split entry by the tested constants' values."""
    index = {c.name: i for i, c in enumerate(spec.constants)}
    tested = list(entries[0][2])
    key = "(" + ", ".join(f"call.consts[{index[c]}]" for c in tested) + ",)"
    arms = []
    for name, _, combo in entries:
        pattern = "(" + ", ".join(f"{int(combo[c])}" for c in tested) + ",)"
        arms.append(f"        {pattern} => launch_{name}::<T>(call{cargs}),")
    shown = ", ".join(f"{c}={{}}" for c in tested)
    values = ", ".join(f"call.consts[{index[c]}]" for c in tested)
    return f"""/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch<T: DType>(call: &Call{cparams}) -> Result<(), Error> {{
    match {key} {{
{chr(10).join(arms)}
        _ => Err(set_error(Error::BadArgument, format!("{op_name}: {shown} has no entry in the port", {values}))),
    }}
}}"""


def render_lib(entries: list[tuple[str, Translator, dict]], spec: KernelSpec,
               op_name: str) -> str:
    """`entries`: (entry name, translator, constant assignment); one with {} when unsplit."""
    t = entries[0][1]
    arrays, scalars, consts = spec.arrays, spec.scalars, spec.constants
    cvars = [c.name.lower() for c in consts]
    power_of_two = all(isinstance(v, int) and v > 0 and v & (v - 1) == 0
                       for c in consts for v in c.values)
    mod = f"{op_name}_port"
    sig = ", ".join(p.name for p in spec.params)
    checks = [f"        call.rank({i}, {p.rank})?;" for i, p in enumerate(arrays)]
    if consts:
        if power_of_two:
            reads = ", ".join(f"call.tile({i})?" for i in range(len(consts)))
        else:
            reads = ", ".join(f"call.consts[{i}] as usize" for i in range(len(consts)))
        if len(consts) == 1:
            checks.append(f"        let {cvars[0]} = {reads};")
        else:
            checks.append(f"        let ({', '.join(cvars)}) = ({reads});")
    cargs = "".join(f", {c}" for c in cvars)
    cparams = "".join(f", {c}: usize" for c in cvars)
    arms = []
    for d in case_dtypes(spec):
        if d in FFI_DTYPES:
            const, rust = FFI_DTYPES[d]
            arms.append(f"            {const} => launch::<{rust}>(&call{cargs}),")
    if len(entries) == 1 and not entries[0][2]:
        launchers = render_launch(t, spec, op_name, "launch", spec.kernel_name, cparams)
    else:
        launchers = "\n\n".join(
            [render_dispatch(entries, spec, op_name, cparams, cargs)]
            + [render_launch(et, spec, op_name, f"launch_{name}", name, cparams)
               for name, et, _ in entries])
    return f"""//! The {op_name} port and its C ABI: `wb_{op_name}` launches, `wb_{op_name}_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{{bf16, f16}};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error}};

pub use kernel::{mod};

wb_ffi::port! {{
    /// {spec.kernel_name}({sig}): tensors [{', '.join(p.name for p in arrays)}], scalars [{', '.join(p.name for p in scalars)}], constants [{', '.join(c.name for c in consts)}].
    wb_{op_name}, wb_{op_name}_emit, wb_{op_name}_build_id, {mod};
    op "{op_name}", tensors {len(arrays)}, scalars {len(scalars)}, consts {len(consts)};
    |call| {{
{chr(10).join(checks)}
        match call.dtype()? {{
{chr(10).join(arms)}
            other => call.bad_dtype(other),
        }}
    }}
}}

{launchers}
"""
