"""The house rule, checked: which room of workbench/ may import which (README, "How the code
is laid out"). Every import counts, the ones inside functions too.

    python3 tools/layers.py            # prints each breach; exit 1 if there is one not known

A breach is `module -> imported module`, with the line. The breaches known today are listed
in KNOWN (issue 31 removes them): a new one fails, and so does a listed one that is gone
(take it off the list), so the list only shrinks.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "workbench"

BASE = {"argspec", "errors", "tools", "target", "operators", "launchrules", "refmath", "engine",
        "toolchains"}
# top-level modules that are rooms of their own (the rest are "top")
ROOMS = {"catalog": "catalog", "tilegym_catalog": "catalog", "resolve": "resolve",
         "magics": "magics"}
# the rooms, lowest first; a room may import itself and the rooms named for it
ALLOWED = {
    "base": set(),
    "sources": {"base"},
    "catalog": {"base", "sources"},
    "ir": {"base", "sources"},
    "diff": {"base", "ir"},
    "sass": {"base", "ir", "diff"},
    "rust": {"base", "sources", "ir"},
    "interp": {"base", "ir"},
    "translate": {"base", "sources", "catalog"},
    "resolve": {"base", "sources", "catalog", "translate"},
    "ownership": {"base", "sources", "ir", "diff", "sass", "rust"},
    "check": {"base", "sources", "catalog", "ir", "rust", "translate", "interp", "ownership", "sass"},
}
LOWER = set(ALLOWED)
ALLOWED.update({
    "port": LOWER,
    "corpus": LOWER | {"port"},
    "batch": LOWER | {"port", "corpus"},
    "tune": LOWER,
    "top": LOWER | {"port", "corpus", "batch", "tune", "top"},
})
ALLOWED.update({room: set(ALLOWED) | {"ui", "magics", "cli"} for room in ("ui", "magics", "cli")})

# (importing module, imported module): breaches known and not yet mended; a new one fails,
# and a listed one that is gone must leave the list
KNOWN: set[tuple[str, str]] = set()


PACKAGES = {path.parent.name for path in (ROOT / PACKAGE).glob("*/__init__.py")}


def room_of(module: str) -> str:
    """base, a package's name (its __init__ too), a room of ROOMS, or top; the
    package's own __init__ is its front (`workbench.record`, the magics), in the cli room."""
    parts = module.split(".")[1:]
    if not parts:
        return "cli"
    if parts[0] in PACKAGES:
        return parts[0]
    if parts[0] in BASE:
        return "base"
    return ROOMS.get(parts[0], "top")


def modules(root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def imports(module: str, path: Path, known: dict[str, Path]):
    """(imported module, line) for every import of a workbench module in `path`."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)] \
                if node.level else []
            target = ".".join(base + ([node.module] if node.module else [])) \
                if node.level else (node.module or "")
            names = [f"{target}.{a.name}" for a in node.names]
            found = [n for n in names if n in known] or ([target] if target in known else [])
            yield from ((name, node.lineno) for name in found)
        elif isinstance(node, ast.Import):
            yield from ((a.name, node.lineno) for a in node.names if a.name in known)


def breaches(root: Path = ROOT) -> list[tuple[str, str, int]]:
    known = modules(root)
    out = []
    for module, path in known.items():
        room = room_of(module)
        for target, line in imports(module, path, known):
            other = room_of(target)
            if other != room and other not in ALLOWED[room]:
                out.append((module, target, line))
    return out


def main() -> int:
    found = breaches()
    pairs = {(m, t) for m, t, _ in found}
    for module, target, line in found:
        mark = "known" if (module, target) in KNOWN else "NEW"
        print(f"{mark:5} {module} ({room_of(module)}) imports {target} ({room_of(target)}) "
              f"at line {line}")
    gone = KNOWN - pairs
    for module, target in sorted(gone):
        print(f"fixed {module} no longer imports {target}: take it off KNOWN in tools/layers.py")
    new = pairs - KNOWN
    print(f"{len(found)} breaches: {len(new)} new, {len(pairs & KNOWN)} known, {len(gone)} fixed")
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main())
