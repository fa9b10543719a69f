"""Constant branches: an `if` whose test reads only `ct.Constant` parameters and literals is
split into entries, as cuTile Python specializes it away. One `#[cutile::entry]` per distinct
combination of the tested constants' values in the spec's cases, named
`<kernel>_<const>_<value>[_<const>_<value>..]` (lowercase, `-` -> `m`)."""
from __future__ import annotations

import ast
import re

from ...sources.branches import constant_branches
from ..analyze import KernelSpec
from .values import assigned_names

CONST_TEST_NODES = (ast.Expression, ast.Name, ast.Load, ast.Constant, ast.Compare, ast.BoolOp,
                    ast.UnaryOp, ast.BinOp, ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd,
                    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Add, ast.Sub,
                    ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr, ast.BitXor)


def const_test_problem(test: ast.AST) -> str | None:
    """Why `test` cannot be evaluated from constant values alone, or None."""
    for n in ast.walk(test):
        if not isinstance(n, CONST_TEST_NODES):
            return f"`{type(n).__name__}` in the test is not evaluated by the drafter"
        if isinstance(n, ast.Constant) and not isinstance(n.value, (int, float, bool)):
            return f"literal {n.value!r} in the test"
    return None


def eval_const_test(test: ast.AST, values: dict[str, object]) -> bool:
    """The test's truth for the constants' values (checked by const_test_problem first)."""
    code = compile(ast.Expression(body=test), "<constant test>", "eval")
    return bool(eval(code, {"__builtins__": {}}, dict(values)))


def const_branch_names(fn: ast.FunctionDef, constants: list[str]) -> list[str]:
    """The constants tested by `if` statements that the drafter splits into entries: of the
    branches a constant decides (sources/branches.py), those whose test reads only
    constants the kernel never assigns, in a form the drafter evaluates."""
    usable = set(constants) - assigned_names(fn.body)
    tested: set[str] = set()
    for branch in constant_branches(fn, constants):
        if branch.expression or branch.others or not set(branch.constants) <= usable:
            continue
        if const_test_problem(ast.parse(branch.test, mode="eval").body) is None:
            tested |= set(branch.constants)
    return [c for c in constants if c in tested]


def entry_combinations(spec: KernelSpec, tested: list[str]) -> list[dict[str, object]]:
    """The distinct values of the tested constants over the cases, in case order."""
    out: list[dict[str, object]] = []
    for s in spec.specializations:
        combo = {c: s.constants.get(c) for c in tested}
        if all(v is not None for v in combo.values()) and combo not in out:
            out.append(combo)
    return out


def entry_name(kernel: str, combo: dict[str, object]) -> str:
    """`kernel_f16_n_100`: dtype keys (`dtype(x)`) give their dtype, constants name=value."""
    parts = [kernel] + [str(v) if c.startswith("dtype(") else f"{c}_{str(v).replace('-', 'm')}"
                        for c, v in combo.items()]
    return re.sub(r"\W", "_", "_".join(parts).lower())


def entry_key(combo: dict[str, object]) -> str:
    return ",".join(f"{c}={v}" for c, v in combo.items())


