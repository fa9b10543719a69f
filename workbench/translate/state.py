"""What translating one Triton kernel builds up: the one object the translator's parts
(translate.py, accesses.py, exprs.py, helpers.py, ...) read and write, as `t.state`. The
Translator's other attributes are its inputs: the kernel's source and its cases."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TritonState:
    env: dict[str, object] = field(default_factory=dict)   # Triton name -> its value
    lines: list = field(default_factory=list)              # the derived kernel's lines (Line)
    depth: int = 1                                         # the indent being written
    diagnostics: list[dict] = field(default_factory=list)  # what could not be translated
    notes: list[dict] = field(default_factory=list)        # what was translated with a note
    written: set[str] = field(default_factory=set)         # pointers the kernel stores through
    variables: set[str] = field(default_factory=set)       # names a loop carries
    typed: set[str] = field(default_factory=set)    # variables a runtime `if` reassigns
    fresh_count: int = 0                                   # for fresh names
    returned: bool = False                                 # a top-level `return` was read
    tf32_products: bool = False                            # a tl.dot of f32 multiplies in tf32
    rest: list = field(default_factory=list)               # what follows, to the kernel's end
    tail: bool = True                                      # the block being read ends the kernel
    helper_depth: int = 0                                  # @triton.jit helpers being inlined
    file: str | None = None                                # the inlined helper's, if another
