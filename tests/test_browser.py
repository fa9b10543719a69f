"""The widget in a real browser: Debian's Chromium, driven by Playwright, against a real
`jupyter lab` started here. Runs notebook (a) (a copy, whose widget works on a copy of the
TileGym softmax (TMA) port under runs/tests/): the widget fits the window and its Python pane
opens at the kernel; follows the links between the panes, types edits into the Rust pane
(saved with Ctrl-S, then built with Rebuild) and watches the IR pane, the verdict and the
elapsed time change; compares a kept version with the pane and restores it (History tab);
reads the panes side by side at 1440 px; then saves the notebook and reopens it with no
kernel."""
import json
import re
import time
import uuid

import pytest

from browser_helpers import (ARGS, CHROMIUM, NOTEBOOKS, OUTPUT, attr, cursor_at_end_of_line, hover,
                             idle, lab_url, needs_chromium, pane_widths, run_all,
                             select_in_rust_pane, verdict, wait_for_verdict, wait_until, widget)
from jupyter_process import jupyter
from port_copies import COLD_BUILD, build_first, fresh_copy
from workbench.catalog import REPO_ROOT, get_operator
from workbench.ui.widget import kernel_line

NOTEBOOK_COPY = NOTEBOOKS / "01_port_softmax.ipynb"
OP = "tilegym.softmax.tma"          # notebook (a) walks this TileGym entry's port
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

pytestmark = [needs_chromium, COLD_BUILD]


@pytest.fixture(scope="module")
def lab():
    with jupyter("lab", REPO_ROOT, OUTPUT / "jupyter-lab.log") as url:
        yield url


@pytest.fixture(scope="module")
def port_a():
    """The port notebook (a)'s widget edits: a copy, built before any timed wait (on a fresh
    machine this first build compiles the cutile crates); the catalog port is built too, as
    the notebook builds it."""
    op = fresh_copy("browser-a", OP)
    build_first(op)
    build_first(get_operator(OP))
    return op


def notebook_a_copy(port) -> None:
    """Notebook (a), its widget cell on the copied port."""
    nb = json.loads((REPO_ROOT / "notebooks" / NOTEBOOK_COPY.name).read_text())
    cells = [c for c in nb["cells"] if "".join(c["source"]).strip() == f"%port {OP}"]
    assert len(cells) == 1, f"notebook (a) has one `%port {OP}` cell"
    cells[0]["source"] = f"%port {OP} --out {port.relative_to(REPO_ROOT)}"
    NOTEBOOK_COPY.parent.mkdir(parents=True, exist_ok=True)
    NOTEBOOK_COPY.write_text(json.dumps(nb, indent=1))


def test_notebook_a_panes_links_live_edits_and_saved_state(lab, port_a):
    from playwright.sync_api import sync_playwright
    notebook_a_copy(port_a.port_folder)
    kernel_rs = port_a.port_folder / "src" / "kernel.rs"
    catalog_before = (get_operator(OP).port_folder / "src" / "kernel.rs").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1800, "height": 1100})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        url = lab_url(lab, NOTEBOOK_COPY)
        run_all(page, url)
        root = widget(page)
        wait_for_verdict(root)
        assert verdict(root) in ("PASS", "PASS_WITH_NOTES")
        try:
            opens_at_the_kernel_and_fits_the_window(page, root)
            hover_links(page, root, kernel_rs)
            edit_save_and_rebuild(page, root, kernel_rs)
            compare_and_restore_a_kept_version(page, root, kernel_rs)
            side_by_side_at_1440_px(page, root)
            save_and_reopen(page, url, "// edited")
        except Exception:
            page.screenshot(path=str(OUTPUT / "notebook_a_failed.png"))
            raise
        assert page.locator(".jp-Notebook .Toastify__toast").count() == 0, "a toast covers the notebook"
        assert not errors, errors
        browser.close()
    assert (get_operator(OP).port_folder / "src" / "kernel.rs").read_text() == catalog_before


def notebook_height(page) -> float:
    return page.evaluate("document.querySelector('.jp-WindowedPanel-outer').clientHeight")


def opens_at_the_kernel_and_fits_the_window(page, root):
    """The Python pane opens at the kernel (TileGym's softmax module holds several), not at
    line 1; the widget is no taller than the notebook's visible height."""
    source = get_operator(OP).kernel_file.read_text()
    line = kernel_line(source, get_operator(OP).kernel_name)
    assert line > 40 and source.splitlines()[line - 1].startswith("@ct.kernel")
    python = root.get_by_test_id("wb-pane-python")
    python.locator(f'.cm-line[data-line="{line}"]').wait_for(timeout=10_000)
    inside = root.evaluate("""(e, n) => { const s = e.wbPythonEditor.scrollDOM.getBoundingClientRect();
        const l = e.querySelector(`[data-testid=wb-pane-python] .cm-line[data-line="${n}"]`)
                   .getBoundingClientRect();
        return l.top >= s.top && l.bottom <= s.bottom; }""", line)
    assert inside, f"line {line} (the kernel) is not in view in the Python pane"
    assert root.bounding_box()["height"] <= notebook_height(page), (root.bounding_box(),
                                                                      notebook_height(page))


def hover_links(page, root, kernel_rs):
    """Hover the Python line of the row max: its IR ops light up on both sides, and so does
    the port's reduce_max statement; the JIT -> AOT tab lists every case."""
    python, rust = root.get_by_test_id("wb-pane-python"), root.get_by_test_id("wb-pane-rust")
    source = get_operator(OP).kernel_file.read_text().splitlines()
    start = next(i for i, l in enumerate(source, 1) if "def _softmax_kernel_tma" in l)
    line = next(i for i, l in enumerate(source, 1) if i > start and "ct.max" in l)
    # the module is long: CodeMirror renders only the lines near the view, so scroll first
    root.evaluate("""(e, n) => { const v = e.wbPythonEditor;
        v.scrollDOM.scrollTop = v.lineBlockAt(v.state.doc.line(n).from).top - 40; }""", line)
    python.locator(f'.cm-line[data-line="{line}"]').wait_for(timeout=10_000)
    hover(page, python.locator(f'.cm-line[data-line="{line}"]'))
    page.wait_for_function(f"document.querySelector('[data-testid=wb-root]')"
                           f".getAttribute('data-linked-python') === '{line}'", timeout=10_000)
    assert attr(root, "data-linked-ir-left") and attr(root, "data-linked-ir-right")
    assert root.locator("[data-testid=wb-pane-ir] .wb-ir-row.wb-linked").count() >= 1
    assert python.locator(f'.cm-line[data-line="{line}"].wb-linked').count() == 1
    rust_line = next(i for i, l in enumerate(kernel_rs.read_text().splitlines(), 1)
                     if "reduce_max" in l)
    assert str(rust_line) in attr(root, "data-linked-rust").split(",")
    root.evaluate("""(e, n) => { const s = e.wbEditor.scrollDOM, v = e.wbEditor;
        s.scrollTop = v.lineBlockAt(v.state.doc.line(n).from).top - 40; }""", rust_line)
    rust.locator(f'.cm-line[data-line="{rust_line}"]').wait_for(timeout=10_000)
    assert rust.locator(f'.cm-line[data-line="{rust_line}"].wb-linked').count() == 1

    root.get_by_test_id("wb-tab-specialize").click()
    assert root.locator(".wb-spec-table tbody tr").count() == len(get_operator(OP).cases)
    first = root.locator(".wb-spec-table thead th").first.inner_text()
    assert first.startswith("what the port must declare")
    symbol = root.locator(".wb-spec-symbol").first
    assert "\u2026" in symbol.inner_text() and symbol.get_attribute("title").startswith("_softmax_kernel_tma_")
    root.get_by_test_id("wb-tab-ir").click()


def edit_save_and_rebuild(page, root, kernel_rs):
    """Type NegInf -> Zero, Ctrl-S: the file is saved, rebuilt and re-diffed, FAIL. Then type
    it back, unsaved, and press Rebuild: it builds what the pane shows."""
    ir = root.get_by_test_id("wb-pane-ir")
    before_ir = ir.inner_text()
    cursor_at_end_of_line(root, 1)           # a comment never built: cargo really compiles
    page.keyboard.type(f" // edited {uuid.uuid4().hex[:8]}")
    select_in_rust_pane(root, "NegInf")
    page.keyboard.type("Zero")
    assert attr(root.get_by_test_id("wb-verdict"), "data-stale") == "true"
    started = time.time()
    page.keyboard.press("Control+s")
    # a cargo build of a new text: the status counts the seconds while it runs
    wait_until(root, "e => e.querySelector('[data-testid=wb-status]').dataset.busy === 'true' && "
                     "Number(e.querySelector('[data-testid=wb-elapsed]').dataset.seconds) >= 2")
    wait_for_verdict(root, "v => v === 'FAIL'")
    seconds = time.time() - started
    assert "padding::Zero" in kernel_rs.read_text()
    assert attr(root.get_by_test_id("wb-verdict"), "data-stale") == "false"
    assert ir.inner_text() != before_ir and "padding_value = zero" in ir.inner_text()
    finding = root.locator('.wb-finding[data-kind="padding_value"]').first
    finding.click()                        # a finding opens whole: its meaning shows
    assert finding.locator(".wb-finding-meaning").is_visible()
    assert "Python: padding_value = neg_inf" in finding.inner_text()
    assert "port: padding_value = zero" in finding.inner_text()
    assert "results differ" in finding.locator(".wb-finding-meaning").inner_text()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / "notebook_a_after_edit.png"))
    print(f"Ctrl-S -> saved, rebuilt, re-diffed, verdict shown: {seconds:.1f} s")

    # a comment never built before, so that cargo really compiles
    select_in_rust_pane(root, "padding::Zero", skip=len("padding::"))
    page.keyboard.type("NegInf")
    line = root.evaluate("e => e.wbEditor.state.doc.lineAt(e.wbEditor.state.selection.main.head).number")
    cursor_at_end_of_line(root, line)       # (End goes to the end of a wrapped line's row)
    page.keyboard.type(f" // rebuilt {uuid.uuid4().hex[:8]}")
    started = time.time()
    root.get_by_test_id("wb-btn-rebuild").click()
    wait_for_verdict(root, "v => v !== 'FAIL'")
    seconds = time.time() - started
    assert "padding::NegInf" in kernel_rs.read_text()
    assert "padding_value = neg_inf" in ir.inner_text()
    idle(root)
    assert re.search(r"\(\d+\.\d s\)$", root.get_by_test_id("wb-status").inner_text().strip())
    print(f"Rebuild on a one-line edit -> rebuilt (cargo), refreshed diff: {seconds:.1f} s")


def compare_and_restore_a_kept_version(page, root, kernel_rs):
    """The two saves kept the texts they replaced (.history/, hidden in JupyterLab): the
    History tab lists them, compares the newest (padding Zero) with the pane (NegInf, and
    an unsaved line), and restores it: the pane's text is kept first, the port is rebuilt
    (that text was built before: no cargo) and the verdict is the Zero text's, FAIL."""
    history = kernel_rs.parent.parent / ".history"
    cursor_at_end_of_line(root, 1)
    page.keyboard.type(" // pane only")
    root.get_by_test_id("wb-tab-history").click()
    items = root.get_by_test_id("wb-history-item")
    wait_until(root, "e => e.querySelectorAll('[data-testid=wb-history-item]').length >= 2", 10)
    before = items.count()
    assert [attr(items.nth(i), "data-why") for i in range(2)] == ["saved", "saved"]
    newest = attr(items.first, "data-name")
    assert "padding::Zero" in (history / newest).read_text()
    items.first.get_by_test_id("wb-history-compare").click()
    rows = root.locator("[data-testid=wb-history-diff] .wb-hl")
    rows.first.wait_for(timeout=10_000)
    minus = root.locator('[data-testid=wb-history-diff] .wb-hl[data-op="-"]').all_inner_texts()
    plus = root.locator('[data-testid=wb-history-diff] .wb-hl[data-op="+"]').all_inner_texts()
    assert any("padding::Zero" in r for r in minus) and any("padding::NegInf" in r for r in plus)
    assert any("// pane only" in r for r in plus), plus
    items.first.get_by_test_id("wb-history-restore").click()
    wait_for_verdict(root, "v => v === 'FAIL'", 120)
    idle(root)
    text = kernel_rs.read_text()
    assert text == (history / newest).read_text() and "// pane only" not in text
    assert root.evaluate("e => e.wbEditor.state.doc.toString()") == text
    assert attr(root, "data-dirty") == "false"
    kept = sorted(history.glob("kernel.rs.*.before-restore"))
    assert kept and "// pane only" in kept[-1].read_text()
    wait_until(root, f"e => e.querySelectorAll('[data-testid=wb-history-item]').length === {before + 2}", 10)
    assert attr(items.first, "data-why") == "before-restore"
    assert "restored " + newest in root.get_by_test_id("wb-status").inner_text()
    root.get_by_test_id("wb-tab-ir").click()


def side_by_side_at_1440_px(page, root):
    """At 1440 px with the file browser closed, side by side: each pane has room, no code is
    cut off (the editors and the IR wrap; the IR pane shows the Python line over the Rust
    line), the widget fits the window, and the findings list shows several and scrolls."""
    page.set_viewport_size({"width": 1440, "height": 900})
    page.click(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")    # close the file browser
    root.get_by_test_id("wb-layout").select_option("wide")
    wait_until(root, "e => e.getAttribute('data-layout') === 'wide'", 10)
    time.sleep(0.5)
    widths = pane_widths(root)
    print(f"side by side at 1440 px: {widths}")
    assert sum(widths.values()) > 1200 and min(widths.values()) >= 360, widths
    assert attr(root.locator(".wb-ir-view"), "data-columns") == "1"
    assert root.locator(".wb-ir-row .wb-ir-right").first.bounding_box()["width"] >= 360
    clipped = root.evaluate("""e => [...e.querySelectorAll('.cm-scroller, .wb-ir-scroll, .wb-ir-code')]
        .filter(x => x.scrollWidth > x.clientWidth + 1).length""")
    assert clipped == 0, f"{clipped} panes or IR lines cut off"
    assert root.bounding_box()["height"] <= notebook_height(page)
    findings = root.locator("[data-testid=wb-findings]")
    box, count = findings.bounding_box(), root.locator(".wb-finding").count()
    shown = root.evaluate("""e => { const l = e.querySelector('[data-testid=wb-findings]').getBoundingClientRect();
        return [...e.querySelectorAll('.wb-finding')].filter(f => { const r = f.getBoundingClientRect();
          return r.top >= l.top - 1 && r.bottom <= l.bottom + 1; }).length; }""")
    print(f"findings list {box['height']:.0f} px: {shown} of {count} in view")
    assert shown >= min(count, 5), (shown, count)
    if shown < count:
        findings.evaluate("e => { e.scrollTop = e.scrollHeight; }")
        assert root.locator(".wb-finding").last.is_visible()
    root.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(OUTPUT / "side_by_side_1440.png"))
    root.get_by_test_id("wb-layout").select_option("auto")


def save_and_reopen(page, url, marker: str):
    """Save the notebook: the widget's state goes into it, so with the kernel shut down the
    reopened notebook still shows the three panes and the last verdict."""
    root = page.locator("[data-testid=wb-root]").first
    shown = verdict(root)
    page.locator(".jp-Notebook .jp-MarkdownCell").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("Control+s")
    # (an autosave may have written an earlier state first: wait for this one)
    ours = saved_widget_state(lambda s: marker in s["rust_source"] and s["diff"]["verdict"] == shown,
                              timeout_s=60)
    assert ours
    page.click("div.lm-MenuBar-itemLabel:text-is('Kernel')")
    page.click("li.lm-Menu-item:has-text('Shut Down Kernel')")
    time.sleep(2)
    page.goto(url.replace("?reset", ""), timeout=120_000)
    root = widget(page)
    wait_for_verdict(root)
    assert verdict(root) == shown
    rust = root.locator("[data-testid=wb-pane-rust] .cm-content")
    rust.locator(".cm-line").first.wait_for(timeout=30_000)
    assert marker in root.evaluate("e => e.wbEditor.state.doc.toString()")
    root.scroll_into_view_if_needed()
    page.screenshot(path=str(OUTPUT / "notebook_a_reopened.png"))


def saved_widget_state(holds, timeout_s: float) -> dict:
    """The port widget's state saved in the notebook, once `holds(state)`."""
    deadline, ours = time.time() + timeout_s, []
    while time.time() < deadline:
        metadata = json.loads(NOTEBOOK_COPY.read_text()).get("metadata", {})
        state = metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state") or {}
        ours = [m["state"] for m in state.values() if "rust_source" in m.get("state", {})]
        if ours and holds(ours[0]):
            return ours[0]
        time.sleep(1)
    found = "an earlier one" if ours else "none"
    raise AssertionError(f"{NOTEBOOK_COPY} was saved without this widget state ({found}): is "
                         "saveState on (scripts/setup writes it into .venv/share/jupyter/lab/"
                         "settings)?")
