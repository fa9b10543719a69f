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
"""
from __future__ import annotations

import threading
import weakref
from pathlib import Path

import anywidget
import traitlets

from ..operators import display_path
from ..session import PortSession, describe_error
from . import results
from ..errors import WorkbenchError

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
    rust_source = traitlets.Unicode("").tag(sync=True)
    rust_file = traitlets.Unicode("").tag(sync=True)
    port_folder = traitlets.Unicode("").tag(sync=True)
    has_port = traitlets.Bool(False).tag(sync=True)
    unsaved = traitlets.Unicode("").tag(sync=True)          # written by the front end
    diff = traitlets.Dict({}).tag(sync=True)
    result = traitlets.Dict({}).tag(sync=True)
    status = traitlets.Dict({"busy": False, "action": "", "message": "", "error": "",
                             "progress": 0.0}).tag(sync=True)
    sass_left = traitlets.Unicode("").tag(sync=True)
    sass_right = traitlets.Unicode("").tag(sync=True)
    sass_summary = traitlets.List([]).tag(sync=True)
    specializations = traitlets.List([]).tag(sync=True)

    def __init__(self, session: PortSession, diff: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.session = session
        self._lock = threading.Lock()
        kept = self._keep_unsaved_of_others()
        _LIVE.add(self)
        self._refresh_sources()
        self.specializations = session.specializations()
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
        self.rust_source = s.rust_source()

    def show_diff(self, view) -> None:
        self.diff = view.to_json()

    # -- actions --------------------------------------------------------------------------
    def _on_message(self, _widget, content, _buffers) -> None:
        if content.get("type") == "save":
            self._run("save", lambda: self.save(content.get("text", "")))
        elif content.get("type") == "action":
            name = content.get("name")
            if name == "draft":
                self._run("draft", lambda: self.draft(content.get("text")))
                return
            action = {"rebuild": self._rebuild_and_diff, "diff": self._diff, "check": self._check,
                      "bench": self._bench, "sass": self._sass}.get(name)
            if action:
                self._run(name, action)

    def _run(self, name: str, action, background: bool = True) -> None:
        def work():
            if not self._lock.acquire(blocking=False):
                if name == "save":          # the front end marks the pane unsaved again
                    self.send({"type": "save_refused"})
                self.status = dict(self.status, error=f"{self.status.get('action')} is running")
                return
            try:
                self.status = {"busy": True, "action": name, "message": f"{name}...",
                               "error": "", "progress": 0.1}
                message = action() or f"{name}: done"
                self.status = {"busy": False, "action": name, "message": message, "error": "",
                               "progress": 1.0}
            except BuildFailed as e:  # the result panel and the pane's markers say where
                self.status = {"busy": False, "action": name, "message": str(e), "error": "",
                               "progress": 1.0}
            except Exception as e:  # shown in the widget, never raised into the kernel
                text = describe_error(e)
                self.status = {"busy": False, "action": name, "message": f"{name} failed",
                               "error": text, "progress": 1.0}
                self.result = results.error_result(name, text)
            finally:
                self._lock.release()
        if background:
            threading.Thread(target=work, daemon=True).start()
        else:
            work()

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
        self.status = dict(self.status, message="cargo build...", progress=0.3)
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
        self.status = dict(self.status, message="exporting and diffing Tile IR...", progress=0.6)
        self.show_diff(self.session.diff())
        return f"diff: {self.verdict}"

    def draft(self, pane_text: str | None = None) -> str:
        """Draft a port (never into kernels_src/), keeping the file it replaces and the
        pane's unsaved text in .history/; show its reasons, and its diff when it built."""
        self.status = dict(self.status, message="drafting...", progress=0.2)
        run, kept = self.session.draft(pane_text)
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

    def replace_rust(self, text: str, kept: list[Path]) -> None:
        """The file was replaced from outside (%%rust), its old text and the pane's unsaved
        text kept: show the new text."""
        self._refresh_sources(replace=True)
        names = ", ".join(display_path(k) for k in kept)
        self.status = dict(self.status, message="replaced by %%rust" + (f"; kept {names}"
                                                                          if names else ""))

    def _check(self) -> str:
        self._needs_port()
        self.result = results.check_result(self.session.op.name, self.session.check())
        return self.result["title"]

    def _bench(self) -> str:
        self._needs_port()
        self.result = results.bench_result(self.session.bench())
        return self.result["title"]

    def _sass(self) -> str:
        self._needs_port()
        view = self.session.sass()
        self.sass_left, self.sass_right = view["left"], view["right"]
        self.sass_summary = [list(r) for r in view["rows"]]
        return "SASS compiled for sm_90"


class BuildFailed(Exception):
    """A failed cargo build: the widget's result panel has its diagnostics."""


def port_widget(op: str, case: int = 0) -> PortWidget:
    return PortWidget(PortSession(op, case))
