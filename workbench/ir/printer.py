"""Tile IR model -> text: what tileirdisasm wrote (whitespace aside), for any op."""
from __future__ import annotations

from .model import Block, Module, Node, Operation, walk_tokens

INDENT = "  "


def print_nodes(nodes: list[Node]) -> str:
    out = []
    for i, tok in enumerate(walk_tokens(nodes)):
        out.append((" " if tok.space_before and i else "") + tok.text)
    return "".join(out)


def print_module(module: Module, op_lines: dict[int, int] | None = None) -> str:
    """The module as text; `op_lines`, when given, is filled with id(op) -> 1-based line."""
    lines: list[str] = []
    for entry in module.entries:
        args = ", ".join(f"{a.name}: {print_nodes(a.type)}" for a in entry.args)
        attrs = print_nodes(entry.attrs)
        lines.append(f"{entry.keyword} @{entry.symbol}({args})" + (f" {attrs}" if attrs else "")
                     + " {")
        _print_block(entry.block, 1, lines, op_lines)
        lines.append("}" + _loc_suffix(entry.loc))
    lines += [f"{name} = {text}" for name, text in module.aliases.items()]
    return "\n".join(lines) + "\n"


def print_op(op: Operation, depth: int = 0) -> str:
    lines: list[str] = []
    _print_op(op, depth, lines)
    return "\n".join(lines)


def op_header(op: Operation) -> str:
    """The op's first line without indentation, region or location."""
    head = ", ".join(str(r) for r in op.results)
    body = print_nodes(op.body)
    return (f"{head} = " if head else "") + op.name + (f" {body}" if body else "")


def _print_block(block: Block, depth: int, lines: list[str], op_lines=None) -> None:
    for op in block.ops:
        _print_op(op, depth, lines, op_lines)


def _print_op(op: Operation, depth: int, lines: list[str], op_lines=None) -> None:
    pad = INDENT * depth
    if op_lines is not None:
        op_lines[id(op)] = len(lines) + 1
    header = pad + op_header(op)
    if not op.regions:
        lines.append(header + _loc_suffix(op.loc))
        return
    for i, region in enumerate(op.regions):
        opener = print_nodes(region.opener)
        if i == 0:
            if region.block.args is None:
                lines.append(header + " {")
            else:
                lines.append(header)
                lines.append(pad + _block_args(region.block) + " {")
        else:
            lines.append(pad + "}" + (f" {opener}" if opener else "") + " {")
        _print_block(region.block, depth + 1, lines, op_lines)
    lines.append(pad + "}" + _loc_suffix(op.loc))


def _block_args(block: Block) -> str:
    return "(" + ", ".join(f"{a.name}: {print_nodes(a.type)}" for a in block.args or []) + ")"


def _loc_suffix(loc: str | None) -> str:
    return f" loc({loc})" if loc is not None else ""
