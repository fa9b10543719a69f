"""A kernel entry compiled for execution: each op read once into an `Instr` (code.py) through
the handler registry, so that running a block in a loop never re-reads text. Compiling refuses
an op the registry does not know, naming it and its line."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..ir.locations import resolve_locations
from ..ir.model import Block, Entry, Module, Operation
from .code import Code, Instr
from .errors import Fault, InterpError, UnsupportedOp, where
from .registry import BUILDERS
from .syntax import OpText
from .types import parse_type
from ..ir.printer import print_nodes


@dataclass(eq=False)
class Program:
    entry: Entry
    params: tuple[str, ...]
    param_types: tuple
    body: Code
    source: dict = field(default_factory=dict)     # loc reference -> SourceLoc
    used: frozenset = frozenset()                  # the params the body reads


class Compiler:
    """Turns blocks into Code, one op at a time, through the handler registry."""

    def __init__(self, builders: dict, source: dict):
        self.builders = builders
        self.source = source

    def code(self, block: Block, args: tuple[str, ...] | None = None) -> Code:
        if args is None:
            args = tuple(a.name for a in block.args or [])
        return Code(tuple(args), [self.instr(op) for op in block.ops])

    def instr(self, op: Operation) -> Instr:
        build = self.builders.get(op.name)
        if build is None:
            raise UnsupportedOp(
                f"the interpreter has no handler for op `{op.name}` at {where(op, self.source)}",
                "this op is not interpreted yet; run the kernel on a GPU, or add a handler "
                "to workbench/interp/registry.py", op_name=op.name, line=op.line)
        try:
            return build(op, OpText(op), self)
        except Fault as fault:
            raise fault.kind(f"{op.name}: {fault.message} at {where(op, self.source)}",
                             fault.hint, op_name=op.name, line=op.line) from None

    def make(self, op: Operation, run: Callable, operands, regions=()) -> Instr:
        return Instr(op, run, tuple(operands), tuple(op.result_names()), tuple(regions))


def compile_entry(module: Module, entry: str | None = None,
                  builders: dict | None = None) -> Program:
    """The entry (the first one when `entry` is None) compiled for `execute.run_program`."""
    try:
        chosen = module.entry(entry)
    except StopIteration:
        names = ", ".join(e.symbol for e in module.entries)
        raise InterpError(f"the module has no entry {entry!r}", f"entries: {names}") from None
    source = resolve_locations(module)
    compiler = Compiler(builders or BUILDERS, source)
    body = compiler.code(chosen.block, ())
    try:
        types = tuple(parse_type(_text(a.type)) for a in chosen.args)
    except Fault as fault:
        raise fault.kind(f"entry @{chosen.symbol}: {fault.message}", fault.hint) from None
    params = tuple(a.name for a in chosen.args)
    used = frozenset(t.text for op in chosen.walk() for t in op.value_tokens()) & set(params)
    return Program(chosen, params, types, body, source, used)


def _text(nodes) -> str:
    return print_nodes(nodes)
