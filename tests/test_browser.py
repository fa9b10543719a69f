"""The widget in a real browser: Debian's Chromium, driven by Playwright, against a real
`jupyter lab` started here. Runs notebook (a) (a copy, whose widget works on a copy of the
softmax port under runs/tests/), follows the links between the panes, types edits into the
Rust pane (saved with Ctrl-S, then built with Rebuild) and watches the IR pane and the verdict
change; then saves the notebook and reopens it with no kernel."""
import json
import time
import uuid

import pytest

from browser_helpers import (ARGS, CHROMIUM, NOTEBOOKS, OUTPUT, attr, cursor_at_end_of_line, hover, lab_url,
                             needs_chromium, run_all, select_in_rust_pane, verdict,
                             wait_for_verdict, widget)
from jupyter_process import jupyter
from port_copies import COLD_BUILD, build_first, fresh_copy
from workbench.catalog import REPO_ROOT, get_operator

NOTEBOOK_COPY = NOTEBOOKS / "01_port_softmax.ipynb"
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
    op = fresh_copy("browser-a")
    build_first(op)
    build_first(get_operator("softmax"))
    return op


def notebook_a_copy(port) -> None:
    """Notebook (a), its widget cell on the copied port."""
    nb = json.loads((REPO_ROOT / "notebooks" / NOTEBOOK_COPY.name).read_text())
    cells = [c for c in nb["cells"] if "".join(c["source"]).strip() == "%port softmax"]
    assert len(cells) == 1, "notebook (a) has one `%port softmax` cell"
    cells[0]["source"] = f"%port softmax --out {port.relative_to(REPO_ROOT)}"
    NOTEBOOK_COPY.parent.mkdir(parents=True, exist_ok=True)
    NOTEBOOK_COPY.write_text(json.dumps(nb, indent=1))


def test_notebook_a_panes_links_live_edits_and_saved_state(lab, port_a):
    from playwright.sync_api import sync_playwright
    notebook_a_copy(port_a.port_folder)
    kernel_rs = port_a.port_folder / "src" / "kernel.rs"
    catalog_before = (get_operator("softmax").port_folder / "src" / "kernel.rs").read_text()
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
            hover_links(page, root, kernel_rs)
            edit_save_and_rebuild(page, root, kernel_rs)
            save_and_reopen(page, url)
        except Exception:
            page.screenshot(path=str(OUTPUT / "notebook_a_failed.png"))
            raise
        assert page.locator(".jp-Notebook .Toastify__toast").count() == 0, "a toast covers the notebook"
        assert not errors, errors
        browser.close()
    assert (get_operator("softmax").port_folder / "src" / "kernel.rs").read_text() == catalog_before


def hover_links(page, root, kernel_rs):
    """Hover the Python line of the row max: its IR ops light up on both sides, and so does
    the port's reduce_max statement; the JIT -> AOT tab lists every case."""
    python, rust = root.get_by_test_id("wb-pane-python"), root.get_by_test_id("wb-pane-rust")
    source = get_operator("softmax").kernel_file.read_text().splitlines()
    line = next(i for i, l in enumerate(source, 1) if "ct.max" in l)
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
    assert root.locator(".wb-spec-table tbody tr").count() == len(get_operator("softmax").cases)
    first = root.locator(".wb-spec-table thead th").first.inner_text()
    assert first.startswith("what the port must declare")
    symbol = root.locator(".wb-spec-symbol").first
    assert "\u2026" in symbol.inner_text() and symbol.get_attribute("title").startswith("softmax_")
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
    wait_for_verdict(root, "v => v === 'FAIL'")
    seconds = time.time() - started
    assert "padding::Zero" in kernel_rs.read_text()
    assert attr(root.get_by_test_id("wb-verdict"), "data-stale") == "false"
    assert ir.inner_text() != before_ir and "padding_value = zero" in ir.inner_text()
    finding = root.locator('.wb-finding[data-kind="padding_value"]').first
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
    print(f"Rebuild on a one-line edit -> rebuilt (cargo), refreshed diff: {seconds:.1f} s")


def save_and_reopen(page, url):
    """Save the notebook: the widget's state goes into it, so with the kernel shut down the
    reopened notebook still shows the three panes and the last verdict."""
    root = page.locator("[data-testid=wb-root]").first
    shown = verdict(root)
    page.locator(".jp-Notebook .jp-MarkdownCell").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("Control+s")
    state = saved_widget_state(timeout_s=60)
    ours = [m["state"] for m in state.values() if "rust_source" in m.get("state", {})]
    assert ours and "// rebuilt" in ours[0]["rust_source"] and ours[0]["diff"]["verdict"] == shown
    page.click("div.lm-MenuBar-itemLabel:text-is('Kernel')")
    page.click("li.lm-Menu-item:has-text('Shut Down Kernel')")
    time.sleep(2)
    page.goto(url.replace("?reset", ""), timeout=120_000)
    root = widget(page)
    wait_for_verdict(root)
    assert verdict(root) == shown
    rust = root.locator("[data-testid=wb-pane-rust] .cm-content")
    rust.locator(".cm-line").first.wait_for(timeout=30_000)
    assert "// rebuilt" in root.evaluate("e => e.wbEditor.state.doc.toString()")
    root.scroll_into_view_if_needed()
    page.screenshot(path=str(OUTPUT / "notebook_a_reopened.png"))


def saved_widget_state(timeout_s: float) -> dict:
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        metadata = json.loads(NOTEBOOK_COPY.read_text()).get("metadata", {})
        state = metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state")
        if state:
            return state
        time.sleep(1)
    raise AssertionError(f"{NOTEBOOK_COPY} was saved without widget state: is saveState on "
                         "(scripts/setup writes it into .venv/share/jupyter/lab/settings)?")
