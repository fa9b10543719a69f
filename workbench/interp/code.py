"""Compiled code and how it runs: an `Instr` per op (its handler, operand and result names, its
compiled regions), a `Code` block of them, and `run_code`, which runs a block on a block state.
A Fault from a handler, or any unexpected exception, becomes an InterpError naming the op and
its IR line. Region ops (for, loop, if, reduce, scan) run their regions through run_code."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..ir.model import Operation
from .errors import Fault, InterpError, where
from .state import BlockState


@dataclass(eq=False)
class Instr:
    op: Operation
    run: Callable              # run(state, operand values) -> results tuple | Signal | None
    operands: tuple[str, ...]
    results: tuple[str, ...]
    regions: tuple["Code", ...] = ()


@dataclass(eq=False)
class Code:
    """A compiled block: the names its arguments bind, and its instructions."""
    args: tuple[str, ...]
    instrs: list[Instr]


@dataclass
class Signal:
    """How a block ended: `yield`, `continue`, `break` or `return`, with its values."""
    kind: str
    values: tuple = ()



def run_code(state: BlockState, code: Code, args=()) -> Signal | None:
    """Run a block; the Signal of the terminator that ended it (None: it ran off its end)."""
    env = state.env
    for name, value in zip(code.args, args):
        env[name] = value
    for instr in code.instrs:
        try:
            out = instr.run(state, [env[n] for n in instr.operands])
        except InterpError:
            raise
        except Fault as fault:
            raise fault.kind(f"{instr.op.name}: {fault.message}\n"
                             f"  at {where(instr.op, state.source)}",
                             fault.hint, op_name=instr.op.name, line=instr.op.line) from None
        except KeyError as e:
            raise InterpError(f"{instr.op.name}: value {e.args[0]} is not defined here\n"
                              f"  at {where(instr.op, state.source)}",
                              op_name=instr.op.name, line=instr.op.line) from None
        except Exception as e:     # a bug or an unhandled form: say where
            raise InterpError(f"{instr.op.name}: {type(e).__name__}: {e}\n"
                              f"  at {where(instr.op, state.source)}",
                              "this looks like an interpreter bug or an unsupported form",
                              op_name=instr.op.name, line=instr.op.line) from e
        if type(out) is Signal:
            return out
        if instr.results:
            for name, value in zip(instr.results, out):
                env[name] = value
    return None
