"""The Rust side: lazy builds, hot reload in a running process, the emitter and the C ABI.

These build the real port with cargo (scripts/setup builds the catalog's ports once, so the
cutile crates are built before any test waits on them). Tests that edit a port edit a copy."""
import json
import re
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest

from workbench.catalog import display_path, get_operator
from workbench.ir.parse import parse
from workbench.rust.cargo import BuildResult, build, last_good
from workbench.rust.emit import emit_request, operator_rust_ir
from workbench.rust.ffi import ArgumentError, check, describe, tensor_array
from workbench.rust.library import PortError, load
from workbench.rust.manifest import load_manifest
from workbench.session import copy_port

SOFTMAX = get_operator("softmax")
KERNEL_RS = SOFTMAX.port_folder / "src" / "kernel.rs"


@pytest.fixture(scope="module")
def softmax_copy(tmp_path_factory):
    """softmax with its port copied out of the checkout, built once for this module."""
    op = copy_port(SOFTMAX, tmp_path_factory.mktemp("softmax") / "port")
    assert build(op).ok
    return op


@contextmanager
def edited(path: Path, old: str, new: str, prefix: str = ""):
    original = path.read_text()
    assert old in original
    path.write_text(prefix + original.replace(old, new, 1))
    try:
        yield
    finally:
        path.write_text(original)


def test_second_build_is_up_to_date():
    build(SOFTMAX)
    again = build(SOFTMAX)
    assert again.status == "up-to-date" and again.library.exists()


def test_cli_build(cli):
    result = cli("build", "softmax")
    assert result.returncode == 0, result.stderr
    assert "softmax: up-to-date" in result.stdout or "softmax: built" in result.stdout


def test_rust_ir_comes_from_the_same_printer():
    result = operator_rust_ir(SOFTMAX, 0)
    module = parse(result.text)
    names = [op.name for op in module.walk()]
    assert "reduce" in names and "store_view_tko" in names
    assert "padding_value = neg_inf" in result.text
    assert result.text.startswith("entry @softmax")


def test_rust_ops_resolve_to_the_port_statement_they_came_from():
    """The port's kernel is inlined into its entry wrapper (loc(callsite(#stmt at #entry))):
    each op links to its own statement, which is what the Rust pane highlights."""
    from workbench.ir.locations import resolve_locations
    module = parse(operator_rust_ir(SOFTMAX, 0).text)
    locations = resolve_locations(module)
    source = KERNEL_RS.read_text().splitlines()
    line_of = lambda name: {source[locations[o.loc].line - 1].strip().split("=")[-1].strip()[:12]
                            for o in module.walk() if o.name == name and o.loc in locations}
    assert line_of("reduce") == {"reduce_max(t", "reduce_sum(e"}
    assert line_of("exp") == {"exp(t - row_"}
    assert line_of("store_view_tko") == {"rows_out.sto"}


def test_emit_request_spells_out_the_specialization():
    request = emit_request(SOFTMAX, 2)
    assert "generics bf16 1024" in request
    assert "array x 0 2 37,777 777,1" in request


def test_edit_rebuild_and_reload_in_the_same_process(softmax_copy):
    before, _ = load(softmax_copy)
    old_ir = before.emit(emit_request(softmax_copy, 0))
    with edited(softmax_copy.port_folder / "src" / "kernel.rs", "padding::NegInf", "padding::PosInf"):
        after, result = load(softmax_copy)
        assert result.status == "built"
        assert after.path != before.path and after.build_id() != before.build_id()
        new_ir = after.emit(emit_request(softmax_copy, 0))
        # the old version is still loaded and still answers with the old program
        assert before.emit(emit_request(softmax_copy, 0)) == old_ir
    assert new_ir != old_ir
    restored, result = load(softmax_copy)
    assert result.status == "up-to-date" and restored.path == before.path


def test_failed_build_keeps_the_last_good_library(softmax_copy):
    good = build(softmax_copy).library
    kernel_rs = softmax_copy.port_folder / "src" / "kernel.rs"
    with edited(kernel_rs, "let e: Tile<f32", "let e: Tile<f32 oops"):
        result = build(softmax_copy)
    assert result.status == "failed"
    assert result.library == good == last_good(softmax_copy)
    errors = [d for d in result.diagnostics if d.level == "error"]
    # named where the user's file is: the copy's own kernel.rs, not one in kernels_src/
    assert errors and errors[0].file == display_path(kernel_rs)
    assert errors[0].line is not None
    assert re.search(r"kernel\.rs:\d+:\d+: error", result.summary())
    # the result reloads from its JSON, diagnostics and all
    assert BuildResult.from_json(json.loads(json.dumps(result.to_json()))) == result


def test_a_build_forgets_drafts_whose_folders_are_gone(softmax_copy, tmp_path):
    from workbench.rust.cargo import BUILD_DIR, build_folder
    from workbench.rust.prune import DRAFT_RECORD, record_draft
    from workbench.rust.toolchain import TARGET_DIR
    crate = f"port_gone_{uuid.uuid4().hex[:10]}"
    gone = BUILD_DIR / "external" / f"gone-{crate}"
    gone.mkdir(parents=True)
    record_draft(gone, tmp_path / "deleted" / "port", crate)
    leftover = TARGET_DIR / "release" / "deps" / f"lib{crate}-0000.so"
    leftover.write_text("what cargo left of a deleted draft")
    with edited(softmax_copy.port_folder / "src" / "kernel.rs", "fn", "fn",
                prefix=f"// a new version: {crate}\n"):
        assert build(softmax_copy).status == "built"
    assert not gone.exists() and not leftover.exists()
    record = json.loads((build_folder(softmax_copy) / DRAFT_RECORD).read_text())
    assert record["port_folder"] == str(softmax_copy.port_folder.resolve())


class FakeDeviceArray:
    def __init__(self, shape, typestr="<f4", strides=None):
        itemsize = int(typestr[2:])
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "data": (0x7F0000000000, False), "version": 3,
            "strides": tuple(s * itemsize for s in strides) if strides else None}


def test_descriptors_are_checked_before_any_launch():
    rules = load_manifest(SOFTMAX).tensors
    view = describe("x", FakeDeviceArray((4, 8)))
    check("x", view, rules["x"])
    (desc,) = tensor_array([view])
    assert (desc.ptr, desc.ndim, desc.dtype) == (0x7F0000000000, 2, 0)
    assert list(desc.shape) == [4, 8, 0, 0, 0, 0] and list(desc.strides) == [8, 1, 0, 0, 0, 0]
    with pytest.raises(ArgumentError, match="rank 1"):
        check("x", describe("x", FakeDeviceArray((32,))), rules["x"])
    with pytest.raises(ArgumentError, match="dtype f64"):
        check("x", describe("x", FakeDeviceArray((4, 8), "<f8")), rules["x"])
    with pytest.raises(ArgumentError, match="unit stride"):
        check("x", describe("x", FakeDeviceArray((4, 8), strides=(1, 4))), rules["x"])
    with pytest.raises(ArgumentError, match="not a device array"):
        describe("x", [1, 2, 3])


class FakeTorchDtype:
    def __str__(self):
        return "torch.float32"


class FakeTorchTensor:
    """What the launch path reads of a CUDA torch tensor (torch is not installed here)."""
    dtype, is_cuda = FakeTorchDtype(), True

    def __init__(self, shape, strides):
        self.shape, self._strides = shape, strides

    def data_ptr(self):
        return 0x7F0000000000

    def stride(self):
        return self._strides

    def get_device(self):
        return 0


def test_the_fast_path_packs_what_the_general_path_packs():
    from workbench.rust.ffi import CallPlan
    plan = CallPlan(SOFTMAX)
    good = {"x": FakeTorchTensor((4, 8), (8, 1)), "out": FakeTorchTensor((4, 8), (8, 1))}
    first = bytes(memoryview(plan.prepared(good, {"TILE_COLS": 1024})[0]))
    again = bytes(memoryview(plan.prepared(good, {"TILE_COLS": 1024})[0]))
    expected = bytes(memoryview(tensor_array([describe(n, good[n]) for n in ("x", "out")])))
    assert first == again == expected
    bad = dict(good, x=FakeTorchTensor((4, 8), (1, 4)))        # column-major: not taken as is
    with pytest.raises(ArgumentError, match="x: stride 4 in dim 1"):
        plan.prepared(bad, {"TILE_COLS": 1024})


def test_the_c_symbol_reports_errors_instead_of_crashing():
    import ctypes
    library, _ = load(SOFTMAX)
    tensors = tensor_array([describe("x", FakeDeviceArray((4, 8)))])
    consts = (ctypes.c_int64 * 1)(1024)
    with pytest.raises(PortError, match="softmax port .*launch failed"):
        library.call(tensors, 1, None, 0, consts, 1, 0)     # one tensor where two are needed
    assert "2 tensors" in library.last_error()


# -- a machine without cargo (the GPU host) ----------------------------------------------

def test_without_cargo_only_a_library_built_from_these_sources_is_loaded(monkeypatch, tmp_path,
                                                                      softmax_copy):
    """The bundle stands in for a port only while the port's sources are the ones it was
    built from; an edited port is a failed build that says what to do, and a check refuses
    to run the bundle in its place."""
    from workbench.rust import cargo
    from workbench.check.report import worker_request
    from workbench.errors import WorkbenchError
    built = build(SOFTMAX)
    bundle = tmp_path / "libwb_bundle.so"
    bundle.write_bytes(built.library.read_bytes())
    (tmp_path / "libwb_bundle.codes.json").write_text(json.dumps({"softmax": cargo.code_hash(SOFTMAX)}))
    monkeypatch.setenv("WORKBENCH_PREBUILT", str(bundle))
    monkeypatch.setattr(cargo, "BUILD_DIR", tmp_path / "carried")     # nothing carried but the bundle
    same = build(SOFTMAX)
    assert same.status == "prebuilt" and same.library == bundle
    (tmp_path / "libwb_bundle.codes.json").write_text(json.dumps({"softmax": "0" * 16}))
    stale = build(SOFTMAX)          # the bundle was built from other sources than these
    assert stale.status == "failed" and stale.library is None
    assert "no library built from these sources" in stale.summary()
    never_built = f"// {uuid.uuid4().hex}\n"
    with edited(softmax_copy.port_folder / "src" / "kernel.rs", "padding::NegInf", "padding::Zero",
                prefix=never_built):
        edited_build = build(softmax_copy)
        assert edited_build.status == "failed" and edited_build.library is None
        assert "no library built from these sources" in edited_build.summary()
        with pytest.raises(WorkbenchError, match="no cargo on this machine"):
            worker_request(softmax_copy, [0], ["python", "rust"], 0)


def test_without_cargo_a_carried_build_of_a_copied_port_is_found(monkeypatch, tmp_path):
    """A port copied inside the checkout (notebook 03's) built on a machine with cargo is
    found by its code hash on one without, though the copy's Cargo.toml differs."""
    import shutil
    from workbench.catalog import REPO_ROOT
    from workbench.rust.cargo import code_hash, crate_name, folder_tag
    from workbench.rust.toolchain import TARGET_DIR
    work = REPO_ROOT / "runs" / f"test-prebuilt-{uuid.uuid4().hex[:8]}" / "port"
    try:
        op = copy_port(SOFTMAX, work)
        catalog_output = TARGET_DIR / "release" / "libport_softmax.so"
        before = catalog_output.stat().st_mtime_ns if catalog_output.exists() else None
        built = build(op)
        assert built.ok, built.summary()
        # the copy is a package of its own: it never overwrites the catalog port's output
        assert crate_name(op) == f"port_softmax_{folder_tag(work)}"
        assert (catalog_output.stat().st_mtime_ns if catalog_output.exists() else None) == before
        monkeypatch.setenv("WORKBENCH_PREBUILT", str(tmp_path / "no-bundle.so"))
        (work / "Cargo.toml").write_text((work / "Cargo.toml").read_text() + "\n# moved\n")
        found = build(op)
        assert found.status == "prebuilt" and found.library == built.library
        assert found.build_id == code_hash(op)
    finally:
        shutil.rmtree(work.parent)


def test_a_library_with_a_jit_cache_keeps_its_kernels_where_workbench_jit_cache_says(
        tmp_path, monkeypatch):
    """The GPU machine's bundle offers wb_jit_cache_enable; a stand-in library records the
    folder it is handed. Without the variable, or without the symbol, nothing is called."""
    import ctypes
    import shutil
    import subprocess
    from workbench.rust import library
    if not shutil.which("gcc"):
        pytest.skip("no gcc to build the stand-in library")
    record = tmp_path / "asked"
    (tmp_path / "s.c").write_text(
        '#include <stdio.h>\nint wb_jit_cache_enable(const char *dir) {\n'
        f'  FILE *f = fopen("{record}", "a"); fprintf(f, "%s\\n", dir); fclose(f);\n'
        '  return 0;\n}\n')
    stand_in = tmp_path / "libstandin.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(stand_in), str(tmp_path / "s.c")],
                   check=True, timeout=60)
    monkeypatch.setattr(library, "_CACHED", set())
    monkeypatch.delenv("WORKBENCH_JIT_CACHE", raising=False)
    library._enable_jit_cache(ctypes.CDLL(str(stand_in)), stand_in)
    assert not record.exists()
    folder = tmp_path / "cache" / "cutile-rs"
    monkeypatch.setenv("WORKBENCH_JIT_CACHE", str(folder))
    for _ in range(2):                               # once per library file
        library._enable_jit_cache(ctypes.CDLL(str(stand_in)), stand_in)
    assert record.read_text().splitlines() == [str(folder)] and folder.is_dir()
    libc = ctypes.CDLL(None)                         # no such symbol: left alone
    library._enable_jit_cache(libc, tmp_path / "libc")
    assert record.read_text().splitlines() == [str(folder)]
