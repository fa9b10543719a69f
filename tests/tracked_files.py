"""What the suite must leave as it found it: the checkout's tracked files (and no new file
that git would show). conftest.py takes a snapshot before the first test and compares
after the last; the run fails naming every file that changed."""
from __future__ import annotations

import hashlib
from pathlib import Path

from workbench.errors import ToolError
from workbench.tools import run_tool


def snapshot(root: Path) -> dict[str, str] | str:
    """Each file `git status` shows (changed, deleted or untracked and not ignored) ->
    its status and a digest of its content; or why there is nothing to compare (the
    tree is not a git checkout, or git is missing)."""
    try:
        proc = run_tool(["git", "-C", str(root), "status", "--porcelain=v1", "-z",
                         "--untracked-files=all"], timeout=60, text=True)
    except ToolError as e:
        return f"not a git checkout ({e.message.splitlines()[0]})"
    fields, state = proc.stdout.split("\0"), {}
    while fields:
        entry = fields.pop(0)
        if len(entry) < 4:
            continue
        status, path = entry[:2], entry[3:]
        if status[0] in "RC":          # a staged rename or copy: the old name follows
            fields.pop(0)
        state[path] = f"{status} {_digest(root / path)}"
    return state


def _digest(path: Path) -> str:
    if not path.is_file():
        return "absent"
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The files whose state differs between two snapshots, each with what happened."""
    out = []
    for path in sorted(set(before) | set(after)):
        if before.get(path) != after.get(path):
            now = after.get(path, "restored")
            what = ("new untracked file" if now.startswith("??") and path not in before else
                    "deleted" if now.endswith("absent") else
                    "restored to the committed version" if now == "restored" else "changed")
            out.append(f"{path} ({what})")
    return out
