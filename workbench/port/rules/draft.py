"""The drafter's entry points: a KernelSpec and its source -> a Draft (the four port files and
every construct refused, by line)."""
from __future__ import annotations

import ast

from ..drafters import Diagnostic, Draft
from ..analyze import KernelSpec
from .branches import const_branch_names, entry_combinations, entry_name
from .core import Translator
from .render_host import FFI_DTYPES, render_cargo, render_lib, render_port_toml
from .render_kernel import render_kernel


def check_spec(spec: KernelSpec, diag, if_lines: set[int] = frozenset()) -> None:
    """What the analysis already tells: problems, missing arrays, constants and dtypes the
    port cannot take."""
    for problem in spec.problems:
        diag(problem["line"], problem["construct"], problem["message"])
    if not spec.arrays:
        diag(spec.line, "parameters", "the kernel has no array parameter")
    for c in spec.constants:
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in c.values):
            diag(c.line, "ct.Constant", f"{c.name} is not an integer in every case "
                                        f"({c.values}); only integer constants are ported")
    for s in spec.specializations:
        dtypes = {s.dtypes[p.name] for p in spec.arrays if p.name in s.dtypes}
        if len(dtypes) > 1:
            diag(spec.line, "dtypes", f"case {s.case} mixes array dtypes {sorted(dtypes)}; the "
                                      "port has one element type E")
        for d in dtypes - set(FFI_DTYPES):
            diag(spec.line, "dtypes", f"case {s.case} uses {d}; the C ABI ports f32/f16/bf16")
    # constant branches: `if` statements are split into entries (or reported) by the
    # translator; a conditional expression is not
    for b in spec.const_branches:
        if b.line in if_lines:
            continue
        diag(b.line, "if", f"branch on constant(s) {', '.join(b.constants)} (`{b.condition}`): "
                           "a conditional expression is not split into entries")


def kernel_fn(spec: KernelSpec, source: str) -> ast.FunctionDef:
    tree = ast.parse(source, spec.filename)
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef)
               and n.name == spec.kernel_name), None)
    if fn is None:
        raise ValueError(f"{spec.filename}: no function {spec.kernel_name!r}")
    return fn


def translate_entries(spec: KernelSpec, source: str) -> list[tuple[str, Translator, dict]]:
    """(entry name, translator, constant assignment) per entry: one, named after the kernel
    and with {}, unless `if` statements test constants; then one per value combination."""
    fn = kernel_fn(spec, source)
    tested = const_branch_names(fn, [c.name for c in spec.constants])
    combos = entry_combinations(spec, tested) if tested else []
    out = []
    for combo in combos or [{}]:
        t = Translator(spec, fn, combo)
        t.run()
        out.append((entry_name(spec.kernel_name, combo) if combo else spec.kernel_name, t, combo))
    return out


def translate(spec: KernelSpec, source: str) -> Translator:
    """The first entry's translation (the only one for a kernel without constant branches)."""
    return translate_entries(spec, source)[0][1]


def store_shapes(spec: KernelSpec, source: str) -> dict[int, list[str]]:
    """The tile shape of each ct.store (by line), from the drafter's type inference (over
    every entry when constant branches split the kernel)."""
    shapes: dict[int, list[str]] = {}
    for _, t, _ in translate_entries(spec, source):
        for line, shape in t.store_shapes.items():
            shapes.setdefault(line, shape)
    return shapes


def entry_diagnostics(entries, spec: KernelSpec, diagnostics: list[Diagnostic]) -> list[str]:
    """Add each entry's diagnostics (once per line and construct) to `diagnostics`; return
    the entries' notes."""
    seen = {(d.line, d.construct) for d in diagnostics}
    notes: list[str] = []

    def add(d: Diagnostic):
        if (d.line, d.construct) not in seen:
            seen.add((d.line, d.construct))
            diagnostics.append(d)

    for name, t, combo in entries:
        for d in t.diagnostics:
            add(d)
        where = f" (entry {name})" if combo else ""
        if not t.outputs and not t.diagnostics:
            add(Diagnostic(spec.line, "ct.store", f"the kernel stores nothing{where}"))
        if len(t.outputs) > 1:
            add(Diagnostic(spec.line, "ct.store", f"{len(t.outputs)} outputs{where}; the "
                                                  "launcher takes its grid from one"))
        notes += [n for n in t.notes if n not in notes]
    return notes


def draft(spec: KernelSpec, source: str, op_name: str) -> Draft:
    diagnostics: list[Diagnostic] = []
    fn = kernel_fn(spec, source)
    if_lines = {n.lineno for n in ast.walk(fn) if isinstance(n, ast.If)}
    check_spec(spec, lambda line, c, m: diagnostics.append(Diagnostic(line, c, m)), if_lines)
    entries = translate_entries(spec, source)
    notes = entry_diagnostics(entries, spec, diagnostics)
    diagnostics.sort(key=lambda d: d.line)
    split = [(name, combo) for name, _, combo in entries if combo] or None
    files = {"Cargo.toml": render_cargo(op_name),
             "port.toml": render_port_toml(spec, op_name, split) if spec.arrays else "",
             "src/kernel.rs": render_kernel([(name, t) for name, t, _ in entries], spec,
                                            op_name),
             "src/lib.rs": render_lib(entries, spec, op_name)}
    return Draft(files=files, diagnostics=diagnostics, notes=notes)
