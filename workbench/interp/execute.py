"""Running a compiled program: blocks of the grid one after another (x fastest, then y, then
z), each block's body run by code.run_code from the entry's parameters."""
from __future__ import annotations

import contextlib
import time

import numpy as np

from .code import run_code
from .errors import InterpError, OverBudget
from .memory import Memory
from .program import Program
from .state import BlockState, Options


def run_program(program: Program, memory: Memory, params: list, grid,
                options: Options | None = None) -> None:
    """Every block of `grid` in turn, each starting from the entry's parameters."""
    options = options or Options()
    grid = tuple(int(g) for g in grid) + (1,) * (3 - len(tuple(grid)))
    if len(grid) != 3 or any(g < 1 for g in grid):
        raise InterpError(f"grid {grid} must have 1 to 3 positive extents", "e.g. (rows, 1, 1)")
    start = dict(zip(program.params, params))
    blocks = sampled_blocks(grid, options.sample)
    began = time.perf_counter()
    with np.errstate(all="ignore"), _one_blas_thread():
        for done, block in enumerate(blocks):
            state = BlockState(dict(start), block, grid, memory, options, program.source)
            run_code(state, program.body)
            if options.sample is not None and done == 0:
                _within_time(time.perf_counter() - began, len(blocks))


# A sampled run's projected time past which it is refused (its first block tells)
SAMPLE_SECONDS = 15.0
WHAT_TO_DO = "check a smaller case (--case), or on a GPU"


def _within_time(first_block_s: float, blocks: int) -> None:
    if first_block_s * blocks > SAMPLE_SECONDS:
        raise OverBudget(f"the sampled blocks would take about {first_block_s * blocks:.0f} s "
                         f"on the CPU ({first_block_s:.2f} s a block, {blocks} blocks), over "
                         f"its {SAMPLE_SECONDS:.0f} s: {WHAT_TO_DO}")


def sampled_blocks(grid: tuple[int, int, int], fraction: float | None) -> list[tuple]:
    """The blocks to run, in launch order (x fastest): all of them, or for a fraction the
    first, the last and others evenly spread between them (at least two), so that two runs
    over the same grid run the same blocks. A grid too small to come near the fraction (a
    persistent kernel's, each block looping over the data) is refused: OverBudget."""
    total = grid[0] * grid[1] * grid[2]
    if fraction is None or fraction >= 1:
        linear = range(total)
    else:
        if total * fraction < 0.5:
            raise OverBudget(f"a grid of {total} blocks cannot be sampled down to "
                             f"{fraction:.1%} of its work (each block loops over the data, "
                             f"as a persistent kernel's does): {WHAT_TO_DO}")
        count = min(total, max(2, int(total * fraction)))
        linear = sorted({round(i * (total - 1) / (count - 1)) for i in range(count)})
    return [(i % grid[0], i // grid[0] % grid[1], i // (grid[0] * grid[1])) for i in linear]


def _one_blas_thread():
    """The BLAS on one thread while blocks run: their matrix products are small, and a threaded
    OpenBLAS next to torch's OpenMP threads runs them about ten times slower (measured on the
    catalog's matmul). Needs threadpoolctl; without it the BLAS keeps its threads."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")
