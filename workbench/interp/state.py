"""The interpreter's state while one tile block runs, in one named object: the values defined so
far, which block this is in which grid, the memory every block shares, and the run's options."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .memory import Memory


@dataclass
class Options:
    """How a run treats what the GPU leaves undefined.

    poison: what a load gives where Tile IR leaves the value unspecified (an out-of-bounds
        element of a view with no padding value, a masked-off pointer load with no padding).
        False (default): zero, what the GPU's TMA and masked loads give in practice. True: NaN
        (floats) or the type's minimum (integers), so a kernel that lets such values reach its
        output shows it (several TileGym kernels do: attention, mla prefill).
    check_assumes: check every `assume` fact against the actual values (an AssumeViolated
        error names the fact, the value and the IR line); False trusts them.
    print: where `print_tko` writes (default: stdout).
    sample: run only this fraction of each grid's blocks (execute.sampled_blocks: the first,
        the last, and others spread over the grid, the same ones for the same grid), for a
        case too large to run whole; None (default): every block.
    """
    poison: bool = False
    check_assumes: bool = True
    sample: float | None = None
    print: Callable[[str], None] = field(default=lambda text: print(text, end=""))


@dataclass
class BlockState:
    env: dict                           # SSA name -> value (ndarray, view, token)
    block_id: tuple[int, int, int]
    grid: tuple[int, int, int]
    memory: Memory
    options: Options
    source: dict = field(default_factory=dict)   # loc reference -> SourceLoc, for messages
