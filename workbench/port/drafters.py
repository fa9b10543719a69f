"""What every drafter hands the pipeline: one `Draft` (files + diagnostics + notes) with one
`Diagnostic` type, and the `Drafter` protocol the pipeline's stages call.

    draft = drafter.write_kernel(ctx)         # Draft
    draft.ok, [str(d) for d in draft.diagnostics]
    Draft.from_json(draft.to_json()) == draft

The rule-based drafter is `workbench.port.rules.RulesDrafter`, the agent `workbench.port.agent`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass
class Diagnostic:
    """Why (part of) a kernel was not drafted: a source line, the construct, the reason."""
    line: int
    construct: str
    message: str
    file: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.file else f"line {self.line}"
        return f"{where}: {self.construct}: {self.message}"

    def to_json(self) -> dict:
        data = {"line": self.line, "construct": self.construct, "message": self.message}
        if self.file is not None:
            data["file"] = self.file
        return data

    @classmethod
    def from_json(cls, data: dict) -> "Diagnostic":
        return cls(line=int(data.get("line") or 0), construct=str(data.get("construct", "")),
                   message=str(data.get("message", "")), file=data.get("file"))


@dataclass
class Draft:
    """A drafter's port files (port-relative path -> text); `ok` when nothing was refused."""
    files: dict[str, str]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.diagnostics

    def to_json(self) -> dict:
        return {"files": dict(self.files), "diagnostics": [d.to_json() for d in self.diagnostics],
                "notes": list(self.notes)}

    @classmethod
    def from_json(cls, data: dict) -> "Draft":
        return cls(files=dict(data.get("files", {})),
                   diagnostics=[Diagnostic.from_json(d) for d in data.get("diagnostics", [])],
                   notes=list(data.get("notes", [])))


@runtime_checkable
class Drafter(Protocol):
    """A pipeline drafter. `ctx` is the pipeline's RunContext; `analysis` the diff-analysis
    artifact of a failed build or diff."""
    name: str

    def write_kernel(self, ctx: Any) -> Draft: ...

    def write_host(self, ctx: Any) -> dict[str, str]: ...

    def fix(self, ctx: Any, analysis: Any) -> bool: ...
