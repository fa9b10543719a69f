"""The IR stages a user can print: raw text from the tools, and the normalized model."""
from __future__ import annotations

from dataclasses import dataclass

from ..argspec import ArgSpec
from ..operators import Operator
from .disasm import disassemble
from ..sources.kernel import PythonKernel, load_kernel, load_operator_kernel
from .export import check_call, export_bytecode
from .model import Module
from .normalize import normalize
from .parse import parse

STAGES = ("raw", "normalized")


@dataclass
class IRResult:
    text: str            # tileirdisasm -g output
    symbol: str          # the entry's mangled symbol
    source: str          # where the kernel came from (file or file:kernel)

    def module(self, stage: str = "raw", disabled: tuple[str, ...] = ()) -> Module:
        module = parse(self.text, source=self.source)
        return normalize(module, disabled) if stage == "normalized" else module


def python_ir(kernel: PythonKernel, args: list[ArgSpec], consts: dict) -> IRResult:
    bytecode, symbol = export_bytecode(kernel, args, consts)
    return IRResult(text=disassemble(bytecode), symbol=symbol,
                    source=f"{kernel.file}:{kernel.name}")


def operator_python_ir(op: Operator, case_index: int = 0) -> IRResult:
    kernel = load_operator_kernel(op)
    if not op.cases:                 # a kernel named with no --arg: say what it takes
        check_call(kernel, [], {})
    case = op.case(case_index)
    if case.hints:                   # the hints the entry's launcher replaces
        kernel = hinted(kernel, case.hints)
    return python_ir(kernel, list(case.args), case.consts)


def hinted(kernel: PythonKernel, hints: dict) -> PythonKernel:
    """The kernel with its launcher's hints (`kernel.replace_hints(occupancy=4)`)."""
    from dataclasses import replace
    return replace(kernel, kernel=kernel.kernel.replace_hints(**hints))


def file_python_ir(path: str, kernel_name: str, args: list[ArgSpec], consts: dict) -> IRResult:
    return python_ir(load_kernel(path, kernel_name), args, consts)
