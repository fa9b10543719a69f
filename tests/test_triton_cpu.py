"""A Triton port is PASS only once it ran against the Triton kernel itself: with no GPU, Triton's
interpreter (TRITON_INTERPRET=1) against the Tile IR interpreter on the same inputs and grid
(workbench/check/triton_cpu.py); never run, the verdict is UNVERIFIED_TRANSLATION."""
import pytest

pytest.importorskip("triton")
pytest.importorskip("torch")

ROPE = "tests/fixtures/triton_rope4d.py:rope_rows"
CONSTS = ["--const", "heads=4", "--const", "half=16", "--const", "HEAD_DIM=32"]


def rope_args(batch: int) -> list[str]:
    q = f"f32[{batch},64,4,32]"
    args = [q, "f32[64,16]", "f32[64,16]", q, "i32=64"]
    return [x for a in args for x in ("--arg", a)]


@pytest.fixture(scope="module")
def rope_port(tmp_path_factory):
    """The rope kernel ported as a user does, once for this file: (folder, CLI result)."""
    from conftest import run_cli
    folder = tmp_path_factory.mktemp("rope")
    result = run_cli("port", ROPE, *rope_args(2), *CONSTS, "--grid", "128",
                     "--out", str(folder / "port"), timeout=900)
    return folder, result


def test_a_program_id_over_two_flattened_dimensions_is_translated_and_passes_against_triton(
        rope_port):
    """The rope form: q[2, 64, 4, 32] launched over 2 * 64 programs, q + pid * stride_s with the
    batch folded in. The index is split over the two dimensions (pid // S, pid % S), so the
    second batch is read and written, and the run against Triton passes."""
    folder, result = rope_port
    # PASS_WITH_NOTES: the port states stronger divisibility than the JIT assumed (hints)
    assert "ir_diff        #1 PASS_WITH_NOTES" in result.stdout, result.stdout + result.stderr
    assert "gpu_check      #1 PASS             on the CPU" in result.stdout, result.stdout
    assert "final verdict: PASS_WITH_NOTES" in result.stdout and result.returncode == 0
    derived = (folder / "derived" / "rope_rows.py").read_text()
    assert "index=((pid // q_ptr.shape[1]), (pid % q_ptr.shape[1]), 0, 0)" in derived, derived


def test_the_widget_on_a_triton_source_diffs_the_derived_kernel_and_checks_against_triton(
        rope_port, monkeypatch):
    """`%port FILE.py:KERNEL` on a Triton file opens the widget (it stopped at "no @ct.kernel"):
    the JIT -> AOT view and the diff are of the derived cuTile kernel, and Check, with no GPU,
    runs the port against the Triton kernel in Triton's interpreter."""
    from workbench.magics import _args, open_target
    from workbench.session import PortSession
    from workbench.ui.widget import PortWidget
    import workbench.session as session_module
    monkeypatch.setattr(session_module, "has_cuda_driver", lambda: False)
    folder, result = rope_port
    target = " ".join([ROPE, *rope_args(2), *CONSTS, "--grid", "128", "--out", str(folder / "port")])
    session = PortSession(open_target(_args("%port", target)))
    widget = PortWidget(session)
    assert widget.python_file.endswith("triton_rope4d.py")          # the Triton kernel itself
    (row,) = widget.specializations
    assert row["symbol"].startswith("rope_rows") and "f32[2,64,4,32]" in row["call"]
    (line,) = [l for l in result.stdout.splitlines() if l.strip().startswith("ir_diff")]
    assert widget.verdict == line.split()[2] == "PASS_WITH_NOTES"     # the pipeline's verdict
    response = session.check()
    assert response.status == "ok", response
    assert "TRITON_INTERPRET=1" in response.device["name"]
    # Bench times the port against the Triton kernel, which needs a GPU: it says so
    bench = session.bench()
    assert bench == {"status": "skipped", "reason": "no CUDA device (the bench times the port "
                                                    "against the Triton kernel on a GPU)"}


def test_a_triton_bench_is_reported_with_the_triton_kernel_as_the_reference():
    from workbench.check.report import format_bench, triton_bench_report
    from workbench.check.runner import CheckResponse
    from workbench.ui.results import bench_result
    timed = {"ok": True, "median_us": 12.0}
    response = CheckResponse("ok", results=[
        {"case": 0, "label": "case 0", "sides": {"triton": {**timed, "cupti_us": 10.0},
                                                  "rust": {**timed, "cupti_us": 8.0}}},
        {"case": 1, "label": "case 1", "sides": {"triton": {**timed, "cupti_us": 9.0},
                                                  "rust": {"ok": False, "reason": "fault"}}}],
        device={"name": "H200"})
    report = triton_bench_report(response, "rope")
    assert [(r["index"], r["parity"], r["clock"]) for r in report["rows"]] == \
        [(0, 1.25, "cupti"), (1, None, "")]
    assert "parity geomean rope: 1.250" in format_bench(report)
    assert report["status"] == "fail" and report["parity_overall"] == 1.25
    shown = bench_result(report)
    assert shown["tables"][0]["columns"][1] == "Triton kernel (\u00b5s)"
    assert shown["tables"][0]["rows"][1] == ["case 1", "9.00", "FAIL", ""]
    failed = triton_bench_report(CheckResponse("error", "the worker died"))
    assert bench_result(failed)["tables"][0]["rows"] == [["the Triton bench", "", "",
                                                          "error: the worker died"]]
    assert "the Triton bench" in format_bench(failed) and "ERROR the worker died" in \
        format_bench(failed)


def test_the_old_rope_mistake_planted_in_the_derived_kernel_still_fails(tmp_path):
    """The mistake as it was translated before: (0, pid, 0, 0), planted by hand. The IR diff
    cannot see it (both sides come from one translation); the run against Triton does."""
    from workbench.check.triton_cpu import check_translation_on_cpu
    from workbench.port.triton_stages import translate_target
    from workbench.resolve import resolve_target
    args = ["f32[2,64,4,32]", "f32[64,16]", "f32[64,16]", "f32[2,64,4,32]", "i32=64"]
    op = resolve_target(ROPE, args, ["heads=4", "half=16", "HEAD_DIM=32"], grid="128")
    _, derived, _, _ = translate_target(op.triton, tmp_path / "port")
    path = tmp_path / "derived" / "rope_rows.py"
    text = path.read_text()
    for p in ("q_ptr", "out_ptr"):
        assert f"(pid // {p}.shape[1]), (pid % {p}.shape[1])" in text, text
        text = text.replace(f"(pid // {p}.shape[1]), (pid % {p}.shape[1])", "0, pid")
    path.write_text(text)
    response = check_translation_on_cpu(op.triton, derived)       # no port built: rust skipped
    (result,) = response.results
    assert result["sides"]["triton"]["ok"]
    assert not result["sides"]["derived"]["ok"]
    # the second batch's tiles lie outside the view: they load padding and store nothing,
    # as on the GPU, so half the output is not the rotated input
    assert "out_ptr: relative error" in result["sides"]["derived"]["reason"]
    assert result["sides"]["rust"] == {"skipped": True, "reason": "no port"}


FLAT = "tests/fixtures/triton_flat_rows.py"


@pytest.mark.parametrize("kernel, args, grid, index", [
    ("double_rows", ["f32[3,8,32]", "f32[3,8,32]", "i32=32"], (24, 1, 1),
     "index=((pid // x_ptr.shape[1]), (pid % x_ptr.shape[1]), 0)"),
    # a 2-D grid whose second axis is T, and an index taken % T: inside their dimension
    ("double_rows_2d_grid", ["f32[3,8,32]", "f32[3,8,32]", "i32=256", "i32=32"], (3, 8, 1),
     "index=(b, t, 0)"),
    ("double_rows_split", ["f32[3,8,32]", "f32[3,8,32]", "i32=256", "i32=32", "i32=8"],
     (24, 1, 1), "index=(b, t, 0)"),
    # a column read from memory (an int64 label): Triton's flat pointer, split the same way
    ("pick_label", ["f32[6,40]", "i64[6]", "f32[6]", "i32=40"], (6, 1, 1),
     "index=(row + (ct.astype(y, ct.int32) // x_ptr.shape[1]), "
     "(ct.astype(y, ct.int32) % x_ptr.shape[1]))"),
    # element indices over every row (a tile, `offs // D`) split the same way; the column
    # (`offs % D`, D the last extent) stays in its dimension
    ("flat_elementwise", ["f32[3,8,32]", "f32[3,8,32]", "i32=32", "i32=768"], (12, 1, 1),
     "(((row) // x_ptr.shape[1]), ((row) % x_ptr.shape[1]), col)"),
])
def test_an_index_past_its_dimension_is_split_over_the_contiguous_outer_one(
        tmp_path, kernel, args, grid, index):
    from workbench.check.triton_cpu import check_translation_on_cpu
    from workbench.port.triton_stages import translate_target
    from workbench.translate.targets import triton_target
    consts = {"pick_label": [], "flat_elementwise": ["D=32", "B=64"]}.get(kernel, ["D=32"])
    target = triton_target(f"{FLAT}:{kernel}", args, consts, grid=grid)
    result, derived, _, _ = translate_target(target, tmp_path / "port")
    assert result.ok, result.translation.diagnostics
    assert index in result.text, result.text
    (case,) = check_translation_on_cpu(target, derived).results
    assert case["sides"]["triton"]["ok"] and case["sides"]["derived"]["ok"], case["sides"]


def test_the_same_kernel_on_one_batch_is_checked_and_passes(cli, tmp_path):
    result = cli("port", ROPE, *rope_args(1), *CONSTS, "--grid", "64",
                 "--out", str(tmp_path / "port"), timeout=900)
    assert ("gpu_check      #1 PASS             on the CPU (no CUDA device): Triton's "
            "interpreter against the Tile IR interpreter: ok, 1 of 1 cases ran") in result.stdout, \
        result.stdout + result.stderr
    assert "final verdict: PASS" in result.stdout and result.returncode == 0


def test_a_translation_never_run_against_triton_is_unverified(cli, tmp_path):
    result = cli("port", ROPE, *rope_args(1), *CONSTS, "--out", str(tmp_path / "port"),
                 timeout=900)
    assert "no launch grid is known for case 0" in result.stdout, result.stdout
    assert "final verdict: UNVERIFIED_TRANSLATION" in result.stdout
    assert result.returncode == 3


@pytest.mark.parametrize("grid, fragment", [("0", "not 1 to 3 positive integers"),
                                            ("1,2,3,4", "not 1 to 3 positive integers")])
def test_a_bad_grid_is_one_clear_message(cli, grid, fragment):
    result = cli("ir", ROPE, *rope_args(1), *CONSTS, "--grid", grid)
    assert result.returncode == 2 and fragment in result.stderr
    assert "Traceback" not in result.stderr
