"""What the drafter's fixture tests share: a fixture kernel drafted for one case (no cargo),
and the same kernel through the whole `workbench port` pipeline as a user runs it (build and
IR diff against cuTile Python)."""
from __future__ import annotations

import re
from pathlib import Path

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.port.analyze import analyze
from workbench.port.rules import draft

REPO = Path(__file__).resolve().parent.parent


class DrafterFixture:
    def __init__(self, name: str, args: dict[str, list[str]], consts: dict):
        self.path = REPO / "tests" / "fixtures" / "drafter" / name
        self.args, self.consts = args, consts

    @property
    def label(self) -> str:
        return str(self.path.relative_to(REPO))

    def drafted(self, kernel: str, source: str | None = None):
        source = source if source is not None else self.path.read_text()
        case = Case(index=0, args=tuple(parse_arg(a) for a in self.args[kernel]),
                    consts=self.consts)
        return draft(analyze(source, self.label, kernel, [case]), source, kernel)

    def body(self, kernel: str) -> str:
        d = self.drafted(kernel)
        assert d.ok, d.diagnostics
        return d.files["src/kernel.rs"]

    def assert_ports(self, kernel: str, cli, out: Path) -> None:
        """`workbench port FILE:KERNEL --out DIR`: it builds and its IR diff passes."""
        command = ["port", f"{self.label}:{kernel}", "--out", str(out)]
        command += [x for a in self.args[kernel] for x in ("--arg", a)]
        command += [x for k, v in self.consts.items() for x in ("--const", f"{k}={v}")]
        result = cli(*command, timeout=900)
        assert "build          #1 BUILT" in result.stdout, result.stdout + result.stderr
        assert re.search(r"final verdict: PASS(_WITH_NOTES)?\b", result.stdout), \
            result.stdout + result.stderr
