"""The widget in a real browser: Debian's Chromium, driven by Playwright, against a real
`jupyter lab` started here. Runs notebook (a), follows the links between the panes, types
edits into the Rust pane (saved with Ctrl-S, then built with Rebuild) and watches the IR pane
and the verdict change; then saves the notebook and reopens it with no kernel."""
import json
import shutil
import time
import uuid
from pathlib import Path

import pytest

from jupyter_process import jupyter
from workbench.catalog import REPO_ROOT, get_operator

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
OUTPUT = REPO_ROOT / "tests" / ".output" / "browser"
OP = "tilegym.softmax.tma"          # notebook 01 walks this TileGym entry's port
KERNEL_RS = get_operator(OP).port_folder / "src" / "kernel.rs"
# a copy: running and saving it must not touch the notebook in the repository
NOTEBOOK_COPY = REPO_ROOT / "runs" / "browser" / "01_port_softmax.ipynb"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed (scripts/setup installs it)")


@pytest.fixture(scope="module")
def lab():
    with jupyter("lab", REPO_ROOT, OUTPUT / "jupyter-lab.log") as url:
        yield url


@pytest.fixture
def restore_port():
    original = KERNEL_RS.read_text()
    history = KERNEL_RS.parent.parent / ".history"
    before = set(history.iterdir()) if history.exists() else set()
    yield
    KERNEL_RS.write_text(original)
    for kept in (set(history.iterdir()) if history.exists() else set()) - before:
        kept.unlink()


def root_attr(page, name):
    return page.locator("[data-testid=wb-root]").get_attribute(name) or ""


def hover(page, locator):
    locator.evaluate("""e => { e.scrollIntoView({block: 'nearest', inline: 'nearest'});
                              const s = e.closest('.cm-scroller'); if (s) s.scrollLeft = 0; }""")
    box = locator.bounding_box()
    page.mouse.move(box["x"] + 12, box["y"] + box["height"] / 2)


def test_notebook_a_panes_links_live_edits_and_saved_state(lab, restore_port):
    from playwright.sync_api import sync_playwright
    NOTEBOOK_COPY.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO_ROOT / "notebooks" / NOTEBOOK_COPY.name, NOTEBOOK_COPY)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1800, "height": 1100})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        url = f"{lab}/lab/tree/{NOTEBOOK_COPY.relative_to(REPO_ROOT)}?reset"
        run_notebook(page, url)
        hover_links(page)
        edit_save_and_rebuild(page)
        save_and_reopen(page, url)
        assert not errors, errors
        browser.close()


def run_notebook(page, url):
    page.goto(url, timeout=120_000)
    page.wait_for_selector(".jp-Notebook", timeout=120_000)
    time.sleep(3)
    page.click("div.lm-MenuBar-itemLabel:text-is('Run')")
    page.click("li.lm-Menu-item:has-text('Run All Cells')")
    wait_for_panes(page)
    assert verdict(page) in ("PASS", "PASS_WITH_NOTES")


def wait_for_panes(page):
    page.locator("[data-testid=wb-root]").wait_for(timeout=300_000)
    page.locator("[data-testid=wb-pane-python] .cm-line").first.wait_for(timeout=60_000)
    page.wait_for_function("document.querySelector('[data-testid=wb-verdict]')"
                           ".getAttribute('data-verdict') !== ''", timeout=120_000)


def verdict(page) -> str:
    return page.get_by_test_id("wb-verdict").get_attribute("data-verdict")


def hover_links(page):
    """Hover the Python line of the row max: its IR ops light up on both sides, and so does
    the port's reduce_max statement; the JIT -> AOT tab lists every case."""
    python, rust = page.get_by_test_id("wb-pane-python"), page.get_by_test_id("wb-pane-rust")
    source = get_operator(OP).kernel_file.read_text().splitlines()
    start = next(i for i, l in enumerate(source, 1) if "def _softmax_kernel_tma" in l)
    line = next(i for i, l in enumerate(source, 1) if i > start and "ct.max" in l)
    hover(page, python.locator(f'.cm-line[data-line="{line}"]'))
    page.wait_for_function(f"document.querySelector('[data-testid=wb-root]')"
                           f".getAttribute('data-linked-python') === '{line}'", timeout=10_000)
    assert root_attr(page, "data-linked-ir-left") and root_attr(page, "data-linked-ir-right")
    assert page.locator("[data-testid=wb-pane-ir] .wb-ir-row.wb-linked").count() >= 1
    assert python.locator(f'.cm-line[data-line="{line}"].wb-linked').count() == 1
    rust_line = next(i for i, l in enumerate(KERNEL_RS.read_text().splitlines(), 1)
                     if "reduce_max" in l)
    assert str(rust_line) in root_attr(page, "data-linked-rust").split(",")
    assert rust.locator(f'.cm-line[data-line="{rust_line}"].wb-linked').count() == 1

    page.get_by_test_id("wb-tab-specialize").click()
    assert page.locator(".wb-spec-table tbody tr").count() == len(get_operator(OP).cases)
    page.get_by_test_id("wb-tab-ir").click()


def select_in_rust_pane(page, text: str, skip: int = 0):
    """Select `text` (after its first `skip` characters) in the Rust editor and focus it."""
    page.locator("[data-testid=wb-root]").evaluate(
        """(e, [text, skip]) => { const view = e.wbEditor;
               const at = view.state.doc.toString().indexOf(text) + skip;
               view.dispatch({selection: {anchor: at, head: at + text.length - skip}});
               view.focus(); }""", [text, skip])


def edit_save_and_rebuild(page):
    """Type NegInf -> Zero, Ctrl-S: the file is saved, rebuilt and re-diffed, FAIL. Then type
    it back, unsaved, and press Rebuild: it builds what the pane shows."""
    ir = page.get_by_test_id("wb-pane-ir")
    before_ir = ir.inner_text()
    select_in_rust_pane(page, "NegInf")
    page.keyboard.type("Zero")
    started = time.time()
    page.keyboard.press("Control+s")
    page.wait_for_function("document.querySelector('[data-testid=wb-verdict]')"
                           ".getAttribute('data-verdict') === 'FAIL'", timeout=300_000)
    seconds = time.time() - started
    assert "padding::Zero" in KERNEL_RS.read_text()
    assert ir.inner_text() != before_ir and "padding_value = zero" in ir.inner_text()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / "notebook_a_after_edit.png"))
    print(f"Ctrl-S -> saved, rebuilt, re-diffed, verdict shown: {seconds:.1f} s")

    # a comment never built before, so that cargo really compiles
    select_in_rust_pane(page, "padding::Zero", skip=len("padding::"))
    page.keyboard.type("NegInf")
    page.keyboard.press("End")
    page.keyboard.type(f" // rebuilt {uuid.uuid4().hex[:8]}")
    started = time.time()
    page.get_by_test_id("wb-btn-rebuild").click()
    page.wait_for_function("document.querySelector('[data-testid=wb-verdict]')"
                           ".getAttribute('data-verdict') !== 'FAIL'", timeout=300_000)
    seconds = time.time() - started
    assert "padding::NegInf" in KERNEL_RS.read_text()
    assert "padding_value = neg_inf" in ir.inner_text()
    print(f"Rebuild on a one-line edit -> rebuilt (cargo), refreshed diff: {seconds:.1f} s")


def save_and_reopen(page, url):
    """Save the notebook: the widget's state goes into it, so with the kernel shut down the
    reopened notebook still shows the three panes and the last verdict."""
    shown = verdict(page)
    page.locator(".jp-Notebook .jp-MarkdownCell").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("Control+s")
    state = saved_widget_state(timeout_s=60)
    ours = [m["state"] for m in state.values() if "rust_source" in m.get("state", {})]
    assert ours and "// rebuilt" in ours[0]["rust_source"] and ours[0]["verdict"] == shown
    page.click("div.lm-MenuBar-itemLabel:text-is('Kernel')")
    page.click("li.lm-Menu-item:has-text('Shut Down Kernel')")
    time.sleep(2)
    page.goto(url.replace("?reset", ""), timeout=120_000)
    wait_for_panes(page)
    assert verdict(page) == shown
    rust = page.locator("[data-testid=wb-pane-rust] .cm-content")
    rust.locator(".cm-line").first.wait_for(timeout=30_000)
    assert "// rebuilt" in rust.text_content()
    page.locator("[data-testid=wb-root]").scroll_into_view_if_needed()
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
