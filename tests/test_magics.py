"""The IPython extension: %port, %%cutile and %%rust, in a real IPython shell, on copies of
the catalog port (runs/tests/, never kernels_src/)."""
import shutil

import pytest
from IPython.core.interactiveshell import InteractiveShell

from port_copies import COLD_BUILD, fresh_copy, fresh_folder
from workbench.catalog import REPO_ROOT, get_operator
from workbench.errors import WorkbenchError

KERNEL_CELL = '''
import cuda.tile as ct

@ct.kernel
def scale_rows(x, y, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=t * 2.0)
'''
CATALOG_KERNEL = get_operator("softmax").port_folder / "src" / "kernel.rs"
pytestmark = COLD_BUILD


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "workbench")
    return ip


@pytest.fixture(autouse=True)
def catalog_untouched():
    before = CATALOG_KERNEL.read_text()
    yield
    assert CATALOG_KERNEL.read_text() == before, "a magic test wrote the catalog port"


def relative(path) -> str:
    return str(path.relative_to(REPO_ROOT))


def test_cutile_cell_defines_the_kernel_prints_its_ir_and_opens_with_port(shell, capsys):
    shell.run_cell_magic("cutile", "--arg f32[4096] --arg f32[4096] --const TILE=1024", KERNEL_CELL)
    out = capsys.readouterr().out
    assert "entry @kernel(" in out and "mulf" in out
    assert "scale_rows" in shell.user_ns
    folder = fresh_folder("magics-cell")
    widget = shell.run_line_magic("port", f"scale_rows --out {relative(folder)}")
    out = capsys.readouterr().out
    assert f"Rust port in {relative(folder)} (none yet); Draft writes there" in out
    assert not widget.has_port and widget.status["message"] == "no port yet: press Draft"
    assert "def scale_rows" in widget.python_source and widget.diff == {}


def test_port_out_copies_the_catalog_port_and_says_where(shell, capsys):
    folder = fresh_folder("magics-port")
    widget = shell.run_line_magic("port", f"softmax --case 2 --out {relative(folder)}")
    out = capsys.readouterr().out
    assert f"copied kernels_src/softmax/port to {relative(folder)}" in out
    assert f"softmax: Rust port in {relative(folder)}; Draft writes there" in out
    assert widget.verdict in ("PASS", "PASS_WITH_NOTES")
    assert "ct.max" in widget.python_source and "reduce_max" in widget.rust_source
    assert widget.diff["alignment"] and widget.diff["left_locations"]
    assert widget.rust_file == f"{relative(folder)}/src/kernel.rs"


def test_port_of_the_catalog_says_drafts_go_to_runs(shell, capsys):
    shell.run_line_magic("port", "softmax --case 2")
    assert ("softmax: Rust port in kernels_src/softmax/port; Draft writes to "
            "runs/ports/softmax/port") in capsys.readouterr().out


def test_port_out_fixes_a_plain_copy(shell, capsys):
    folder = fresh_folder("magics-plain")
    shutil.copytree(get_operator("softmax").port_folder, folder,
                    ignore=shutil.ignore_patterns(".history"))
    widget = shell.run_line_magic("port", f"softmax --out {relative(folder)}")
    assert "was a plain copy of a kernels_src port" in capsys.readouterr().out
    assert list((folder / ".history").glob("Cargo.toml.*.plain-copy"))
    assert widget.verdict in ("PASS", "PASS_WITH_NOTES")


def test_rust_cell_replaces_the_kernel_keeping_the_old_one(shell, capsys):
    op = fresh_copy("magics-rust")
    kernel_rs = op.port_folder / "src" / "kernel.rs"
    original = kernel_rs.read_text()
    shell.run_cell_magic("rust", f"softmax --out {relative(op.port_folder)}",
                         original.replace("padding::NegInf", "padding::Zero"))
    out = capsys.readouterr().out
    assert "verdict: FAIL" in out and "padding_value" in out
    kept = list((op.port_folder / ".history").iterdir())
    assert len(kept) == 1 and kept[0].read_text() == original
    assert "padding::Zero" in kernel_rs.read_text()


def test_rust_cell_asks_before_replacing_a_widgets_unsaved_edits(shell, capsys):
    op = fresh_copy("magics-dirty")
    out_arg = f"--out {relative(op.port_folder)}"
    widget = shell.run_line_magic("port", f"softmax {out_arg}")
    original = widget.rust_source
    widget.unsaved = original + "// MY HAND EDIT\n"      # what the front end reports
    new_text = original.replace("padding::NegInf", "padding::Zero")
    with pytest.raises(WorkbenchError, match="has unsaved edits in its Rust pane"):
        shell.run_cell_magic("rust", f"softmax {out_arg}", new_text)
    assert (op.port_folder / "src" / "kernel.rs").read_text() == original

    shell.run_cell_magic("rust", f"softmax {out_arg} --force", new_text)
    history = {p.name.rsplit(".", 1)[-1]: p.read_text() for p in (op.port_folder / ".history").iterdir()}
    assert "// MY HAND EDIT" in history["unsaved"] and history["saved"] == original
    assert widget.rust_source == new_text and widget.unsaved == ""
    assert widget.verdict == "FAIL"                     # %%rust refreshed the open widget
    capsys.readouterr()


BAD_INPUTS = [
    ("%port softmax --bogus", "%port: unrecognized arguments: --bogus \u2014 usage: %port OP"),
    ("%port", "%port needs an operator"),
    ("%port nosuch", "no operator named 'nosuch'"),
    ("%port softmax --case x", "%port: argument --case: invalid int value"),
    ("%port softmax --arg f32[4]", "--arg/--const go with FILE.py:KERNEL"),
    ("%port /no/such/kernel.py:k", "/no/such/kernel.py: no such kernel file"),
    ('%port "softmax', "%port: No closing quotation"),
    ("%%rust\nfn f() {}", "%%rust needs an operator"),
    ("%%cutile --bogus\nx = 1", "%%cutile: unrecognized arguments: --bogus"),
    ("%%cutile\nx = 1", "the cell defines no @ct.kernel"),
]


@pytest.mark.parametrize("cell, message", BAD_INPUTS)
def test_bad_input_fails_in_one_line_and_the_shell_lives_on(shell, capfd, cell, message):
    result = shell.run_cell(cell)
    assert isinstance(result.error_in_exec, WorkbenchError)      # the cell failed (Run All stops)
    captured = capfd.readouterr()
    lines = [line for line in (captured.out + captured.err).splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], lines
    assert "Traceback" not in captured.out + captured.err
    assert shell.run_cell("1 + 1").result == 2


def test_a_workbench_error_outside_the_magics_keeps_its_traceback(shell, capfd):
    shell.run_cell("from workbench.catalog import get_operator\nget_operator('nosuch')")
    captured = capfd.readouterr()
    assert "Traceback" in captured.out + captured.err or "WorkbenchError" in captured.out + captured.err


def test_check_and_bench_reports_become_tables():
    from workbench.check.runner import CheckResponse
    from workbench.ui import results
    response = CheckResponse("fail", "rust side wrong", [
        {"label": "case 0", "sides": {"python": {"ok": True, "rel_error": 1e-7},
                                      "rust": {"ok": False, "rel_error": 0.5, "reason": "mismatch"}},
         "cross": {"rel_error": 0.5}}])
    check = results.check_result("softmax", response)
    assert check["title"] == "check softmax: FAIL (rust side wrong)" and not check["ok"]
    (table,) = check["tables"]
    assert table["columns"][0] == "case"
    assert table["rows"] == [["case 0", "ok, rel. err 1.00e-07", "FAIL, rel. err 5.00e-01 (mismatch)",
                              "5.00e-01"]]
    bench = results.bench_result({"status": "ok", "device": {"name": "H200"}, "rows": [
        {"op": "softmax", "case": "case 0", "python": {"ok": True, "cupti_us": 20.0},
         "rust": {"ok": True, "cupti_us": 19.0}, "parity": 20 / 19}], "parity_overall": 20 / 19})
    assert bench["title"] == "bench: parity 1.053"
    assert bench["tables"][0]["rows"] == [["case 0", "20.00", "19.00", "1.053"]]


FLAT_ROWS = "tests/fixtures/triton_flat_rows.py:double_rows"


def test_port_takes_a_kernel_targets_launch_grid_as_the_cli_does(shell, capsys):
    """%port FILE.py:KERNEL --arg .. --const .. --grid X[,Y[,Z]]: the grid its check runs the
    Triton kernel on (argspec.parse_grid, as `workbench port --grid`)."""
    folder = fresh_folder("magics-grid")
    line = (f"{FLAT_ROWS} --arg f32[3,8,32] --arg f32[3,8,32] --arg i32=32 --const D=32 "
            f"--out {relative(folder)}")
    from workbench.magics import _args, open_target
    op = open_target(_args("%port", f"{line} --grid 24,1"))      # what %port opens
    (case,) = op.triton.cases
    assert case.grid == (24, 1, 1)
    for bad in ("0", "1,2,3,4", "x"):
        with pytest.raises(WorkbenchError, match="not 1 to 3 positive integers"):
            shell.run_line_magic("port", f"{line} --grid {bad}")
    with pytest.raises(WorkbenchError, match="--grid goes with a kernel target"):
        shell.run_line_magic("port", "softmax --grid 4")
