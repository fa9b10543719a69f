"""One operator being ported, as the notebook (and its widget) sees it: the two source
files and the latest build, diff, check and benchmark. Every action is a plain method.

Nothing the user wrote is replaced without a kept copy: a save keeps the previous kernel.rs,
a draft keeps the file it replaces and the pane's unsaved text, all in `port/.history/`.
"""
from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from . import history
from .history import HISTORY
from .catalog import KERNELS_DIR, Operator, display_path, get_operator
from .errors import WorkbenchError
from .check.report import ANY, bench_operators, check_operator
from .check.runner import has_cuda_driver
from .ownership.pairs import operator_diff, side_bytecode
from .port.export import export_port
from .port.folders import stamp
from .port.pipeline import draft_folder, run_pipeline
from .port.recorded import specializations
from .port.triton_stages import bench_against_triton, check_against_triton, translated
from .rust.cargo import build, folder_tag, is_plain_copy
from .rust.manifest import load_manifest
from .rust.standalone import make_standalone
from .sass.diff import diff_sass
from .sass.stages import sass_of
from .sources.kernel import load_operator_kernel
from .specialize import const_branches, explore
from .tune.sweep import tune
from .ownership.toolchain import toolchain_diff
from .toolchains import installed



@dataclass
class DiffView:
    """A diff as the notebook and the widget see it: the report, whose JSON
    (`workbench.diff/1`) is what the widget draws, and the port text it is of."""
    report: object                   # workbench.diff.verdict.DiffReport
    rust_source: str                 # kernel.rs as it was when diffed (stale when it changes)

    @property
    def verdict(self) -> str:
        return self.report.verdict

    @property
    def findings(self) -> list[dict]:
        return [f.to_json() for f in self.report.findings]

    def to_json(self) -> dict:
        return dict(self.report.to_json(), rust_source=self.rust_source)


class PortSession:
    def __init__(self, op: Operator | str, case: int | None = None, port: Path | None = None):
        self.op = get_operator(op) if isinstance(op, str) else op
        if port is not None:          # work on a copy of a port somewhere else
            self.op = self.op.with_port(Path(port).resolve())
        # the case asked for, else the operator's first
        self.case = case if case is not None else (self.op.cases[0].index if self.op.cases else 0)
        self.last_build = None
        self.last_diff: DiffView | None = None
        self._derived = None            # (what it was translated from, derived Operator)

    # -- files --------------------------------------------------------------------------
    @property
    def python_file(self) -> Path:
        return self.op.kernel_file

    @property
    def rust_file(self) -> Path:
        return self.op.port_folder / "src" / "kernel.rs"

    @property
    def has_port(self) -> bool:
        return (self.op.port_folder / "Cargo.toml").exists()

    def python_source(self) -> str:
        return self.python_file.read_text()

    def rust_source(self) -> str:
        return self.rust_file.read_text() if self.rust_file.exists() else ""

    def draft_folder(self) -> Path:
        """Where Draft writes: this port, or for a catalog port a work folder under runs/."""
        return draft_folder(self.op)

    def where(self) -> str:
        """One line naming the folders in use (printed by %port)."""
        port, draft = display_path(self.op.port_folder), display_path(self.draft_folder())
        text = f"{self.op.name}: Rust port in {port}" + ("" if self.has_port else " (none yet)")
        return text + ("; Draft writes there" if port == draft else f"; Draft writes to {draft}")

    def save_rust(self, text: str) -> Path | None:
        """Write the port's kernel, keeping the previous version in port/.history/."""
        current = self.rust_source()
        if self.rust_file.exists() and current == text:
            return None
        kept = self.keep(current, "saved")
        self.rust_file.parent.mkdir(parents=True, exist_ok=True)
        self.rust_file.write_text(text)
        return kept

    def keep(self, text: str, why: str, folder: Path | None = None) -> Path | None:
        """Keep `text` as port/.history/kernel.rs.<time>.<why> (nothing for empty text)."""
        return history.keep(folder or self.op.port_folder, text, why)

    def kept_versions(self) -> list[dict]:
        """The kept versions of the port's kernel.rs, newest first."""
        return [v.to_json() for v in history.versions(self.op.port_folder)]

    def restore(self, name: str, pane_text: str | None) -> list[Path]:
        """Make the kept version `name` the port's kernel.rs, keeping first the file it
        replaces when the pane's text differs (saved), then the pane's text (before-restore,
        the newest kept version). -> the kept files."""
        text = history.version(self.op.port_folder, name).text()
        current = self.rust_source()
        pane = current if pane_text is None else pane_text
        kept = [self.keep(current, "saved")] if current != pane else []
        kept.append(self.keep(pane, "before-restore"))
        self.rust_file.write_text(text)
        return [k for k in kept if k]

    # -- actions --------------------------------------------------------------------------
    def draft(self, pane_text: str | None = None, drafter: str = "rules", progress=None):
        """Draft a port into draft_folder(), keeping first the kernel.rs it replaces and the
        pane's unsaved text; then work on the drafted port. -> (RunResult, kept files).
        `progress(stage, number, count)` as each stage of the run starts."""
        folder = self.draft_folder()
        kept = []
        replaced = folder / "src" / "kernel.rs"
        if replaced.exists():
            kept.append(self.keep(replaced.read_text(), "before-draft", folder))
        if pane_text is not None and pane_text != self.rust_source():
            kept.append(self.keep(pane_text, "unsaved", folder))
        run = run_pipeline(self.op, drafter=drafter, out=folder, progress=progress)
        self.op = self.op.with_port(run.port)
        return run, [k for k in kept if k]

    def export(self, dest: Path, force: bool = False, progress=None):
        """The port as a crate of its own in `dest` (port/export.py) -> Exported."""
        return export_port(self.op, dest, force=force, progress=progress)

    def rebuild(self):
        self.last_build = build(self.op)
        return self.last_build

    def diff(self) -> DiffView:
        text = self.rust_source()
        self.last_diff = DiffView(operator_diff(self.reference(), self.case), text)
        return self.last_diff

    def reference(self) -> Operator:
        """The cuTile kernel the port's Tile IR is diffed against: the operator's own, or for
        a Triton source the kernel derived from it (translated again when the Triton file or
        the port folder changes)."""
        if self.op.language != "triton":
            return self.op
        key = (self.op.triton.path.read_text(), self.op.port_folder)
        if self._derived is None or self._derived[0] != key:
            self._derived = (key, translated(self.op)[0])
        return self._derived[1]

    def check(self):
        """On the GPU where there is one; else on the CPU, through the Tile IR interpreter
        (its response's device says which ran). A Triton source's port is checked against
        the Triton kernel itself (on the CPU: Triton's interpreter)."""
        if self.op.language == "triton":
            return check_against_triton(self.op, cpu=not has_cuda_driver(),
                                        derived_op=self.reference())
        return check_operator(self.op, [self.case], on=ANY)

    def bench(self):
        """Both sides timed on the GPU (a Triton source's port against the Triton kernel)."""
        if self.op.language == "triton":
            return bench_against_triton(self.op, derived_op=self.reference())
        return bench_operators([self.op])

    def tune(self, progress=None):
        """The port's knobs swept on the GPU for the case in view (tune/sweep.py): the
        fastest correct candidate is kept in the port's tuned.toml; skipped without a GPU."""
        return tune(self.op, [self.case], progress=progress)

    def toolchains(self):
        """Both sides of the case in view compiled by the pinned tileiras and the first other
        installed one (ownership/toolchain.py)."""
        versions = list(installed())
        if len(versions) < 2:
            raise WorkbenchError(f"only tileiras {versions[0]} is installed here",
                                 "`workbench toolchain install 13.5.37` adds another")
        return toolchain_diff(self.op, self.case, versions[:2])

    def specializations(self) -> list[dict]:
        """The JIT -> AOT view: per case, the kernel the JIT compiles and what it assumed."""
        op = self.reference()
        kernel = load_operator_kernel(op)
        calls = [list(case.args) for case in op.cases]
        texts = [f"case {c.index}: " + " ".join(str(a) for a in c.args) for c in op.cases]
        branches = const_branches(kernel)
        serves = self._recorded_launches()
        roles = self._constant_roles(kernel, branches)
        rows = []
        for case, text, args in zip(op.cases, texts, calls):
            (spec,) = explore(kernel, [args], case.consts, [text])
            consts = ", ".join(f"{k}={v}" for k, v in case.consts.items())
            rows.append({"call": text, "symbol": spec.symbol, "branches": branches,
                         "constants": roles,
                         "facts": [f"{f.name}: {f.words()}" for f in spec.arrays]
                         + [f"const generics: {consts or 'none'}"]
                         + [f"serves {label}" for label in serves.get(case.index, [])]})
        groups: dict[str, int] = {}
        for row in rows:
            row["group"] = groups.setdefault(row["symbol"], len(groups))
        return rows

    def _constant_roles(self, kernel, branches: list[str]) -> list[str]:
        """Per ct.Constant, how the port takes it (none before the port exists)."""
        if not kernel.const_params:
            return []
        try:
            manifest = load_manifest(self.op)
        except WorkbenchError:
            return []
        constants = [p for p in kernel.params if p in kernel.const_params]
        return manifest.constant_roles(constants, branches)

    def _recorded_launches(self) -> dict[int, list[str]]:
        """case -> the recorded launches it serves (calls the JIT compiles once share one)."""
        if self.op.record is None:
            return {}
        out: dict[int, list[str]] = {}
        for row in specializations(self.op):
            out.setdefault(row["case"], []).append(row["label"])
        return out

    def sass(self) -> dict:
        left, right = (sass_of(side_bytecode(self.reference(), s, self.case))
                       for s in ("python", "rust"))
        table = diff_sass(left.instructions, right.instructions, left.summary, right.summary)
        return {"left": left.text, "right": right.text, "rows": table.summary_rows()}


def copy_port(op: Operator, dest: Path) -> Operator:
    """A copy of `op`'s port in `dest` that builds on its own (outside the kernels_src
    workspace: its own manifest, the pinned Cargo.lock); the operator with its port there."""
    dest = Path(dest).expanduser().resolve()
    if is_plain_copy(dest):            # made with `cp -r`: fix its manifest, keep its sources
        manifest = dest / "Cargo.toml"
        kept = dest / HISTORY / f"Cargo.toml.{time.strftime('%Y%m%d-%H%M%S')}.plain-copy"
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(manifest, kept)
        make_standalone(dest)
        stamp(dest, op)
        return op.with_port(dest)
    if (dest / "Cargo.toml").exists():
        raise WorkbenchError(f"{dest} already holds a port", "pick an empty folder")
    source = op.port_folder
    if not (source / "Cargo.toml").exists():
        raise WorkbenchError(f"{op.name} has no port to copy ({display_path(source)})",
                             "draft one instead (the Draft button, or `workbench port`)")
    shutil.copytree(source, dest, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("target", HISTORY))
    manifest = dest / "Cargo.toml"
    if source.resolve().is_relative_to(KERNELS_DIR.resolve()):
        make_standalone(dest)
    else:                  # a copy of a copy: a package name of its own (see standalone_manifest)
        manifest.write_text(_retagged(manifest.read_text(), dest))
    stamp(dest, op)
    return op.with_port(dest)


def _retagged(manifest: str, dest: Path) -> str:
    import re
    return re.sub(r'(?m)^name = "(\w+?)(_[0-9a-f]{10})?"$',
                  lambda m: f'name = "{m[1]}_{folder_tag(dest)}"', manifest, count=1)


def describe_error(error: Exception) -> str:
    """One line for the user: a WorkbenchError's message and hint, else the exception."""
    if isinstance(error, WorkbenchError):
        return error.message + (f" \u2014 {error.hint}" if error.hint else "")
    return f"{type(error).__name__}: {error}"
