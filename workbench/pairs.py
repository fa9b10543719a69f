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


def side_bytecode(op: Operator, side: str, case_index: int) -> bytes:
    """Tile IR bytecode of one side of an operator case: the Python kernel's export, or the
    port's emitter (built first if it changed)."""
    if side == "rust":
        from .build.cargo import build
        from .port.rust_ir import emit_in_child, emit_request
        result = build(op)
        if result.library is None:
            raise WorkbenchError(result.summary(), "fix the port at the lines above")
        return emit_in_child(op.name, str(result.library), emit_request(op, case_index))
    from .ir.export import export_bytecode, load_operator_kernel
    case = op.case(case_index)
    return export_bytecode(load_operator_kernel(op), list(case.args), case.consts)[0]
