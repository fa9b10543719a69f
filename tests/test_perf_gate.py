"""The perf gate (workbench/check/perf.py, the pipeline's perf stage): the verdict over the
cases' times, a gate the user sets, and SKIPPED with its reason whenever nothing was timed.
Times here are given, not measured: what is asserted is the verdict a user reads for them."""
import pytest

from workbench.catalog import load_catalog
from workbench.port import stages
from workbench.check.perf import CaseTime, judge, perf_gate
from workbench.errors import WorkbenchError
from workbench.port.artifacts import Artifact, read_artifacts, validate
from workbench.port.stages import RunContext, stage_perf


def times(*pairs):
    return [CaseTime(i, f"case{i}", ref, rust, "cupti") for i, (ref, rust) in enumerate(pairs)]


def test_the_geomean_of_rust_over_reference_meets_the_gate():
    passed = judge(times((10.0, 10.2), (20.0, 19.0)), 1.05)
    assert passed.verdict == "PERF_PASS"
    assert passed.geomean_ratio == pytest.approx(((10.2 / 10) * (19 / 20)) ** 0.5)
    assert "geomean_ratio=0.984" in passed.summary and "slowest: case 0 at 1.020" in passed.summary
    failed = judge(times((10.0, 10.2), (20.0, 26.0)), 1.05)
    assert failed.verdict == "PERF_FAIL" and "slowest: case 1 at 1.300" in failed.summary
    assert [round(c["ratio"], 2) for c in failed.to_json()["cases"]] == [1.02, 1.3]


def test_a_case_without_a_time_is_skipped_never_passed():
    cases = times((10.0, 10.0)) + [CaseTime(1, "case1", 5.0, None, "events", "RuntimeError: x")]
    result = judge(cases, 1.05)
    assert result.verdict == "SKIPPED" and "case 1 has no time: RuntimeError: x" in result.summary
    assert judge([], 1.05).verdict == "SKIPPED"


def test_the_gate_is_a_setting(monkeypatch):
    monkeypatch.delenv("WORKBENCH_PERF_GATE", raising=False)
    assert perf_gate() == 1.05
    monkeypatch.setenv("WORKBENCH_PERF_GATE", "1.2")
    assert perf_gate() == 1.2
    assert judge(times((10.0, 11.5)), perf_gate()).verdict == "PERF_PASS"
    monkeypatch.setenv("WORKBENCH_PERF_GATE", "fast")
    with pytest.raises(WorkbenchError, match="WORKBENCH_PERF_GATE='fast' is not a ratio"):
        perf_gate()


def context(tmp_path, check: Artifact) -> RunContext:
    ctx = RunContext(load_catalog()["softmax"], tmp_path / "run", tmp_path / "port", drafter=None)
    ctx.folder.mkdir(parents=True)
    ctx.record(check)
    return ctx


def test_the_stage_times_only_a_port_whose_check_passed(tmp_path, monkeypatch):
    asked = []
    monkeypatch.setattr(stages, "time_port", lambda op, triton: asked.append(op.name) or
                        ("ok", times((10.0, 12.0))))
    failed = Artifact("gpu_check", "FAIL", "case 0 failed", {"reason": "", "results": []})
    artifact = stage_perf(context(tmp_path / "a", failed))
    assert artifact.verdict == "SKIPPED" and "the time of a wrong port says nothing" in \
        artifact.summary and asked == []
    passed = Artifact("gpu_check", "PASS", "ok", {"reason": "", "results": []})
    artifact = stage_perf(context(tmp_path / "b", passed))
    assert (artifact.verdict, asked) == ("PERF_FAIL", ["softmax"])
    assert artifact.data["geomean_ratio"] == pytest.approx(1.2)
    validate(artifact.to_json())
    # a failed gate is investigated on its slowest case: the evidence and who owns it
    found = read_artifacts(tmp_path / "b" / "run")[-1]
    assert found.stage == "perf_investigation", found
    validate(found.to_json())
    assert found.data["case"] == 0 and found.summary.startswith("1.20x the reference's time")
    assert found.data["owner"] in ("compiler", "undetermined")      # softmax's own port
    assert any(line.startswith("port launch: @softmax_entry grid (256, 1, 1)")
               for line in found.data["evidence"]), found.data["evidence"]


def test_nothing_timed_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(stages, "time_port", lambda op, triton: ("no CUDA device", []))
    passed = Artifact("gpu_check", "PASS", "ok", {"reason": "", "results": []})
    artifact = stage_perf(context(tmp_path, passed))
    assert (artifact.verdict, artifact.summary) == ("SKIPPED", "no CUDA device")
