"""A kernel module read the way cuda-tile needs it and no further: what a `@ct.kernel`
can use (its `cuda.tile`, numpy and standard-library imports, module constants and aliases
such as `ConstInt = ct.Constant[int]`, `@ct.function` and plain helper functions) is kept,
and the rest (`import torch`, the package's own runtime, launchers, classes) is blanked out
line by line, so line numbers, and with them every Tile IR location, stay the real file's.

    reduced = reduce_module(source, "tilegym/ops/cutile/softmax.py")
    reduced.text                  # executable without torch, a GPU or the package
    reduced.placeholders          # dropped names only annotations read (`x: torch.Tensor`)
    reduced.kernels               # the @ct.kernel entries: name, line, experimental
    reduced.check_uses("k", tree) # a kernel that needs a dropped name: one error, both lines

The same reading serves Triton modules (`reduce_module(source, name, TRITON)`): there the
kept imports add `triton`, the kernels are the `@triton.jit` functions, and decorators such
as `@triton.autotune(...)` (host-side tuning that reads the package's runtime) are blanked.
"""
from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field

from ..errors import WorkbenchError
from .module_if import decided_branch
from .package import package_constants, source_file

# What a kernel module may import and still be read here: cuda-tile, numpy (its dtypes
# stand in for cuda.tile's) and the standard library's pure modules. Anything else is a
# runtime dependency of the package (torch, the package itself) and is not imported.
READABLE_PACKAGES = frozenset({
    "cuda", "numpy", "math", "typing", "functools", "operator", "enum", "dataclasses",
    "types", "itertools", "numbers", "collections", "__future__", "abc"})
CT_DECORATORS = frozenset({"kernel", "function"})
# cuda-tile takes torch's dtypes where it takes its own (`ct.arange(n, dtype=torch.int32)`):
# a kernel that reads only these from `torch` gets cuda.tile's dtype of the same name.
TORCH_DTYPE_NAMES = frozenset({
    "float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8",
    "bool", "float8_e4m3fn", "float8_e5m2"})
EXPERIMENTAL_DECORATORS = frozenset({"experimental_kernel", "experimental"})


@dataclass(frozen=True)
class Dialect:
    """What a kernel language's modules may import and how its kernels are decorated."""
    name: str
    packages: frozenset
    decorator_kind: object      # (ast.expr) -> "kernel" | "function" | None


def triton_decorator(node: ast.expr) -> str | None:
    """`triton.jit`, `triton.jit(...)`, `jit` -> "kernel"; anything else None (a Triton
    helper called from a kernel is `@triton.jit` too, so every jit function is a kernel)."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
            and target.value.id == "triton" and target.attr == "jit":
        return "kernel"
    if isinstance(target, ast.Name) and target.id == "jit":
        return "kernel"
    return None


@dataclass(frozen=True)
class KernelEntry:
    name: str
    line: int
    experimental: bool


@dataclass
class Reduced:
    filename: str
    text: str
    kernels: list[KernelEntry]
    dropped: dict[str, tuple[int, str]] = field(default_factory=dict)   # name -> (line, why)
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)  # kept, by name
    placeholders: frozenset = frozenset()

    def closure(self, kernel_name: str) -> list[ast.FunctionDef]:
        """The kernel and every kept module function it calls, directly or not."""
        seen: dict[str, ast.FunctionDef] = {}
        todo = [kernel_name]
        while todo:
            fn = self.functions.get(todo.pop())
            if fn is not None and fn.name not in seen:
                seen[fn.name] = fn
                todo += [name for name, _ in body_names(fn)]
        return list(seen.values())

    def dtype_modules(self, kernel_name: str) -> set[str]:
        """Dropped modules the kernel reads only for dtypes (`torch.int32`)."""
        return {"torch"} & set(self.dropped) & dtype_only_names(self.closure(kernel_name))

    def check_uses(self, kernel_name: str) -> None:
        """Raise if `kernel_name`, or a helper it calls, reads a name that was dropped."""
        allowed = self.dtype_modules(kernel_name)
        for fn in self.closure(kernel_name):
            for name, line in body_names(fn):
                if name in self.dropped and name not in allowed:
                    self._fail(kernel_name, fn.name, name, line)

    def _fail(self, kernel: str, where_fn: str, name: str, line: int):
        where, why = self.dropped[name]
        via = "" if where_fn == kernel else f" (through {where_fn})"
        raise WorkbenchError(
            f"{self.filename}:{line}: {kernel}{via} uses `{name}`, which comes from line "
            f"{where} ({why}): kernels are read without running the package's runtime "
            "imports (torch, the package itself)",
            f"define `{name}` in the kernel's module from cuda.tile and constants only, or "
            "pass it as a ct.Constant parameter")


def ct_decorator(node: ast.expr) -> str | None:
    """`ct.kernel`, `ct.kernel(...)`, `ct.function` -> "kernel"/"function"; else None."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
            and target.value.id in ("ct", "cuda.tile") and target.attr in CT_DECORATORS:
        return target.attr
    if isinstance(target, ast.Name) and target.id in CT_DECORATORS:
        return target.id          # `from cuda.tile import kernel`
    return None


CUTILE = Dialect("cutile", READABLE_PACKAGES, ct_decorator)
TRITON = Dialect("triton", READABLE_PACKAGES | {"triton"}, triton_decorator)


def call_argument(call: ast.Call, name: str, position: int | None = None) -> ast.expr | None:
    """The argument a call passes for parameter `name`: by keyword, else at `position`."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    if position is not None and len(call.args) > position:
        return call.args[position]
    return None


def decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def _loads(nodes) -> list[tuple[str, int]]:
    out, seen = [], set()
    for node in nodes:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in seen:
                seen.add(n.id)
                out.append((n.id, n.lineno))
    return out


def body_names(fn: ast.FunctionDef) -> list[tuple[str, int]]:
    """Names `fn`'s body reads that it does not bind itself (parameters, assignments)."""
    args = fn.args
    bound = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    bound |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    for stmt in fn.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                bound.add(n.id)
    return [(name, line) for name, line in _loads(fn.body) if name not in bound]


def definition_names(fn: ast.FunctionDef, decorators) -> list[tuple[str, int]]:
    """Names read when the `def` itself runs: the given decorators and the defaults."""
    return _loads(list(decorators) + list(fn.args.defaults)
                  + [d for d in fn.args.kw_defaults if d is not None])


def annotation_names(fn: ast.FunctionDef) -> set[str]:
    args = fn.args
    notes = [a.annotation for a in args.posonlyargs + args.args + args.kwonlyargs
             if a.annotation is not None] + ([fn.returns] if fn.returns else [])
    return {name for name, _ in _loads(notes)}


def _import_names(node: ast.Import | ast.ImportFrom) -> list[str]:
    return [(a.asname or a.name).split(".")[0] for a in node.names]


def _readable_import(node: ast.Import | ast.ImportFrom, packages=READABLE_PACKAGES) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and (node.module or "").split(".")[0] in packages
    return all(a.name.split(".")[0] in packages for a in node.names)


class _Reducer:
    def __init__(self, tree: ast.Module, source: str, dialect: Dialect, filename: str):
        self.tree, self.source, self.dialect, self.filename = tree, source, dialect, filename
        self.replaced: dict[int, str] = {}          # line -> its text in the reduced module
        self.lines = source.splitlines()
        self.available = set(dir(builtins))
        self.dropped: dict[str, tuple[int, str]] = {}
        self.keep: list[tuple[int, int]] = []       # line ranges kept, 1-based inclusive
        self.blank: list[tuple[int, int]] = []      # ranges inside kept ones to blank
        self.dedent: list[tuple[int, int, int]] = []  # (first, last line, columns) to unindent
        self.kernels: list[KernelEntry] = []
        self.functions: dict[str, ast.FunctionDef] = {}
        self.annotations: set[str] = set()

    def run(self) -> None:
        for node in self.tree.body:
            self.statement(node)

    def drop(self, names, line: int, why: str) -> None:
        for name in names:
            self.dropped.setdefault(name, (line, why))
            self.available.discard(name)

    def first_missing(self, names) -> str | None:
        return next((n for n, _ in names if n not in self.available), None)

    def first_line(self, node: ast.stmt) -> str:
        # the statement's first line as written (ast.get_source_segment splits the whole
        # source on every call: seconds over a large module)
        line = self.lines[node.lineno - 1][node.col_offset:]
        return line[:60] or type(node).__name__

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if _readable_import(node, self.dialect.packages):
                self.keep_range(node)
                self.available.update(_import_names(node))
            else:
                self.package_import(node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            self.assignment(node)
        elif isinstance(node, ast.FunctionDef):
            self.function(node)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            self.keep_range(node)                    # the docstring
        elif isinstance(node, ast.If) and (branch := decided_branch(node)) is not None:
            for stmt in branch:                      # as the module runs it, at top level
                first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
                self.dedent.append((first, stmt.end_lineno, stmt.col_offset))
                self.statement(stmt)
        else:
            names = {n.id for n in ast.walk(node)
                     if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            names |= _defined(node)
            self.drop(names, node.lineno, f"`{self.first_line(node)}`, not read")

    def package_import(self, node: ast.Import | ast.ImportFrom) -> None:
        """The literal constants a `from .utils import LOG2E` takes from the package's own
        modules are defined on the import's line (the line numbers stay the file's); any
        other name it imports is dropped."""
        # the module's file is looked for only here, where a package import needs it
        found = package_constants(node, source_file(self.filename)) \
            if isinstance(node, ast.ImportFrom) else {}
        if found:
            self.replaced[node.lineno] = "; ".join(f"{n} = {v}" for n, v in found.items())
            self.available.update(found)
        self.drop([n for n in _import_names(node) if n not in found], node.lineno,
                  f"`{self.first_line(node)}`")

    def assignment(self, node: ast.Assign | ast.AnnAssign) -> None:
        if self.jit_by_assignment(node):
            return
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        missing = self.first_missing(self.run_names(node.value)) \
            if node.value is not None else None
        if missing is None:
            self.keep_range(node)
            self.available.update(names)
        else:
            self.drop(names, node.lineno, f"`{self.first_line(node)}` needs `{missing}`")

    def jit_by_assignment(self, node: ast.Assign | ast.AnnAssign) -> bool:
        """`k = triton.jit(k)` (a kernel jitted by assignment, not by decorator), and wrappers
        assigned over a kernel (`k = triton.heuristics({...})(k)`, `k = autotune(...)(k)`):
        the jit call is kept on the statement's first line, the wrappers are blanked as
        foreign decorators are (they read the package's runtime at launch, not here)."""
        if not isinstance(node, ast.Assign) or len(node.targets) != 1 \
                or not isinstance(node.targets[0], ast.Name):
            return False
        jit, wrapped = _wrapped_function(node.value, self.dialect.decorator_kind)
        kernels = {k.name for k in self.kernels}
        if wrapped not in self.functions or (jit is None and wrapped not in kernels):
            return False
        target = node.targets[0].id
        if jit is not None and wrapped not in kernels:
            fn = self.functions[wrapped]
            self.kernels.append(KernelEntry(wrapped, fn.lineno, False))
            # the function's own name is the JIT too: Triton names the kernel by it
            also = f"; {wrapped} = {target}" if target != wrapped else ""
            self.replaced[node.lineno] = f"{target} = {ast.unparse(jit)}{also}"
        self.available.add(target)
        return True

    def run_names(self, value: ast.expr) -> list[tuple[str, int]]:
        """The names computing `value` at import reads: its own, and those the bodies of
        the module's functions it calls read (`X = helper()` runs helper's body now)."""
        names, seen = list(_loads([value])), set()
        for name, _ in names:
            fn = self.functions.get(name)
            if fn is not None and name not in seen:
                seen.add(name)
                names += [n for n in body_names(fn) if n[0] != name]
        return names

    def function(self, node: ast.FunctionDef) -> None:
        kinds = [self.dialect.decorator_kind(d) for d in node.decorator_list]
        ours = [d for d, k in zip(node.decorator_list, kinds) if k]
        foreign = [d for d, k in zip(node.decorator_list, kinds) if not k]
        if foreign and not ours:          # a launcher or a registration: the package's own
            self.drop([node.name], node.lineno, f"`def {node.name}`, decorated by the package")
            return
        missing = self.first_missing(definition_names(node, ours))
        if missing is not None:
            self.drop([node.name], node.lineno, f"`def {node.name}` needs `{missing}`")
            return
        start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        self.keep.append((start, node.end_lineno))
        self.blank += [(d.lineno, d.end_lineno) for d in foreign]
        self.available.add(node.name)
        self.functions[node.name] = node
        self.annotations |= annotation_names(node)
        if "kernel" in kinds:
            experimental = any(decorator_name(d) in EXPERIMENTAL_DECORATORS for d in foreign)
            self.kernels.append(KernelEntry(node.name, node.lineno, experimental))

    def keep_range(self, node: ast.stmt) -> None:
        self.keep.append((node.lineno, node.end_lineno))

    def text(self, lines: list[str]) -> str:
        kept = [False] * (len(lines) + 1)
        for a, b in self.keep:
            for i in range(a, b + 1):
                kept[i] = True
        for a, b in self.blank:
            for i in range(a, b + 1):
                kept[i] = False
        lines = list(lines)
        for a, b, n in self.dedent:
            for i in range(a, b + 1):
                indent = len(lines[i - 1]) - len(lines[i - 1].lstrip(" \t"))
                lines[i - 1] = lines[i - 1][min(n, indent):]
        return "".join(self.replaced[i] + "\n" if i in self.replaced else
                       line if kept[i] else "\n" for i, line in enumerate(lines, 1))


def _wrapped_function(value: ast.expr, decorator_kind) -> tuple[ast.Call | None, str | None]:
    """For `w2(w1(jit(f)))`, each call taking one argument: (the `jit(f)` call or None,
    "f"); (None, None) for any other expression."""
    jit = None
    while isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
        if jit is None and decorator_kind(value.func) == "kernel":
            jit = value
        value = value.args[0]
    return (jit, value.id) if isinstance(value, ast.Name) else (None, None)


def _defined(node: ast.stmt) -> set[str]:
    """The functions and classes a statement defines at module level (a class itself, a
    `def` under an `if` or `try`), not those inside them."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    return {name for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)
            for name in _defined(child)}


def reduce_module(source: str, filename: str, dialect: Dialect = CUTILE) -> Reduced:
    """The module's source with everything a kernel cannot use blanked out."""
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as e:
        raise WorkbenchError(f"{filename}:{e.lineno}: syntax error: {e.msg}",
                             "fix the kernel source")
    reducer = _Reducer(tree, source, dialect, filename)
    reducer.run()
    text = reducer.text(source.splitlines(keepends=True))
    placeholders = frozenset(reducer.annotations & set(reducer.dropped))
    return Reduced(filename, text, reducer.kernels, reducer.dropped, reducer.functions,
                   placeholders)


def dtype_only_names(functions: list[ast.FunctionDef]) -> set[str]:
    """Names every use of which in the bodies of `functions` is `name.<a torch dtype>`."""
    uses: dict[str, bool] = {}
    parents = {child: node for fn in functions for stmt in fn.body
               for node in ast.walk(stmt) for child in ast.iter_child_nodes(node)}
    for n in (n for fn in functions for stmt in fn.body for n in ast.walk(stmt)):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            parent = parents.get(n)
            dtype = isinstance(parent, ast.Attribute) and parent.attr in TORCH_DTYPE_NAMES
            uses[n.id] = uses.get(n.id, True) and dtype
    return {name for name, only in uses.items() if only}


def kernel_entries(source: str, filename: str, dialect: Dialect = CUTILE) -> list[KernelEntry]:
    """Every `@ct.kernel` (or, for TRITON, `@triton.jit`) at the top level of a module, read
    from its source alone."""
    return reduce_module(source, filename, dialect).kernels
