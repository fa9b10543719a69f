"""An operator made on the spot from a kernel file and one call (`FILE.py:KERNEL --arg ..`)."""
from __future__ import annotations

from pathlib import Path

from .argspec import parse_arg, parse_const
from .catalog import Case, Operator
from .errors import WorkbenchError


def adhoc_operator(target: str, args: list[str], consts: list[str]) -> Operator:
    path_text, kernel_name = target.rsplit(":", 1)
    path = Path(path_text).resolve()
    if not path.is_file():
        raise WorkbenchError(f"{path}: no such kernel file", "check the path")
    case = Case(0, tuple(parse_arg(a) for a in args), dict(parse_const(c) for c in consts))
    folder = path.parent / f"{kernel_name}_port_workspace"
    return Operator(name=kernel_name, summary=f"{path.name}:{kernel_name}",
                    kernel_name=kernel_name, outputs=(), tolerance={}, cases=(case,),
                    folder=folder, kernel_path=path)
