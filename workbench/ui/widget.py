"""The three-pane port widget (anywidget): Python kernel | Rust port (editable) | IR diff.

State lives in synced traits (saved with the notebook, so a saved notebook still shows the
panes); the front end is one bundled ES module in static/ (sources in extensions/).
Buttons and saves arrive as messages and run in a worker thread, so the widget can show
progress while a rebuild or a check runs.
"""
from __future__ import annotations

import threading
import traceback
from pathlib import Path

import anywidget
import traitlets

from ..session import PortSession, describe_error

STATIC = Path(__file__).parent / "static"


class PortWidget(anywidget.AnyWidget):
    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    python_source = traitlets.Unicode("").tag(sync=True)
    python_file = traitlets.Unicode("").tag(sync=True)
    rust_source = traitlets.Unicode("").tag(sync=True)
    rust_file = traitlets.Unicode("").tag(sync=True)
    ir_left = traitlets.Unicode("").tag(sync=True)
    ir_right = traitlets.Unicode("").tag(sync=True)
    alignment = traitlets.List([]).tag(sync=True)
    py_lines = traitlets.Dict({}).tag(sync=True)
    rust_lines = traitlets.Dict({}).tag(sync=True)
    findings = traitlets.List([]).tag(sync=True)
    verdict = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Dict({"busy": False, "action": "", "message": "", "error": "",
                             "progress": 0.0}).tag(sync=True)
    sass_left = traitlets.Unicode("").tag(sync=True)
    sass_right = traitlets.Unicode("").tag(sync=True)
    sass_summary = traitlets.List([]).tag(sync=True)
    last_result = traitlets.Unicode("").tag(sync=True)
    specializations = traitlets.List([]).tag(sync=True)

    def __init__(self, session: PortSession, diff: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.session = session
        self._lock = threading.Lock()
        self._refresh_sources()
        self.specializations = session.specializations()
        self.on_msg(self._on_message)
        if diff:
            self._run("diff", self._diff, background=False)

    # -- state ----------------------------------------------------------------------------
    def _refresh_sources(self) -> None:
        from ..catalog import display_path
        s = self.session
        self.python_file = display_path(s.python_file)
        self.rust_file = display_path(s.rust_file)
        self.python_source = s.python_source()
        self.rust_source = s.rust_source()

    def _show_diff(self, view) -> None:
        self.ir_left, self.ir_right = view.left_text, view.right_text
        self.alignment, self.findings = view.alignment, view.findings
        self.py_lines, self.rust_lines = view.py_lines, view.rust_lines
        self.verdict = view.verdict

    # -- actions --------------------------------------------------------------------------
    def _on_message(self, _widget, content, _buffers) -> None:
        if content.get("type") == "save":
            self._run("save", lambda: self.save(content.get("text", "")))
        elif content.get("type") == "action":
            action = {"rebuild": self._rebuild_and_diff, "diff": self._diff, "check": self._check,
                      "bench": self._bench, "draft": self._draft, "sass": self._sass}.get(
                content.get("name"))
            if action:
                self._run(content["name"], action)

    def _run(self, name: str, action, background: bool = True) -> None:
        def work():
            if not self._lock.acquire(blocking=False):
                self.status = dict(self.status, error=f"{self.status.get('action')} is running")
                return
            try:
                self.status = {"busy": True, "action": name, "message": f"{name}...",
                               "error": "", "progress": 0.1}
                message = action() or f"{name}: done"
                self.status = {"busy": False, "action": name, "message": message, "error": "",
                               "progress": 1.0}
            except Exception as e:  # shown in the widget, never raised into the kernel
                self.status = {"busy": False, "action": name, "message": f"{name} failed",
                               "error": describe_error(e), "progress": 1.0}
                self.last_result = traceback.format_exc(limit=3)
            finally:
                self._lock.release()
        if background:
            threading.Thread(target=work, daemon=True).start()
        else:
            work()

    def save(self, text: str) -> str:
        """What the Save button does: write the port (keeping the old file), rebuild, diff."""
        kept = self.session.save_rust(text)
        self.rust_source = text
        message = self._rebuild_and_diff()
        return message + (f" (previous version kept as {kept.name})" if kept else "")

    def _rebuild_and_diff(self) -> str:
        """Build the port if it changed, then refresh the Rust side's IR and the diff (a
        failed build raises, and the panes keep showing the last good build)."""
        self.status = dict(self.status, message="cargo build...", progress=0.3)
        result = self.session.rebuild()
        if not result.ok:
            raise BuildFailed(result.summary())
        return result.summary() + "; " + self._diff()

    def _diff(self) -> str:
        self.status = dict(self.status, message="exporting and diffing Tile IR...", progress=0.6)
        view = self.session.diff()
        self._show_diff(view)
        return f"diff: {view.verdict}"

    def _check(self) -> str:
        from ..check.report import format_check
        response = self.session.check()
        self.last_result = format_check(self.session.op.name, response)
        return self.last_result.splitlines()[0]

    def _bench(self) -> str:
        from ..check.report import format_bench
        report = self.session.bench()
        if report["status"] == "skipped":
            self.last_result = f"bench skipped: {report['reason']}"
        else:
            self.last_result = format_bench(report)
        return self.last_result.splitlines()[0]

    def _sass(self) -> str:
        view = self.session.sass()
        self.sass_left, self.sass_right = view["left"], view["right"]
        self.sass_summary = [list(r) for r in view["rows"]]
        return "SASS compiled for sm_90"

    def _draft(self) -> str:
        from ..port.pipeline import run_pipeline
        run = run_pipeline(self.session.op, drafter="rules")     # never into kernels_src/
        self.session.op = self.session.op.with_port(run.port)
        self._refresh_sources()
        self.last_result = run.summary()
        return f"draft: {run.verdict}"


class BuildFailed(Exception):
    """A failed cargo build: its message carries the diagnostics as file:line."""


def port_widget(op: str, case: int = 0) -> PortWidget:
    return PortWidget(PortSession(op, case))
