"""kernel.rs: one `#[cutile::entry]` fn per translated entry, in one `#[cutile::module]`."""
from __future__ import annotations

from ..analyze import ARRAY, SCALAR, KernelSpec
from .branches import entry_key
from .core import Translator
from .values import shape_text

def render_entry(t: Translator, spec: KernelSpec, name: str) -> list[str]:
    """One `#[cutile::entry]` fn, indented for the module."""
    consts = [p.name for p in spec.constants]
    generics = ", ".join(["E: ElementType"] + [f"const {c}: i32" for c in consts])
    params = []
    for p in spec.params:
        if p.kind == ARRAY:
            out = t.outputs.get(p.name)
            if out is None:
                params.append(f"{p.name}: &Tensor<E, {{ [{', '.join(['-1'] * (p.rank or 0))}] }}>")
            else:       # static and indexed: a launch partitions it by the tile shape
                params.append(f"{p.name}: &mut Tensor<E, {{ [{shape_text(out['shape'])}] }}>")
        elif p.kind == SCALAR:
            params.append(f"{p.name}: {t.env[p.name].kind.dtype}")
    body: list[str] = []
    arrays = [p.name for p in spec.arrays]
    if t.loops == 0 and len(arrays) > 1:
        body.append("// One ordering token for every array, as cuTile Python threads its entry")
        body.append("// token through all loads and stores.")
        body.append(f"let entry_token: Token = {arrays[0]}.token();")
        body.append("unsafe {")
        body += [f"    {a}.set_token(entry_token);" for a in arrays[1:]]
        body.append("}")
    for s in t.blocks[0]:
        body += s.render("")
    attr = entry_attribute(t.unchecked, spec.hints)
    fn = "pub unsafe fn" if t.unchecked else "pub fn"
    lines = [f"    // NOTE {note}" for note in t.notes]
    if t.const_values:
        lines.append(f"    // The specialization {entry_key(t.const_values)}: its constant branches "
                     "folded away.")
    lines.append(f"    {attr}")
    lines.append(f"    {fn} {name}<{generics}>(")
    lines += [f"        {p}," for p in params]
    lines.append("    ) {")
    lines += ["        " + b if b else "" for b in body]
    lines.append("    }")
    return lines


HINT_GPUS = ("sm_90", "sm_100")   # cuTile Python's hints apply to every GPU; cutile names each


def entry_attribute(unchecked: bool, hints: dict[str, int]) -> str:
    parts = ["unchecked_accesses = true"] if unchecked else []
    if hints:
        per_gpu = "(" + ", ".join(f"{k} = {v}" for k, v in sorted(hints.items())) + ",)"
        parts.append("optimization_hints = (" + ", ".join(f"{gpu} = {per_gpu}"
                                                          for gpu in HINT_GPUS) + ",)")
    return f"#[cutile::entry({', '.join(parts)})]"


def render_kernel(entries: list[tuple[str, Translator]], spec: KernelSpec, op_name: str) -> str:
    lines = [
        f"//! Drafted by workbench/port/rules from {spec.filename} ({spec.kernel_name}); "
        "review before use.",
        "#![allow(unused_unsafe, unused_variables, unused_mut)]",
        "#[cutile::module]",
        f"pub mod {op_name}_port {{",
        "    use cutile::core::*;",
        "",
    ]
    for i, (name, t) in enumerate(entries):
        if i:
            lines.append("")
        lines += render_entry(t, spec, name)
    lines += ["}", ""]
    return "\n".join(lines)

