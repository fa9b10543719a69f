"""The drafter's entry points: a KernelSpec and its source -> a Draft (the four port files and
every construct refused, by line)."""
from __future__ import annotations

import ast

from ...operators import display_path
from ...sources.package import source_file
from ..analyze import KernelSpec
from ..drafters import Diagnostic, Draft
from .branches import const_branch_names, entry_combinations, entry_name
from .core import Translator
from .module_scope import ModuleScope
from .ops_memory import settle_unchecked
from .divisibility import state_divisibility
from .passes import drop_empty_for_loops, eliminate_dead_lets, fuse_fma
from .tiled_view import desugar as desugar_tiled_views
from .token_dce import eliminate_dead_tokens
from .render_kernel import render_kernel
from .render_lib import FFI_DTYPES, render_lib
from .render_toml import render_cargo, render_port_toml
from .launch_form import partition_names, takes_launch
from .types import KernelTypes
from .dtypes import ARGSPEC_OF
from .values import NeedConstants, NeedDtypes, is_float_constant
from ...rust.library import symbol_stem

MAX_SPLITS = 8


def check_spec(spec: KernelSpec, diag, if_lines: set[int] = frozenset()) -> None:
    """What the analysis already tells: problems, missing arrays, constants and dtypes the
    port cannot take."""
    for problem in spec.problems:
        diag(problem["line"], problem["construct"], problem["message"])
    if not spec.arrays:
        diag(spec.line, "parameters", "the kernel has no array parameter")
    for c in spec.constants:
        if any(v is None for v in c.values):
            diag(c.line, "ct.Constant", f"{c.name} has no value in every case ({c.values})")
        elif not all(isinstance(v, (int, float)) for v in c.values):
            diag(c.line, "ct.Constant", f"{c.name} is not a number or bool in every case "
                                        f"({c.values})")
    for s in spec.specializations:
        dtypes = {s.dtypes[p.name] for p in spec.arrays if p.name in s.dtypes}
        for d in sorted(dtypes - set(FFI_DTYPES)):
            diag(spec.line, "dtypes", f"case {s.case} uses {d}; the C ABI ports "
                                      f"{', '.join(FFI_DTYPES)}")


def is_int_constant(c) -> bool:
    """A ct.Constant that is an integer in every case: a `const NAME: i32` generic."""
    return all(type(v) is int for v in c.values)


def kernel_fn(spec: KernelSpec, source: str) -> tuple[ast.FunctionDef, ModuleScope]:
    tree = desugar_tiled_views(ast.parse(source, spec.filename))
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef)
               and n.name == spec.kernel_name), None)
    if fn is None:
        raise ValueError(f"{spec.filename}: no function {spec.kernel_name!r}")
    return fn, ModuleScope.of(tree, source_file(spec.filename))


def entry_keys(spec: KernelSpec, types: KernelTypes, tested: list[str], by_dtype: bool):
    """(key, constant values, types) per entry: the distinct combinations, in case order, of
    the tested constants' values and (when split by dtype) the generic groups' dtypes."""
    if not by_dtype:
        combos = entry_combinations(spec, tested) if tested else []
        return [(c, c, types) for c in combos] or [({}, {}, types)]
    out, seen = [], []
    for s in spec.specializations:
        index = next(i for i, c in enumerate(types.combos)
                     if all(s.dtypes.get(n) in (None, ARGSPEC_OF.get(d, d)) for n, d in c.items()))
        consts = {c: s.constants.get(c) for c in tested}
        key = {**types.dtype_key(index), **consts}
        if key not in seen:
            seen.append(key)
            out.append((key, consts, types.restrict(index)))
    return out


def translate_once(spec, fn, scope, types, tested, by_dtype=False, unchecked=False):
    """`unchecked`: every entry is unchecked_accesses (the fix for a bounds assert cutile
    adds where cuTile Python pads: RulesDrafter.fix)."""
    out = []
    for key, consts, entry_types in entry_keys(spec, types, tested, by_dtype):
        t = Translator(spec, fn, scope, consts, entry_types)
        if unchecked:
            t.state.unchecked = True
            t.state.notes.append(UNCHECKED_BY_FIX)
        t.run()
        settle_unchecked(t)
        blocks = [t.state.prologue, t.state.blocks[0]]
        eliminate_dead_lets(blocks)     # cuTile fuses after its dead code elimination
        fuse_fma(blocks, t.fresh)
        eliminate_dead_tokens(blocks, set(t.state.token_vars.values()) | set(t.state.stored_vars.values()),
                              t.fresh)
        drop_empty_for_loops(blocks)
        eliminate_dead_lets(blocks)
        state_divisibility(blocks, t.const_values, t.state.generic_ints)
        out.append((entry_name(spec.kernel_name, key) if key else spec.kernel_name, t, key))
    return out


def translate_entries(spec: KernelSpec, source: str,
                      unchecked: bool = False) -> list[tuple[str, Translator, dict]]:
    """(entry name, translator, constant assignment) per entry: one, named after the kernel
    and with {}, unless the kernel needs constants' values at draft time (`if` on constants,
    `check_bounds=TILE != N`, ..); then one per combination of those values in the cases."""
    fn, scope = kernel_fn(spec, source)
    types = KernelTypes.of(spec)
    tested = const_branch_names(fn, [c.name for c in spec.constants])
    # a bool constant is no const generic: every entry fixes its value (a float one is
    # an f32-bits generic, split only where a use needs its value)
    tested = [c.name for c in spec.constants
              if c.name in tested or not (is_int_constant(c) or is_float_constant(c))]
    by_dtype = False
    for _ in range(MAX_SPLITS):
        try:
            return translate_once(spec, fn, scope, types, tested, by_dtype, unchecked)
        except NeedDtypes:
            if by_dtype or not types.generics:
                raise
            by_dtype = True
        except NeedConstants as need:
            new = [n for n in need.names if n not in tested]
            if not new:
                raise
            order = [c.name for c in spec.constants]
            tested = [c for c in order if c in set(tested) | set(new)]
    raise RuntimeError("constant splitting did not settle")


def translate(spec: KernelSpec, source: str) -> Translator:
    """The first entry's translation (the only one for a kernel without constant branches)."""
    return translate_entries(spec, source)[0][1]


def store_shapes(spec: KernelSpec, source: str) -> dict[int, list[str]]:
    """The tile shape of each ct.store (by line), from the drafter's type inference (over
    every entry when constant branches split the kernel)."""
    shapes: dict[int, list[str]] = {}
    for _, t, _ in translate_entries(spec, source):
        for line, shape in t.state.store_shapes.items():
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
        for d in t.state.diagnostics:
            add(d)
        where = f" (entry {name})" if combo else ""
        if not t.state.outputs and not t.state.scattered and not t.state.diagnostics:
            add(Diagnostic(spec.line, "ct.store", f"the kernel stores nothing{where}"))
        notes += [n for n in t.state.notes if n not in notes]
    return notes


UNCHECKED_BY_FIX = ("unchecked_accesses: cutile bounds-checks an access it cannot prove in "
                    "range with an assert cuTile Python does not make (it pads), which the IR "
                    "diff found; the launcher must keep the arrays large enough")


def draft(spec: KernelSpec, source: str, op_name: str, unchecked: bool = False) -> Draft:
    diagnostics: list[Diagnostic] = []
    check_spec(spec, lambda line, c, m: diagnostics.append(Diagnostic(line, c, m)))
    try:
        entries = translate_entries(spec, source, unchecked)
    except NeedConstants as need:
        diagnostics.append(Diagnostic(need.line, "ct.Constant", f"{need.what}: needs the values "
                                      f"of {', '.join(need.names)}, which the cases do not give"))
        return Draft(files={}, diagnostics=diagnostics)
    except NeedDtypes as need:
        diagnostics.append(Diagnostic(need.line, "dtype", f"{need.what}: no dtype fixes it"))
        return Draft(files={}, diagnostics=diagnostics)
    notes = entry_diagnostics(entries, spec, diagnostics)
    diagnostics.sort(key=lambda d: d.line)
    split = [(name, combo) for name, _, combo in entries if combo] or None
    types = entries[0][1].types
    translators = [t for _, t, _ in entries]
    launch = takes_launch(translators)
    ident = symbol_stem(op_name)       # a catalog entry's dots are no Rust identifier
    where = f"{display_path(spec.filename)}:{spec.kernel_name}"
    files = {"Cargo.toml": render_cargo(ident, where),
             "port.toml": render_port_toml(spec, ident, types, split, launch,
                                           partition_names(spec, translators),
                                           _abi_promises(translators),
                                           [c.name for c in translators[0].bits_constants()])
             if spec.arrays else "",
             "src/kernel.rs": render_kernel([(name, t) for name, t, _ in entries], spec,
                                            ident),
             "src/lib.rs": render_lib(entries, spec, ident, op=op_name)}
    return Draft(files=files, diagnostics=diagnostics, notes=notes)


def _abi_promises(translators) -> dict[str, set[str]]:
    """array -> what every entry's code assumes of it and wb_ffi checks (port.toml)."""
    out: dict[str, set[str]] = {}
    for t in translators:
        for name, promises in t.state.abi_promises.items():
            out.setdefault(name, set()).update(promises)
    return out
