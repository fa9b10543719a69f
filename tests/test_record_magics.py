"""%%record and %port --record in a real IPython shell: a cell of the user's own host code
is recorded, and the widget opens on the recorded kernel with its cases."""
import pytest
from IPython.core.interactiveshell import InteractiveShell

from workbench.catalog import REPO_ROOT
from workbench.errors import WorkbenchError
from workbench.sources.record import Record

EXAMPLE_DIR = REPO_ROOT / "examples" / "own_kernel"


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "workbench")
    ip.run_cell(f"import sys, torch\nsys.path.insert(0, {str(EXAMPLE_DIR)!r})\nimport my_norm")
    return ip


def test_a_recorded_cell_binds_its_record_and_saves_it(shell, tmp_path, capsys):
    out = tmp_path / "cell.json"
    shell.run_cell_magic("record", f"--out {out}",
                         "y = my_norm.rms_norm(torch.randn(8, 300), torch.randn(300))")
    printed = capsys.readouterr().out
    rec = shell.user_ns["_record"]
    assert [launch.grid for launch in rec.launches] == [(8, 1, 1)]
    assert Record.load(out).to_json() == rec.to_json()
    assert f"%port --record {out}" in printed


def test_a_recorded_cell_keeps_the_values_it_launched_on(shell, tmp_path):
    out = tmp_path / "kept.json"
    shell.run_cell_magic("record", f"--out {out} --keep-data",
                         "x = torch.randn(8, 300)\ny = my_norm.rms_norm(x, torch.randn(300))")
    record = Record.load(out)
    inputs, outputs = record.kept_values(record.launches[0])
    assert (inputs["x"] == shell.user_ns["x"].numpy()).all() and outputs == {}


def test_a_cell_that_raises_before_any_launch_says_so_in_one_line(shell, tmp_path):
    with pytest.raises(WorkbenchError, match="raised before any kernel launch"):
        shell.run_cell_magic("record", f"--out {tmp_path / 'x.json'}", "1 / 0")


def test_port_on_a_record_opens_the_widget_on_its_cases(shell, tmp_path):
    out = tmp_path / "cell.json"
    shell.run_cell_magic("record", f"--out {out}",
                         "my_norm.rms_norm(torch.randn(8, 300), torch.randn(300))\n"
                         "my_norm.rms_norm(torch.randn(16, 64, dtype=torch.float16), "
                         "torch.randn(64, dtype=torch.float16))")
    widget = shell.run_line_magic("port", f"--record {out} --out {tmp_path / 'port'}")
    session = widget.session
    assert session.op.kernel_name == "rms_norm_kernel" and len(session.op.cases) == 2
    assert session.op.port_folder == (tmp_path / "port").resolve()
    with pytest.raises(WorkbenchError, match="--record names the kernel"):
        shell.run_line_magic("port", f"softmax --record {out}")


def test_the_jit_to_aot_view_says_which_recorded_launches_each_case_serves(shell, tmp_path):
    out = tmp_path / "three.json"
    shell.run_cell_magic("record", f"--out {out}",
                         "for rows in (16, 32, 7):\n"
                         "    my_norm.rms_norm(torch.randn(rows, 64), torch.randn(64))")
    widget = shell.run_line_magic("port", f"--record {out} --out {tmp_path / 'port'}")
    rows = widget.session.specializations()
    served = [[f for f in row["facts"] if f.startswith("serves ")] for row in rows]
    assert [len(s) for s in served] == [2, 1]       # 16 and 32 rows: one kernel; 7: another
    assert served[0][1].startswith("serves launch 1: rms_norm_kernel grid (32, 1, 1)")


def test_a_block_with_no_out_is_saved_under_runs_records(shell):
    from workbench import record
    with record() as rec:
        shell.run_cell("my_norm.rms_norm(torch.randn(4, 64), torch.randn(64))")
    assert rec.path.parent == REPO_ROOT / "runs" / "records" and rec.path.exists()
    rec.path.unlink()
