"""Tile IR bytecode -> text, through the real `tileirdisasm` (one printer for both sides)."""
from __future__ import annotations

import tempfile
from pathlib import Path

from ..tools import nvidia_tool, run_tool

DISASM_TIMEOUT_S = 60


def disassemble(bytecode: bytes, *, debug_info: bool = True) -> str:
    """`tileirdisasm -g` of the bytecode: op lines end in loc(#locN) and alias lines follow."""
    with tempfile.TemporaryDirectory(prefix="workbench-") as tmp:
        path = Path(tmp) / "kernel.tileirbc"
        path.write_bytes(bytecode)
        args = [str(nvidia_tool("tileirdisasm"))] + (["-g"] if debug_info else []) + [str(path)]
        return run_tool(args, timeout=DISASM_TIMEOUT_S).stdout.decode()
