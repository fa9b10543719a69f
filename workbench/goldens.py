"""Where golden Tile IR texts live: next to the kernels they come from."""
from pathlib import Path

from .operators import Operator
from .ir.stages import operator_python_ir


def golden_path(op: Operator, side: str, case_index: int) -> Path:
    return op.folder / "golden" / f"{side}.case{case_index}.tileir"


def python_golden_text(op: Operator, case_index: int) -> str:
    return operator_python_ir(op, case_index).text
