"""A batch's run folder: one JSON file per finished task, written the moment it finishes, and
the lookup that lets a rerun skip every task whose inputs are unchanged.

    runs/batch/<name>/
      batch.json                    what was asked (selection, stages), when
      results/<kernel>/<stage>.json one StageResult each (atomic write: never half a file)
      runs/<kernel>/<time>/         the drafting pipeline's run folders (stage artifacts)
      ports/<kernel>/               drafted ports
      report.json, report.html, parity.svg
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..operators import REPO_ROOT

BATCH_RUNS = REPO_ROOT / "runs" / "batch"
# a result with one of these is kept but never reused: the next run tries again
NOT_FINAL = ("LOST", "SKIPPED", "NO_GPU", "INTERRUPTED")


@dataclass
class StageResult:
    kernel: str                       # the row: a catalog name, a corpus entry, a target
    stage: str                        # port, sass, check, bench
    verdict: str
    summary: str = ""                 # one line
    inputs: str = ""                  # the hash of everything the task read
    data: dict = field(default_factory=dict)
    run: str | None = None            # the pipeline's run folder, where there is one
    attempts: int = 1                 # how many times a worker started it
    worker: str = ""
    seconds: float = 0.0
    finished: float = 0.0             # time.time() when it finished
    cached: bool = False              # read back from an earlier run, not run now

    @property
    def final(self) -> bool:
        return self.verdict not in NOT_FINAL

    def to_json(self) -> dict:
        return {"kernel": self.kernel, "stage": self.stage, "verdict": self.verdict,
                "summary": self.summary, "inputs": self.inputs, "data": self.data,
                "run": self.run, "attempts": self.attempts, "worker": self.worker,
                "seconds": round(self.seconds, 3), "finished": self.finished}

    @classmethod
    def from_json(cls, data: dict) -> "StageResult":
        return cls(data["kernel"], data["stage"], data["verdict"], data.get("summary", ""),
                   data.get("inputs", ""), dict(data.get("data") or {}), data.get("run"),
                   int(data.get("attempts", 1)), data.get("worker", ""),
                   float(data.get("seconds", 0)), float(data.get("finished", 0)))


class Store:
    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def path(self, slug: str, stage: str) -> Path:
        return self.folder / "results" / slug / f"{stage}.json"

    def read(self, slug: str, stage: str) -> StageResult | None:
        try:
            return StageResult.from_json(json.loads(self.path(slug, stage).read_text()))
        except (OSError, ValueError, KeyError):
            return None

    def reusable(self, slug: str, stage: str, inputs: str) -> StageResult | None:
        """The stored result when it was made from these very inputs and is final."""
        result = self.read(slug, stage)
        if result is None or result.inputs != inputs or not result.final:
            return None
        result.cached = True
        return result

    def write(self, slug: str, result: StageResult) -> None:
        write_json(self.path(slug, result.stage), result.to_json())

    def begin(self, request: dict) -> None:
        write_json(self.folder / "batch.json", {**request, "started": time.time()})


def write_json(path: Path, data) -> None:
    """Write-then-rename: a Ctrl-C or a dead process never leaves half a file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp{os.getpid()}")
    temporary.write_text(json.dumps(data, indent=1, default=str) + "\n")
    os.replace(temporary, path)
