"""The drafting pipeline with the offline drafter: stages, artifacts, resume, run folders."""
import json
import re

import pytest

from workbench.catalog import get_operator
from workbench.check.runner import has_cuda_driver
from workbench.errors import WorkbenchError
from workbench.port import pipeline
from workbench.port.artifacts import Artifact, read_artifacts, validate, write_artifact

from conftest import FIXTURES


@pytest.fixture
def runs(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "RUNS_DIR", tmp_path / "runs")
    return tmp_path


def test_rules_draft_of_softmax_passes_and_resumes(runs, cli):
    out = runs / "draft" / "softmax" / "port"
    started = []                    # what the widget's status line shows as a draft runs
    result = pipeline.run_pipeline("softmax", "rules", out=out,
                                   progress=lambda *stage: started.append(stage))
    assert result.verdict in ("PASS", "PASS_WITH_NOTES"), result.summary()
    assert (out / "src" / "kernel.rs").exists() and (out / "port.toml").exists()
    stages = [a.stage for a in read_artifacts(result.folder)]
    assert stages == ["analyze", "write_kernel", "write_host", "build", "ir_diff", "gpu_check",
                      "perf", "final"]
    assert started == [(stage, n, 7) for n, stage in enumerate(stages[:-1], 1)]
    if not has_cuda_driver():           # no GPU: the gate says why it timed nothing
        perf = next(a for a in read_artifacts(result.folder) if a.stage == "perf")
        assert perf.verdict == "SKIPPED" and "no CUDA device" in perf.summary
    # resume from the IR diff: the earlier artifacts stay, the diff runs again
    again = pipeline.run_pipeline("softmax", "rules", out=out, resume=result.folder,
                                  resume_from="ir_diff")
    artifacts = read_artifacts(again.folder)
    assert [a.stage for a in artifacts].count("ir_diff") == 2
    assert next(a for a in reversed(artifacts) if a.stage == "ir_diff").attempt == 2
    shown = cli("runs", "show", str(result.folder))
    assert shown.returncode == 0 and "write_kernel" in shown.stdout and "DRAFTED" in shown.stdout


def test_unsupported_construct_ends_the_run_with_a_named_line(runs, cli):
    result = cli("port", f"{FIXTURES}/drafter/scan_rows.py:scan_rows", "--arg", "f32[64,128]",
                 "--arg", "f32[64,128]", "--const", "TILE_COLS=128", "--out", str(runs / "scan" / "port"))
    assert result.returncode == 1
    assert "UNSUPPORTED" in result.stdout and "line " in result.stdout
    # what stopped it, as file:line: construct: message, the way a compiler says it
    stopped = result.stdout.split("write_kernel stopped the run:\n", 1)[1].splitlines()
    assert any(re.match(r"  \S*scan_rows\.py:10: ct\.scan: ", line) for line in stopped), stopped
    assert not any("prefix" in line for line in stopped)      # no follow-on error


def test_artifacts_are_validated_on_write_and_read(tmp_path):
    with pytest.raises(WorkbenchError, match="verdict 'MAYBE'"):
        write_artifact(tmp_path, 1, Artifact("build", "MAYBE", "x", {"library": None, "diagnostics": []}))
    path = write_artifact(tmp_path, 1, Artifact("build", "BUILT", "ok", {"library": "l.so", "diagnostics": []}))
    raw = json.loads(path.read_text())
    assert raw["schema"] == "workbench.stage.build/1"
    raw.pop("diagnostics")
    path.write_text(json.dumps(raw))
    with pytest.raises(WorkbenchError, match="diagnostics"):
        read_artifacts(tmp_path)
    with pytest.raises(WorkbenchError, match="unknown stage"):
        validate({"stage": "teleport"})


def test_a_folder_that_holds_files_is_not_drafted_over_without_force(cli, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my notes\n")
    result = cli("port", "softmax", "--out", str(out))
    assert result.returncode == 2
    assert "already holds files that are not a port: notes.txt" in result.stderr
    assert "--force" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]     # nothing written
