"""What the browser tests share: Debian's Chromium driven by Playwright, a real `jupyter lab`,
notebooks written into runs/tests/browser/ (never the repository's), and the few ways a test
reads or drives the widget (each widget is one `[data-testid=wb-root]`)."""
import time
from pathlib import Path

import nbformat
import pytest

from workbench.catalog import REPO_ROOT

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
OUTPUT = REPO_ROOT / "tests" / ".output" / "browser"
NOTEBOOKS = REPO_ROOT / "runs" / "tests" / "browser"
SETUP_CELL = """import os
from pathlib import Path
os.chdir(next(p for p in (Path.cwd(), *Path.cwd().parents) if (p / "kernels_src").is_dir()))
%load_ext workbench"""

needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (scripts/setup installs it)")


def write_notebook(name: str, cells: list[str]) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    path = NOTEBOOKS / name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def lab_url(lab: str, notebook: Path) -> str:
    return f"{lab}/lab/tree/{notebook.relative_to(REPO_ROOT)}?reset"


def run_all(page, url: str) -> None:
    page.goto(url, timeout=120_000)
    page.wait_for_selector(".jp-Notebook", timeout=120_000)
    time.sleep(3)
    page.click("div.lm-MenuBar-itemLabel:text-is('Run')")
    page.click("li.lm-Menu-item:has-text('Run All Cells')")


def widget(page, index: int = 0):
    """The index-th widget of the page, once its panes have rendered."""
    root = page.locator("[data-testid=wb-root]").nth(index)
    root.wait_for(timeout=300_000)
    root.locator("[data-testid=wb-pane-python] .cm-line").first.wait_for(timeout=60_000)
    return root


def attr(locator, name: str) -> str:
    return locator.get_attribute(name) or ""


def verdict(root) -> str:
    return attr(root.get_by_test_id("wb-verdict"), "data-verdict")


def wait_until(root, js: str, timeout_s: float = 300) -> float:
    """Wait for `js` (a function of the widget's root element) to hold; -> seconds waited."""
    started = time.time()
    root.page.wait_for_function(f"e => ({js})(e)", arg=root.element_handle(),
                                timeout=timeout_s * 1000)
    return time.time() - started


def wait_for_verdict(root, condition: str = "v => v !== ''", timeout_s: float = 300) -> float:
    return wait_until(root, f"e => ({condition})(e.querySelector('[data-testid=wb-verdict]')"
                            f".getAttribute('data-verdict'))", timeout_s)


def idle(root, timeout_s: float = 300) -> float:
    return wait_until(root, "e => e.querySelector('[data-testid=wb-status]')"
                            ".getAttribute('data-busy') === 'false'", timeout_s)


def select_in_rust_pane(root, text: str, skip: int = 0) -> None:
    """Select `text` (after its first `skip` characters) in the Rust editor and focus it."""
    root.evaluate("""(e, [text, skip]) => { const view = e.wbEditor;
               const at = view.state.doc.toString().indexOf(text) + skip;
               if (at < skip) throw new Error('not in the Rust pane: ' + text);
               view.dispatch({selection: {anchor: at, head: at + text.length - skip}});
               view.focus(); }""", [text, skip])


def cursor_at_end_of_line(root, line: int) -> None:
    root.evaluate("""(e, n) => { const view = e.wbEditor, at = view.state.doc.line(n).to;
                                 view.dispatch({selection: {anchor: at}}); view.focus(); }""", line)


def hover(page, locator) -> None:
    locator.evaluate("""e => { e.scrollIntoView({block: 'nearest', inline: 'nearest'});
                              const s = e.closest('.cm-scroller'); if (s) s.scrollLeft = 0; }""")
    box = locator.bounding_box()
    page.mouse.move(box["x"] + 12, box["y"] + box["height"] / 2)


def pane_widths(root) -> dict[str, float]:
    return {name: root.get_by_test_id(f"wb-pane-{name}").bounding_box()["width"]
            for name in ("python", "rust", "ir")}


def shoot(page, root, name: str) -> Path:
    """Screenshots under tests/.output/browser/: the page with the widget in view (`name`),
    and the widget alone (`widget-<name>`)."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    root.evaluate("e => e.scrollIntoView({block: 'start'})")
    time.sleep(0.3)
    path = OUTPUT / name
    page.screenshot(path=str(path))
    box, size = root.bounding_box(), page.viewport_size
    top = max(0, box["y"])
    page.screenshot(path=str(OUTPUT / f"widget-{name}"), clip={
        "x": box["x"], "y": top, "width": box["width"],
        "height": min(box["y"] + box["height"], size["height"] - 24) - top})
    return path
