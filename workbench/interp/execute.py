"""Running a compiled program: blocks of the grid one after another (x fastest, then y, then
z), each block's body run by code.run_code from the entry's parameters."""
from __future__ import annotations

import contextlib

import numpy as np

from .code import run_code
from .errors import InterpError
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
    with np.errstate(all="ignore"), _one_blas_thread():
        for z in range(grid[2]):
            for y in range(grid[1]):
                for x in range(grid[0]):
                    state = BlockState(dict(start), (x, y, z), grid, memory, options,
                                       program.source)
                    run_code(state, program.body)


def _one_blas_thread():
    """The BLAS on one thread while blocks run: their matrix products are small, and a threaded
    OpenBLAS next to torch's OpenMP threads runs them about ten times slower (measured on the
    catalog's matmul). Needs threadpoolctl; without it the BLAS keeps its threads."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")
