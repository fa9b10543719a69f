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

from ..errors import WorkbenchError
from ..sources.module import TRITON, Reduced, reduce_module

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

    def jit_function(self):
        """The kernel as triton's JITFunction, from the reduced module (no torch)."""
        try:
            import triton  # noqa: F401
        except ImportError:
            raise WorkbenchError("triton is not installed in this environment",
                                 "install the workbench's triton extra: pip install -e '.[triton]'")
        text = self.reduced.text
        linecache.cache[self.filename] = (len(text), None, text.splitlines(True), self.filename)
        module = types.ModuleType(f"workbench_triton_{abs(hash(self.filename))}")
        module.__file__ = self.filename
        from ..sources.module import Unavailable
        module.__dict__.update({n: Unavailable(n) for n in self.reduced.placeholders})
        try:
            exec(compile(text, self.filename, "exec", dont_inherit=True), module.__dict__)
        except Exception as e:
            raise WorkbenchError(f"{self.filename}: the Triton module does not run without its "
                                 f"package: {type(e).__name__}: {e}",
                                 "keep the kernel's module free of imports it does not need")
        return getattr(module, self.kernel_name)


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
    """Module-level `NAME = literal` and `NAME = tl.constexpr(literal)` (the only module
    values a Triton kernel may read)."""
    out = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            continue
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr == "constexpr" and len(value.args) == 1:
            value = value.args[0]
        literal = _literal(value)
        if literal is _NO_DEFAULT:
            literal = _math_literal(value)
        if literal is not _NO_DEFAULT:
            out[node.targets[0].id] = literal
    return out


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


def read_triton(filename: str, kernel_name: str, text: str) -> TritonSource:
    reduced = reduce_module(text, filename, TRITON)
    names = [k.name for k in reduced.kernels]
    if kernel_name not in names:
        raise WorkbenchError(f"{filename}: no @triton.jit kernel named {kernel_name!r}",
                             "jit functions in this module: " + (", ".join(names) or "none"))
    fn = reduced.functions[kernel_name]
    helpers = {n: f for n, f in reduced.functions.items() if n != kernel_name and n in names}
    tree = ast.parse(text, filename)
    return TritonSource(filename, kernel_name, text, fn, _params(fn), reduced, helpers,
                        _module_constants(tree))


def is_triton_module(text: str, filename: str, kernel_name: str) -> bool:
    """Whether `kernel_name` is a `@triton.jit` function of this module's source."""
    try:
        reduced = reduce_module(text, filename, TRITON)
    except WorkbenchError:
        return False
    return kernel_name in {k.name for k in reduced.kernels}
