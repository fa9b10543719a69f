"""Whose port a folder holds. A draft or a copy carries a mark naming the kernel it is a port
of (port/.draft.json), so `--out DIR` can tell this target's own port (drafted again, or
opened, as before) from anything else (said in one line and refused unless --force).

    stamp(port, op)                      # after drafting or copying a port of op there
    refuse_foreign(out, op, force, hint) # raises unless out is empty, op's own, or forced
"""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from ..errors import WorkbenchError
from ..operators import DRAFT_MARK, Operator, display_path

SCHEMA = "workbench.draft/1"
# a port drafted or copied before ports were marked says it in its Cargo.toml
_DESCRIBED = re.compile(r"port of (\S+)")


def kernel_identity(op: Operator) -> str:
    """FILE:KERNEL, the file as display_path names it (relative to the checkout or to
    site-packages where it is in one: the same on every machine)."""
    return f"{display_path(op.kernel_file)}:{op.kernel_name}"


def stamp(port: Path, op: Operator) -> None:
    port.mkdir(parents=True, exist_ok=True)
    mark = {"schema": SCHEMA, "kernel": kernel_identity(op), "target": op.summary}
    (Path(port) / DRAFT_MARK).write_text(json.dumps(mark, indent=1) + "\n")


def port_owner(folder: Path) -> str | None:
    """The kernel a port in `folder` is of (FILE:KERNEL, or for a catalog port made before
    marks only FILE), or None where the folder does not say."""
    try:
        mark = json.loads((folder / DRAFT_MARK).read_text())
        return mark["kernel"] if mark.get("schema") == SCHEMA else None
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        manifest = tomllib.loads((folder / "Cargo.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return None
    found = _DESCRIBED.search(str(manifest.get("package", {}).get("description", "")))
    return found[1] if found else None


def foreign_contents(folder: Path, op: Operator) -> str | None:
    """What `folder` holds, in a few words, when it is neither empty nor `op`'s own port
    (a port of op's kernel, marked or described as such); None when it is."""
    folder = Path(folder)
    held = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
    if not held:
        return None
    owner = port_owner(folder)
    if owner in (kernel_identity(op), display_path(op.kernel_file)):
        return None
    shown = [name for name in held if name != DRAFT_MARK] or held
    files = ", ".join(shown[:6]) + (" ..." if len(shown) > 6 else "")
    if owner is not None:
        return f"a port of {owner} ({files})"
    if (folder / "Cargo.toml").exists() or (folder / "port.toml").exists():
        return f"a port that does not say which kernel it is of ({files})"
    return f"files that are not a port: {files}"


def refuse_foreign(folder: Path, op: Operator, force: bool, hint: str) -> str | None:
    """Raise (message and `hint`) when `folder` holds something other than `op`'s port and
    `force` is not given; -> what it holds (None: nothing foreign)."""
    held = foreign_contents(folder, op)
    if held is not None and not force:
        raise WorkbenchError(f"{display_path(folder)} already holds {held}", hint)
    return held
