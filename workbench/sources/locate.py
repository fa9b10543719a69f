"""Where a named kernel lives: `X:KERNEL` split into file or module, and an installed
module's source file found without importing it (targets.py and triton/targets.py share it)."""
from __future__ import annotations

import importlib.machinery
import re
from pathlib import Path

from ..errors import WorkbenchError

_MODULE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_KERNEL = re.compile(r"^[A-Za-z_]\w*$")


def kernel_target(text: str) -> tuple[str, str, str] | None:
    """("file" | "module", FILE-or-MODULE, KERNEL) for `X:KERNEL`, None for anything else."""
    where, sep, kernel = text.rpartition(":")
    if not sep or not where or not _KERNEL.match(kernel):
        return None
    if where.endswith(".py") or "/" in where or where.startswith("."):
        return "file", where, kernel
    if _MODULE.match(where):
        return "module", where, kernel
    return None


def module_file(module: str) -> Path:
    """The source file of an installed module, found without importing it (its package's
    __init__ runs no code either: each parent is located, not executed)."""
    origin = search = None
    parts = module.split(".")
    for i in range(len(parts)):
        name = ".".join(parts[: i + 1])
        try:
            found = _find_spec(name, search)
        except (ImportError, ValueError) as e:
            raise WorkbenchError(f"{module}: cannot look up {name}: {e}",
                                 "is the package installed in this environment?")
        if found is None:
            raise WorkbenchError(f"{module}: no module named {name!r} is installed",
                                 "install the package (scripts/setup installs tilegym), "
                                 "or check the spelling")
        origin, search = found.origin, found.submodule_search_locations
    if origin is None or not origin.endswith(".py"):
        raise WorkbenchError(f"{module}: not a Python source module ({origin})",
                             "name the module file that defines the kernel")
    return Path(origin)


def _find_spec(name: str, search):
    """One level of a dotted name, looked up in its parent's folders (no import)."""
    leaf = name.rpartition(".")[2]
    if search is None:
        return importlib.machinery.PathFinder.find_spec(leaf)
    return importlib.machinery.PathFinder.find_spec(leaf, list(search))


