"""One operator being ported, as the notebook (and its widget) sees it: the two source
files and the latest build, diff, check and benchmark. Every action is a plain method."""
from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from .catalog import REPO_ROOT, Operator, get_operator
from .errors import WorkbenchError

HISTORY = ".history"


@dataclass
class DiffView:
    """What the widget shows of a diff."""
    verdict: str
    left_text: str
    right_text: str
    alignment: list
    py_lines: dict[str, int]
    rust_lines: dict[str, int]
    findings: list[dict]
    report: object = field(repr=False, default=None)


class PortSession:
    def __init__(self, op: Operator | str, case: int = 0, port: Path | None = None):
        self.op = get_operator(op) if isinstance(op, str) else op
        if port is not None:          # work on a copy of a port somewhere else
            self.op = self.op.with_port(port)
        self.case = case
        self.last_build = None
        self.last_diff: DiffView | None = None

    # -- files --------------------------------------------------------------------------
    @property
    def python_file(self) -> Path:
        return self.op.kernel_file

    @property
    def rust_file(self) -> Path:
        return self.op.port_folder / "src" / "kernel.rs"

    def python_source(self) -> str:
        return self.python_file.read_text()

    def rust_source(self) -> str:
        return self.rust_file.read_text() if self.rust_file.exists() else ""

    def save_rust(self, text: str) -> Path | None:
        """Write the port's kernel, keeping the previous version in port/.history/."""
        if not self.rust_file.exists() or self.rust_file.read_text() == text:
            if not self.rust_file.exists():
                self.rust_file.parent.mkdir(parents=True, exist_ok=True)
                self.rust_file.write_text(text)
            return None
        history = self.op.port_folder / HISTORY
        history.mkdir(exist_ok=True)
        kept = history / f"kernel.rs.{time.strftime('%Y%m%d-%H%M%S')}.{time.time_ns() % 10**6}"
        shutil.copy2(self.rust_file, kept)
        self.rust_file.write_text(text)
        return kept

    # -- actions --------------------------------------------------------------------------
    def rebuild(self):
        from .rust.cargo import build
        self.last_build = build(self.op)
        return self.last_build

    def diff(self) -> DiffView:
        from .pairs import operator_diff
        report = operator_diff(self.op, self.case)
        self.last_diff = DiffView(
            verdict=report.verdict, left_text=report.left_text, right_text=report.right_text,
            alignment=[list(a) for a in report.alignment],
            py_lines=_lines_in(report.left_sources, self.python_file),
            rust_lines=_lines_in(report.right_sources, self.rust_file),
            findings=[_finding_view(f) for f in report.findings], report=report)
        return self.last_diff

    def check(self):
        from .check.report import check_operator
        return check_operator(self.op, [self.case])

    def bench(self):
        from .check.report import bench_operators
        return bench_operators([self.op])

    def specializations(self) -> list[dict]:
        """The JIT -> AOT view: per case, the kernel the JIT compiles and what it assumed."""
        from .sources.kernel import load_operator_kernel
        from .specialize import const_branches, explore
        kernel = load_operator_kernel(self.op)
        calls = [list(case.args) for case in self.op.cases]
        texts = [f"case {c.index}: " + " ".join(str(a) for a in c.args) for c in self.op.cases]
        branches = const_branches(kernel)
        rows = []
        for case, text, args in zip(self.op.cases, texts, calls):
            (spec,) = explore(kernel, [args], case.consts, [text])
            consts = ", ".join(f"{k}={v}" for k, v in case.consts.items())
            rows.append({"call": text, "symbol": spec.symbol, "branches": branches,
                         "facts": [f"{f.name}: {f.words()}" for f in spec.arrays]
                         + [f"const generics: {consts or 'none'}"]})
        groups: dict[str, int] = {}
        for row in rows:
            row["group"] = groups.setdefault(row["symbol"], len(groups))
        return rows

    def sass(self) -> dict:
        from .pairs import side_bytecode
        from .sass.diff import diff_sass
        from .sass.stages import sass_of
        left, right = (sass_of(side_bytecode(self.op, s, self.case)) for s in ("python", "rust"))
        table = diff_sass(left.instructions, right.instructions, left.summary, right.summary)
        return {"left": left.text, "right": right.text, "rows": table.summary_rows()}


def _lines_in(sources: dict, file: Path) -> dict[str, int]:
    """IR line -> line in `file`, for the locations that point into it."""
    name = str(file.relative_to(REPO_ROOT)) if file.is_absolute() else str(file)
    out = {}
    for ir_line, loc in sources.items():
        if name.endswith(loc.file) or loc.file.endswith(name) or \
                name.endswith(loc.file.split("kernels_src/")[-1]):
            out[str(ir_line)] = loc.line
    return out


def _finding_view(f) -> dict:
    return {"category": f.category, "kind": f.kind, "detail": f.detail,
            "left_line": (f.left or {}).get("ir_line"), "right_line": (f.right or {}).get("ir_line"),
            "source_line": (f.left or {}).get("source_line")}


def describe_error(error: Exception) -> str:
    if isinstance(error, WorkbenchError):
        return str(error)
    return f"{type(error).__name__}: {error}"
