"""Branches a kernel's `ct.Constant` parameters decide: cuda-tile folds each away at
compile time, so every value is its own compiled program, and an ahead-of-time port needs
one entry per value. One owner for the question, asked by the drafter and the explorer."""
from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class ConstantBranch:
    line: int
    test: str                   # the test's source text
    constants: tuple[str, ...]  # the ct.Constant parameters it reads, sorted
    others: tuple[str, ...]     # any other names it reads (runtime values), sorted
    expression: bool            # a conditional expression, not an `if` statement


def constant_branches(fn: ast.FunctionDef, constants) -> list[ConstantBranch]:
    """Every `if` / conditional expression in `fn` whose test reads a constant."""
    constants = set(constants)
    out = []
    for node in ast.walk(fn):
        if not isinstance(node, (ast.If, ast.IfExp)):
            continue
        names = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
        if names & constants:
            out.append(ConstantBranch(node.lineno, ast.unparse(node.test),
                                      tuple(sorted(names & constants)),
                                      tuple(sorted(names - constants)),
                                      isinstance(node, ast.IfExp)))
    return sorted(out, key=lambda b: b.line)
