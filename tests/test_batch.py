"""workbench batch: the engine path (a real dask local cluster), a worker killed mid-batch,
resume, Ctrl-C, an unreachable cluster and a GPU step with no GPU.

Most tests give the real plan (catalog operators, their real input hashes) cheap stage bodies
from tests/batch_tasks.py, so they run in seconds on two cores; one runs the real port stage.
"""
from __future__ import annotations

import dataclasses
import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

import batch_tasks
from workbench.engine import EngineOptions, map_on_engine
from workbench.batch.plan import make_plan
from workbench.batch.report import format_table, to_json
from workbench.batch.run import BatchInterrupted, run_batch
from workbench.batch.store import Store

KERNELS = ["softmax", "rms_norm", "layer_norm", "silu_and_mul", "matmul"]


def cheap_plan(root: Path, fn=batch_tasks.quick_stage, stages=("port", "sass")):
    """The real plan of five catalog operators, every task's body swapped for a cheap one."""
    plan = make_plan(KERNELS, stages, root, gpu=False)
    plan.tasks = [dataclasses.replace(t, fn=fn) for t in plan.tasks]
    return plan


def kill_when_started(root: Path, slug: str, killed: list) -> threading.Thread:
    def watch():
        deadline = time.time() + 120
        while time.time() < deadline:
            markers = list((root / "started").glob(f"{slug}.*"))
            if markers:
                time.sleep(0.3)          # well inside the task
                pid = int(markers[0].name.split(".")[1])
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.05)
    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_a_worker_killed_mid_batch_has_its_task_retried_and_nothing_is_lost(tmp_path):
    (tmp_path / "victim").write_text("layer_norm")
    killed: list[int] = []
    watcher = kill_when_started(tmp_path, "layer_norm", killed)
    plan = cheap_plan(tmp_path)
    outcome = run_batch(plan, Store(tmp_path), EngineOptions(jobs=2))
    watcher.join(timeout=5)
    assert killed, "the test never saw the task start"
    assert len(outcome.results) == len(plan.tasks) == 10
    assert all(r.verdict == "PASS" for r in outcome.results.values())
    victim = outcome.results["layer_norm/port"]
    assert victim.attempts == 2 and victim.data["tries_seen"] == 2
    assert str(killed[0]) not in victim.worker              # finished by the restarted worker
    assert {r.attempts for k, r in outcome.results.items() if k != "layer_norm/port"} == {1}, [(k, r.attempts, r.data.get("tries_seen")) for k, r in outcome.results.items() if r.attempts > 1]
    for task in plan.tasks:                                  # each one on disk
        stored = json.loads((tmp_path / "results" / task.slug / f"{task.stage}.json").read_text())
        assert stored["verdict"] == "PASS" and stored["inputs"] == task.inputs
    assert "port x2" in format_table(outcome)


def test_a_task_whose_worker_always_dies_is_failed_with_the_reason(tmp_path):
    plan = cheap_plan(tmp_path, stages=("port", "sass"))
    dies = [t.key for t in plan.tasks if t.slug == "matmul"]
    plan.tasks = [dataclasses.replace(t, fn=batch_tasks.always_dies) if t.key in dies else t
                  for t in plan.tasks]
    outcome = run_batch(plan, Store(tmp_path), EngineOptions(jobs=2, allowed_failures=1))
    lost = outcome.results["matmul/port"]
    assert lost.verdict == "LOST" and lost.attempts == 2
    assert "its worker died 2 times running it" in lost.summary
    assert outcome.blocked == {"matmul/sass": "port: LOST"}
    assert all(r.verdict == "PASS" for k, r in outcome.results.items() if k not in dies)


def test_a_second_run_does_no_work_and_says_so(tmp_path, monkeypatch):
    first = run_batch(cheap_plan(tmp_path), Store(tmp_path), EngineOptions(jobs=1))
    assert first.ran == 10 and first.reused == 0

    def no_engine(*args, **kwargs):
        raise AssertionError("a batch with nothing to do started an engine")
    monkeypatch.setattr("workbench.batch.run.open_engine", no_engine)
    again = run_batch(cheap_plan(tmp_path), Store(tmp_path), EngineOptions(jobs=1))
    assert again.ran == 0 and again.reused == 10
    assert "nothing to do: 10 tasks unchanged since the last run" in format_table(again)
    assert to_json(again, tmp_path)["ran"] == 0


def test_only_the_tasks_whose_inputs_changed_run_again(tmp_path):
    run_batch(cheap_plan(tmp_path), Store(tmp_path), EngineOptions(jobs=1))
    plan = cheap_plan(tmp_path)
    plan.tasks = [dataclasses.replace(t, inputs="edited") if t.slug == "softmax" else t
                  for t in plan.tasks]
    outcome = run_batch(plan, Store(tmp_path), EngineOptions(jobs=1))
    assert outcome.ran == 2 and outcome.reused == 8
    assert {k for k, r in outcome.results.items() if not r.cached} == {"softmax/port",
                                                                     "softmax/sass"}


def test_ctrl_c_keeps_what_finished_and_the_next_run_resumes(tmp_path):
    seen = []

    def interrupt_after_three(outcome, result):
        if result is not None:
            seen.append(result.kernel)
            if len(seen) == 3:
                raise KeyboardInterrupt
    with pytest.raises(BatchInterrupted) as stop:
        run_batch(cheap_plan(tmp_path), Store(tmp_path), EngineOptions(jobs=1),
                  progress=interrupt_after_three)
    kept = len(stop.value.outcome.results)
    assert kept == 3
    assert len(list((tmp_path / "results").rglob("*.json"))) == 3
    outcome = run_batch(cheap_plan(tmp_path), Store(tmp_path), EngineOptions(jobs=1))
    assert outcome.reused == 3 and outcome.ran == 7


def test_the_real_port_stage_then_a_rerun_that_does_nothing(cli, tmp_path):
    args = ("batch", "softmax", "rms_norm", "--stages", "port", "--no-gpu", "--out",
            str(tmp_path))
    first = cli(*args, "--json", timeout=600)
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["ran"] == 2 and [k["name"] for k in report["kernels"]] == ["softmax",
                                                                             "rms_norm"]
    for kernel in report["kernels"]:
        port = kernel["stages"]["port"]
        assert port["verdict"] in ("PASS", "PASS_WITH_NOTES"), port
        assert (Path(port["run"]) / "02-ir_diff.json").exists()
    again = cli(*args, timeout=120)
    assert again.returncode == 0, again.stderr
    assert "nothing to do: 2 tasks unchanged since the last run" in again.stdout
    assert (tmp_path / "report.html").exists() and (tmp_path / "parity.svg").exists()


def test_an_unreachable_cluster_is_one_line_and_exit_2(cli, tmp_path):
    result = cli("batch", "softmax", "--cluster", "tcp://127.0.0.1:1", "--connect-timeout",
                 "1", "--out", str(tmp_path), timeout=60)
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "cannot reach the dask scheduler at tcp://127.0.0.1:1" in errors[0]
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(__import__("workbench.check.runner", fromlist=["x"]).has_cuda_driver(),
                    reason="this machine has a GPU")
def test_gpu_steps_on_a_machine_without_a_gpu_are_exit_2(cli, tmp_path):
    result = cli("batch", "softmax", "--gpu", "--out", str(tmp_path), timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("error: --gpu: this machine has no GPU")


@pytest.mark.skipif(__import__("workbench.check.runner", fromlist=["x"]).has_cuda_driver(),
                    reason="this machine has a GPU")
def test_a_gpu_worker_on_a_node_without_a_gpu_is_exit_2(cli, tmp_path):
    from dask.distributed import LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=1, resources={"GPU": 1, "CPU": 1},
                      dashboard_address=":0", host="127.0.0.1") as cluster:
        result = cli("batch", "softmax", "--stages", "check", "--cluster",
                     cluster.scheduler_address, "--out", str(tmp_path), timeout=120)
    assert result.returncode == 2, result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "offers GPU=1 but has no GPU" in errors[0]


def test_a_cluster_without_gpu_workers_is_exit_2_when_the_gpu_steps_must_run(cli, tmp_path):
    from dask.distributed import LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=1, resources={"CPU": 1},
                      dashboard_address=":0", host="127.0.0.1") as cluster:
        result = cli("batch", "softmax", "--stages", "check", "--gpu", "--cluster",
                     cluster.scheduler_address, "--out", str(tmp_path), timeout=120)
    assert result.returncode == 2
    assert "has no worker offering GPU=1" in result.stderr


def test_map_on_engine_returns_every_item(tmp_path):
    got = dict(map_on_engine(batch_tasks.square, [1, 2, 3], 10, jobs=2))
    assert got == {1: 11, 2: 14, 3: 19}


def test_gpu_tasks_run_on_the_gpu_worker_of_the_local_cluster(cli, tmp_path):
    """A stand-in libcuda makes this machine look like it has a GPU driver: the local cluster
    then gets a GPU worker, and the check task runs there (its check worker finds no device)."""
    import shutil
    import subprocess
    if not shutil.which("gcc"):
        pytest.skip("no gcc to build the stand-in libcuda")
    (tmp_path / "f.c").write_text("int cuInit(int flags) { return 100; }\n")
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(tmp_path / "libcuda.so.1"),
                    str(tmp_path / "f.c")], check=True, timeout=60)
    result = cli("batch", "softmax", "--stages", "check", "--gpu", "--json", "--out",
                 str(tmp_path / "batch"), env={"LD_LIBRARY_PATH": str(tmp_path)}, timeout=300)
    assert result.returncode == 0, result.stderr
    check = json.loads(result.stdout)["kernels"][0]["stages"]["check"]
    assert check["worker"].startswith("gpu-0 at tcp://127.0.0.1:"), check
    assert check["verdict"] == "SKIPPED" and "no CUDA device" in check["summary"]


def test_a_new_worker_target_folder_is_a_copy_without_the_ports(tmp_path, monkeypatch):
    import workbench.rust.toolchain as toolchain
    source = tmp_path / "target"
    deps = source / "release" / "deps"
    deps.mkdir(parents=True)
    (deps / "libcutile-0a1b.rlib").write_text("compiled once")
    os.utime(deps / "libcutile-0a1b.rlib", (1_000_000, 1_000_000))
    (deps / "libport_softmax-9f.so").write_text("a port")
    (source / "release" / "libport_softmax.so").write_text("a port")
    (source / "workers" / "1").mkdir(parents=True)
    copy = source / "workers" / "2"
    monkeypatch.setattr(toolchain, "TARGET_DIR", source)
    monkeypatch.setenv(toolchain.TARGET_DIR_VARIABLE, str(copy))
    toolchain.prepare_target_dir()
    kept = copy / "release" / "deps" / "libcutile-0a1b.rlib"
    assert kept.read_text() == "compiled once" and kept.stat().st_mtime == 1_000_000
    assert not (copy / "release" / "deps" / "libport_softmax-9f.so").exists()
    assert not (copy / "release" / "libport_softmax.so").exists() and not (copy / "workers").exists()
    assert toolchain.cargo_env()["CARGO_TARGET_DIR"] == str(copy)


def test_each_worker_process_of_a_node_takes_its_own_slot(tmp_path, monkeypatch):
    import subprocess
    import sys
    from workbench.batch import builds
    from workbench.rust.toolchain import TARGET_DIR_VARIABLE
    monkeypatch.setattr(builds, "WORKERS_DIR", tmp_path)
    monkeypatch.setattr(builds, "_held", {})
    monkeypatch.delenv(TARGET_DIR_VARIABLE, raising=False)
    assert builds.take_slot() == 0 and TARGET_DIR_VARIABLE not in os.environ  # the checkout's
    other = subprocess.run(
        [sys.executable, "-c", "import os; from pathlib import Path; from workbench.batch "
         f"import builds; builds.WORKERS_DIR = Path({str(tmp_path)!r}); "
         f"print(builds.take_slot(), os.environ[{TARGET_DIR_VARIABLE!r}])"],
        capture_output=True, text=True, timeout=60, check=True)
    assert other.stdout.split() == ["1", str(tmp_path / "1")]


def test_gpu_workers_can_share_one_device_for_compile_bound_tasks(monkeypatch):
    """per_gpu=2: two GPU workers on device 0 (a warm-up whose tasks mostly compile runs two
    at a time); the default gives each GPU worker a device of its own."""
    from workbench.engine import open_engine
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    seen = []
    with open_engine(EngineOptions(jobs=0, gpus=2, per_gpu=2)) as engine:
        engine.require(cpu=False, gpu=True)
        for i in range(2):
            engine.submit(f"t{i}", batch_tasks.visible_device, (1.0,), gpu=True)
        seen = [done.result for done in engine.finished()]
    assert sorted(device for device, _ in seen) == ["0", "0"]
    assert len({pid for _, pid in seen}) == 2          # two workers, at the same time
