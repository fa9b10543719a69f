"""What a user names on the command line, in `%port` or in a notebook, made into an
Operator: a catalog operator (`softmax`), a kernel file (`path/kernel.py:KERNEL`), or a
module of an installed package (`tilegym.ops.cutile.softmax:_softmax_kernel_tma`).

    op = resolve_target("tilegym.ops.cutile.softmax:_softmax_kernel", ["f16[64,1000]", ...],
                        ["N=1000", "TILE_SIZE=1024"])

A kernel that is not in the catalog gets one case from `args`/`consts`; without them, a
kernel of the corpus manifest (kernels_src/corpus/) gets the manifest's cases, any other none.
It gets a port folder under runs/ports/ (or `out`): drafting never writes next to the user's
file or into kernels_src/. A target naming a kernel its file does not define is an error here,
before any verb runs.
"""
from __future__ import annotations

import ast
from pathlib import Path

from .argspec import parse_arg, parse_const, parse_grid
from .catalog import all_families, all_operators, get_operator
from .operators import PORTS_DIR, Case, Operator, display_path, draft_home
from .sources.corpus_manifest import corpus_entry
from .errors import WorkbenchError
from .sources.kernel import check_arguments, load_kernel
from .sources.locate import kernel_target, module_file  # noqa: F401  (re-exported)
from .sources.module import reduce_module
from .translate.targets import triton_target



def resolve_target(text: str, args: list[str] = (), consts: list[str] = (),
                   out: str | Path | None = None, grid: str | None = None) -> Operator:
    """The Operator `text` names; `out` is where its port goes (relative to the current
    directory), by default the catalog's port, runs/ports/<module>.<kernel>/port, or for a
    file runs/ports/<stem>.<kernel>-<hash of its path>/port (operators.draft_home); `grid`
    (`--grid X,Y,Z`) the launch grid of a kernel target's call.
    A `@triton.jit` kernel (or a name in kernels_src/triton/catalog.toml) is an Operator
    with language="triton": the pipeline translates it first (translate/)."""
    if grid is not None and not (args or consts):
        raise WorkbenchError("--grid goes with a kernel target's --arg/--const",
                             "name FILE.py:KERNEL with its --arg, then --grid")
    target = triton_target(text, list(args), list(consts), parse_grid(grid))
    if target is not None:
        op = target.operator()
        return op.with_port(Path(out).resolve()) if out is not None else op
    parsed = kernel_target(text)
    if parsed is None:
        if args or consts:
            raise WorkbenchError(f"--arg/--const go with FILE.py:KERNEL or MODULE:KERNEL; "
                                 f"the catalog operator {text!r} takes --case N",
                                 "drop them, or name a kernel")
        op = _catalog_operator(text)
    else:
        kind, where, kernel = parsed
        path = _kernel_file(where) if kind == "file" else module_file(where)
        params = kernel_parameters(path, kernel, strict=kind == "module")
        op = _adhoc_operator(path, kernel, args, consts,
                             module=where if kind == "module" else None, params=params,
                             grid=parse_grid(grid))
    return op.with_port(Path(out).resolve()) if out is not None else op


def _catalog_operator(name: str) -> Operator:
    catalog = all_operators()
    if name not in catalog and name in all_families():
        return get_operator(name)       # a family of one entry; several: it says which
    if name not in catalog:
        raise WorkbenchError(f"no operator named {name!r}",
                             "name a catalog operator (" + ", ".join(catalog) + "), "
                             "FILE.py:KERNEL, or MODULE:KERNEL of an installed package")
    return catalog[name]


def _kernel_file(text: str) -> Path:
    path = Path(text).expanduser().resolve()
    if not path.is_file():
        raise WorkbenchError(f"{text}: no such kernel file", "check the path")
    return path


def kernel_parameters(path: Path, kernel: str, strict: bool) -> list[str] | None:
    """The parameter names of the `@ct.kernel` named `kernel` in `path`, read from the source
    (nothing runs). A name the file does not define at all is an error; with `strict` (a
    module of a package, read the way module.py reads it), so is one that is no @ct.kernel.
    None for a file's kernel made some other way (`k = ct.kernel(f)`)."""
    reduced = reduce_module(path.read_text(), display_path(path))
    if kernel in {k.name for k in reduced.kernels}:
        if strict:
            reduced.check_uses(kernel)      # reads a name only the package's runtime defines
        return [a.arg for a in reduced.functions[kernel].args.args]
    if not strict and kernel in _top_level_names(path):
        return None
    if not strict:
        load_kernel(path, kernel)       # a file runs: its own import error says more, if any
    found = ", ".join(k.name for k in reduced.kernels) or "none"
    raise WorkbenchError(f"{display_path(path)}: no @ct.kernel named {kernel!r}",
                         f"kernels in this {'module' if strict else 'file'}: {found}")


def _constant_params(path: Path, kernel: str) -> set[str] | None:
    """The parameters of `kernel` annotated `ct.Constant[...]` (or a module-level alias of
    it, `ConstInt = ct.Constant[int]`), read from its source; None when an annotation is a
    name this file does not define (an alias imported from elsewhere): then the kernel,
    once loaded, says."""
    tree = ast.parse(path.read_text())
    aliases = {target.id for node in tree.body if isinstance(node, ast.Assign)
               and "Constant" in ast.unparse(node.value)
               for target in node.targets if isinstance(target, ast.Name)}
    fn = reduce_module(path.read_text(), display_path(path)).functions[kernel]
    out = set()
    for a in fn.args.args:
        text = ast.unparse(a.annotation) if a.annotation is not None else ""
        if "Constant" in text or text in aliases:
            out.add(a.arg)
        elif isinstance(a.annotation, ast.Name) and text not in _PLAIN_ANNOTATIONS:
            return None
    return out


_PLAIN_ANNOTATIONS = {"int", "float", "bool"}


def _top_level_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.id for node in tree.body for n in ast.walk(node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} | \
        {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def _adhoc_operator(path: Path, kernel: str, args, consts, module: str | None,
                    params: list[str] | None = None, grid=None) -> Operator:
    cases = ()
    if args or consts:
        cases = (Case(0, tuple(parse_arg(a) for a in args), dict(parse_const(c) for c in consts),
                      grid=grid),)
        constants = _constant_params(path, kernel) if params is not None else None
        if constants is not None:       # checked before anything is copied or drafted
            check_arguments(display_path(path), kernel, params, constants,
                            list(cases[0].args), cases[0].consts)
    elif module is not None and params is not None:
        cases = corpus_cases(module, kernel, params)
    label = module or path.name
    folder = PORTS_DIR / f"{module}.{kernel}" if module else \
        draft_home(path.stem, kernel, str(path.resolve()))
    return Operator(name=kernel, summary=f"{label}:{kernel}", kernel_name=kernel, outputs=(),
                    tolerance={}, cases=cases, folder=folder, kernel_path=path,
                    kernel_module=module)


def corpus_cases(module: str, kernel: str, params: list[str]) -> tuple[Case, ...]:
    """The corpus manifest's cases of module:kernel (none when it is not in the manifest)."""
    entry = corpus_entry(module, kernel)
    if entry is None:
        return ()
    return tuple(c.case(i) for i, c in enumerate(entry.resolve(params)))
