"""The distributed engine, dask.distributed, in one place: a local cluster or a running one,
CPU and GPU workers told apart by scheduler resources, tasks retried when their worker dies,
and results as they finish. Dask places every task; the engine only holds a task back until
the cluster has a worker free for its resource (see Engine.submit).

    with open_engine(EngineOptions(jobs=2, gpus=1)) as engine:
        engine.submit(key, fn, args, gpu=False)
        for done in engine.finished(): ...      # Done(key, result | error, attempts, worker)

A CPU task asks for the resource CPU=1 and a GPU task for GPU=1, so a cluster's workers
say what they offer (`dask worker ADDR --nthreads 1 --resources CPU=1`, or GPU=1 on a GPU
node). A task whose worker dies is run again elsewhere by the scheduler, at most
`allowed_failures` more times; then it comes back as LOST with the reason.
"""
from __future__ import annotations

import logging
import os
import time
import uuid
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

from distributed.diagnostics.plugin import WorkerPlugin

from .errors import WorkbenchError

TOPIC = "workbench-batch"             # the event each task logs when it starts (attempts)
ALLOWED_FAILURES = 2                  # a task is tried at most 3 times when its worker dies
CONNECT_TIMEOUT_S = 5.0


class EngineError(WorkbenchError):
    """The engine cannot run this batch (no scheduler, no worker for a resource); `outcome`
    is what the batch had finished by then, where it had started."""
    outcome = None


@dataclass(frozen=True)
class EngineOptions:
    address: str | None = None        # tcp://host:8786; None starts a local cluster
    jobs: int = 1                     # CPU workers of the local cluster
    gpus: int = 0                     # GPU workers of the local cluster
    per_gpu: int = 1                  # GPU workers that share one device (compile-bound work)
    connect_timeout: float = CONNECT_TIMEOUT_S
    allowed_failures: int = ALLOWED_FAILURES

    @property
    def where(self) -> str:
        return self.address or f"a local cluster ({self.jobs} CPU, {self.gpus} GPU workers)"


@dataclass
class Done:
    key: str
    result: object | None             # what the task returned; None when it was lost
    error: str                        # why there is no result ("" when there is one)
    attempts: int                     # how many times a worker started it
    worker: str = ""                  # the worker that finished it
    lost: bool = False                # its workers kept dying: a retry later may succeed


class Engine:
    """A dask Client with the batch's conventions; made by open_engine."""

    def __init__(self, client, options: EngineOptions):
        self.client, self.options = client, options
        self._futures: dict[str, object] = {}
        self._keys: dict[str, str] = {}         # dask key -> our key
        self._waiting: dict[str, deque] = {"CPU": deque(), "GPU": deque()}
        self._running: dict[str, int] = {"CPU": 0, "GPU": 0}
        self._resource: dict[str, str] = {}     # our key -> the resource it holds
        from dask.distributed import as_completed
        self._completed = as_completed([], with_results=False, loop=client.loop)

    # -- what the cluster offers ---------------------------------------------------------

    def resources(self) -> dict[str, float]:
        """Resource -> total over the workers connected now."""
        total: dict[str, float] = {}
        for worker in self.client.scheduler_info(n_workers=-1)["workers"].values():
            for name, amount in (worker.get("resources") or {}).items():
                total[name] = total.get(name, 0) + amount
        return total

    def require(self, cpu: bool, gpu: bool) -> None:
        """One clear error, instead of tasks that wait forever for a worker nobody started."""
        have = self.resources()
        for needed, name, how in ((cpu, "CPU", "--resources CPU=1"),
                                  (gpu, "GPU", "--resources GPU=1 on a node with a GPU")):
            if needed and not have.get(name):
                raise EngineError(
                    f"{self.options.where} has no worker offering {name}=1, which the "
                    f"batch's {name} steps need", f"start workers with `dask worker "
                    f"{self.options.address or 'ADDRESS'} --nthreads 1 {how}`" +
                    (", or leave the GPU steps out (--no-gpu)" if name == "GPU" else ""))

    # -- tasks ---------------------------------------------------------------------------

    def submit(self, key: str, fn: Callable, args: tuple, gpu: bool) -> None:
        """Hand the task to dask as soon as a worker offering its resource is free. Dask
        sends a task that asks for a resource to a worker at once, to wait in that worker's
        own queue; a worker that dies then takes its queued tasks' tries with it. So no more
        are handed over than the cluster has of the resource."""
        self._waiting["GPU" if gpu else "CPU"].append((key, fn, args))
        self._hand_over()

    def _hand_over(self) -> None:
        have = self.resources()
        for resource, waiting in self._waiting.items():
            while waiting and self._running[resource] < max(1, int(have.get(resource, 0))):
                key, fn, args = waiting.popleft()
                dask_key = f"{key}-{uuid.uuid4().hex[:8]}"
                future = self.client.submit(run_logged, fn, args, dask_key, key=dask_key,
                                            pure=False, resources={resource: 1})
                self._futures[key], self._keys[dask_key] = future, key
                self._resource[key] = resource
                self._running[resource] += 1
                self._completed.add(future)

    def finished(self) -> Iterator[Done]:
        """Each submitted task once it is done, in the order they finish; tasks submitted
        while iterating are included."""
        from distributed.scheduler import KilledWorker
        for future in self._completed:
            key = self._keys.pop(future.key)
            self._futures.pop(key, None)
            self._running[self._resource.pop(key)] -= 1
            self._hand_over()
            try:
                worker, result = future.result()
            except KilledWorker as e:
                tries = self.options.allowed_failures + 1
                yield Done(key, None, f"its worker died {tries} times running it (the most "
                           f"tries allowed): {_last_line(e)}", tries, lost=True)
                continue
            except Exception as e:          # noqa: BLE001 - the engine's own error is the row's
                yield Done(key, None, f"{type(e).__name__}: {_last_line(e)}",
                           self._attempts(future.key), lost=True)
                continue
            yield Done(key, result, "", self._attempts(future.key), worker)

    def cancel(self) -> None:
        for waiting in self._waiting.values():
            waiting.clear()
        if self._futures:
            self.client.cancel(list(self._futures.values()), force=True)
        self._futures.clear()

    def _attempts(self, dask_key: str) -> int:
        """How many times a worker started the task, from the event each start logs (a
        worker killed within milliseconds of a start may take that event with it)."""
        events = self.client.get_events(TOPIC)
        return sum(1 for _, message in events if message.get("key") == dask_key) or 1


def run_logged(fn: Callable, args: tuple, dask_key: str):
    """On the worker: say the task started (the driver counts attempts), then run it."""
    from distributed import get_worker
    worker = get_worker()
    worker.log_event(TOPIC, {"key": dask_key, "pid": os.getpid(), "time": time.time()})
    return f"{worker.name} at {worker.address}", fn(*args)


def _last_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[-1] if text else type(error).__name__


# -- opening one ---------------------------------------------------------------------------

@contextmanager
def open_engine(options: EngineOptions) -> Iterator[Engine]:
    """A client on the cluster at options.address, or on a local cluster started here and
    stopped on the way out (Ctrl-C included)."""
    import dask
    import distributed  # noqa: F401 - first: its import adds its defaults to dask's config,
    # and a first import inside config.set would lose them again when the set ends
    with dask.config.set({"distributed.scheduler.allowed-failures": options.allowed_failures,
                          "distributed.comm.timeouts.connect": f"{options.connect_timeout}s"}):
        if options.address:
            with _connect(options) as client:
                yield Engine(client, options)
        else:
            with _local_cluster(options) as cluster, _client(cluster.scheduler_address,
                                                             options) as client:
                client.register_plugin(QuietInterrupt(), name="workbench-quiet-interrupt")
                client.wait_for_workers(options.jobs + options.gpus, timeout=120)
                yield Engine(client, options)


class QuietInterrupt(WorkerPlugin):
    """A local worker shares the terminal: Ctrl-C reaches it too. It then ends at once and
    quietly (the batch's process stops the cluster); the tools it runs still get the signal."""

    def setup(self, worker) -> None:
        import signal
        signal.signal(signal.SIGINT, lambda *_: os._exit(130))


@contextmanager
def _connect(options: EngineOptions):
    try:
        client = _client(options.address, options)
        client = client.__enter__()
    except (OSError, TimeoutError, ValueError) as e:
        raise EngineError(f"cannot reach the dask scheduler at {options.address} "
                          f"(waited {options.connect_timeout:g} s): {_last_line(e)}",
                          "start one with `dask scheduler` and workers with `dask worker "
                          "ADDRESS --nthreads 1 --resources CPU=1`, or leave out --cluster "
                          "to run on this machine") from None
    try:
        yield client
    finally:
        client.close()


def _client(address: str, options: EngineOptions):
    from dask.distributed import Client
    return Client(address, timeout=options.connect_timeout, set_as_default=False)


@contextmanager
def _local_cluster(options: EngineOptions):
    """CPU workers and GPU workers (each sees one GPU) as processes of this machine."""
    from dask.distributed import Nanny, Scheduler, SpecCluster

    def worker(resources: dict, env: dict) -> dict:
        return {"cls": Nanny, "options": {"nthreads": 1, "host": "127.0.0.1",
                                          "memory_limit": 0, "silence_logs": logging.CRITICAL,
                                          "resources": resources, "env": env}}

    # CPU workers cannot see the GPU: a GPU step belongs in a task that holds one
    workers = {f"cpu-{i}": worker({"CPU": 1}, {"CUDA_VISIBLE_DEVICES": ""})
               for i in range(options.jobs)}
    visible = [d for d in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if d.strip()]
    devices = [visible[d] if d < len(visible) else str(d)
               for d in (i // max(1, options.per_gpu) for i in range(options.gpus))]
    workers.update({f"gpu-{i}": worker({"GPU": 1}, {"CUDA_VISIBLE_DEVICES": device})
                    for i, device in enumerate(devices)})
    scheduler = {"cls": Scheduler, "options": {"host": "127.0.0.1", "port": 0,
                                               "dashboard": False, "dashboard_address": ":0"}}
    cluster = SpecCluster(workers=workers, scheduler=scheduler, silence_logs=logging.CRITICAL,
                          name="workbench-batch")
    try:
        yield cluster
    finally:
        cluster.close(timeout=30)


# -- the simple case: one function over a list ---------------------------------------------

def map_on_engine(fn: Callable, items: list, arg, jobs: int,
                  options: EngineOptions | None = None) -> Iterator[tuple[object, object]]:
    """(item, fn(item, arg)) for each item in the order they finish, on CPU workers; a task
    whose workers kept dying comes back as the reason's text instead of a result."""
    options = options or EngineOptions(jobs=jobs)
    with open_engine(options) as engine:
        engine.require(cpu=True, gpu=False)
        keys = {f"item-{i}": item for i, item in enumerate(items)}
        for key, item in keys.items():
            engine.submit(key, fn, (item, arg), gpu=False)
        for done in engine.finished():
            yield keys[done.key], done.result if not done.error else done.error
