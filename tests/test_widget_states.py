"""The widget's states a user meets, in Chromium against a real `jupyter lab` at 1400x1000
with the file browser open: room for the panes, a check's result that the next action
replaces, an edit that survives Draft, a successful Draft that shows its stages and elapsed
time and then its verdict, a Rust syntax error as a lint marker on its line, the clickable
reasons of an UNSUPPORTED draft, and Export asking for its folder. Every port is a copy
under runs/tests/."""
import re
import shutil
import time

import pytest

from browser_helpers import (ARGS, CHROMIUM, SETUP_CELL, attr, idle, lab_url, needs_chromium,
                             pane_widths, run_all, select_in_rust_pane, shoot, verdict,
                             wait_until, widget, write_notebook)
from port_copies import COLD_BUILD, WORK, build_first, fresh_copy, fresh_folder
from test_browser import lab  # noqa: F401  (the module's jupyter lab)
from workbench.catalog import REPO_ROOT

pytestmark = [needs_chromium, COLD_BUILD]
UNSUPPORTED = "tests/fixtures/widget/unsupported.py:scale2"
VIEWPORT = {"width": 1400, "height": 1000}
SOFTMAX_COPY = WORK / "browser-draft" / "port"


@pytest.fixture(scope="module")
def page(lab):  # noqa: F811
    from playwright.sync_api import sync_playwright
    softmax = fresh_copy(SOFTMAX_COPY.parent.name)
    build_first(softmax)                 # the cold build happens here, not in a timed wait
    unsupported = fresh_folder("browser-unsupported")
    notebook = write_notebook("widget_states.ipynb", [
        SETUP_CELL,
        f"%port softmax --out {softmax.port_folder.relative_to(REPO_ROOT)}",
        f"%port {UNSUPPORTED} --arg f32[4096] --arg f32[4096] --const TILE=1024 "
        f"--out {unsupported.relative_to(REPO_ROOT)}",
    ])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        run_all(page, lab_url(lab, notebook))
        widget(page, 0), widget(page, 1)
        yield page
        assert not errors, errors
        browser.close()


def result_of(root, action: str, timeout_s: float = 300) -> float:
    return wait_until(root, f"e => e.querySelector('[data-testid=wb-result]')"
                            f".dataset.action === '{action}'", timeout_s)


def press(root, action: str, timeout_s: float) -> tuple[str, str]:
    """Click the action's button and wait for its result: (the result's title, its text)."""
    root.get_by_test_id(f"wb-btn-{action}").click()
    result_of(root, action, timeout_s=timeout_s)
    return (root.get_by_test_id("wb-result-title").inner_text(),
            root.get_by_test_id("wb-result").inner_text())


def test_the_three_panes_have_room_at_1400_px(page):
    assert page.locator("#filebrowser").is_visible(), "the file browser is open, as users have it"
    root = widget(page, 0)
    widths = pane_widths(root)
    layout = attr(root, "data-layout")
    print(f"layout at 1400 px: {layout}, pane widths {widths}")
    assert layout == "stacked" or min(widths.values()) >= 400, (layout, widths)
    assert min(widths.values()) >= 400, widths
    findings = root.locator("[data-testid=wb-findings] .wb-finding")
    assert findings.count() >= 1 and findings.first.is_visible()
    assert root.locator(".wb-finding-meaning").first.inner_text()
    assert page.locator(".Toastify__toast").count() == 0, "a toast covers the notebook"
    shoot(page, root, "layout_1400.png")
    page.set_viewport_size({"width": 2300, "height": 1100})       # a wide screen: side by side
    wait_until(root, "e => e.getAttribute('data-layout') === 'wide'", 10)
    assert min(pane_widths(root).values()) >= 400, pane_widths(root)
    shoot(page, root, "layout_wide.png")
    page.set_viewport_size(VIEWPORT)
    wait_until(root, "e => e.getAttribute('data-layout') === 'stacked'", 10)


def drag(page, bar, dx: float) -> None:
    box = bar.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 40)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + dx, box["y"] + 40, steps=6)
    page.mouse.up()


def test_splitters_resize_the_panes_and_wrap_switches_off(page):
    root = widget(page, 0)
    before = pane_widths(root)
    drag(page, root.get_by_test_id("wb-split-a"), 120)
    after = pane_widths(root)
    assert after["python"] > before["python"] + 100 and after["rust"] < before["rust"] - 100
    drag(page, root.get_by_test_id("wb-split-a"), -120)
    findings = root.locator(".wb-findings").bounding_box()["height"]
    bar = root.get_by_test_id("wb-split-findings").bounding_box()
    page.mouse.move(bar["x"] + 200, bar["y"] + bar["height"] / 2)
    page.mouse.down()
    page.mouse.move(bar["x"] + 200, bar["y"] - 100, steps=6)
    page.mouse.up()
    assert root.locator(".wb-findings").bounding_box()["height"] > findings + 80

    root.get_by_test_id("wb-wrap").uncheck()
    assert root.locator(".wb-ir-view.wb-nowrap").count() == 1
    assert root.locator("[data-testid=wb-pane-rust] .cm-content.cm-lineWrapping").count() == 0
    root.get_by_test_id("wb-wrap").check()
    assert root.locator("[data-testid=wb-pane-rust] .cm-content.cm-lineWrapping").count() == 1
    page.evaluate("localStorage.removeItem('cutile-workbench.layout/1')")


def test_check_without_a_gpu_runs_on_the_cpu_and_says_so(page):
    root = widget(page, 0)
    title, _ = press(root, "check", timeout_s=180)
    assert title.startswith("check softmax: OK") and "on the CPU" in title, title
    # the next action's result replaces it (a diff has none): no check result under it
    root.get_by_test_id("wb-btn-diff").click()
    wait_until(root, "e => e.querySelector('[data-testid=wb-status]').dataset.action === 'diff'", 10)
    idle(root)
    assert root.get_by_test_id("wb-result").is_hidden()
    assert verdict(root) in ("PASS", "PASS_WITH_NOTES")


def test_tune_without_a_gpu_says_so_and_lists_what_it_would_try(page):
    title, text = press(widget(page, 0), "tune", timeout_s=120)
    assert title.startswith("tune skipped: no CUDA device"), title
    assert "would try" in text and "TILE_COLS=2048" in text and "occupancy=2" in text, text


def test_toolchains_compares_the_case_under_two_tileiras_versions(page):
    title, text = press(widget(page, 0), "toolchains", timeout_s=300)
    assert title.startswith("toolchains 13.4.92 vs 13.5.37: "), title
    assert "python: " in text and "rust: " in text and "13.5.37" in text, text


def test_an_edit_survives_draft_and_a_draft_shows_its_verdict(page):
    root = widget(page, 0)
    history = SOFTMAX_COPY / ".history"
    before = set(history.iterdir()) if history.exists() else set()
    root.evaluate("""e => { const v = e.wbEditor;
        v.dispatch({changes: {from: v.state.doc.length, insert: '\\n// MY HAND EDIT\\n'}}); }""")
    root.get_by_test_id("wb-btn-draft").click()
    confirm = root.get_by_test_id("wb-confirm")
    assert confirm.is_visible() and "unsaved edits" in confirm.inner_text()
    started = time.time()
    root.get_by_test_id("wb-confirm-draft").click()
    # a draft takes seconds: its stage and the seconds so far show while it runs
    wait_until(root, "e => /drafting: .* \\(stage \\d+ of \\d+\\)/.test(e.querySelector("
                     "'[data-testid=wb-status]').textContent) && Number(e.querySelector("
                     "'[data-testid=wb-elapsed]').dataset.seconds) >= 1", 120)
    result_of(root, "draft")
    idle(root)
    seconds = time.time() - started
    print(f"Draft (confirmed) -> drafted, built, diffed, verdict shown: {seconds:.1f} s")
    kept = [p for p in set(history.iterdir()) - before if "// MY HAND EDIT" in p.read_text()]
    assert kept and kept[0].name.endswith(".unsaved"), sorted(p.name for p in history.iterdir())
    assert verdict(root) in ("PASS", "PASS_WITH_NOTES")        # without pressing Diff
    assert attr(root.get_by_test_id("wb-verdict"), "data-stale") == "false"
    assert root.get_by_test_id("wb-result-title").inner_text().startswith("draft: PASS")
    assert "Drafted by workbench" in root.locator("[data-testid=wb-pane-rust] .cm-content").text_content()
    assert kept[0].name in root.get_by_test_id("wb-status").inner_text()
    shoot(page, root, "draft_kept_edit.png")


def first_let_binding(text: str) -> tuple[int, str]:
    """The first `let name = value;` in the Rust pane: (its line, the value)."""
    for number, line in enumerate(text.splitlines(), 1):
        found = re.match(r"\s*let [^=]+= (.+);$", line)
        if found and text.count(f"= {found.group(1)};") == 1:
            return number, found.group(1)
    raise AssertionError("no `let` binding in the Rust pane")


def test_a_rust_syntax_error_is_a_lint_marker_on_its_line(page):
    root = widget(page, 0)
    line, value = first_let_binding(root.evaluate("e => e.wbEditor.state.doc.toString()"))
    select_in_rust_pane(root, f"= {value};", skip=2)
    page.keyboard.type(";")                                  # `let name = ;`
    page.keyboard.press("Control+s")
    result_of(root, "build")
    lint = root.evaluate("e => e.wbLint().rust")
    assert any(d["line"] == line and d["severity"] == "error" for d in lint), (line, lint)
    marked = root.locator(f'[data-testid=wb-pane-rust] .cm-line[data-line="{line}"] .cm-lintRange-error')
    assert marked.count() >= 1
    entry = root.locator("[data-testid=wb-diagnostics] li").first
    assert f"kernel.rs:{line}:" in entry.inner_text() and "expected expression" in entry.inner_text()
    assert f"--> src/kernel.rs:{line}:" in entry.locator(".wb-rendered").inner_text()
    assert attr(root.get_by_test_id("wb-verdict"), "data-stale") == "true"
    assert root.get_by_test_id("wb-result-title").inner_text().startswith("build failed: ")
    marked.first.hover()
    page.locator(".cm-tooltip-lint").wait_for(timeout=10_000)
    shoot(page, root, "build_error_lint.png")

    select_in_rust_pane(root, "= ;", skip=2)
    page.keyboard.type(f"{value};")
    page.keyboard.press("Control+s")
    # the verdict is fresh again as soon as the text is the last good build's (typing does
    # that, before the rebuild), so wait for the rebuild that clears the markers
    wait_until(root, "e => e.wbLint().rust.length === 0")
    idle(root)
    assert attr(root.get_by_test_id("wb-verdict"), "data-stale") == "false"
    assert root.get_by_test_id("wb-result").is_hidden()


def test_an_unsupported_draft_shows_its_reasons_and_they_jump_to_the_python_line(page):
    root = widget(page, 1)
    assert "No port yet: press Draft" in root.get_by_test_id("wb-ir-empty").inner_text()
    assert root.get_by_test_id("wb-btn-rebuild").is_disabled()
    assert verdict(root) == "" and root.get_by_test_id("wb-verdict").inner_text() == "no port"
    shoot(page, root, "first_view_no_port.png")
    root.get_by_test_id("wb-btn-draft").click()
    result_of(root, "draft", timeout_s=120)
    idle(root)
    reasons = root.locator("[data-testid=wb-reasons] .wb-reason")
    assert reasons.count() == 2, root.get_by_test_id("wb-result").inner_text()
    first = reasons.first.inner_text()
    assert "line 12" in first and "ct.printf" in first and "cuda_tile_print!" in first
    assert root.get_by_test_id("wb-result-title").inner_text().startswith("draft: UNSUPPORTED")
    assert "the draft stopped" in root.get_by_test_id("wb-ir-empty").inner_text()
    assert any(d["line"] == 12 for d in root.evaluate("e => e.wbLint().python"))
    reasons.first.click()
    wait_until(root, "e => e.getAttribute('data-linked-python') === '12'", 10)
    line = root.locator('[data-testid=wb-pane-python] .cm-line[data-line="12"]')
    assert "wb-link-origin" in line.get_attribute("class") and line.is_visible()
    shoot(page, root, "unsupported_reasons.png")


def test_export_asks_for_a_folder_and_writes_the_crate_there(page):
    assert widget(page, 1).get_by_test_id("wb-btn-export").is_disabled()     # no port there
    root = widget(page, 0)
    folder = WORK / "browser-export"
    shutil.rmtree(folder, ignore_errors=True)
    root.get_by_test_id("wb-btn-export").click()
    field = root.get_by_test_id("wb-export-to")
    assert root.get_by_test_id("wb-export").is_visible()
    assert field.input_value() == str(REPO_ROOT / "runs" / "exports" / "softmax")
    field.fill(str(folder))
    root.get_by_test_id("wb-export-go").click()
    assert root.get_by_test_id("wb-export").is_hidden()
    wait_until(root, "e => e.querySelector('[data-testid=wb-status]').dataset.action === 'export'", 30)
    idle(root)
    status = root.get_by_test_id("wb-status").inner_text()
    assert "runs/tests/browser-export: port_softmax" in status, status
    assert (folder / "README.md").exists() and (folder / "loader.py").exists()
