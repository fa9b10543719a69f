"""A cuTile Python kernel made into a `cuda.tile` kernel object, from a file of the user's,
a module of an installed package (read without importing it: module.py), or a cell's text.

    kernel = load_kernel("kernels_src/softmax/kernel.py", "softmax")
    kernel = load_kernel(Path(spec.origin), "_softmax_kernel_tma", module="tilegym.ops.cutile.softmax")
"""
from __future__ import annotations

import inspect
import linecache
import types
import typing
from dataclasses import dataclass
from pathlib import Path

from ..operators import Operator, display_path
from ..errors import WorkbenchError
from .module import TORCH_DTYPE_NAMES, reduce_module
from .stand_in import Unavailable


@dataclass
class PythonKernel:
    name: str
    file: str                 # as it appears in loc(...): repo-relative inside the repo
    kernel: object            # the cuda.tile kernel
    params: list[str]
    const_params: set[str]
    reduced: bool = False     # read without running the module's other imports


def load_kernel(path: str | Path, name: str, module: str | None = None) -> PythonKernel:
    """`name` from the kernel file at `path`. A file is run as it is, unless its imports
    fail (torch missing, say): then, like a module of an installed package (`module`
    given), it is read with only what a kernel can use (module.py)."""
    path = Path(path)
    if not path.is_file():
        raise WorkbenchError(f"{path}: no such kernel file", "check the path")
    source, filename = path.read_text(), display_path(path)
    if module is not None:
        return load_reduced_source(source, filename, name)
    try:
        return load_kernel_source(source, filename, name)
    except _ImportFailed as failed:
        if name not in {k.name for k in reduce_module(source, filename).kernels}:
            raise WorkbenchError(failed.message, failed.hint) from None
        return load_reduced_source(source, filename, name)


def load_reduced_source(source: str, filename: str, name: str) -> PythonKernel:
    """`name` from a module run with only what a kernel can use (module.py)."""
    reduced = reduce_module(source, filename)
    if name not in {k.name for k in reduced.kernels}:
        found = ", ".join(k.name for k in reduced.kernels) or "none"
        raise WorkbenchError(f"{filename}: no @ct.kernel named {name!r}",
                             f"kernels in this module: {found}")
    reduced.check_uses(name)
    stand_ins = {n: Unavailable(n) for n in reduced.placeholders}
    stand_ins.update({n: _dtype_stand_in(n) for n in reduced.dtype_modules(name)})
    kernel = load_kernel_source(reduced.text, filename, name, stand_ins)
    kernel.reduced = True
    return kernel


class _ImportFailed(WorkbenchError):
    """The kernel file's own imports failed (a runtime dependency that is not here)."""


def load_kernel_source(source: str, filename: str, name: str,
                       stand_ins: dict | None = None) -> PythonKernel:
    """Run kernel source text and take `name` from it; `filename` is what locations name.
    `stand_ins`: names bound before it runs (module.Unavailable for annotation-only ones)."""
    import cuda.tile as ct

    # Registered in linecache so cuda-tile can read the function's source back (a reduced
    # module keeps its line numbers, so locations still point into the real file).
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    module = types.ModuleType(f"workbench_kernel_{abs(hash(filename))}")
    module.__file__ = filename
    module.__dict__.update(stand_ins or {})
    try:
        exec(compile(source, filename, "exec", dont_inherit=True), module.__dict__)
    except SyntaxError as e:
        raise WorkbenchError(f"{filename}:{e.lineno}: syntax error: {e.msg}",
                             "fix the kernel source")
    except ImportError as e:
        raise _ImportFailed(f"{filename}:{_traceback_line(e, filename)}: the kernel file does "
                            f"not import: {type(e).__name__}: {e}",
                            "install what it imports, or keep the kernel's file free of "
                            "imports it does not need")
    except Exception as e:
        # Justified: the user's kernel file can raise anything while it is imported; it is
        # re-raised as one error naming the file's line and the exception, never hidden.
        line = _traceback_line(e, filename)
        raise WorkbenchError(f"{filename}:{line}: the kernel file does not import: "
                             f"{type(e).__name__}: {e}", "fix the kernel source")
    kernel = getattr(module, name, None)
    kernels = [n for n, v in vars(module).items() if isinstance(v, ct.kernel)]
    if not isinstance(kernel, ct.kernel):
        raise WorkbenchError(f"{filename}: no @ct.kernel named {name!r}",
                             "kernels in this file: " + (", ".join(kernels) or "none"))
    params, consts = parameters_of(kernel)
    return PythonKernel(name=name, file=filename, kernel=kernel, params=params,
                        const_params=consts)


def _dtype_stand_in(name: str) -> types.ModuleType:
    """A dropped `torch` a kernel reads only for dtypes, as a module (cuda-tile resolves
    attributes of modules at compile time): `torch.int32` is cuda.tile's int32 (`torch.bool`
    its bool_); any other attribute is Unavailable (it only appears in annotations)."""
    import cuda.tile as ct
    module = types.ModuleType(name)
    module.__dict__.update({n: getattr(ct, "bool_" if n == "bool" else n)
                            for n in TORCH_DTYPE_NAMES})
    module.__getattr__ = lambda attr: Unavailable(f"{name}.{attr}")
    return module


def load_operator_kernel(op: Operator) -> PythonKernel:
    return load_kernel(op.kernel_file, op.kernel_name, module=op.kernel_module)


def _traceback_line(error: Exception, filename: str) -> int | str:
    tb, line = error.__traceback__, "?"
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def parameters_of(kernel) -> tuple[list[str], set[str]]:
    """A @ct.kernel's parameter names, and which of them are ct.Constant."""
    import cuda.tile as ct
    pyfunc = kernel._annotated_function.pyfunc
    params, consts = [], set()
    for name, param in inspect.signature(pyfunc).parameters.items():
        params.append(name)
        metadata = getattr(param.annotation, "__metadata__", ())
        if typing.get_origin(param.annotation) is typing.Annotated and any(
                isinstance(m, ct.ConstantAnnotation) for m in metadata):
            consts.add(name)
    return params, consts


def check_arguments(where: str, name: str, params: list[str], const_params: set[str],
                    args: list, consts: dict, defaults: set[str] = frozenset(),
                    language: str = "cutile") -> None:
    """A call must give one --arg per runtime parameter, in order, and a --const for each
    ct.Constant parameter (a Triton kernel's tl.constexpr); a parameter in `defaults` (a
    Triton parameter with a default) may be left out. Say what the kernel takes if not."""
    runtime = [p for p in params if p not in const_params]
    needed = len([p for p in runtime if p not in defaults])
    expected = (f"{name}({', '.join(params)}) takes {len(runtime)} --arg "
                f"({', '.join(runtime) or 'none'}) and --const for "
                f"{', '.join(sorted(const_params)) or 'nothing'}")
    if not needed <= len(args) <= len(runtime):
        raise WorkbenchError(f"{where}: {len(args)} --arg given; {expected}",
                             "give one --arg per runtime parameter, in order")
    missing, extra = const_params - consts.keys() - defaults, consts.keys() - const_params
    if missing or extra:
        raise WorkbenchError(
            f"{where}: constants do not match: missing {sorted(missing)}, "
            f"unknown {sorted(extra)}; {expected}", "give --const NAME=VALUE for each")
    words = sorted(k for k, v in consts.items() if isinstance(v, str))
    if words and language == "cutile":
        # cuda.tile's compile API types a constant by its value and has no string type
        raise WorkbenchError(
            f"{where}: --const {words[0]}={consts[words[0]]!r} is text; a cuTile Python "
            f"constant of {name} is a number or a boolean",
            "give its value as a number or true/false (a string constant is a Triton "
            "tl.constexpr; branch on an int code in a cuTile kernel)")
