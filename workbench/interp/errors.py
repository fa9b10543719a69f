"""What the interpreter refuses or finds wrong: each error names the op, its IR line and, where
the IR carries debug locations, the kernel's source line."""
from __future__ import annotations

from ..errors import WorkbenchError
from ..ir.printer import op_header


class InterpError(WorkbenchError):
    """The interpreter cannot run the kernel, or found it doing something undefined."""

    def __init__(self, message: str, hint: str | None = None, op_name: str | None = None,
                 line: int | None = None):
        super().__init__(message, hint)
        self.op_name = op_name
        self.line = line


class UnsupportedOp(InterpError):
    """An op (or a form of one) the interpreter does not implement: refused, never guessed."""


class OverBudget(InterpError):
    """More work than the CPU check takes on, found once the grid is known: refused with what
    to do, never cut short silently."""


class AssumeViolated(InterpError):
    """An `assume` fact that the actual values break (the GPU would run undefined code)."""


class MemoryFault(InterpError):
    """An access outside every array the kernel was given, or misaligned."""


class Fault(Exception):
    """Raised by an op handler with what went wrong; the executor turns it into an
    InterpError (or `kind`) naming the op and its line."""

    def __init__(self, message: str, hint: str | None = None, kind: type = InterpError):
        super().__init__(message)
        self.message, self.hint, self.kind = message, hint, kind


def where(op, source: dict | None = None) -> str:
    """`IR line 23 (`%x = addf ...`), kernel.py:14:8` for an op."""
    header = op_header(op)
    if len(header) > 160:
        header = header[:157] + "..."
    text = f"IR line {op.line} (`{header}`)"
    loc = (source or {}).get(op.loc) if op.loc else None
    return text + (f", from {loc}" if loc else "")
