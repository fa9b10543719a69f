"""The widget in a real browser: Debian's Chromium, driven by Playwright, against a real
`jupyter lab` started here. Runs notebook (a), follows the links between the panes, types
an edit into the Rust pane, saves, and watches the IR pane and the verdict change."""
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workbench.catalog import REPO_ROOT, get_operator

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
OUTPUT = REPO_ROOT / "tests" / ".output" / "browser"
KERNEL_RS = get_operator("softmax").port_folder / "src" / "kernel.rs"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed (scripts/setup installs it)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab():
    port = free_port()
    jupyter = Path(sys.executable).parent / "jupyter"
    OUTPUT.mkdir(parents=True, exist_ok=True)
    log = open(OUTPUT / "jupyter-lab.log", "w")
    proc = subprocess.Popen([str(jupyter), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                             "--ServerApp.token=", "--ServerApp.password=", "--allow-root",
                             f"--ServerApp.root_dir={REPO_ROOT}"],
                            stdout=log, stderr=subprocess.STDOUT, cwd=REPO_ROOT)
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("jupyter lab did not start in 120 s")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


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


def test_notebook_a_panes_links_and_a_live_edit(lab, restore_port):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1800, "height": 1100})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{lab}/lab/tree/notebooks/01_port_softmax.ipynb?reset", timeout=120_000)
        page.wait_for_selector(".jp-Notebook", timeout=120_000)
        time.sleep(3)
        page.click("div.lm-MenuBar-itemLabel:text-is('Run')")
        page.click("li.lm-Menu-item:has-text('Run All Cells')")
        root = page.locator("[data-testid=wb-root]")
        root.wait_for(timeout=300_000)
        python = page.locator("[data-testid=wb-pane-python]")
        rust = page.locator("[data-testid=wb-pane-rust]")
        ir = page.locator("[data-testid=wb-pane-ir]")
        python.locator(".cm-line").first.wait_for(timeout=60_000)
        page.wait_for_function("document.querySelector('[data-testid=wb-verdict]')"
                               ".getAttribute('data-verdict') !== ''", timeout=120_000)
        assert page.get_by_test_id("wb-verdict").get_attribute("data-verdict") in (
            "PASS", "PASS_WITH_NOTES")

        # hover the Python line of the row max: its IR ops light up on both sides
        source = get_operator("softmax").kernel_file.read_text().splitlines()
        line = next(i for i, l in enumerate(source, 1) if "ct.max" in l)
        hover(page, python.locator(f'.cm-line[data-line="{line}"]'))
        page.wait_for_function(f"document.querySelector('[data-testid=wb-root]')"
                               f".getAttribute('data-linked-python') === '{line}'", timeout=10_000)
        assert root_attr(page, "data-linked-ir-left") and root_attr(page, "data-linked-ir-right")
        assert ir.locator(".wb-ir-row.wb-linked").count() >= 1
        assert python.locator(f'.cm-line[data-line="{line}"].wb-linked').count() == 1

        # the JIT -> AOT tab lists every case's compiled kernel
        page.get_by_test_id("wb-tab-specialize").click()
        assert page.locator(".wb-spec-table tbody tr").count() == len(get_operator("softmax").cases)
        page.get_by_test_id("wb-tab-ir").click()

        # type an edit into the Rust pane: the -inf padding becomes zero; then save
        before_ir = ir.inner_text()
        rust_lines = KERNEL_RS.read_text().splitlines()
        edit_line = next(i for i, l in enumerate(rust_lines, 1) if "padding::NegInf" in l)
        target = rust.locator(f'.cm-line[data-line="{edit_line}"]')
        target.click()
        root.evaluate("""(e) => { const view = e.wbEditor, doc = view.state.doc.toString();
                                  const at = doc.indexOf('NegInf');
                                  view.dispatch({selection: {anchor: at, head: at + 6}}); view.focus(); }""")
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
        print(f"save -> rebuilt, re-diffed, verdict shown: {seconds:.1f} s")
        assert not errors, errors
        browser.close()
