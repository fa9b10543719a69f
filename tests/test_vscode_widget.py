"""The widget as VS Code renders it: through the ipywidgets 8 manager that VS Code's Jupyter
extension loads into a notebook's output webview (@vscode/jupyter-ipywidgets8), hosted by
tests/vscode_host (a stand-in webview with Dark Modern's --vscode-* theme) and connected to a real
kernel of a real `jupyter server`. Runs the cell a user runs, renders its widget output, follows
the links between the panes, saves an edit and watches the IR pane and the verdict change."""
import re
import sys
import time
from pathlib import Path

import pytest

from browser_helpers import ARGS, CHROMIUM, hover
from jupyter_process import jupyter
from port_copies import COLD_BUILD, WORK, build_first, fresh_copy
from workbench.catalog import REPO_ROOT, get_operator

DIST = REPO_ROOT / "tests" / "vscode_host" / "dist"
SHARE = Path(sys.prefix) / "share" / "jupyter"  # served as /static/: /static/nbextensions/...
OUTPUT = REPO_ROOT / "tests" / ".output" / "vscode"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
PORT_COPY = WORK / "vscode" / "port"
KERNEL_RS = PORT_COPY / "src" / "kernel.rs"
CELL = (f"import os\nos.chdir({str(REPO_ROOT)!r})\n%load_ext workbench\n"
        f"%port softmax --out {PORT_COPY.relative_to(REPO_ROOT)}")

pytestmark = [
    COLD_BUILD,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason="Debian's chromium is not installed (scripts/setup installs it)"),
    pytest.mark.skipif(not (DIST / "index.html").exists(),
                       reason="tests/vscode_host/dist is not built "
                              "(scripts/setup builds it: npm ci && npm run build in tests/vscode_host)"),
]

# WCAG contrast of an element's text against the backgrounds behind it, blended
CONTRAST_JS = """sel => {
  const el = document.querySelector(sel);
  const rgba = c => c.match(/[\\d.]+/g).map(Number);
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] > 0) layers.push(c);
    if (c.length < 4 || c[3] === 1) break;
  }
  const bg = layers.reduceRight((under, [r, g, b, a = 1]) =>
    [r, g, b].map((x, i) => x * a + under[i] * (1 - a)), [255, 255, 255]);
  const lum = rgb => rgb.map(x => (x /= 255) <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4)
                        .reduce((s, x, i) => s + x * [0.2126, 0.7152, 0.0722][i], 0);
  const [a, b] = [lum(rgba(getComputedStyle(el).color).slice(0, 3)), lum(bg)];
  return {ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), background: b};
}"""


def widget_scripts() -> dict:
    """What VS Code's extension host offers the webview for the kernel's environment: the
    requirejs paths each share/jupyter/nbextensions/*/extension.js declares."""
    scripts = {}
    for entry in (SHARE / "nbextensions").glob("*/extension.js"):
        for name, target in re.findall(r"""["']?([\w@/.-]+)["']?\s*:\s*["'](nbextensions/[^"']+)["']""",
                                       entry.read_text()):
            scripts[name] = f"/static/{target}.js"
    return scripts


@pytest.fixture(scope="module")
def server():
    # the host page is a static file: no _xsrf cookie for its REST calls
    with jupyter("server", REPO_ROOT, OUTPUT / "jupyter-server.log",
                 "--ServerApp.disable_check_xsrf=True", f"--ServerApp.extra_static_paths={DIST}",
                 f"--ServerApp.extra_static_paths={SHARE}") as url:
        yield url


@pytest.fixture(scope="module")
def port_copy():
    """The copy the widget edits, built before any timed wait (a cold first build compiles
    the cutile crates)."""
    op = fresh_copy(PORT_COPY.parent.name)
    build_first(op)
    return op


def test_widget_in_vscode_ipywidgets8_manager(server, port_copy):
    from playwright.sync_api import sync_playwright
    scripts = widget_scripts()
    assert "anywidget" in scripts, scripts
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1800, "height": 1100})
        errors, console = [], []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
        page.goto(f"{server}/static/index.html", timeout=60_000)
        page.wait_for_function("window.vscIPyWidgets8 && window.vscodeHost", timeout=60_000)
        assert page.evaluate("s => vscodeHost.start({widgetScripts: s})", scripts)["language"] == "python"

        # the cell a user runs in VS Code; its output is what VS Code hands its widget renderer
        started = time.time()
        result = page.evaluate("code => vscodeHost.execute(code)", CELL)
        assert result["status"] == "ok", result
        data = next(o["data"][WIDGET_MIME] for o in result["outputs"] if WIDGET_MIME in o.get("data", {}))
        assert page.evaluate("data => vscodeHost.render(data)", data) == "anywidget"
        assert not page.evaluate("vscodeHost.failures"), page.evaluate("vscodeHost.failures")
        print(f"cell run + widget rendered by VS Code's manager: {time.time() - started:.1f} s")

        root = page.locator("#output [data-testid=wb-root]")
        root.wait_for(timeout=60_000)
        python = page.locator("[data-testid=wb-pane-python]")
        rust = page.locator("[data-testid=wb-pane-rust]")
        ir = page.locator("[data-testid=wb-pane-ir]")
        for pane in (python, rust):
            pane.locator(".cm-line").first.wait_for(timeout=60_000)
        ir.locator(".wb-ir-row").first.wait_for(timeout=60_000)
        assert page.get_by_test_id("wb-verdict").get_attribute("data-verdict") in ("PASS", "PASS_WITH_NOTES")
        page.screenshot(path=str(OUTPUT / "vscode_dark_rendered.png"))

        # legible in a dark VS Code theme: the widget follows --vscode-*, not the manager's light --jp-*
        for selector in ("[data-testid=wb-root] .wb-root", ".wb-pane-python .cm-content", ".wb-pane-title",
                         ".wb-pane-rust .tok-keyword", ".wb-pane-rust .tok-comment", ".wb-ir-row .wb-ir-code",
                         ".wb-ir-code .tok-keyword", ".wb-btn"):
            contrast = page.evaluate(CONTRAST_JS, selector)
            assert contrast["ratio"] >= 4.5, (selector, contrast)
            assert contrast["background"] < 0.2, (selector, "not on a dark background", contrast)

        # hover the Python line of the row max: its IR ops light up on both sides
        source = get_operator("softmax").kernel_file.read_text().splitlines()
        line = next(i for i, l in enumerate(source, 1) if "ct.max" in l)
        hover(page, python.locator(f'.cm-line[data-line="{line}"]'))
        page.wait_for_function(f"document.querySelector('[data-testid=wb-root]')"
                               f".getAttribute('data-linked-python') === '{line}'", timeout=10_000)
        assert root.get_attribute("data-linked-ir-left") and root.get_attribute("data-linked-ir-right")
        assert ir.locator(".wb-ir-row.wb-linked").count() >= 1
        assert python.locator(f'.cm-line[data-line="{line}"].wb-linked').count() == 1

        # type an edit into the Rust pane (-inf padding -> zero) and save with Ctrl-S in the editor
        before_ir = ir.inner_text()
        rust_lines = KERNEL_RS.read_text().splitlines()
        edit_line = next(i for i, l in enumerate(rust_lines, 1) if "padding::NegInf" in l)
        rust.locator(f'.cm-line[data-line="{edit_line}"]').click()
        root.evaluate("""(e) => { const view = e.wbEditor, at = view.state.doc.toString().indexOf('NegInf');
                                  view.dispatch({selection: {anchor: at, head: at + 6}}); view.focus(); }""")
        page.keyboard.type("Zero")
        started = time.time()
        page.keyboard.press("Control+s")
        page.wait_for_function("document.querySelector('[data-testid=wb-verdict]')"
                               ".getAttribute('data-verdict') === 'FAIL'", timeout=300_000)
        print(f"save -> rebuilt, re-diffed, verdict shown: {time.time() - started:.1f} s")
        assert "padding::Zero" in KERNEL_RS.read_text()
        assert ir.inner_text() != before_ir and "padding_value = zero" in ir.inner_text()
        page.screenshot(path=str(OUTPUT / "vscode_dark_after_edit.png"))
        (OUTPUT / "host.log").write_text("\n".join(page.evaluate("vscodeHost.log") + console) + "\n")
        assert not page.evaluate("vscodeHost.failures"), page.evaluate("vscodeHost.failures")
        assert not errors, errors
        browser.close()
