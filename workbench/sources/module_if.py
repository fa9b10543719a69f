"""A module-level `if` the module reader decides as the module would when it is imported:
one whose test reads only the environment and the interpreter (`if os.environ.get("FAST") ==
"1":`, `if sys.version_info >= (3, 12):`), never the package. Its branch is read as top-level
code (fla's jit helpers `exp`/`log` are defined so)."""
from __future__ import annotations

import ast
import os
import sys

# what a module-level `if` may test for the reader to take its branch as the module would:
# the environment and the interpreter, never the package (`if os.environ.get("FAST") == "1"`)
_DECIDABLE = {"os": os, "sys": sys, "int": int, "str": str, "bool": bool, "float": float}


def decided_branch(node: ast.If) -> list[ast.stmt] | None:
    """The statements of the branch a module-level `if` takes, where its test reads only the
    environment and the interpreter (os, sys, literals); None where only the package knows."""
    names = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
    if not names & {"os", "sys"} or not names <= _DECIDABLE.keys():
        return None
    try:
        taken = eval(compile(ast.Expression(node.test), "<if>", "eval"),
                     {"__builtins__": {}, **_DECIDABLE})
    except Exception:               # noqa: BLE001 (os.environ["X"] unset: the module fails too)
        return None
    branch = node.body if taken else node.orelse
    if len(branch) == 1 and isinstance(branch[0], ast.If):
        return decided_branch(branch[0])      # an `elif`
    return branch
