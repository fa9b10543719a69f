"""Planted faults and mistranslations, kept as small patches against the softmax operator
(kernels_src/fixtures/<name>/<name>.patch, each with a README saying what it plants) and
materialised into a folder when something needs one: the GPU session's fault run, the
port bundle, notebook 03 and the tests.

    materialise("mistranslated", Path("runs/x"))   # runs/x/{kernel.py, reference.py, port/}

The compiler fixture's planted miscompile (planted_compiler) is a tileiras wrapper that
compiles another program in place of the port's kernel; it is set up for the launch (cutile
reads CUTILE_TILEIRAS_PATH) and for the workbench's own SASS (WORKBENCH_TILEIRAS) alike, so
that the machine code the evidence shows is the machine code that ran.
"""
from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path

from .catalog import load_catalog
from .operators import KERNELS_DIR, Operator, display_path
from .errors import WorkbenchError
from .rust.cargo import build
from .rust.emit import emit_in_child, emit_request
from .rust.standalone import make_standalone
from .sass.compile import tileiras

FIXTURES_DIR = KERNELS_DIR / "fixtures"
FIXTURE_CATALOG = FIXTURES_DIR / "catalog.toml"
BASE = KERNELS_DIR / "softmax"          # what every patch applies to
BASE_FILES = ("kernel.py", "reference.py")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def materialise(name: str, into: Path) -> Path:
    """The softmax operator (kernel.py, reference.py, port/) with fixture `name`'s patch
    applied, in `into` (replacing what is there); the port builds as a package of its own."""
    patch = FIXTURES_DIR / name / f"{name}.patch"
    if not patch.exists():
        raise WorkbenchError(f"no fixture named {name!r} ({display_path(patch)} is missing)",
                             "fixtures: " + ", ".join(sorted(p.parent.name for p in
                                                             FIXTURES_DIR.glob("*/*.patch"))))
    into = Path(into)
    if into.exists():
        shutil.rmtree(into)
    into.mkdir(parents=True)
    for file in BASE_FILES:
        shutil.copy2(BASE / file, into / file)
    shutil.copytree(BASE / "port", into / "port",
                    ignore=shutil.ignore_patterns(".history", "target", "*.md"))
    apply_patch(patch, into)
    make_standalone(into / "port")
    return into


def fixture_operator(name: str) -> Operator:
    """A fixture operator of kernels_src/fixtures/catalog.toml, materialised where that
    catalog says its folder is (the catalog is read when WORKBENCH_EXTRA_CATALOG names it)."""
    op = load_catalog(FIXTURE_CATALOG)[name]
    materialise(name, op.folder)
    return op


def apply_patch(patch: Path, folder: Path) -> None:
    """Apply a unified diff (`--- a/REL`, `+++ b/REL`, paths relative to `folder`) exactly:
    every hunk must match at the line it names, or nothing is guessed and the error names
    the hunk."""
    lines = patch.read_text().splitlines()
    index = 0
    while index < len(lines):
        if lines[index].startswith("--- ") and index + 1 < len(lines) \
                and lines[index + 1].startswith("+++ "):
            index = _apply_file(patch, lines, index, folder)
        else:
            index += 1


def _apply_file(patch: Path, lines: list[str], index: int, folder: Path) -> int:
    rel = lines[index + 1][4:].split("\t")[0].strip().split("/", 1)[-1]
    path = (folder / rel).resolve()
    if not path.is_relative_to(folder.resolve()):
        raise WorkbenchError(f"{display_path(patch)}:{index + 2}: {rel} is outside the folder",
                             "a fixture patches only the operator's own files")
    old = path.read_text().splitlines() if path.exists() else []
    new, cursor, index = [], 0, index + 2
    while index < len(lines) and (match := _HUNK.match(lines[index])):
        start = int(match[1]) - (0 if match[2] == "0" else 1)
        new += old[cursor:start]
        cursor, index = start, index + 1
        remaining = [int(match[2] or 1), int(match[4] or 1)]     # old, new lines to go
        while remaining != [0, 0] and index < len(lines):
            tag, body = (lines[index][:1] or " "), lines[index][1:]
            if tag in " -":
                if cursor >= len(old) or old[cursor] != body:
                    found = repr(old[cursor]) if cursor < len(old) else "the end of the file"
                    raise WorkbenchError(
                        f"{display_path(patch)}:{index + 1}: does not apply to {rel}:{cursor + 1}: "
                        f"expected {body!r}, found {found}",
                        f"{display_path(BASE)} changed under the fixture: make its change "
                        f"again and rewrite the patch ({display_path(FIXTURES_DIR)}/README.md)")
                cursor += 1
                remaining[0] -= 1
            if tag in " +":
                new.append(body)
                remaining[1] -= 1
            if tag not in " -+\\":
                raise WorkbenchError(f"{display_path(patch)}:{index + 1}: the hunk ends early",
                                     "the hunk's line counts do not match its lines")
            index += 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(new + old[cursor:]) + "\n")
    return index


# fixture -> the owner its failed check must name (tools/gpu_session.py ownership)
OWNERSHIP_FIXTURES = {"zero_padding": "kernel", "miscompiled": "compiler", "half_grid": "host",
                      "oob_store": "host"}
PLANTED = "planted/tileiras"


def planted_compiler(op: Operator, case_index: int = 0) -> dict[str, str]:
    """The environment under which `op`'s port is miscompiled: its kernel, specialized for half
    its tile (the first constant halved), is compiled in place of the kernel it was given."""
    wrapper = op.port_folder / PLANTED
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    request = emit_request(op, case_index).splitlines()
    generics = next(i for i, line in enumerate(request) if line.startswith("generics "))
    words = request[generics].split()
    words[-1] = str(int(words[-1]) // 2)
    request[generics] = " ".join(words)
    # beside the port, not in it: a file in the port folder is one of its sources
    planted = op.port_folder.parent / f"planted-case{case_index}.tileirbc"
    planted.write_bytes(emit_in_child(op.name, str(build(op).library), "\n".join(request) + "\n"))
    return {"CUTILE_TILEIRAS_PATH": str(wrapper), "WORKBENCH_TILEIRAS": str(wrapper),
            "WB_REAL_TILEIRAS": str(tileiras()), "WB_PLANTED_BYTECODE": str(planted)}


class environment:
    """`with environment(env):` sets variables for the block (the check worker inherits them)."""

    def __init__(self, env: dict[str, str]):
        self.env, self.saved = env, {}

    def __enter__(self):
        self.saved = {k: os.environ.get(k) for k in self.env}
        os.environ.update(self.env)
        return self

    def __exit__(self, *exc):
        for key, value in self.saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
