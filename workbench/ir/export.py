"""cuTile Python kernel -> Tile IR bytecode, without a GPU."""
from __future__ import annotations

import io

from ..argspec import ArgSpec
from ..errors import WorkbenchError
from ..sources.kernel import PythonKernel
from ..target import BYTECODE_VERSION, TARGET
from .signature import kernel_signature


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
