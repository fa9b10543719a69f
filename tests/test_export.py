"""`workbench export`: a port as a crate a user can keep. The fast tests stand in for the
build and the Tile IR tools (what they check is what export does with them: the file set, no
absolute path anywhere, refusals that keep what was there); the loader test calls the real
built library's C symbol; one test checks an export with cargo and a cold target folder."""
import importlib.util
import json
import re
import shutil
import subprocess
import time
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from port_copies import COLD_BUILD
from workbench.catalog import REPO_ROOT, get_operator
from workbench.errors import WorkbenchError
from workbench.ir.stages import IRResult
from workbench.port import export
from workbench.rust.cargo import BuildResult, RustcMessage, build
from workbench.rust.toolchain import cargo_env
from workbench.session import PortSession, copy_port
from workbench.ui.widget import PortWidget

FFI_FILES = {"wb_ffi/Cargo.toml"} | {f"wb_ffi/src/{p.name}" for p in
                                     (REPO_ROOT / "kernels_src/wb_ffi/src").glob("*.rs")}
CRATE_FILES = {"README.md", "Cargo.toml", "Cargo.lock", "port.toml", "src/kernel.rs",
               "src/lib.rs", "loader.py"} | FFI_FILES
# tileirdisasm names a kernel outside the checkout by its absolute path
FAR_KERNEL = "/home/someone/project/kernel.py"


def one_case(name: str = "softmax", cases: int = 1):
    op = get_operator(name)
    return replace(op, cases=op.cases[:cases])


@pytest.fixture
def tools(monkeypatch):
    """A built port and IR texts as the tools print them, without running them."""
    def fake_ir(side):
        def emit(op, index):
            return IRResult(f'entry @{side}{index}() {{\n}} loc(#loc)\n#loc = loc("{FAR_KERNEL}"'
                            f':3:1)\n#di_file = #cuda_tile.di_file<"kernel.py" in '
                            f'"{Path(FAR_KERNEL).parent}">\n', f"{side}{index}", "x")
        return emit
    monkeypatch.setattr(export, "build",
                        lambda op: BuildResult(op.name, "up-to-date", None, "id", 0.0))
    monkeypatch.setattr(export, "operator_python_ir", fake_ir("python"))
    monkeypatch.setattr(export, "operator_rust_ir", fake_ir("rust"))


def files_of(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


def test_an_export_is_the_fixed_set_of_files_with_no_absolute_path(tools, tmp_path):
    done = export.export_port(one_case(cases=2), tmp_path / "mine")
    goldens = {f"golden/{side}.case{i}.tileir" for side in ("python", "rust") for i in (0, 1)}
    assert files_of(tmp_path / "mine") == set(done.files) == CRATE_FILES | goldens
    readme = (tmp_path / "mine" / "README.md").read_text()
    for name in {"loader.py", "port.toml", "kernel.rs", "lib.rs", "python.case1.tileir",
                 "rust.case0.tileir", "promises.rs"}:
        assert name in readme
    for path in (tmp_path / "mine").rglob("*"):
        text = path.read_text() if path.is_file() else ""
        assert str(REPO_ROOT) not in text and str(tmp_path) not in text, path
        assert not re.search(r'"/[^"]', text.replace('"/port.toml"', "")), path
    golden = (tmp_path / "mine" / "golden" / "python.case0.tileir").read_text()
    assert 'loc("kernel.py":3:1)' in golden and 'in "project">' in golden
    manifest = tomllib.loads((tmp_path / "mine" / "Cargo.toml").read_text())
    assert manifest["workspace"]["dependencies"]["wb_ffi"] == {"path": "wb_ffi"}
    assert manifest["workspace"]["dependencies"]["cutile"] == "=0.5.0"
    assert "port_softmax" in {p["name"] for p in tomllib.loads(
        (tmp_path / "mine" / "Cargo.lock").read_text())["package"]}


def test_a_drafted_ports_absolute_paths_and_folder_tag_stay_behind(tools, tmp_path):
    """A draft with --out (here a copy: the same standalone manifest) names wb_ffi by this
    checkout's absolute path and carries its folder's tag in its package name."""
    op = copy_port(one_case(), tmp_path / "draft")
    assert str(REPO_ROOT) in (op.port_folder / "Cargo.toml").read_text()
    kernel = op.port_folder / "src" / "kernel.rs"      # as a draft heads it
    kernel.write_text(f"//! Drafted from {op.kernel_file} ({op.kernel_name})\n" + kernel.read_text())
    done = export.export_port(op, tmp_path / "kept")
    manifest = (tmp_path / "kept" / "Cargo.toml").read_text()
    assert done.package == "port_softmax" and 'name = "port_softmax"' in manifest
    assert str(REPO_ROOT) not in manifest and not re.search(r'"/', manifest)
    assert (tmp_path / "kept" / "src" / "kernel.rs").read_text().startswith(
        "//! Drafted from kernel.py (softmax)\n")
    lock = subprocess.run([shutil.which("cargo") or "cargo", "metadata", "--locked",
                           "--offline", "--format-version", "1", "--filter-platform",
                           "x86_64-unknown-linux-gnu"], cwd=tmp_path / "kept",
                          capture_output=True, text=True, timeout=120, env=cargo_env())
    assert lock.returncode == 0, lock.stderr      # resolves offline with its lock, unchanged
    assert "port_softmax" in {p["name"] for p in json.loads(lock.stdout)["packages"]}


def test_a_full_folder_is_refused_and_with_force_kept_whole(tools, tmp_path):
    dest = tmp_path / "out"
    dest.mkdir()
    (dest / "notes.txt").write_text("mine")
    with pytest.raises(WorkbenchError) as refused:
        export.export_port(one_case(), dest)
    assert "already holds notes.txt" in refused.value.message
    assert "--force" in refused.value.hint and "\n" not in refused.value.message
    assert files_of(dest) == {"notes.txt"}
    done = export.export_port(one_case(), dest, force=True)
    assert (done.kept / "notes.txt").read_text() == "mine"
    assert "notes.txt" not in files_of(dest) and "README.md" in files_of(dest)


def test_a_target_with_no_port_is_refused_with_the_command_that_drafts_one(tools, tmp_path):
    op = one_case().with_port(tmp_path / "nothing")
    with pytest.raises(WorkbenchError) as refused:
        export.export_port(op, tmp_path / "out")
    assert "has no port yet" in refused.value.message and "workbench port" in refused.value.hint
    assert not (tmp_path / "out").exists()


def test_a_port_whose_build_fails_is_refused_with_its_first_error(tools, monkeypatch, tmp_path):
    error = RustcMessage("error", "mismatched types", "runs/x/port/src/kernel.rs", 12, 5)
    monkeypatch.setattr(export, "build", lambda op: BuildResult(
        op.name, "failed", None, "id", 0.0, [RustcMessage("warning", "unused", None, None, None),
                                             error]))
    with pytest.raises(WorkbenchError) as refused:
        export.export_port(one_case(), tmp_path / "out")
    assert "does not build: runs/x/port/src/kernel.rs:12:5: error: mismatched types" \
        in refused.value.message
    assert "workbench build softmax" in refused.value.hint
    assert not (tmp_path / "out").exists() and not list(tmp_path.iterdir())


def test_the_cli_says_what_to_do_in_one_line(cli, tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "a.rs").write_text("")
    result = cli("export", "softmax", "--to", str(tmp_path / "full"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    first, hint = result.stderr.strip().splitlines()
    assert first.startswith("error: ") and "already holds a.rs" in first
    assert hint.strip().startswith("what to do:")


@COLD_BUILD
def test_the_loader_calls_the_built_ports_c_symbol(tmp_path):
    """No GPU needed: the port refuses a call that breaks port.toml before any CUDA call,
    which proves the symbol's name, its argument types and the descriptor's layout."""
    op = one_case()
    built = build(op)
    assert built.ok, built.summary()
    (tmp_path / "loader.py").write_text(export.loader_text(export.port_abi(op, "port_softmax")))
    spec = importlib.util.spec_from_file_location("exported_loader", tmp_path / "loader.py")
    loader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loader)

    class Device:                    # an array as __cuda_array_interface__ describes it
        def __init__(self, *shape):
            self.__cuda_array_interface__ = {"data": (1 << 20, False), "shape": shape,
                                             "typestr": "<f4", "version": 3}

    port = loader.Port(built.library)
    with pytest.raises(loader.PortError, match=r"x: rank 1 breaks the port's promise `rank 2`"):
        port(Device(8), Device(8, 8), TILE_COLS=1024, stream=0)
    with pytest.raises(loader.PortError, match=r"softmax takes \(x, out\) and the keywords TILE_COLS"):
        port(Device(8, 8), TILE_COLS=1024, stream=0)
    with pytest.raises(loader.PortError, match="not built: run `cargo build --release`"):
        loader.Port()


@COLD_BUILD
def test_an_export_checks_on_its_own_with_a_cold_target_folder(tmp_path):
    """What this proves: the exported crate, in a folder outside this checkout, resolves
    every dependency offline from its own Cargo.lock, unchanged (--locked), with the vendored
    wb_ffi; cargo compiles the cutile crates from nothing (a cold CARGO_TARGET_DIR: their
    build scripts, bindgen on the CUDA headers, the cutile proc macros) and type-checks
    wb_ffi and the port against them, the port's #[cutile::module] expanded.
    Why `cargo check` and not `cargo build`: measured here (2 cores, cold target, offline,
    locked, the softmax export), `cargo check --release` took 238 s (load 5 to 7.5) and
    `cargo build --release` 886 s (load 7.5 to 8.5); this test, export included, 181 s at
    load 5. What only a build adds is code generation and linking the cdylib, which the
    workbench's own build of the same sources did with the same wb_ffi and the same pins:
    export refuses a port whose build failed. Its goldens are the real tools' output."""
    op = one_case()
    done = export.export_port(op, tmp_path / "export")
    assert (tmp_path / "export" / "golden" / "python.case0.tileir").read_text() == \
        (op.folder / "golden" / "python.case0.tileir").read_text()
    assert "entry @" in (tmp_path / "export" / "golden" / "rust.case0.tileir").read_text()
    lock = (done.folder / "Cargo.lock").read_text()
    env = dict(cargo_env(), CARGO_TARGET_DIR=str(tmp_path / "target"))
    result = subprocess.run([shutil.which("cargo") or "cargo", "check", "--offline", "--locked",
                             "--message-format=short"], cwd=done.folder, env=env,
                            capture_output=True, text=True, timeout=3000)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Checking port_softmax" in result.stderr and "Checking wb_ffi" in result.stderr
    assert (done.folder / "Cargo.lock").read_text() == lock
    for path in done.folder.rglob("*"):
        if path.is_file():
            assert str(REPO_ROOT) not in path.read_text(), path


def test_the_widgets_export_offers_a_folder_and_refuses_a_full_one(tools, tmp_path):
    widget = PortWidget(PortSession(one_case()), diff=False)
    assert widget.export_to == str(REPO_ROOT / "runs" / "exports" / "softmax")
    export_in(widget, tmp_path / "mine")
    assert widget.status["error"] == "" and "port_softmax" in widget.status["message"]
    assert (tmp_path / "mine" / "loader.py").exists()
    export_in(widget, tmp_path / "mine")
    assert "already holds Cargo.lock" in widget.status["error"]
    assert "--force" in widget.status["error"]         # the message, then what to do


def export_in(widget, folder: Path, timeout_s: float = 60) -> None:
    """What the front end's Export bar sends; returns when that action has ended."""
    before = widget.status
    widget._on_message(widget, {"type": "action", "name": "export", "to": str(folder)}, [])
    deadline = time.monotonic() + timeout_s
    while widget.status is before or widget.status.get("busy"):
        assert time.monotonic() < deadline, widget.status
        time.sleep(0.05)
