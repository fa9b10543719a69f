"""A port's tuned entries: `port/tuned.toml`, written by `workbench tune`, read by every launch
of the port on a GPU (check, bench, the perf gate). Each entry serves the calls whose arrays
have exactly its dtypes and shapes, and replaces the caller's tile constants and hints:

    # written by `workbench tune softmax` ...
    [[entry]]
    arrays = "f16[16384,4096] f16[16384,4096]"     # the arrays of the calls it serves, in order
    consts = { TILE_COLS = 4096 }
    hints = { occupancy = 2 }                        # occupancy, num_ctas, num_worker_warps
    untuned_us = 812.4                               # what the sweep measured, for the reader
    tuned_us = 771.0
    device = "NVIDIA H200"

The IR diff never reads it: the port is compared with its reference as the catalog launches
both. Writing keeps the file it replaces as `tuned.toml.previous`.
"""
from __future__ import annotations

import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import WorkbenchError
from ..operators import Case, Operator

FILE = "tuned.toml"
PREVIOUS = "tuned.toml.previous"
TUNED_FILES = (FILE, PREVIOUS, FILE + ".writing")


@dataclass(frozen=True)
class TunedEntry:
    arrays: str                          # "f16[16384,4096] f16[16384,4096]"
    consts: dict = field(default_factory=dict)
    hints: dict = field(default_factory=dict)
    measured: dict = field(default_factory=dict)   # untuned_us, tuned_us, device, ...


def case_arrays(case: Case) -> str:
    """The array signature of a catalog case: its arrays' dtype[shape], in order."""
    return " ".join(f"{a.dtype}[{','.join(map(str, a.shape))}]" for a in case.args if a.is_array)


def value_arrays(values: list, dtype_of) -> str:
    """The array signature of a call's arguments (`dtype_of(array)`: our dtype name, None
    for a value that is not an array)."""
    parts = []
    for value in values:
        dtype = dtype_of(value)
        if dtype is not None:
            parts.append(f"{dtype}[{','.join(str(int(d)) for d in value.shape)}]")
    return " ".join(parts)


def tuned_case(op: Operator, case: Case) -> tuple[dict, dict, TunedEntry | None]:
    """(constants, hints, the entry) a catalog case launches the port with: its tuned.toml
    entry's over the case's own, or the case's own and no hints."""
    entry = load_tuned(op).get(case_arrays(case))
    if entry is None:
        return dict(case.consts), {}, None
    return {**case.consts, **entry.consts}, dict(entry.hints), entry


def tuned_path(op: Operator) -> Path:
    return op.port_folder / FILE


def load_tuned(op: Operator) -> dict[str, TunedEntry]:
    """Array signature -> entry; empty where the port was never tuned."""
    path = tuned_path(op)
    if not path.is_file():
        return {}
    try:
        raw = tomllib.loads(path.read_text())
        entries = [_entry(item) for item in raw.get("entry", [])]
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as e:
        raise WorkbenchError(f"{path}: malformed: {e}",
                             f"fix it, or restore {PREVIOUS} beside it, or delete it to run "
                             "the port untuned") from e
    return {e.arrays: e for e in entries}


def _entry(item: dict) -> TunedEntry:
    consts = {str(k): int(v) for k, v in item.get("consts", {}).items()}
    hints = {str(k): int(v) for k, v in item.get("hints", {}).items()}
    measured = {k: v for k, v in item.items() if k not in ("arrays", "consts", "hints")}
    return TunedEntry(str(item["arrays"]), consts, hints, measured)


def write_tuned(op: Operator, entries: dict[str, TunedEntry], header: str) -> Path:
    """Replace tuned.toml with `entries`, the old file kept as tuned.toml.previous."""
    path = tuned_path(op)
    if path.is_file():
        shutil.copy2(path, path.with_name(PREVIOUS))
    lines = [f"# {line}" for line in header.splitlines()]
    for entry in sorted(entries.values(), key=lambda e: e.arrays):
        lines += ["", "[[entry]]", f"arrays = {_toml(entry.arrays)}",
                  f"consts = {_inline(entry.consts)}", f"hints = {_inline(entry.hints)}"]
        lines += [f"{k} = {_toml(v)}" for k, v in entry.measured.items()]
    temporary = path.with_name(FILE + ".writing")
    temporary.write_text("\n".join(lines) + "\n")
    temporary.replace(path)
    return path


def _inline(table: dict) -> str:
    return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in table.items()) + " }" \
        if table else "{}"


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
