"""SASS for a side of an operator case or a kernel file, and what each IR finding costs."""
from __future__ import annotations

from dataclasses import dataclass

from .compile import compile_cubin, resource_usage, sass_text
from .model import Instruction, SassSummary, parse_sass, summarize


@dataclass
class SassResult:
    instructions: list[Instruction]
    summary: SassSummary
    text: str


def sass_of(bytecode: bytes) -> SassResult:
    cubin = compile_cubin(bytecode)
    text = _cached(cubin.with_suffix(".sass"), lambda: sass_text(cubin))
    resources = _cached(cubin.with_suffix(".res"), lambda: resource_usage(cubin))
    instructions = parse_sass(text)
    return SassResult(instructions, summarize(instructions, resources), text)


def _cached(path, make) -> str:
    if path.exists():
        return path.read_text()
    text = make()
    path.write_text(text)
    return text


# which parts of the SASS summary an IR finding of each kind can move
_FINDING_FIELDS = {
    "div_by": ("global_loads", "global_stores", "tma"),
    "assume": ("global_loads", "global_stores", "tma"),
    "allow_tma": ("tma", "global_loads", "global_stores"),
    "latency": ("tma", "global_loads", "shared"),
    "optimization_hints": ("tma", "global_loads", "global_stores"),
    "tile_shape": ("matrix", "shared", "registers", "global_loads", "tma"),
    "mma": ("matrix", "ffma"), "mma_operands": ("matrix",),
    "padding_value": ("global_loads", "tma"),
    "types": ("matrix", "global_loads", "global_stores"),
}


def attribute(kind: str, left: SassSummary, right: SassSummary) -> list[str]:
    """The SASS changes an IR finding of `kind` plausibly causes (empty: none seen)."""
    changes = []
    for name in _FINDING_FIELDS.get(kind, ()):
        a, b = getattr(left, name), getattr(right, name)
        if a != b:
            changes.append(f"{name}: {a} -> {b}")
    return changes
