"""Where a port's verdicts are kept: the catalog's recorded IR verdicts (kernels_src/
verdicts.json, `workbench ops --refresh` writes them, each with the code hash of the port it
was made from) and the pipeline's run folders (runs/<op>/<time>/, one artifact per stage).
"""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import WorkbenchError
from ..operators import KERNELS_DIR, Operator
from ..rust.cargo import code_hash
from .artifacts import OPERATOR_FILE, Artifact, read_artifacts
from .pipeline import RUNS_DIR


def verdicts_file() -> Path:
    return KERNELS_DIR / "verdicts.json"


def recorded_verdicts() -> dict:
    path = verdicts_file()
    return json.loads(path.read_text()) if path.exists() else {}


def current_verdicts(record: dict, op: Operator) -> list[str]:
    """A record's verdict per case, or `stale` for each where the port changed since."""
    if record["code"] != code_hash(op):
        return ["stale"] * len(record["verdicts"])
    return list(record["verdicts"])


def last_run(op: Operator, runs_dir: Path | None = None) -> Path | None:
    """The newest run folder of the pipeline (runs/<op>/<time>/) made for this port folder."""
    folder = Path(runs_dir or RUNS_DIR) / op.name
    port = str(op.port_folder.resolve())
    runs = sorted((p for p in folder.glob("*/" + OPERATOR_FILE) if _port_of(p) == port),
                  key=lambda p: p.stat().st_mtime)
    return runs[-1].parent if runs else None


def _port_of(operator_file: Path) -> str | None:
    try:
        return json.loads(operator_file.read_text()).get("port")
    except (OSError, ValueError, AttributeError):
        return None


def run_artifacts(run: Path) -> list[Artifact]:
    """A run's stage artifacts; a damaged folder reads as none (the export says so)."""
    try:
        return read_artifacts(run)
    except WorkbenchError:
        return []
