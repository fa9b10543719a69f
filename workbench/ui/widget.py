"""The three-pane port widget (anywidget): Python kernel | Rust port (editable) | IR diff.

State lives in synced traits (saved with the notebook, so a saved notebook still shows the
panes); the front end is one bundled ES module in static/ (sources in extensions/).
Buttons and saves arrive as messages and run in a worker thread, so the widget can show
progress while a rebuild or a check runs.

The diff is one trait, `diff`: the `workbench.diff/1` JSON of DiffReport.to_json() plus the
kernel.rs text it is of (`rust_source`; the front end shows a verdict of other text as
stale). `result` is the last stage result (results.py): reasons, build errors, tables.
The front end reports the Rust pane's unsaved text in `unsaved`, so that whatever replaces
the pane (Draft, %%rust, a new widget on the same file) keeps it in port/.history/ first.
`history` lists those kept versions (the History tab: JupyterLab hides dot-folders), and
`history_diff` is one of them compared with the pane's text.
A new action clears the last result first, so a result panel never outlives the verdict it
was of; `status` carries the action's elapsed seconds, which the front end keeps counting.
Export asks the user for a folder (`export_to` is the one it offers) and writes the saved
port there as a crate of its own (port/export.py).
"""
from __future__ import annotations

import ast
import threading
import time
import weakref
from pathlib import Path

import anywidget
import traitlets

from ..operators import display_path
from ..port.export import default_folder
from ..session import PortSession, describe_error
from . import results
from ..errors import WorkbenchError
from ..history import compare, version

STATIC = Path(__file__).parent / "static"
_LIVE: "weakref.WeakSet[PortWidget]" = weakref.WeakSet()


def live_widgets(rust_file: Path) -> list["PortWidget"]:
    """The widgets of this kernel process that show `rust_file` in their Rust pane."""
    target = Path(rust_file).resolve()
    return [w for w in list(_LIVE) if w.session.rust_file.resolve() == target]


class PortWidget(anywidget.AnyWidget):
    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    python_source = traitlets.Unicode("").tag(sync=True)
    python_file = traitlets.Unicode("").tag(sync=True)
    kernel_line = traitlets.Int(0).tag(sync=True)          # the Python pane opens there
    rust_source = traitlets.Unicode("").tag(sync=True)
    rust_file = traitlets.Unicode("").tag(sync=True)
    port_folder = traitlets.Unicode("").tag(sync=True)
    has_port = traitlets.Bool(False).tag(sync=True)
    unsaved = traitlets.Unicode("").tag(sync=True)          # written by the front end
    diff = traitlets.Dict({}).tag(sync=True)
    result = traitlets.Dict({}).tag(sync=True)
    status = traitlets.Dict({"busy": False, "action": "", "message": "", "error": "",
                             "progress": 0.0, "elapsed": 0.0}).tag(sync=True)
    history = traitlets.List([]).tag(sync=True)            # kept versions, newest first
    history_diff = traitlets.Dict({}).tag(sync=True)       # one of them against the pane
    sass_left = traitlets.Unicode("").tag(sync=True)
    sass_right = traitlets.Unicode("").tag(sync=True)
    sass_summary = traitlets.List([]).tag(sync=True)
    specializations = traitlets.List([]).tag(sync=True)
    export_to = traitlets.Unicode("").tag(sync=True)        # the folder Export offers

    def __init__(self, session: PortSession, diff: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.session = session
        self._lock = threading.Lock()
        kept = self._keep_unsaved_of_others()
        _LIVE.add(self)
        self._refresh_sources()
        self.specializations = session.specializations()
        self.export_to = str(default_folder(session.op))
        self.on_msg(self._on_message)
        if kept:
            self.status = dict(self.status, message="unsaved edits of an earlier widget kept "
                               "in " + ", ".join(display_path(k) for k in kept))
        if not session.has_port:
            self.status = dict(self.status, message="no port yet: press Draft")
        elif diff:
            self._run("diff", self._diff, background=False)

    @property
    def verdict(self) -> str:
        return self.diff.get("verdict", "")

    # -- state ----------------------------------------------------------------------------
    def _keep_unsaved_of_others(self) -> list[Path]:
        kept = []
        for other in live_widgets(self.session.rust_file):
            if other.unsaved and other.unsaved != other.rust_source:
                kept.append(self.session.keep(other.unsaved, "unsaved"))
                other.unsaved = ""
        return [k for k in kept if k]

    def _refresh_sources(self, replace: bool = False) -> None:
        """Show the session's files. `replace`: the pane's unsaved text has been kept, so
        the front end may replace it (it never does otherwise)."""
        s = self.session
        if replace:
            self.send({"type": "replace_rust"})
            self.unsaved = ""
        self.python_file = display_path(s.python_file)
        self.rust_file = display_path(s.rust_file)
        self.port_folder = display_path(s.op.port_folder)
        self.has_port = s.has_port
        self.python_source = s.python_source()
        self.kernel_line = kernel_line(self.python_source, s.op.kernel_name)
        self.rust_source = s.rust_source()
        self.history = s.kept_versions()

    def show_diff(self, view) -> None:
        self.diff = view.to_json()

    # -- actions --------------------------------------------------------------------------
    def _on_message(self, _widget, content, _buffers) -> None:
        if content.get("type") == "save":
            self._run("save", lambda: self.save(content.get("text", "")))
        elif content.get("type") == "history":
            self._on_history(content)
        elif content.get("type") == "action":
            name = content.get("name")
            if name == "draft":
                self._run("draft", lambda: self.draft(content.get("text")))
                return
            if name == "export":
                self._run("export", lambda: self.export(content.get("to", "")))
                return
            action = {"rebuild": self._rebuild_and_diff, "diff": self._diff, "check": self._check,
                      "bench": self._bench, "tune": self._tune, "sass": self._sass,
                      "toolchains": self._toolchains}.get(name)
            if action:
                self._run(name, action)

    def _run(self, name: str, action, background: bool = True) -> None:
        def work():
            if not self._lock.acquire(blocking=False):
                if name == "save":          # the front end marks the pane unsaved again
                    self.send({"type": "save_refused"})
                self.status = dict(self.status, error=f"{self.status.get('action')} is running")
                return
            self._started = time.monotonic()
            try:
                if name != "sass":          # SASS is a tab of its own, not a stage result
                    self.result = {}
                self.status = {"busy": True, "action": name, "message": f"{name}...",
                               "error": "", "progress": 0.1, "elapsed": 0.0}
                message = action() or f"{name}: done"
                self._finish(name, message)
            except BuildFailed as e:  # the result panel and the pane's markers say where
                self._finish(name, str(e))
            except Exception as e:  # shown in the widget, never raised into the kernel
                text = describe_error(e)
                self._finish(name, f"{name} failed", text)
                self.result = results.error_result(name, text)
            finally:
                self.history = self.session.kept_versions()
                self._lock.release()
        if background:
            threading.Thread(target=work, daemon=True).start()
        else:
            work()

    def _elapsed(self) -> float:
        return round(time.monotonic() - getattr(self, "_started", time.monotonic()), 1)

    def _progress(self, message: str, progress: float) -> None:
        """The running action's status line (its elapsed time goes with it)."""
        self.status = dict(self.status, message=message, progress=progress,
                           elapsed=self._elapsed())

    def _finish(self, name: str, message: str, error: str = "") -> None:
        seconds = self._elapsed()
        self.status = {"busy": False, "action": name, "message": f"{message} ({seconds:.1f} s)",
                       "error": error, "progress": 1.0, "elapsed": seconds}

    # -- history --------------------------------------------------------------------------
    def _on_history(self, content: dict) -> None:
        """List the kept versions, compare one with the pane, or restore one (a rebuild)."""
        op, name, text = content.get("op"), content.get("name", ""), content.get("text")
        if op == "restore":
            self._run("restore", lambda: self.restore(name, text))
            return
        try:
            if op == "compare":
                self.compare(name, text if text is not None else self.session.rust_source())
                if not self.status.get("busy"):
                    self.status = dict(self.status, error="")
        except Exception as e:  # a version deleted meanwhile: say so, never raise
            self.status = dict(self.status, error=describe_error(e))
        finally:
            self.history = self.session.kept_versions()

    def compare(self, name: str, pane_text: str) -> dict:
        """The kept version `name` (the old text) against the pane's text (the new one)."""
        kept = version(self.session.op.port_folder, name)
        self.history_diff = dict(compare(kept.text(), pane_text), name=name, why=kept.why,
                                 when=kept.when, pane=pane_text)
        return self.history_diff

    def restore(self, name: str, pane_text: str | None) -> str:
        """Make a kept version the port's kernel.rs (the pane's text kept first), rebuild
        and re-diff."""
        self._needs_port()
        kept = self.session.restore(name, pane_text)
        self._refresh_sources(replace=True)
        self.history_diff = {}
        message = f"restored {name}"
        if kept:
            message += "; kept " + ", ".join(k.name for k in kept)
        return message + "; " + self._rebuild_and_diff()

    def _needs_port(self) -> None:
        if not self.session.has_port:
            raise WorkbenchError(f"no port yet in {display_path(self.session.op.port_folder)}",
                                 "press Draft to draft one from the Python kernel")

    def save(self, text: str) -> str:
        """What the Save button does: write the port (keeping the old file), rebuild, diff."""
        kept = self.session.save_rust(text)
        self.rust_source = text
        if self.unsaved == text:
            self.unsaved = ""
        message = self._rebuild_and_diff()
        return message + (f" (previous version kept as {kept.name})" if kept else "")

    def _rebuild_and_diff(self) -> str:
        """Build the port if it changed, then refresh the Rust side's IR and the diff (a
        failed build raises; the panes keep the last good build's diff, shown as stale)."""
        self._needs_port()
        self._progress("cargo build...", 0.3)
        build = self.session.rebuild()
        if not build.ok:
            self.result = results.build_result(build, self.session.rust_file)
            raise BuildFailed(self.result["title"])
        if build.status == "built":
            self.sass_left = self.sass_right = ""
            self.sass_summary = []
        self.result = {}
        return build.summary() + "; " + self._diff()

    def _diff(self) -> str:
        self._needs_port()
        self._progress("exporting and diffing Tile IR...", 0.6)
        self.show_diff(self.session.diff())
        return f"diff: {self.verdict}"

    def draft(self, pane_text: str | None = None) -> str:
        """Draft a port (never into kernels_src/), keeping the file it replaces and the
        pane's unsaved text in .history/; show its reasons, and its diff when it built."""
        self._progress("drafting...", 0.05)
        run, kept = self.session.draft(pane_text, progress=self._draft_stage)
        self._refresh_sources(replace=True)
        self.result = results.draft_result(run, kept, self.session.python_file,
                                           self.session.rust_file)
        self.diff = {}
        self.sass_left = self.sass_right = ""
        self.sass_summary = []
        built = any(a.stage == "build" and a.verdict == "BUILT" for a in run.artifacts)
        message = f"draft: {run.verdict}"
        if built:
            message += "; " + self._diff()
        if kept:
            message += "; kept " + ", ".join(k.name for k in kept)
        return message

    def _draft_stage(self, stage: str, number: int, count: int) -> None:
        self._progress(f"drafting: {stage.replace('_', ' ')} (stage {number} of {count})...",
                       0.05 + 0.9 * (number - 1) / max(count, 1))

    def replace_rust(self, text: str, kept: list[Path]) -> None:
        """The file was replaced from outside (%%rust), its old text and the pane's unsaved
        text kept: show the new text."""
        self._refresh_sources(replace=True)
        names = ", ".join(display_path(k) for k in kept)
        self.status = dict(self.status, message="replaced by %%rust" + (f"; kept {names}"
                                                                          if names else ""))

    def export(self, folder: str) -> str:
        """Write the saved port as a crate of its own in `folder` (a relative one is taken
        from the kernel's working folder); a folder that holds anything is refused."""
        self._needs_port()
        if not folder.strip():
            raise WorkbenchError("no folder to export to", "type a new or empty folder's name")
        done = self.session.export(Path(folder),
                                   progress=lambda text, part: self._progress(f"export: {text}", part))
        dirty = self.unsaved and self.unsaved != self.rust_source
        return done.summary() + ("; the pane's unsaved edits are not in it (save, then export "
                                 "again)" if dirty else "")

    def _check(self) -> str:
        self._needs_port()
        self._progress("checking both sides against the reference...", 0.3)
        self.result = results.check_result(self.session.op.name, self.session.check())
        return self.result["title"]

    def _bench(self) -> str:
        self._needs_port()
        self._progress("timing both sides...", 0.3)
        self.result = results.bench_result(self.session.bench())
        return self.result["title"]

    def _tune(self) -> str:
        self._needs_port()
        self._progress("sweeping the port's tile sizes and hints on the GPU...", 0.2)
        report = self.session.tune(progress=lambda text: self._progress(text, 0.5))
        self.result = results.tune_result(report)
        return self.result["title"]

    def _toolchains(self) -> str:
        self._needs_port()
        self._progress("compiling both sides with each tileiras version...", 0.3)
        self.result = results.toolchain_result(self.session.toolchains())
        return self.result["title"]

    def _sass(self) -> str:
        self._needs_port()
        view = self.session.sass()
        self.sass_left, self.sass_right = view["left"], view["right"]
        self.sass_summary = [list(r) for r in view["rows"]]
        return "SASS compiled for sm_90"


class BuildFailed(Exception):
    """A failed cargo build: the widget's result panel has its diagnostics."""


def kernel_line(source: str, name: str) -> int:
    """The first line of kernel `name` in `source` (its first decorator), 0 if not found."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return min([node.lineno] + [d.lineno for d in node.decorator_list])
    return 0


def port_widget(op: str, case: int = 0) -> PortWidget:
    return PortWidget(PortSession(op, case))
