"""Check maths and the worker protocol, on this CPU machine (numpy stands in for GPU arrays)."""
import json
import math

import numpy as np
import pytest

from workbench.check.compare import compare, geomean
from workbench.check.runner import has_cuda_driver, parse_worker_output


def test_exact_and_close_outputs_pass():
    ref = np.linspace(-3, 3, 1000)
    assert compare(ref.copy(), ref, 1e-6).ok
    noisy = ref * (1 + 1e-7)
    result = compare(noisy, ref, 1e-6)
    assert result.ok and 0 < result.rel_error < 1e-6


def test_error_over_tolerance_fails_with_its_size():
    ref = np.ones(100)
    result = compare(ref * 1.01, ref, 1e-3)
    assert not result.ok
    assert math.isclose(result.rel_error, 0.01, rel_tol=1e-9)
    assert "relative error" in result.reason


def test_nan_never_passes_and_partial_writes_are_counted():
    ref = np.arange(1.0, 11.0)
    out = ref.copy()
    out[3:5] = np.nan                                  # poison left in place: never written
    result = compare(out, ref, 1.0)                    # even with a huge tolerance
    assert not result.ok and result.unwritten == 2
    assert "never written" in result.reason


def test_infinities_must_match_the_reference():
    ref = np.array([1.0, np.inf, -np.inf, 2.0])
    assert compare(ref.copy(), ref, 1e-6).ok
    wrong_sign = np.array([1.0, -np.inf, -np.inf, 2.0])
    assert not compare(wrong_sign, ref, 1e-6).ok
    spurious = np.array([1.0, np.inf, -np.inf, np.inf])
    assert not compare(spurious, ref, 1e-6).ok


def test_empty_and_mismatched_shapes():
    assert compare(np.zeros((0, 4)), np.zeros((0, 4)), 1e-6).ok
    result = compare(np.zeros((2, 3)), np.zeros((3, 2)), 1e-6)
    assert not result.ok and "shape" in result.reason


def test_zero_reference_uses_the_absolute_error():
    assert compare(np.zeros(4), np.zeros(4), 1e-6).ok
    assert not compare(np.full(4, 1e-3), np.zeros(4), 1e-6).ok


def test_geomean():
    assert math.isclose(geomean([0.5, 2.0]), 1.0)
    assert geomean([]) is None


def _reply(status="ok", ok=True, cross_ok=True):
    return json.dumps({"status": status, "reason": "", "device": {"name": "X"}, "results": [
        {"case": 0, "label": "c0", "sides": {"python": {"ok": True}, "rust": {"ok": ok}},
         "cross": {"ok": cross_ok}}]})


def test_worker_protocol_pass_fail_and_crash():
    assert parse_worker_output(0, _reply(), "").status == "ok"
    assert parse_worker_output(0, _reply(ok=False), "").status == "fail"
    assert parse_worker_output(0, _reply(cross_ok=False), "").status == "fail"
    crashed = parse_worker_output(-6, "", "CUDA error: an illegal memory access was encountered")
    assert crashed.status == "fail" and "illegal memory access" in crashed.reason
    assert "signal 6" in crashed.reason
    silent = parse_worker_output(1, "", "")
    assert silent.status == "fail" and "no output" in silent.reason
    skipped = parse_worker_output(0, json.dumps({"status": "skipped", "reason": "no CUDA device"}), "")
    assert skipped.status == "skipped"


def test_a_check_response_reloads_from_its_json():
    from workbench.check.runner import CheckResponse
    response = parse_worker_output(0, _reply(ok=False), "")
    saved = json.loads(json.dumps(response.to_json()))
    assert CheckResponse.from_json(saved) == response and response.status == "fail"


@pytest.mark.skipif(has_cuda_driver(), reason="this test is for machines without a GPU")
def test_no_gpu_check_is_skipped_with_exit_code_3(cli):
    result = cli("check", "softmax")
    assert result.returncode == 3
    assert "skipped: no CUDA device" in result.stdout
    result = cli("bench", "softmax")
    assert result.returncode == 3 and "skipped: no CUDA device" in result.stdout


def test_attention_references_over_query_blocks_equal_one_block():
    """A long sequence's reference runs in blocks of queries; each block sees its own query
    positions (`first`), so the joined result is the one-block result."""
    import numpy as np
    from workbench.refmath import over_query_blocks

    class NumpyCat:
        @staticmethod
        def cat(parts, dim):
            return np.concatenate(parts, axis=dim)
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 3, 37, 4)), rng.standard_normal((2, 3, 50, 4))

    def attend(block, first):        # causal scores up to each query's own position
        pos = np.arange(block.shape[2])[:, None] + first
        logits = np.einsum("bhqd,bhkd->bhqk", block, k)
        return np.where(np.arange(50)[None, :] > pos, 0.0, logits).sum(-1, keepdims=True)
    whole = over_query_blocks(attend, q, 50, NumpyCat)
    blocked = over_query_blocks(attend, q, 50, NumpyCat, budget_bytes=2 * 3 * 50 * 8 * 5)
    assert np.allclose(whole, blocked) and blocked.shape == (2, 3, 37, 1)
