"""src/lib.rs of a drafted port: the C ABI through wb_ffi's `port!` macro, holding only what is
particular to the port: its rank and dtype checks, the dtype dispatch (one arm per dtype
combination of the generic element types in the cases), the entry chosen by the split
constants, and the launch."""
from __future__ import annotations

from ..analyze import KernelSpec
from .core import Translator
from ...rust.ffi import const_word
from .launch_form import LAUNCH_SLOTS, partitioned, takes_launch
from .dtypes import ARGSPEC_OF
from .render_toml import array_dtypes
from .types import KernelTypes

# argspec dtype -> (wb_ffi code constant, Rust type)
FFI_DTYPES = {"f32": ("DTYPE_F32", "f32"), "f16": ("DTYPE_F16", "f16"),
              "bf16": ("DTYPE_BF16", "bf16"), "f64": ("DTYPE_F64", "f64"),
              "i64": ("DTYPE_I64", "i64"), "i32": ("DTYPE_I32", "i32"),
              "i16": ("DTYPE_I16", "i16"), "i8": ("DTYPE_I8", "i8"), "u8": ("DTYPE_U8", "u8"),
              "u16": ("DTYPE_U16", "u16"), "u32": ("DTYPE_U32", "u32"),
              "u64": ("DTYPE_U64", "u64"),
              "bool": ("DTYPE_BOOL", "bool"), "f8e4m3": ("DTYPE_F8E4M3", "f8e4m3fn"),
              "f8e5m2": ("DTYPE_F8E5M2", "f8e5m2")}
SCALAR_FROM_F64 = {"f32": "{v} as f32", "f64": "{v}", "i32": "{v} as i32", "i64": "{v} as i64",
                   "i16": "{v} as i16", "i8": "{v} as i8", "u8": "{v} as u8", "u16": "{v} as u16",
                   "u32": "{v} as u32", "u64": "{v} as u64", "bool": "{v} != 0.0",
                   "f16": "f16::from_f64({v})", "bf16": "bf16::from_f64({v})"}


def const_var(spec: KernelSpec, name: str) -> str:
    """The launcher's variable for a constant: its lowercase name, unless a parameter (or a
    Rust keyword) has that name."""
    taken = {p.name for p in spec.params if p.kind != "constant"} | {"call", "type", "fn", "mod"}
    low = name.lower()
    return low if low not in taken else f"{low}_const"


def generic_params(types: KernelTypes) -> str:
    return ", ".join(f"{g}: DType" for g, _ in types.generics)


def element(types: KernelTypes, spec: KernelSpec, name: str) -> str:
    return types.array_generic(name)


def render_launch(t: Translator, spec: KernelSpec, op_name: str, fn_name: str, entry: str,
                  cparams: str, launch: bool = False) -> str:
    """A `fn <fn_name><E..>(call, constants..)` launching `entry` (the translator's outputs);
    `launch`: on the caller's grid and hints (the constants after the kernel's own)."""
    types = t.types
    loads, args = [], []
    for i, p in enumerate(spec.arrays):
        elem = element(types, spec, p.name)
        if partitioned(t, p.name):
            loads.append(f"    let {p.name} = call.output::<{elem}>({i})?;")
            dims = ", ".join(const_var(spec, d) if not d.isdigit() else d
                             for d in t.state.outputs[p.name]["shape"])
            args.append((p.name, f"{p.name}.partition([{dims}])"))
        else:
            loads.append(f"    let {p.name} = call.input::<{elem}>({i})?;")
            args.append((p.name, p.name))
    for k, p in enumerate(spec.scalars):
        dt = ARGSPEC_OF.get(types.scalar[p.name].uniform or "", "f32")
        loads.append(f"    let {p.name} = {SCALAR_FROM_F64.get(dt, '{v} as f32').format(v=f'call.scalars[{k}]')};")
        args.append((p.name, p.name))
    order = {p.name: i for i, p in enumerate(spec.params)}
    args.sort(key=lambda a: order[a[0]])
    index = {c.name: i for i, c in enumerate(spec.constants)}
    # a float constant travels as its f64's bits (const_word); the entry takes its f32 bits
    generics = ", ".join([f"{g}::DTYPE.as_str().to_string()" for g, _ in types.generics]
                         + [f"{const_var(spec, c.name)}.to_string()" for c in t.generic_constants()]
                         + [f"((f64::from_bits(call.consts[{index[c.name]}] as u64) as f32)"
                            ".to_bits() as i32).to_string()" for c in t.bits_constants()])
    outs = [p for p in spec.arrays if partitioned(t, p.name)]
    if launch:
        grid = (f"    // the caller's grid and hints (port.toml launch = true): cutile checks "
                "them against every partitioned output\n"
                f"    let caller = call.launch_at({len(spec.constants)})?;")
    else:
        grid = (f"    // {outs[0].name} partitioned by its stored tile: the grid is its tile count "
                "(check it against kernel.py's grid())")
    on_grid = ("\n            .grid(caller.grid)\n            .compile_options(caller.options)"
               if launch else "\n            .compile_options(call.options())")
    gp = generic_params(types)
    return f"""fn {fn_name}{'<' + gp + '>' if gp else ''}(call: &Call{cparams}) -> Result<(), Error> {{
{chr(10).join(loads)}
    let generics{': Vec<String>' if not generics else ''} = vec![{generics}];
{grid}
    unsafe {{
        {op_name}_port::{entry}({', '.join(a[1] for a in args)})
            .generics(generics){on_grid}
            .async_on(&call.stream)
    }}
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}}"""


def render_dispatch(entries: list[tuple[str, Translator, dict]], spec: KernelSpec,
                    op_name: str, cparams: str, cargs: str, types: KernelTypes) -> str:
    """`launch<E..>` choosing the split entry by the tested constants' values."""
    index = {c.name: i for i, c in enumerate(spec.constants)}
    arrays = {p.name: i for i, p in enumerate(spec.arrays)}
    tested = list(entries[0][2])

    def reader(c):
        if c.startswith("dtype("):
            return f"call.dtype_of({arrays[c[6:-1]]})"
        return f"call.consts[{index[c]}]"

    def pattern_of(c, v):
        # a constant travels as the C call's i64 (a float as its f64's bits: const_word)
        return f"wb_ffi::{FFI_DTYPES[v][0]}" if c.startswith("dtype(") else str(const_word(v))
    key = "(" + ", ".join(reader(c) for c in tested) + ",)"
    turbofish = "::<" + ", ".join(g for g, _ in types.generics) + ">" if types.generics else ""
    arms = []
    for name, _, combo in entries:
        pattern = "(" + ", ".join(pattern_of(c, combo[c]) for c in tested) + ",)"
        arms.append(f"        {pattern} => launch_{name}{turbofish}(call{cargs}),")
    shown = ", ".join(f"{c}={{}}" for c in tested)
    values = ", ".join(reader(c) for c in tested)
    gp = generic_params(types)
    return f"""/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch{'<' + gp + '>' if gp else ''}(call: &Call{cparams}) -> Result<(), Error> {{
    match {key} {{
{chr(10).join(arms)}
        _ => Err(set_error(Error::BadArgument, format!("{op_name}: {shown} has no entry in the port", {values}))),
    }}
}}"""


def const_type(c) -> str:
    """How the host holds a constant: usize (tile sizes, counts), or i64 where a case gives
    it a negative value (`ignore_index=-100`), which `as usize` would wrap."""
    return "i64" if any(type(v) is int and v < 0 for v in c.values) else "usize"


def constant_checks(spec: KernelSpec) -> list[str]:
    consts = spec.constants
    if not consts:
        return []
    cvars = [const_var(spec, c.name) for c in consts]

    def tile_sized(c):
        return all(type(v) is int and v > 0 and v & (v - 1) == 0 for v in c.values)
    every = all(tile_sized(c) for c in consts)
    reads = ", ".join(f"call.tile({i})?" if every else f"call.consts[{i}]" if
                      const_type(c) == "i64" else f"call.consts[{i}] as usize"
                      for i, c in enumerate(consts))
    if len(consts) == 1:
        return [f"        let {cvars[0]} = {reads};"]
    return [f"        let ({', '.join(cvars)}) = ({reads});"]


def dtype_dispatch(spec: KernelSpec, types: KernelTypes, cargs: str,
                   by_dtype: bool = False) -> list[str]:
    """The checks and the match that pick the launch's element types (`by_dtype`: entries
    per dtype, which the entry dispatch picks)."""
    arrays = spec.arrays
    index = {p.name: i for i, p in enumerate(arrays)}
    if len(types.generics) == 1 and not by_dtype and all(types.array[p.name] == types.generics[0][1] for p in arrays):
        arms = [f"            {FFI_DTYPES[d][0]} => launch::<{FFI_DTYPES[d][1]}>(&call{cargs}),"
                for d in array_dtypes(spec, arrays[0].name) if d in FFI_DTYPES]
        return ["        match call.dtype()? {"] + arms + \
            ["            other => call.bad_dtype(other),", "        }"]
    lines = []
    reps = []
    for g, dt in types.generics:
        members = [p.name for p in arrays if types.array[p.name] == dt]
        reps.append(index[members[0]])
        lines += [f"        call.same_dtype({index[m]}, {index[members[0]]})?;" for m in members[1:]]
    for p in arrays:
        if types.array[p.name].uniform is not None and types.generic_of(types.array[p.name]) is None:
            d = array_dtypes(spec, p.name)[0]
            lines.append(f"        call.require_dtype({index[p.name]}, wb_ffi::{FFI_DTYPES[d][0]})?;")
    if not types.generics or by_dtype:
        return lines + [f"        launch(&call{cargs})"]
    arms = []
    for combo in types.combos:
        codes, rusts = [], []
        for g, dt in types.generics:
            member = next(p.name for p in arrays if types.array[p.name] == dt)
            d = ARGSPEC_OF[combo[member]]
            codes.append(f"wb_ffi::{FFI_DTYPES[d][0]}")
            rusts.append(FFI_DTYPES[d][1])
        arm = f"            ({', '.join(codes)},) => launch::<{', '.join(rusts)}>(&call{cargs}),"
        if arm not in arms:
            arms.append(arm)
    key = "(" + ", ".join(f"call.dtype_of({i})" for i in reps) + ",)"
    return lines + [f"        match {key} {{"] + arms + \
        ["            other => call.bad_dtypes(&[" + ", ".join(f"other.{k}" for k in range(len(reps))) + "]),",
         "        }"]


def render_lib(entries: list[tuple[str, Translator, dict]], spec: KernelSpec,
               op_name: str, op: str | None = None) -> str:
    """`entries`: (entry name, translator, constant assignment); one with {} when unsplit.
    `op_name` spells the port's identifiers (symbols, module), `op` the operator's name."""
    t = entries[0][1]
    types = t.types
    full = KernelTypes.of(spec)
    by_dtype = any(k.startswith("dtype(") for k in entries[0][2])
    arrays, scalars, consts = spec.arrays, spec.scalars, spec.constants
    cvars = [const_var(spec, c.name) for c in consts]
    mod = f"{op_name}_port"
    sig = ", ".join(p.name for p in spec.params)
    checks = [f"        call.rank({i}, {p.rank})?;" for i, p in enumerate(arrays)]
    checks += constant_checks(spec)
    cargs = "".join(f", {c}" for c in cvars)
    cparams = "".join(f", {v}: {const_type(c)}" for v, c in zip(cvars, consts))
    launch = takes_launch([et for _, et, _ in entries])
    if len(entries) == 1 and not entries[0][2]:
        launchers = render_launch(t, spec, op_name, "launch", spec.kernel_name, cparams, launch)
    else:
        launchers = "\n\n".join(
            [render_dispatch(entries, spec, op_name, cparams, cargs, types)]
            + [render_launch(et, spec, op_name, f"launch_{name}", name, cparams, launch)
               for name, et, _ in entries])
    n_consts = len(consts) + (LAUNCH_SLOTS if launch else 0)
    caller = ", then the launch (grid x, y, z, occupancy, num_ctas, num_worker_warps)" \
        if launch else ""
    narrow = narrow_float_imports(launchers)
    return f"""//! The {op_name} port and its C ABI: `wb_{op_name}` launches, `wb_{op_name}_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{{bf16, f16}};{narrow}
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error}};

pub use kernel::{mod};

wb_ffi::port! {{
    /// {spec.kernel_name}({sig}): tensors [{', '.join(p.name for p in arrays)}], scalars [{', '.join(p.name for p in scalars)}], constants [{', '.join(c.name for c in consts)}]{caller}.
    wb_{op_name}, wb_{op_name}_emit, wb_{op_name}_build_id, {mod};
    op "{op or op_name}", tensors {len(arrays)}, scalars {len(scalars)}, consts {n_consts};
    |call| {{
{chr(10).join(checks + dtype_dispatch(spec, full, cargs, by_dtype))}
    }}
}}

{launchers}
"""


FP8_TYPES = ("f8e4m3fn", "f8e5m2")


def narrow_float_imports(launchers: str) -> str:
    """The fp8 element types the host code names: cutile's prelude has none (cutile::core)."""
    used = [t for t in FP8_TYPES if f"<{t}>" in launchers]
    return f"\nuse cutile::core::{{{', '.join(used)}}};" if used else ""
