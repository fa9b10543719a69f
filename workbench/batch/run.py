"""One batch: the plan's tasks on the engine, each result written to the run folder as it
finishes, dependents submitted once what they need is done, and tasks whose inputs are
unchanged since the last run read back instead of run.

    outcome = run_batch(plan, Store(folder), EngineOptions(jobs=2), progress=print_row)
    outcome.ran, outcome.reused, outcome.results["softmax/port"].verdict

Ctrl-C cancels what is running, keeps what finished, and raises BatchInterrupted; the next
run of the same batch starts from there. A GPU task on a worker with no GPU stops the batch
with an EngineError (one line, exit 2) instead of failing every GPU row.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from ..engine import EngineError, EngineOptions, open_engine
from .plan import Plan, Task
from .store import StageResult, Store


class BatchInterrupted(Exception):
    def __init__(self, outcome: "Outcome"):
        super().__init__("interrupted")
        self.outcome = outcome


@dataclass
class Outcome:
    plan: Plan
    results: dict[str, StageResult] = field(default_factory=dict)   # task key -> result
    blocked: dict[str, str] = field(default_factory=dict)           # task key -> why not run
    ran: int = 0
    reused: int = 0
    seconds: float = 0.0

    @property
    def done(self) -> int:
        return len(self.results) + len(self.blocked)


def run_batch(plan: Plan, store: Store, options: EngineOptions,
              progress: Callable[[Outcome, StageResult | None], None] | None = None,
              gpu_required: bool = False, gpu_here: bool | None = None) -> Outcome:
    """Every task of the plan that has no reusable result, on the engine. Without a GPU
    worker (gpu_here=False says so before any engine starts) the GPU tasks are not run;
    with gpu_required that is an EngineError instead."""
    start = time.perf_counter()
    outcome = Outcome(plan)
    by_key = {t.key: t for t in plan.tasks}
    todo = []
    for task in plan.tasks:
        cached = store.reusable(task.slug, task.stage, task.inputs)
        if cached is not None:
            outcome.results[task.key] = cached
            outcome.reused += 1
        else:
            todo.append(task)
    waiting = {t.key: t for t in todo}
    if gpu_here is False and not gpu_required:
        _no_gpu(waiting, outcome, "no GPU on this machine")
    _blocked(waiting, outcome)
    if waiting:
        _run(waiting, by_key, store, options, outcome, progress or (lambda o, r: None),
             gpu_required)
    outcome.seconds = time.perf_counter() - start
    return outcome


def _run(waiting: dict[str, Task], by_key: dict[str, Task], store: Store,
         options: EngineOptions, outcome: Outcome, progress, gpu_required: bool) -> None:
    with open_engine(options) as engine:
        if not gpu_required and not engine.resources().get("GPU"):
            _no_gpu(waiting, outcome, "no GPU worker in the cluster")
        tasks = list(waiting.values())
        engine.require(cpu=any(not t.gpu for t in tasks), gpu=any(t.gpu for t in tasks))
        try:
            for task in _ready(waiting, outcome):
                engine.submit(task.key, task.fn, task.args, task.gpu)
            progress(outcome, None)
            for done in engine.finished():
                task = by_key[done.key]
                result = _result(task, done)
                store.write(task.slug, result)
                outcome.results[task.key] = result
                outcome.ran += 1
                if result.verdict == "NO_GPU":
                    raise EngineError(f"{result.worker or 'a worker'} offers GPU=1 but has no "
                                      f"GPU: {result.summary}",
                                      "start GPU workers only on nodes with a GPU and its "
                                      "driver, or leave the GPU steps out (--no-gpu)")
                progress(outcome, result)
                for ready in _ready(waiting, outcome):
                    engine.submit(ready.key, ready.fn, ready.args, ready.gpu)
                if _blocked(waiting, outcome):
                    progress(outcome, None)
        except KeyboardInterrupt:
            engine.cancel()
            raise BatchInterrupted(outcome) from None
        except EngineError as error:
            engine.cancel()
            error.outcome = outcome
            raise


def _ready(waiting: dict[str, Task], outcome: Outcome) -> list[Task]:
    """Waiting tasks whose upstream stage has a result that lets them run (taken out)."""
    ready = []
    for key, task in list(waiting.items()):
        upstream = _upstream(task, outcome)
        if task.needs is None or (upstream is not None and _lets_through(upstream)):
            ready.append(waiting.pop(key))
    return ready


def _blocked(waiting: dict[str, Task], outcome: Outcome) -> list[str]:
    """Waiting tasks whose upstream finished without letting them run: not run, and why."""
    keys = []
    for key, task in list(waiting.items()):
        upstream = _upstream(task, outcome)
        if upstream is not None and not _lets_through(upstream):
            del waiting[key]
            outcome.blocked[key] = f"{task.needs}: {upstream.verdict}"
            keys.append(key)
    return keys


def _no_gpu(waiting: dict[str, Task], outcome: Outcome, why: str) -> None:
    for key in [k for k, t in waiting.items() if t.gpu]:
        outcome.blocked[key] = why
        del waiting[key]


def _upstream(task: Task, outcome: Outcome) -> StageResult | None:
    return outcome.results.get(f"{task.slug}/{task.needs}") if task.needs else None


def _lets_through(result: StageResult) -> bool:
    return bool(result.data.get("downstream", result.verdict not in ("ERROR", "LOST")))


def _result(task: Task, done) -> StageResult:
    if done.error:
        return StageResult(task.kernel, task.stage, "LOST", done.error, task.inputs,
                           {"downstream": False}, attempts=done.attempts, finished=time.time())
    raw = dict(done.result)
    data = dict(raw.get("data") or {})
    data["downstream"] = bool(raw.get("downstream", True))
    return StageResult(task.kernel, task.stage, raw["verdict"], raw.get("summary", ""),
                       task.inputs, data, raw.get("run"), done.attempts,
                       f"{done.worker} (pid {raw.get('pid', '?')})",
                       float(raw.get("seconds", 0)), time.time())
