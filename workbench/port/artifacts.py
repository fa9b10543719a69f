"""The drafting pipeline's artifacts: one JSON file per stage, a fixed schema per stage
(validated on write and on read), and one `verdict` in each.

Common fields:  schema "workbench.stage.<stage>/1", stage, attempt, verdict, summary,
                started, seconds, and the stage's own fields below.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..operators import Operator
from ..errors import WorkbenchError
from ..argspec import parse_arg
from ..catalog import Case, all_operators, get_operator

# stage -> (allowed verdicts, required fields with their types)
SCHEMAS: dict[str, tuple[set[str], dict[str, type]]] = {
    # Triton sources only: the translation into a derived cuTile kernel, and the diff of the
    # port against the corpus's own cuTile kernel for the operator (triton_stages.py)
    "translate": ({"TRANSLATED", "UNSUPPORTED"}, {"triton": dict, "diagnostics": list,
                                                  "params": list, "derived_file": str}),
    "corpus_diff": ({"PASS", "PASS_WITH_NOTES", "FAIL", "ERROR", "SKIPPED"}, {"cases": list}),
    "analyze": ({"OK", "UNSUPPORTED"}, {"spec": dict}),
    "write_kernel": ({"DRAFTED", "UNSUPPORTED", "CAP_REACHED", "ERROR"},
                     {"files": list, "diagnostics": list, "drafter": str}),
    "write_host": ({"DRAFTED", "ERROR"}, {"files": list, "drafter": str}),
    "build": ({"BUILT", "BUILD_FAILED"}, {"library": (str, type(None)), "diagnostics": list}),
    "ir_diff": ({"PASS", "PASS_WITH_NOTES", "FAIL", "ERROR"}, {"cases": list}),
    "gpu_check": ({"PASS", "FAIL", "SKIPPED"}, {"reason": str, "results": list}),
    "perf": ({"PERF_PASS", "PERF_FAIL", "SKIPPED"}, {"gate": float, "reason": str, "cases": list}),
    # run when the perf gate fails: who owns the slowness of the slowest case
    "perf_investigation": ({"FIX_KERNEL", "FIX_HOST", "COMPILER_PROBLEM", "UNDETERMINED",
                            "ERROR"}, {"owner": str, "case": int, "evidence": list}),
    "diff_analysis": ({"FIX_KERNEL", "FIX_HOST", "COMPILER_PROBLEM", "REFERENCE_PROBLEM",
                       "UNDETERMINED", "NOTHING_TO_FIX"},
                      {"owner": str, "kind": str, "evidence": list}),
    "fix": ({"FIXED", "NO_FIX", "CAP_REACHED", "NOT_THE_PORT"}, {"attempts": int, "notes": list}),
    "final": ({"PASS", "PASS_WITH_NOTES", "FAIL", "UNSUPPORTED", "CAP_REACHED", "ERROR",
               "UNVERIFIED_TRANSLATION"},
              {"stages": list}),
}


def schema_name(stage: str) -> str:
    return f"workbench.stage.{stage}/1"


@dataclass
class Artifact:
    stage: str
    verdict: str
    summary: str
    data: dict = field(default_factory=dict)
    attempt: int = 1
    started: float = field(default_factory=time.time)
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"schema": schema_name(self.stage), "stage": self.stage, "attempt": self.attempt,
                "verdict": self.verdict, "summary": self.summary, "started": self.started,
                "seconds": round(self.seconds, 3), **self.data}

    @classmethod
    def from_json(cls, raw: dict) -> "Artifact":
        validate(raw)
        data = {k: v for k, v in raw.items() if k not in
                ("schema", "stage", "attempt", "verdict", "summary", "started", "seconds")}
        return cls(raw["stage"], raw["verdict"], raw["summary"], data, raw["attempt"],
                   raw["started"], raw["seconds"])


def validate(raw: dict) -> None:
    stage = raw.get("stage")
    if stage not in SCHEMAS:
        raise WorkbenchError(f"artifact of unknown stage {stage!r}", "was it written by another version?")
    if raw.get("schema") != schema_name(stage):
        raise WorkbenchError(f"{stage} artifact has schema {raw.get('schema')!r}, "
                             f"expected {schema_name(stage)}", "rerun the stage")
    verdicts, fields = SCHEMAS[stage]
    if raw.get("verdict") not in verdicts:
        raise WorkbenchError(f"{stage} artifact: verdict {raw.get('verdict')!r} is not one of "
                             f"{sorted(verdicts)}", "rerun the stage")
    for name, kind in {"summary": str, "attempt": int, **fields}.items():
        if name not in raw or not isinstance(raw[name], kind):
            raise WorkbenchError(f"{stage} artifact: field {name!r} missing or not "
                                 f"{getattr(kind, '__name__', kind)}", "rerun the stage")


def write_artifact(folder: Path, index: int, artifact: Artifact) -> Path:
    raw = artifact.to_json()
    validate(raw)
    path = folder / f"{index:02d}-{artifact.stage}.json"
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(raw, indent=1, default=str) + "\n")
    temporary.replace(path)
    return path


def read_artifacts(folder: Path) -> list[Artifact]:
    out = []
    for path in sorted(folder.glob("[0-9][0-9]-*.json")):
        try:
            out.append(Artifact.from_json(json.loads(path.read_text())))
        except json.JSONDecodeError as e:
            raise WorkbenchError(f"{path}: not JSON ({e})", "the run folder is damaged")
        except WorkbenchError as e:
            raise WorkbenchError(f"{path}: {e.message}", e.hint)
    return out


# -- the operator a run is for: written once, read to resume ------------------------------

OPERATOR_FILE = "operator.json"


def write_operator(folder: Path, op: Operator) -> Path:
    """Enough to rebuild the Operator: a catalog name, or the kernel and its cases."""
    raw = {"schema": "workbench.run.operator/1", "name": op.name,
           "port": str(op.port_folder.resolve())}
    if op.name not in all_operators() or all_operators()[op.name].kernel_file != op.kernel_file:
        raw.update(kernel_file=str(Path(op.kernel_file).resolve()), kernel_name=op.kernel_name,
                   kernel_module=op.kernel_module, folder=str(op.folder),
                   cases=[{"args": [str(a) for a in c.args], "consts": c.consts}
                          for c in op.cases])
    path = folder / OPERATOR_FILE
    path.write_text(json.dumps(raw, indent=1) + "\n")
    return path


def read_operator(folder: Path) -> Operator:
    path = folder / OPERATOR_FILE
    try:
        raw = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise WorkbenchError(f"{path}: cannot read the run's operator: {e}",
                             "resume a folder that `workbench port` made")
    if "kernel_file" not in raw:
        return get_operator(raw["name"]).with_port(Path(raw["port"]))
    cases = tuple(Case(i, tuple(parse_arg(a) for a in c["args"]), dict(c["consts"]))
                  for i, c in enumerate(raw["cases"]))
    return Operator(name=raw["name"], summary=raw["name"], kernel_name=raw["kernel_name"],
                    outputs=(), tolerance={}, cases=cases, folder=Path(raw["folder"]),
                    kernel_path=Path(raw["kernel_file"]), port_path=Path(raw["port"]),
                    kernel_module=raw.get("kernel_module"))
