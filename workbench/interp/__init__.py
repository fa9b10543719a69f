"""Tile IR on the CPU: run a kernel's module on NumPy arrays, one tile block after another, so
that a port's numbers can be checked without a GPU.

    from workbench.interp import run_entry
    module = operator_python_ir(get_operator("softmax")).module()   # workbench/ir/stages.py
    x = np.random.randn(256, 1000).astype(np.float32)
    out = np.full_like(x, np.nan)
    run_entry(module, grid=(256, 1, 1), args=[x, out])              # writes `out` in place

run_entry(module, grid, args, entry=None, options=None) -> None
    module: a parsed Module (workbench.ir.parse / IRResult.module()), or a Program from
        compile_entry (compile once, run many times).
    grid: (gx, gy, gz) (shorter tuples are padded with 1); blocks run one after another,
        x fastest, each from the entry's parameters; atomics apply in that order.
    args: the kernel's runtime arguments in parameter order (constants are compiled in):
        NumPy arrays (any strides or offset into a larger buffer; bf16/fp8 as ml_dtypes
        arrays), lists of arrays (a list parameter), Partitioned(array, tile) for a Rust
        port's host-partitioned output, and scalars. params.py says how each maps to the
        entry's parameters (pointer, extents, strides). Arrays are read and written in place.
    entry: the entry's symbol (default: the module's first).
    options: Options(poison=False, check_assumes=True, print=...) (state.py).

compile_entry(module, entry=None) -> Program: the entry read once; raises UnsupportedOp naming
    the first op (and its IR line) the interpreter has no handler for.
bind_args(program, args) -> (Memory, params) and run_program(program, memory, params, grid,
    options): the two halves of run_entry, for a caller that inspects memory in between.
The check on the CPU (workbench/check/cpu.py, `workbench check OP --cpu`) runs catalog cases
    and recorded launches through this package on both sides of a port.

Errors are InterpError (a WorkbenchError): UnsupportedOp (an op or form not implemented),
AssumeViolated (an `assume` fact the values break: it names the fact, the value and the IR
line), MemoryFault (an access outside every array, or misaligned), OverBudget (a sampled run,
Options.sample, that cannot be sampled down or would take too long). Each names the op, its IR
line and, where the IR has debug locations, the kernel's source line.

What it does not model: the GPU's rounding of approximate math (`rounding<approx>`,
`flush_to_zero` compute exactly here), the order of a reduction's additions (a pairwise tree
here), and concurrency (blocks never overlap, so a race between blocks cannot show).
"""
from __future__ import annotations

from ..ir.model import Module
from .errors import AssumeViolated, InterpError, MemoryFault, OverBudget, UnsupportedOp
from .execute import run_program
from .params import Partitioned, bind_args
from .program import Program, compile_entry
from .registry import covered_ops
from .state import Options

__all__ = ["run_entry", "compile_entry", "run_program", "bind_args", "covered_ops", "Options",
           "Partitioned", "Program", "InterpError", "UnsupportedOp", "AssumeViolated",
           "MemoryFault", "OverBudget"]


def run_entry(module: Module | Program, grid, args, entry: str | None = None,
              options: Options | None = None) -> None:
    """Run `entry` of `module` over `grid` on `args`; results land in the output arrays."""
    program = module if isinstance(module, Program) else compile_entry(module, entry)
    memory, params = bind_args(program, list(args))
    run_program(program, memory, params, grid, options)

