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


def test_a_program_id_over_two_flattened_dimensions_fails_against_triton(cli, tmp_path):
    """The rope mistake: q[2, 64, 4, 32] launched over 2 * 64 programs; the translation reads
    (0, pid, 0, 0), so the second batch is out of the view. The IR diff cannot see it (both
    sides come from one translation); the run against Triton does."""
    result = cli("port", ROPE, *rope_args(2), *CONSTS, "--grid", "128",
                 "--out", str(tmp_path / "port"), timeout=900)
    assert "ir_diff        #1 PASS" in result.stdout, result.stdout + result.stderr
    assert "gpu_check      #1 FAIL             on the CPU" in result.stdout, result.stdout
    assert "final verdict: FAIL" in result.stdout and result.returncode == 1


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


def test_the_check_reports_the_derived_kernel_and_the_port_against_triton(tmp_path):
    from workbench.check.triton_cpu import check_translation_on_cpu
    from workbench.port.triton_stages import translate_target
    from workbench.resolve import resolve_target
    args = ["f32[2,64,4,32]", "f32[64,16]", "f32[64,16]", "f32[2,64,4,32]", "i32=64"]
    op = resolve_target(ROPE, args, ["heads=4", "half=16", "HEAD_DIM=32"], grid="128")
    _, derived, _, _ = translate_target(op.triton, tmp_path / "port")
    response = check_translation_on_cpu(op.triton, derived)       # no port built: rust skipped
    (result,) = response.results
    assert result["sides"]["triton"]["ok"]
    assert not result["sides"]["derived"]["ok"]
    assert "tile index (0, 64, 0, 0) is outside the view's index space" in \
        result["sides"]["derived"]["reason"]
    assert result["sides"]["rust"] == {"skipped": True, "reason": "no port"}


@pytest.mark.parametrize("grid, fragment", [("0", "not 1 to 3 positive integers"),
                                            ("1,2,3,4", "not 1 to 3 positive integers")])
def test_a_bad_grid_is_one_clear_message(cli, grid, fragment):
    result = cli("ir", ROPE, *rope_args(1), *CONSTS, "--grid", grid)
    assert result.returncode == 2 and fragment in result.stderr
    assert "Traceback" not in result.stderr
