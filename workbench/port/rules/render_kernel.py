"""kernel.rs: one `#[cutile::entry]` fn per translated entry, in one `#[cutile::module]`, with
the helper fns the entries need (tensor strides for gather/scatter)."""
from __future__ import annotations

from ...operators import display_path
from ..analyze import ARRAY, SCALAR, KernelSpec
from .branches import entry_key
from .core import Translator
from .launch_form import partitioned
from .ops_gather import HELPERS
from .values import bits_generic, shape_text


def entry_params(t: Translator, spec: KernelSpec) -> list[str]:
    params = []
    for p in spec.params:
        if p.kind == ARRAY:
            elem = t.types.array_generic(p.name)
            if not partitioned(t, p.name):      # an input, or an output written through its full view
                params.append(f"{p.name}: &Tensor<{elem}, {{ [{', '.join(['-1'] * (p.rank or 0))}] }}>")
            else:       # stored at the program's own tile: a launch partitions it by that tile
                params.append(f"{p.name}: &mut Tensor<{elem}, {{ [{shape_text(t.state.outputs[p.name]['shape'])}] }}>")
        elif p.kind == SCALAR:
            params.append(f"{p.name}: {t.rust_dtype(t.state.env[p.name].kind.dtype)}")
    return params


def shared_token(spec: KernelSpec, t: Translator) -> list[str]:
    arrays = [p.name for p in spec.arrays]
    if t.state.loops or len(arrays) < 2:
        return []
    return ["// One ordering token for every array, as cuTile Python threads its entry",
            "// token through all loads and stores.",
            f"let entry_token: Token = {arrays[0]}.token();",
            "unsafe {"] + [f"    {a}.set_token(entry_token);" for a in arrays[1:]] + ["}"]


def render_entry(t: Translator, spec: KernelSpec, name: str) -> list[str]:
    """One `#[cutile::entry]` fn, indented for the module."""
    generics = [f"{g}: ElementType" for g, _ in t.types.generics] + \
        [f"const {c.name}: i32" for c in t.generic_constants()] + \
        [f"const {bits_generic(c.name)}: i32" for c in t.bits_constants()]
    body = shared_token(spec, t)
    for s in t.state.prologue + t.state.blocks[0]:
        body += s.render("")
    attr = entry_attribute(t.state.unchecked, spec.hints, getattr(spec, "target_hints", {}))
    fn = "pub unsafe fn" if t.state.unchecked else "pub fn"
    lines = [f"    // NOTE {note}" for note in t.state.notes]
    for c in t.bits_constants():
        lines.append(f"    // {bits_generic(c.name)}: the f32 bits of the float constant {c.name} "
                     "(const generics are integers); one entry serves every value.")
    if t.const_values:
        lines.append(f"    // The specialization {entry_key(t.const_values)}: its constant branches "
                     "folded away.")
    lines.append(f"    {attr}")
    lines.append(f"    {fn} {name}{'<' + ', '.join(generics) + '>' if generics else ''}(")
    lines += [f"        {p}," for p in entry_params(t, spec)]
    lines.append("    ) {")
    lines += ["        " + b if b else "" for b in body]
    lines.append("    }")
    return lines


HINT_GPUS = ("sm_90", "sm_100")   # cuTile Python's hints apply to every GPU; cutile names each


def entry_attribute(unchecked: bool, hints: dict[str, int],
                    target_hints: dict[str, dict[str, int]] | None = None) -> str:
    parts = ["unchecked_accesses = true"] if unchecked else []
    target_hints = target_hints or {}
    per_gpu = {}
    for gpu in HINT_GPUS:
        # cuTile writes ct.ByTarget per GPU as its own dict, which replaces the default one
        # (the default dict holds the plain hints and ByTarget's `default=`)
        if gpu in target_hints:
            merged = dict(target_hints[gpu])
        else:
            merged = dict(hints)
            merged.update(target_hints.get("default", {}))
        if merged:
            per_gpu[gpu] = "(" + ", ".join(f"{k} = {v}" for k, v in sorted(merged.items())) + ",)"
    if per_gpu:
        parts.append("optimization_hints = (" + ", ".join(f"{gpu} = {h}"
                                                          for gpu, h in per_gpu.items()) + ",)")
    return f"#[cutile::entry({', '.join(parts)})]"


def render_kernel(entries: list[tuple[str, Translator]], spec: KernelSpec, op_name: str) -> str:
    lines = [
        f"//! Drafted by workbench/port/rules from {display_path(spec.filename)} ({spec.kernel_name}); "
        "review before use.",
        "#![allow(unused_unsafe, unused_variables, unused_mut)]",
        "#[cutile::module]",
        f"pub mod {op_name}_port {{",
        "    use cutile::core::*;",
        "",
    ]
    for kind, rank in sorted({h for _, t in entries for h in t.state.helpers}):
        lines += [HELPERS[kind](rank), ""]
    for i, (name, t) in enumerate(entries):
        if i:
            lines.append("")
        lines += render_entry(t, spec, name)
    lines += ["}", ""]
    return "\n".join(lines)
