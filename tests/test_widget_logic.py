"""The widget's Python side, with no browser and no build (seconds): the kept versions of a
port (listed, compared with the pane, restored without losing the pane's text), the Python
pane's first line, a new action's result replacing the last one, and elapsed time in the
status. The browser tests (test_browser.py) drive the same paths through the front end."""
import time

import pytest

from workbench import history
from workbench.catalog import get_operator
from workbench.errors import WorkbenchError
from workbench.session import PortSession
from workbench.ui.widget import PortWidget, kernel_line

ORIGINAL = "fn kernel() {\n    let a = 1;\n    let b = 2;\n}\n"


@pytest.fixture
def session(tmp_path):
    """A session on a port folder in tmp_path (a kernel.rs and a manifest, never built)."""
    port = tmp_path / "port"
    (port / "src").mkdir(parents=True)
    (port / "src" / "kernel.rs").write_text(ORIGINAL)
    (port / "Cargo.toml").write_text('[package]\nname = "never_built"\n')
    return PortSession("softmax", port=port)


def test_kept_versions_are_listed_newest_first_with_why_and_when(session):
    port = session.op.port_folder
    assert session.kept_versions() == []
    first = session.keep("fn old() {}\n", "before-draft")
    session.save_rust(ORIGINAL.replace("1", "10"))          # keeps ORIGINAL as saved
    session.keep("   \n", "unsaved")                          # empty text: nothing kept
    (port / ".history" / "Cargo.toml.20260101-000000.plain-copy").write_text("x")
    listed = session.kept_versions()
    assert [v["why"] for v in listed] == ["saved", "before-draft"]
    assert listed[1]["name"] == first.name and listed[0]["lines"] == 4
    assert time.strftime("%Y-%m-%d") in listed[0]["when"]
    assert history.version(port, first.name).text() == "fn old() {}\n"


def test_a_name_that_is_not_a_kept_version_is_a_clear_error(session):
    session.keep(ORIGINAL, "saved")
    for name in ("kernel.rs.nope", "../src/kernel.rs", ""):
        with pytest.raises(WorkbenchError, match="no kept version (.|\n)* pick one from the History"):
            history.version(session.op.port_folder, name)


def test_compare_shows_what_the_version_has_and_what_the_pane_has():
    old = "".join(f"line {i}\n" for i in range(1, 21))
    new = old.replace("line 3\n", "line three\n").replace("line 18\n", "")
    diff = history.compare(old, new)
    assert (diff["added"], diff["removed"], diff["same"]) == (1, 2, False)
    rows = diff["rows"]
    assert ["-", 3, None, "line 3"] in rows and ["+", None, 3, "line three"] in rows
    assert ["-", 18, None, "line 18"] in rows
    assert ["@", None, None, ""] in rows          # lines 7..14 unchanged: left out
    assert not any(r[3] == "line 10" for r in rows)
    assert history.compare(old, old) == {"rows": [], "cut": False, "added": 0, "removed": 0,
                                         "same": True}


def test_restore_keeps_the_pane_and_the_file_first(session):
    kernel = session.rust_file
    kept = session.keep("fn kept() {}\n", "saved")
    pane = ORIGINAL + "// unsaved edit\n"
    new = session.restore(kept.name, pane)
    assert kernel.read_text() == "fn kept() {}\n"
    assert {p.name.rsplit(".", 1)[1]: p.read_text() for p in new} == {
        "before-restore": pane, "saved": ORIGINAL}
    assert session.kept_versions()[0]["why"] == "before-restore"     # the newest
    # a clean pane (the file's own text) is kept once, as before-restore
    again = session.restore(kept.name, kernel.read_text())
    assert [p.name.rsplit(".", 1)[1] for p in again] == ["before-restore"]
    with pytest.raises(WorkbenchError, match="no kept version"):
        session.restore("kernel.rs.19990101-000000.000000.saved", pane)
    assert kernel.read_text() == "fn kept() {}\n"


def test_the_widget_lists_compares_and_reports_a_missing_version(session):
    widget = PortWidget(session, diff=False)
    kept = session.keep(ORIGINAL, "saved")
    pane = ORIGINAL.replace("let b = 2;", "let b = 3;")
    widget._on_message(widget, {"type": "history", "op": "compare", "name": kept.name,
                                "text": pane}, [])
    assert [v["name"] for v in widget.history] == [kept.name]
    diff = widget.history_diff
    assert diff["name"] == kept.name and diff["why"] == "saved" and diff["pane"] == pane
    assert ["-", 3, None, "    let b = 2;"] in diff["rows"]
    assert ["+", None, 3, "    let b = 3;"] in diff["rows"]
    kept.unlink()
    widget._on_message(widget, {"type": "history", "op": "compare", "name": kept.name}, [])
    assert "no kept version" in widget.status["error"] and widget.history == []


def test_the_python_pane_opens_at_the_kernel():
    source = "import cuda.tile as ct\n\n\ndef helper():\n    pass\n\n\n@ct.kernel(occupancy=2)\n" \
             "@other\ndef my_kernel(x):\n    pass\n"
    assert kernel_line(source, "my_kernel") == 8
    assert kernel_line(source, "helper") == 4
    assert kernel_line(source, "absent") == 0 and kernel_line("def (", "x") == 0
    op = get_operator("softmax")
    lines = op.kernel_file.read_text().splitlines()
    widget = PortWidget(PortSession("softmax"), diff=False)
    assert widget.kernel_line > 1 and lines[widget.kernel_line - 1].startswith("@ct.kernel")


def test_a_new_action_replaces_the_last_result_and_reports_its_time(session):
    widget = PortWidget(session, diff=False)
    widget.result = {"action": "check", "title": "check softmax: OK", "ok": True}
    seen = {}

    def diff():
        seen["result during the action"] = dict(widget.result)
        widget._progress("diffing...", 0.5)
        seen["status"] = dict(widget.status)
        time.sleep(0.2)
        return "diff: FAIL"
    widget._run("diff", diff, background=False)
    assert seen["result during the action"] == {}
    assert seen["status"]["busy"] and seen["status"]["message"] == "diffing..."
    assert seen["status"]["elapsed"] >= 0.0
    assert widget.result == {}
    status = widget.status
    assert not status["busy"] and status["elapsed"] >= 0.2
    assert status["message"].startswith("diff: FAIL (") and status["message"].endswith(" s)")

    def fails():
        raise WorkbenchError("no such thing", "do this")
    widget._run("bench", fails, background=False)
    assert widget.result["title"] == "bench failed" and widget.status["error"] == \
        "no such thing \u2014 do this"
    widget._run("sass", lambda: "SASS compiled", background=False)
    assert widget.result["title"] == "bench failed"     # SASS is a tab, not a result


def test_draft_reports_each_stage_as_it_starts(session):
    widget = PortWidget(session, diff=False)
    shown = []
    widget.observe(lambda change: shown.append(change["new"]["message"]), "status")
    widget._started = time.monotonic()
    widget._draft_stage("write_kernel", 2, 7)
    assert shown[-1] == "drafting: write kernel (stage 2 of 7)..."
    assert 0.1 < widget.status["progress"] < 0.3
