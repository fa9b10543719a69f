"""cuTile Python kernel -> Tile IR bytecode, without a GPU."""
from __future__ import annotations

import io

from ..argspec import ArgSpec
from ..errors import WorkbenchError
from ..sources.kernel import PythonKernel, check_arguments
from ..target import BYTECODE_VERSION, TARGET
from .signature import kernel_signature


def check_call(kernel: PythonKernel, args: list[ArgSpec], consts: dict) -> None:
    """The argument list must match the kernel's parameters; say what is expected if not."""
    check_arguments(str(kernel.file), kernel.name, kernel.params, kernel.const_params, args,
                    consts)


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
