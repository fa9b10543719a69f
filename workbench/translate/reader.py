"""A `@triton.jit` kernel read from its module's source: the kernel's AST, its parameters
(which are `tl.constexpr`, with their defaults), the module's other jit functions and
constants, and (for TTIR only) the JITFunction itself, run from the reduced module with
triton and nothing of the package's runtime (no torch).

    source = read_triton("tilegym/ops/triton/rms_norm.py", "_rms_norm_kernel", text)
    source.params          # [TritonParam(name, constexpr, default, line), ...]
    source.jit_function()  # the triton.JITFunction (needs `triton` installed)
"""
from __future__ import annotations

import ast
import linecache
import types
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import WorkbenchError
from ..sources.module import Reduced, TRITON, reduce_module
from ..sources.stand_in import Unavailable
from ..sources.package import constant_assignments, package_module_file

_NO_DEFAULT = object()


@dataclass(frozen=True)
class TritonParam:
    name: str
    constexpr: bool
    default: object = _NO_DEFAULT
    line: int = 0

    @property
    def has_default(self) -> bool:
        return self.default is not _NO_DEFAULT


@dataclass
class TritonSource:
    filename: str                 # as the user sees it (repo- or site-packages-relative)
    kernel_name: str
    text: str                     # the module's full source
    fn: ast.FunctionDef
    params: list[TritonParam]
    reduced: Reduced
    helpers: dict[str, ast.FunctionDef] = field(default_factory=dict)   # other jit functions
    constants: dict[str, object] = field(default_factory=dict)  # module-level literals
    imports: dict[str, tuple] = field(default_factory=dict)      # name -> dotted names
    # jit helpers imported from the package: name -> (their file, their name there)
    imported: dict[str, tuple[Path, str]] = field(default_factory=dict)
    # every helper of another file (those imported, and those they call): name -> that file
    # as the user sees it, which a diagnostic in the helper names
    helper_files: dict[str, str] = field(default_factory=dict)

    @property
    def line(self) -> int:
        return self.fn.lineno

    def param(self, name: str) -> TritonParam | None:
        return next((p for p in self.params if p.name == name), None)

    @property
    def runtime_params(self) -> list[TritonParam]:
        return [p for p in self.params if not p.constexpr]

    @property
    def constexpr_params(self) -> list[TritonParam]:
        return [p for p in self.params if p.constexpr]

    @property
    def atomic_only_params(self) -> set[str]:
        """Pointer parameters the kernel touches only through atomics (`tl.atomic_cas(lock,
        ..)`, a counter, a histogram): host code allocates them zeroed, and a check does too
        (a spin lock on a random lock would never be taken)."""
        atomic, other = set(), set()
        _names_by_use(self.fn, atomic, other)
        return {p.name for p in self.runtime_params} & (atomic - other)

    def jit_function(self):
        """The kernel as triton's JITFunction, from the reduced module (no torch)."""
        try:
            import triton  # noqa: F401
        except ImportError:
            raise WorkbenchError("triton is not installed in this environment",
                                 "install the workbench's triton extra: pip install -e '.[triton]'")
        module = _run_reduced(self.reduced, self.filename, self.text)
        for alias, (path, name) in self.imported.items():
            text = path.read_text()
            helper = _run_reduced(reduce_module(text, str(path), TRITON), str(path), text)
            module.__dict__[alias] = getattr(helper, name)
        return getattr(module, self.kernel_name)


def _names_by_use(node: ast.AST, atomic: set, other: set) -> None:
    """The names read in the address argument of `tl.atomic_*` calls (into `atomic`) and
    anywhere else (into `other`)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr.startswith("atomic_") and node.args:
        atomic.update(n.id for n in ast.walk(node.args[0]) if isinstance(n, ast.Name))
        for child in [node.func, *node.args[1:], *node.keywords]:
            _names_by_use(child, atomic, other)
        return
    if isinstance(node, ast.Name):
        other.add(node.id)
    for child in ast.iter_child_nodes(node):
        _names_by_use(child, atomic, other)


def _run_reduced(reduced: Reduced, filename: str, text: str) -> types.ModuleType:
    """A module made by running the reduced source (the module's own guarded imports too)."""
    linecache.cache[filename] = (len(reduced.text), None, reduced.text.splitlines(True), filename)
    module = types.ModuleType(f"workbench_triton_{abs(hash(filename))}")
    module.__file__ = filename
    module.__dict__.update({n: Unavailable(n) for n in reduced.placeholders})
    try:
        exec(compile(reduced.text, filename, "exec", dont_inherit=True), module.__dict__)
    except Exception as e:
        raise WorkbenchError(f"{filename}: the Triton module does not run without its "
                             f"package: {type(e).__name__}: {e}",
                             "keep the kernel's module free of imports it does not need")
    _run_guarded_imports(text, filename, module.__dict__)
    return module


def is_constexpr(annotation: ast.AST | None) -> bool:
    """`tl.constexpr`, `triton.language.constexpr`, `constexpr`."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.Attribute):
        return annotation.attr == "constexpr"
    return isinstance(annotation, ast.Name) and annotation.id == "constexpr"


def _literal(node: ast.AST):
    try:
        return ast.literal_eval(node)
    except ValueError:
        return _NO_DEFAULT


def _params(fn: ast.FunctionDef) -> list[TritonParam]:
    args = fn.args.args
    defaults = [_NO_DEFAULT] * (len(args) - len(fn.args.defaults)) + \
        [_literal(d) for d in fn.args.defaults]
    return [TritonParam(a.arg, is_constexpr(a.annotation), d, a.lineno)
            for a, d in zip(args, defaults)]


def _module_constants(tree: ast.Module) -> dict[str, object]:
    """Module-level `NAME = literal`, `NAME = tl.constexpr(literal)` and
    `NAME: tl.constexpr = tl.constexpr(literal)` (the only module values a Triton kernel may
    read), a literal of `math` too (`1.0 / math.log(2)`)."""
    out = {}
    for name, value in constant_assignments(tree):
        literal = _literal(value)
        if literal is _NO_DEFAULT:
            literal = _math_literal(value)
        if literal is not _NO_DEFAULT:
            out[name] = literal
    return out


def _module_imports(tree: ast.Module) -> dict[str, tuple]:
    """Each name the module's imports bind -> the dotted names it may stand for, in the
    order the module tries them: `import triton.language as tl` (tl: triton.language),
    `from triton.language.extra import libdevice`, `tanh = libdevice.tanh`, and those of a
    module-level `try: ... except ImportError: ...` or `if triton.__version__ ...:` (one
    per branch)."""
    out: dict[str, tuple] = {}
    for stmt in _bindings_in(tree.body):
        for local, full in _bound(stmt, out):
            if full not in out.get(local, ()):
                out[local] = out.get(local, ()) + (full,)
    return out


def _bound(stmt, known: dict) -> list[tuple[str, str]]:
    """(name, dotted name) pairs one import or `name = a.b.c` binds."""
    if isinstance(stmt, ast.Assign):
        parts = ast.unparse(stmt.value).split(".")
        return [(t.id, f"{root}.{'.'.join(parts[1:])}".rstrip("."))
                for t in stmt.targets if isinstance(t, ast.Name)
                for root in known.get(parts[0], (parts[0],))]
    if isinstance(stmt, ast.ImportFrom):
        return [] if stmt.level else [(a.asname or a.name, f"{stmt.module}.{a.name}")
                                      for a in stmt.names]
    return [(a.asname, a.name) if a.asname else (a.name.split(".")[0],) * 2
            for a in stmt.names]


def _bindings_in(body: list):
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) or _is_alias(stmt):
            yield stmt
        elif _is_guarded_import(stmt):
            for block in _branches(stmt):
                yield from _bindings_in(block)


def _is_alias(stmt) -> bool:
    """`tanh = libdevice.tanh`: a name bound to a dotted name."""
    if not isinstance(stmt, ast.Assign):
        return False
    value = stmt.value
    while isinstance(value, ast.Attribute):
        value = value.value
    return isinstance(value, ast.Name) and value is not stmt.value or \
        isinstance(stmt.value, ast.Name)


def _branches(stmt) -> list[list]:
    if isinstance(stmt, ast.If):
        return [stmt.body, stmt.orelse]
    return [stmt.body] + [h.body for h in stmt.handlers] + [stmt.orelse, stmt.finalbody]


def _is_guarded_import(stmt) -> bool:
    """A module-level `try`/`if` whose branches only import Triton (and bind aliases or
    constants, or pass): the version-dependent imports real Triton code writes."""
    if not isinstance(stmt, (ast.If, ast.Try)):
        return False
    body = [s for block in _branches(stmt) for s in block]
    binds = any(isinstance(s, (ast.Import, ast.ImportFrom)) or _is_alias(s) for s in body)
    return (binds or any(_is_guarded_import(s) for s in body)) and all(
        _is_guarded_import(s) or isinstance(s, ast.Pass) or _is_alias(s)
        or isinstance(s, (ast.Assign, ast.Expr)) and isinstance(s.value, ast.Constant)
        or isinstance(s, (ast.Import, ast.ImportFrom)) and _of_triton(s) for s in body)


def _of_triton(stmt: ast.Import | ast.ImportFrom) -> bool:
    names = [stmt.module or ""] if isinstance(stmt, ast.ImportFrom) else \
        [a.name for a in stmt.names]
    return all(n.split(".")[0] in TRITON.packages for n in names) and not getattr(stmt, "level", 0)


def _run_guarded_imports(text: str, filename: str, namespace: dict) -> None:
    """Run the module's version-dependent imports (which reducing the module blanks) in
    `namespace`, as the module would: an `if` whose test needs the package's runtime
    (`if compare_version(...)`) takes the first branch that imports. One that fails
    leaves its names undefined, and Triton's compiler then names what is missing."""
    for stmt in ast.parse(text, filename).body:
        if _is_guarded_import(stmt):
            _run_branch([stmt], filename, namespace)


def _run_branch(body: list, filename: str, namespace: dict) -> bool:
    for stmt in body:
        if isinstance(stmt, ast.If):
            try:
                test = eval(compile(ast.Expression(stmt.test), filename, "eval"), namespace)
            except Exception:       # noqa: BLE001 (a test only the package can evaluate)
                if not _run_branch(stmt.body, filename, namespace) and \
                        not _run_branch(stmt.orelse, filename, namespace):
                    return False
                continue
            if not _run_branch(stmt.body if test else stmt.orelse, filename, namespace):
                return False
            continue
        try:
            exec(compile(ast.Module([stmt], []), filename, "exec", dont_inherit=True),
                 namespace)
        except Exception:           # noqa: BLE001 (the module's own guard did not hold)
            return False
    return True


def _math_literal(node: ast.AST):
    """`1.0 / math.log(2)`: a constant expression over literals and `math`."""
    import math
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    if not names <= {"math"}:
        return _NO_DEFAULT
    try:
        return eval(compile(ast.Expression(node), "<constant>", "eval"), {"math": math})
    except Exception:
        return _NO_DEFAULT


def read_triton(filename: str, kernel_name: str, text: str,
                path: Path | None = None) -> TritonSource:
    """`path`, the module's file, lets jit helpers it imports from its own package be read."""
    reduced = reduce_module(text, filename, TRITON)
    names = [k.name for k in reduced.kernels]
    if kernel_name not in names:
        raise WorkbenchError(f"{filename}: no @triton.jit kernel named {kernel_name!r}",
                             "jit functions in this module: " + (", ".join(names) or "none"))
    fn = reduced.functions[kernel_name]
    helpers = {n: f for n, f in reduced.functions.items() if n != kernel_name and n in names}
    tree = ast.parse(text, filename)
    constants, imports, imported, files = _module_constants(tree), _module_imports(tree), {}, {}
    if path is not None:
        imported, theirs = _package_helpers(tree, Path(path))
        files = {name: _shown_as(file, Path(path), filename)
                 for name, file in theirs["files"].items() if name not in helpers}
        helpers = {**theirs["helpers"], **helpers}
        constants = {**theirs["constants"], **constants}
        imports = {**theirs["imports"], **imports}
    return TritonSource(filename, kernel_name, text, fn, _params(fn), reduced, helpers,
                        constants, imports, imported, files)


def _shown_as(file: Path, kernel_path: Path, kernel_shown: str) -> str:
    """A helper's file as the user sees the kernel's: beside it when in its folder."""
    file, folder = file.resolve(), kernel_path.resolve().parent
    if file.is_relative_to(folder):
        return str(Path(kernel_shown).parent / file.relative_to(folder))
    return str(file)


def _package_helpers(tree: ast.Module, path: Path) -> tuple[dict, dict]:
    """The @triton.jit functions the module imports from its own package (`from .utils
    import f`, `from pkg.utils import f`), read from their files and never imported, with
    the jit functions of their file they call in turn: (name -> (file, name there), what
    the helpers read: their ASTs, their files, and their files' constants and imports
    (`libdevice as tl_libdevice`) by name)."""
    imported, helpers, constants, imports, files = {}, {}, {}, {}, {}
    for stmt in tree.body:
        source = package_module_file(stmt, path) if isinstance(stmt, ast.ImportFrom) else None
        if source is None:
            continue
        text = source.read_text()
        try:
            reduced = reduce_module(text, str(source), TRITON)
        except WorkbenchError:
            continue
        jit = {k.name for k in reduced.kernels}
        found = {a.asname or a.name: reduced.functions[a.name] for a in stmt.names
                 if a.name in jit}
        if found:
            called = _called_helpers(found, {n: reduced.functions[n] for n in jit})
            imported.update({alias: (source, fn.name) for alias, fn in found.items()})
            helpers.update({**called, **found})
            files.update({name: source for name in {**called, **found}})
            their_tree = ast.parse(text, str(source))
            constants.update(_module_constants(their_tree))
            imports.update(_module_imports(their_tree))
    return imported, {"helpers": helpers, "constants": constants, "imports": imports,
                      "files": files}


def _called_helpers(found: dict, jit: dict) -> dict:
    """The jit functions of a helper's own file that the helpers in `found` call, and those
    they call, by their names there (`tl_logaddexp` calls `tl_log1p` beside it)."""
    called, todo = {}, list(found.values())
    while todo:
        fn = todo.pop()
        for node in ast.walk(fn):
            name = node.func.id if isinstance(node, ast.Call) and \
                isinstance(node.func, ast.Name) else None
            if name in jit and name not in called:
                called[name] = jit[name]
                todo.append(jit[name])
    return called


def is_triton_module(text: str, filename: str, kernel_name: str) -> bool:
    """Whether `kernel_name` is a `@triton.jit` function of this module's source."""
    try:
        reduced = reduce_module(text, filename, TRITON)
    except WorkbenchError:
        return False
    return kernel_name in {k.name for k in reduced.kernels}
