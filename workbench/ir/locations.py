"""Resolve `loc(#locN)` through the alias lines to a source file, line and column.

tileirdisasm -g prints `#locK = loc("path":LINE:COL)` and
`#locN = #cuda_tile.di_loc<#locK in #di_subprogram>`; ops carry `loc(#locN)`. The Rust side
inlines the kernel into its entry wrapper, so its ops carry `loc(callsite(#callee at
#caller))`: the callee is the statement the op came from, the caller the entry's line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .model import Module

_FILE_LOC = re.compile(r'^loc\("(?P<file>(?:[^"\\]|\\.)*)":(?P<line>\d+):(?P<col>\d+)\)$')
_DI_LOC = re.compile(r"^#cuda_tile\.di_loc<(?P<inner>#[\w.$]+) in ")
_CALLSITE = re.compile(r"^loc\(callsite\((?P<callee>#[\w.$]+) at (?P<caller>#[\w.$]+)\)\)$")
_INLINE = re.compile(r'^"(?P<file>(?:[^"\\]|\\.)*)":(?P<line>\d+):(?P<col>\d+)$')


@dataclass(frozen=True)
class SourceLoc:
    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    @classmethod
    def parse(cls, text: str) -> "SourceLoc":
        """The inverse of str(): FILE:LINE:COLUMN (the file may hold colons)."""
        file, line, column = text.rsplit(":", 2)
        return cls(file, int(line), int(column))


def resolve_locations(module: Module) -> dict[str, SourceLoc]:
    """Every loc reference used in the module (`#loc14`, or inline text) -> SourceLoc."""
    resolved: dict[str, SourceLoc] = {}
    for name in module.aliases:
        loc = _resolve_alias(module.aliases, name, depth=0)
        if loc is not None:
            resolved[name] = loc
    for op in module.walk():
        if op.loc and op.loc not in resolved:
            match = _INLINE.match(op.loc)
            if match:
                resolved[op.loc] = SourceLoc(match["file"], int(match["line"]), int(match["col"]))
    return resolved


def _resolve_alias(aliases: dict[str, str], name: str, depth: int) -> SourceLoc | None:
    text = aliases.get(name)
    if text is None or depth > 16:
        return None
    match = _FILE_LOC.match(text)
    if match:
        return SourceLoc(match["file"], int(match["line"]), int(match["col"]))
    match = _DI_LOC.match(text)
    if match:
        return _resolve_alias(aliases, match["inner"], depth + 1)
    match = _CALLSITE.match(text)
    if match:
        return (_resolve_alias(aliases, match["callee"], depth + 1)
                or _resolve_alias(aliases, match["caller"], depth + 1))
    return None
