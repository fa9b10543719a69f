"""The two normalized modules of an operator case: its Python kernel and its Rust port."""
from __future__ import annotations

from .catalog import Operator
from .errors import WorkbenchError
from .ir.model import Module
from .ir.stages import operator_python_ir


def operator_pair(op: Operator, case_index: int = 0) -> tuple[Module, Module]:
    left = operator_python_ir(op, case_index).module("normalized")
    try:
        from .port.rust_ir import operator_rust_ir
    except ImportError:
        raise WorkbenchError(f"{op.name}: the Rust side is not available in this checkout",
                             "compare IR files with --left/--right")
    right = operator_rust_ir(op, case_index).module("normalized")
    return left, right
