"""A kernel module's own package, read and never imported: which file a `from .utils import
X` or `from pkg.utils import X` names, and the literal constants a module defines, so a
kernel can use `LOG2E` from its package's utils without the package's runtime (torch) being
run (module.py, translate/reader.py).
"""
from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parents[2]


def source_file(filename: str) -> Path | None:
    """The file a module's displayed name stands for (operators.display_path: absolute,
    relative to the checkout, or to site-packages), or None."""
    given = Path(filename)
    if given.is_absolute():
        return given if given.is_file() else None
    for root in [Path.cwd(), _REPO_ROOT] + [Path(p) for p in sys.path if p]:
        if (root / given).is_file():
            return root / given
    return None


def package_module_file(stmt: ast.ImportFrom, path: Path) -> Path | None:
    """The file of the module `stmt` imports from, when it is in the package `path` is in."""
    here = path.resolve().parent
    if stmt.level:
        base = here
        for _ in range(stmt.level - 1):
            base = base.parent
        parts = stmt.module.split(".") if stmt.module else []
    else:
        top = here
        while (top.parent / "__init__.py").exists():
            top = top.parent
        parts = (stmt.module or "").split(".")
        if not (here / "__init__.py").exists() or parts[0] != top.name:
            return None
        base = top.parent
    module = base.joinpath(*parts)
    for candidate in (module.with_suffix(".py"), module / "__init__.py"):
        if parts and candidate.is_file() and candidate.resolve() != path.resolve():
            return candidate
    return None


def constant_assignments(tree: ast.Module) -> Iterator[tuple[str, ast.expr]]:
    """Module-level `NAME = value` and `NAME: T = value`: (name, value), a Triton
    `tl.constexpr(value)` unwrapped to its value."""
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 \
            else node.target if isinstance(node, ast.AnnAssign) and node.value is not None \
            else None
        if not isinstance(target, ast.Name):
            continue
        value = node.value
        if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords and \
                ast.unparse(value.func).split(".")[-1] == "constexpr":
            value = value.args[0]
        yield target.id, value


def literal_constants(tree: ast.Module) -> dict[str, str]:
    """The module's literal constants: name -> the literal's source text."""
    out = {}
    for name, value in constant_assignments(tree):
        try:
            ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
        out[name] = ast.unparse(value)
    return out


def package_constants(stmt: ast.ImportFrom, path: Path | None) -> dict[str, str]:
    """The names `stmt` imports that are literal constants of a module of `path`'s own
    package: local name -> the literal's source text."""
    source = package_module_file(stmt, path) if path is not None else None
    if source is None:
        return {}
    try:
        constants = literal_constants(ast.parse(source.read_text(), str(source)))
    except (SyntaxError, OSError, UnicodeDecodeError):
        return {}
    return {a.asname or a.name: constants[a.name] for a in stmt.names if a.name in constants}
