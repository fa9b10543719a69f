"""Draft folders that never collide (issue 33, part 3): `--out DIR` drafts this target's own
port again, but says what else a folder holds and refuses it without --force (then keeps a
copy); a %port or `workbench port` refused for bad input leaves the disk as it was. Nothing
here builds: the drafting runs stop at a kernel the drafter refuses, or are stood in for."""
import json

import pytest
from IPython.core.interactiveshell import InteractiveShell

from conftest import FIXTURES
from workbench.catalog import get_operator
from workbench.cli import main
from workbench.cli import port_verbs
from workbench.errors import WorkbenchError
from workbench.magics import _args, open_target
from workbench.operators import DRAFT_MARK
from workbench.port import pipeline
from workbench.port.folders import foreign_contents, kernel_identity, port_owner, stamp
from workbench.resolve import resolve_target
from workbench.rust.cargo import code_hash
from workbench.session import copy_port

from test_resolve import KERNEL           # one small kernel file's text, shared

CALL = ["--arg", "f32[256]", "--arg", "f32[256]", "--arg", "f32", "--const", "TILE=128"]
SCAN = f"{FIXTURES}/drafter/scan_rows.py:scan_rows"
SCAN_CALL = ["--arg", "f32[64,128]", "--arg", "f32[64,128]", "--const", "TILE_COLS=128"]


@pytest.fixture
def projects(tmp_path):
    """Two projects' layernorm.py, the same kernel in each -> their FILE.py:scale targets."""
    targets = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "layernorm.py").write_text(KERNEL)
        targets.append(f"{tmp_path / name / 'layernorm.py'}:scale")
    return targets


def operator(target: str):
    return resolve_target(target, CALL[1::2][:3], ["TILE=128"])


def a_port(folder, op=None):
    """A folder that looks like a drafted port (of `op` when given: marked as a draft is)."""
    (folder / "src").mkdir(parents=True)
    (folder / "Cargo.toml").write_text('[package]\nname = "port_scale"\n')
    (folder / "src" / "kernel.rs").write_text("// my edit\n")
    if op is not None:
        stamp(folder, op)
    return folder


def snapshot(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()} if folder.exists() else None


def test_a_folder_says_whose_port_it_holds(projects, tmp_path):
    one, two = operator(projects[0]), operator(projects[1])
    assert foreign_contents(tmp_path / "missing", one) is None
    (tmp_path / "empty").mkdir()
    assert foreign_contents(tmp_path / "empty", one) is None
    drafted = a_port(tmp_path / "drafted", one)
    assert port_owner(drafted) == kernel_identity(one) == f"{projects[0]}"
    assert foreign_contents(drafted, one) is None
    assert foreign_contents(drafted, two) == f"a port of {projects[0]} (Cargo.toml, src)"
    unmarked = a_port(tmp_path / "unmarked")
    assert foreign_contents(unmarked, one) == \
        "a port that does not say which kernel it is of (Cargo.toml, src)"
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "notes.txt").write_text("mine\n")
    assert foreign_contents(tmp_path / "notes", one) == "files that are not a port: notes.txt"


def test_a_port_made_before_marks_is_known_by_its_manifest(tmp_path):
    softmax, rms_norm = get_operator("softmax"), get_operator("rms_norm")
    old = tmp_path / "old"
    old.mkdir()
    (old / "Cargo.toml").write_text((softmax.port_folder / "Cargo.toml").read_text())
    assert foreign_contents(old, softmax) is None
    assert foreign_contents(old, rms_norm).startswith("a port of kernels_src/softmax/kernel.py")


def test_a_copy_is_marked_and_the_mark_is_no_build_input(tmp_path):
    op = copy_port(get_operator("softmax"), tmp_path / "copy")
    assert json.loads((op.port_folder / DRAFT_MARK).read_text())["kernel"] == \
        kernel_identity(op)
    before = code_hash(op)
    (op.port_folder / DRAFT_MARK).write_text("{}\n")
    assert code_hash(op) == before


@pytest.fixture
def drafts(monkeypatch):
    """`workbench port` with the pipeline stood in for: the folders it was asked to draft."""
    asked = []

    class Ran:
        verdict, summary = "PASS", staticmethod(lambda: "ran")

    def run(op, drafter, model=None, out=None, into_catalog=False):
        asked.append(out)
        return Ran()
    monkeypatch.setattr(port_verbs, "run_pipeline", run)
    return asked


def test_port_out_drafts_its_own_target_again_and_refuses_another(projects, tmp_path, drafts,
                                                                   capsys):
    out = a_port(tmp_path / "out", operator(projects[0]))
    assert main(["port", projects[0], *CALL, "--out", str(out)]) == 0
    assert drafts == [out]
    before = snapshot(out)
    assert main(["port", projects[1], *CALL, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{out} already holds a port of {projects[0]} (Cargo.toml, src)" in err
    assert "--force" in err and drafts == [out] and snapshot(out) == before
    assert main(["port", projects[1], *CALL, "--out", str(out), "--force"]) == 0
    assert drafts == [out, out]


def test_forced_draft_keeps_what_the_folder_held(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(pipeline, "RUNS_DIR", tmp_path / "runs")
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my notes\n")
    assert main(["port", SCAN, *SCAN_CALL, "--out", str(out), "--force"]) == 1   # UNSUPPORTED
    stdout = capsys.readouterr().out
    (run,) = (tmp_path / "runs" / "scan_rows").iterdir()
    assert (run / "previous_port" / "notes.txt").read_text() == "my notes\n"
    assert f"(what {out} held before is kept in {run / 'previous_port'})" in stdout
    assert (out / "notes.txt").read_text() == "my notes\n"
    assert port_owner(out) == "tests/fixtures/drafter/scan_rows.py:scan_rows"
    # the folder is scan_rows's draft now: drafted again with no --force
    assert main(["port", SCAN, *SCAN_CALL, "--out", str(out)]) == 1


def test_a_new_draft_leaves_the_old_port_s_tuned_entries_in_its_kept_copy(tmp_path,
                                                                           monkeypatch):
    """tuned.toml entries were measured on the port they tune (and may name a tile program
    the new draft lacks): a draft over the port keeps them in previous_port/ only."""
    monkeypatch.setattr(pipeline, "RUNS_DIR", tmp_path / "runs")
    out = tmp_path / "mine"
    assert main(["port", SCAN, *SCAN_CALL, "--out", str(out)]) == 1          # UNSUPPORTED
    entry = '[[entry]]\narrays = "f32[64,128] f32[64,128]"\nhints = { program = 1 }\n'
    (out / "tuned.toml").write_text(entry)
    assert main(["port", SCAN, *SCAN_CALL, "--out", str(out)]) == 1
    (_, run) = sorted((tmp_path / "runs" / "scan_rows").iterdir())
    assert (run / "previous_port" / "tuned.toml").read_text() == entry
    assert not (out / "tuned.toml").exists()


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "workbench")
    return ip


def test_port_magic_refuses_another_kernels_port_until_forced(projects, tmp_path, capsys):
    out = a_port(tmp_path / "out", operator(projects[0]))
    line = f"{projects[1]} {' '.join(CALL)} --out {out}"
    before = snapshot(out)
    with pytest.raises(WorkbenchError, match=f"already holds a port of {projects[0]}"):
        open_target(_args("%port", line))
    assert snapshot(out) == before
    op = open_target(_args("%port", f"{line} --force"))
    assert "opened as scale's port (--force)" in capsys.readouterr().out
    assert port_owner(out) == kernel_identity(op) == projects[1]
    assert (out / "src" / "kernel.rs").read_text() == "// my edit\n"
    open_target(_args("%port", line))              # its own now: no --force needed


@pytest.mark.parametrize("line, message", [
    ("softmax --case 99", "softmax has no case 99"),
    ("{a} --arg f32[256] --arg f32[256] --const TILE=128", "2 --arg given"),
    (f"{FIXTURES}/triton_flat_rows.py:double_rows --arg f32[3,8,32] --arg i32=32 --const D=32",
     "2 --arg given"),
])
def test_a_refused_port_magic_changes_nothing_on_disk(shell, projects, tmp_path, capfd,
                                                      line, message):
    out = tmp_path / "new" / "port"
    result = shell.run_cell(f"%port {line.format(a=projects[0])} --out {out}")
    assert isinstance(result.error_in_exec, WorkbenchError)
    assert message in capfd.readouterr().err
    assert not (tmp_path / "new").exists()
