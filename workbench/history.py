"""A port's kept versions of its kernel: every text the workbench replaced is first kept in
`port/.history/kernel.rs.<time>.<why>` (why: before-draft, saved, unsaved, before-restore).
This module owns that naming: keeping a text, listing the versions, reading one back and
comparing it with another text (the widget's History tab; JupyterLab hides dot-folders).
"""
from __future__ import annotations

import difflib
import re
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import WorkbenchError

HISTORY = ".history"
KERNEL = "kernel.rs"
_NAME = re.compile(r"^kernel\.rs\.(?P<day>\d{8})-(?P<clock>\d{6})\.(?P<micro>\d{6})\.(?P<why>[\w-]+)$")
CONTEXT = 3                 # unchanged lines shown around each change of a comparison
MAX_ROWS = 4000


@dataclass(frozen=True)
class Version:
    path: Path
    why: str                 # before-draft | saved | unsaved | before-restore
    when: str                # "2026-12-04 07:18:46"

    @property
    def name(self) -> str:
        return self.path.name

    def text(self) -> str:
        return self.path.read_text()

    def to_json(self) -> dict:
        return {"name": self.name, "why": self.why, "when": self.when,
                "lines": len(self.text().splitlines())}


def keep(port_folder: Path, text: str, why: str) -> Path | None:
    """Keep `text` as port/.history/kernel.rs.<time>.<why> (nothing for empty text)."""
    if not text.strip():
        return None
    history = Path(port_folder) / HISTORY
    history.mkdir(parents=True, exist_ok=True)
    while True:                 # two keeps in one microsecond: never overwrite one
        now = time.time_ns()
        stamp = f"{time.strftime('%Y%m%d-%H%M%S', time.localtime(now // 10**9))}." \
                f"{now // 1000 % 10**6:06d}"
        kept = history / f"{KERNEL}.{stamp}.{why}"
        if not kept.exists():
            kept.write_text(text)
            return kept


def _version(path: Path) -> Version | None:
    m = _NAME.match(path.name)
    if not m or not path.is_file():
        return None
    d, c = m["day"], m["clock"]
    when = f"{d[:4]}-{d[4:6]}-{d[6:]} {c[:2]}:{c[2:4]}:{c[4:]}"
    return Version(path, m["why"], when)


def versions(port_folder: Path) -> list[Version]:
    """The kept versions of the port's kernel.rs, newest first."""
    folder = Path(port_folder) / HISTORY
    found = [_version(p) for p in folder.iterdir()] if folder.is_dir() else []
    return sorted((v for v in found if v), key=lambda v: v.name.split(".", 2)[2], reverse=True)


def version(port_folder: Path, name: str) -> Version:
    """The kept version called `name` (as versions() lists it)."""
    found = next((v for v in versions(port_folder) if v.name == name), None)
    if found is None:
        raise WorkbenchError(f"no kept version {name!r} in {Path(port_folder) / HISTORY}",
                             "pick one from the History tab's list (press Refresh)")
    return found


def compare(old: str, new: str) -> dict:
    """`old` (a kept version) against `new` (the pane): rows [op, old line, new line, text],
    op " " (both), "-" (the version only), "+" (the pane only), "@" (lines left out)."""
    a, b = old.splitlines(), new.splitlines()
    rows, added, removed = [], 0, 0
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(CONTEXT):
        if rows:
            rows.append(["@", None, None, ""])
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                rows += [[" ", i + 1, j1 + k + 1, a[i]] for k, i in enumerate(range(i1, i2))]
                continue
            rows += [["-", i + 1, None, a[i]] for i in range(i1, i2)]
            rows += [["+", None, j + 1, b[j]] for j in range(j1, j2)]
            removed, added = removed + i2 - i1, added + j2 - j1
    return {"rows": rows[:MAX_ROWS], "cut": len(rows) > MAX_ROWS, "added": added,
            "removed": removed, "same": a == b}
