"""cuTile Python kernel -> Tile IR bytecode, without a GPU."""
from __future__ import annotations

import inspect
import io
import linecache
import types
import typing
from dataclasses import dataclass
from pathlib import Path

from ..argspec import ArgSpec
from ..catalog import REPO_ROOT, Operator
from ..errors import WorkbenchError
from ..specialize import kernel_signature

# Both sides are exported at 13.3: the newest version cutile (Rust) writes. tileirdisasm
# 13.4 prints either; an explicit version also keeps cuda-tile from asking tileiras.
BYTECODE_VERSION = "13.3"
TARGET = "sm_90"


@dataclass
class PythonKernel:
    name: str
    file: str                 # as it appears in loc(...): repo-relative inside the repo
    kernel: object            # the cuda.tile kernel
    params: list[str]
    const_params: set[str]


def display_path(path: Path) -> str:
    path = path.resolve()
    try:
        return str(path.relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def load_kernel(path: str | Path, name: str) -> PythonKernel:
    """Import `name` from the kernel file at `path` under a stable display name."""
    path = Path(path)
    if not path.is_file():
        raise WorkbenchError(f"{path}: no such kernel file", "check the path")
    return load_kernel_source(path.read_text(), display_path(path), name)


def load_kernel_source(source: str, filename: str, name: str) -> PythonKernel:
    """Import `name` from kernel source text; `filename` is what locations will name."""
    import cuda.tile as ct

    # Registered in linecache so cuda-tile can read the function's source back.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    module = types.ModuleType(f"workbench_kernel_{abs(hash(filename))}")
    module.__file__ = filename
    try:
        exec(compile(source, filename, "exec", dont_inherit=True), module.__dict__)
    except SyntaxError as e:
        raise WorkbenchError(f"{filename}:{e.lineno}: syntax error: {e.msg}",
                             "fix the kernel source")
    except Exception as e:
        line = _traceback_line(e, filename)
        raise WorkbenchError(f"{filename}:{line}: the kernel file does not import: "
                             f"{type(e).__name__}: {e}", "fix the kernel source")
    kernel = getattr(module, name, None)
    kernels = [n for n, v in vars(module).items() if isinstance(v, ct.kernel)]
    if not isinstance(kernel, ct.kernel):
        raise WorkbenchError(f"{filename}: no @ct.kernel named {name!r}",
                             "kernels in this file: " + (", ".join(kernels) or "none"))
    params, consts = _parameters(kernel)
    return PythonKernel(name=name, file=filename, kernel=kernel, params=params,
                        const_params=consts)


def _traceback_line(error: Exception, filename: str) -> int | str:
    tb, line = error.__traceback__, "?"
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _parameters(kernel) -> tuple[list[str], set[str]]:
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


def check_call(kernel: PythonKernel, args: list[ArgSpec], consts: dict) -> None:
    """The argument list must match the kernel's parameters; say what is expected if not."""
    runtime = [p for p in kernel.params if p not in kernel.const_params]
    expected = (f"{kernel.name}({', '.join(kernel.params)}) takes {len(runtime)} --arg "
                f"({', '.join(runtime) or 'none'}) and --const for "
                f"{', '.join(sorted(kernel.const_params)) or 'nothing'}")
    if len(args) != len(runtime):
        raise WorkbenchError(f"{kernel.file}: {len(args)} --arg given; {expected}",
                             "give one --arg per runtime parameter, in order")
    missing = kernel.const_params - consts.keys()
    extra = consts.keys() - kernel.const_params
    if missing or extra:
        raise WorkbenchError(
            f"{kernel.file}: constants do not match: missing {sorted(missing)}, "
            f"unknown {sorted(extra)}; {expected}", "give --const NAME=VALUE for each")


def export_bytecode(kernel: PythonKernel, args: list[ArgSpec], consts: dict) -> tuple[bytes, str]:
    """Compile one specialization to Tile IR bytecode; returns (bytecode, mangled symbol)."""
    import cuda.tile as ct
    from cuda.tile.compilation import export_kernel

    check_call(kernel, args, consts)
    signature = kernel_signature(kernel.name, kernel.params, kernel.const_params, args, consts)
    buffer = io.BytesIO()
    try:
        export_kernel(kernel.kernel, [signature], buffer, output_format="tileir_bytecode",
                      gpu_code=TARGET, bytecode_version=BYTECODE_VERSION)
    except ct.TileError as e:
        raise WorkbenchError(f"{kernel.file}: cuda-tile rejected {kernel.name}: {e}",
                             "fix the kernel at the line cuda-tile names")
    except (TypeError, ValueError) as e:
        raise WorkbenchError(f"{kernel.file}: cuda-tile could not build the signature of "
                             f"{kernel.name}: {e}", "check the --arg and --const values")
    return buffer.getvalue(), signature.symbol


def load_operator_kernel(op: Operator) -> PythonKernel:
    return load_kernel(op.kernel_file, op.kernel_name)
