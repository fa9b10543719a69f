"""The IPython extension: %port, %%cutile and %%rust, in a real IPython shell."""
import pytest
from IPython.core.interactiveshell import InteractiveShell

from workbench.catalog import get_operator
from workbench.errors import WorkbenchError

KERNEL_CELL = '''
import cuda.tile as ct

@ct.kernel
def scale_rows(x, y, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=t * 2.0)
'''


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "workbench")
    return ip


def test_cutile_cell_defines_the_kernel_and_prints_its_ir(shell, capsys):
    shell.run_cell_magic("cutile", "--arg f32[4096] --arg f32[4096] --const TILE=1024", KERNEL_CELL)
    out = capsys.readouterr().out
    assert "entry @kernel(" in out and "mulf" in out
    assert "scale_rows" in shell.user_ns


def test_port_opens_the_widget_with_a_verdict(shell):
    widget = shell.run_line_magic("port", "softmax --case 2")
    assert widget.verdict in ("PASS", "PASS_WITH_NOTES")
    assert "ct.max" in widget.python_source and "reduce_max" in widget.rust_source
    assert widget.alignment and widget.py_lines


def test_rust_cell_replaces_the_kernel_keeping_the_old_one(shell, capsys):
    kernel_rs = get_operator("softmax").port_folder / "src" / "kernel.rs"
    original = kernel_rs.read_text()
    history = kernel_rs.parent.parent / ".history"
    before = set(history.iterdir()) if history.exists() else set()
    try:
        shell.run_cell_magic("rust", "softmax", original.replace("padding::NegInf", "padding::Zero"))
        out = capsys.readouterr().out
        assert "verdict: FAIL" in out and "padding_value" in out
        kept = set(history.iterdir()) - before
        assert len(kept) == 1 and next(iter(kept)).read_text() == original
    finally:
        kernel_rs.write_text(original)
        for path in (set(history.iterdir()) if history.exists() else set()) - before:
            path.unlink()


def test_magic_errors_say_what_to_do(shell):
    with pytest.raises(WorkbenchError, match="%port needs an operator"):
        shell.run_line_magic("port", "")
