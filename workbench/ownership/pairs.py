"""The two sides of an operator case: its Python kernel and its Rust port, as normalized
Tile IR modules (for the diff) or as bytecode (for SASS)."""
from __future__ import annotations

from ..operators import Operator
from ..ir.model import Module
from ..ir.stages import operator_python_ir
from ..rust.emit import operator_rust_ir, port_bytecode
from ..diff import diff_modules
from .evidence import case_context, reference_bytecode


def operator_pair(op: Operator, case_index: int = 0) -> tuple[Module, Module]:
    left = operator_python_ir(op, case_index).module("normalized")
    right = operator_rust_ir(op, case_index).module("normalized")
    return left, right


def operator_diff(op: Operator, case_index: int = 0, sass: bool = True):
    """The diff of a case as the workbench judges it: with the evidence of where the port's
    facts come from, what its C ABI checks and (when a finding needs it, and `sass`) what
    the machine code shows (workbench/ownership/evidence.py)."""
    left, right = operator_pair(op, case_index)
    return diff_modules(left, right, context=case_context(op, case_index, left, right, sass))


def side_bytecode(op: Operator, side: str, case_index: int) -> bytes:
    """Tile IR bytecode of one side of an operator case: the Python kernel's export, or the
    port's emitter (built first if it changed)."""
    if side == "rust":
        return port_bytecode(op, case_index)
    return reference_bytecode(op, case_index)
