"""Recording a call: the user's own host code runs, and every kernel launch it makes is
captured into a Record (record.py).

    with record() as rec:                 # workbench.record
        my_layer_norm(x, w, b)            # x, w, b: CPU tensors are fine
    rec.save("runs/records/ln.json")

    record_script("my_op.py", ["--n", "4096"])      # `workbench record my_op.py --n 4096`

What is intercepted: cuTile Python's `ct.launch` (also where a module bound it as `launch`)
and a Triton kernel's launch (`kernel[grid](...)`, through an autotuner or heuristics too).
Where there is no GPU the launch is captured, not run, and `torch.cuda.current_stream()`
(which host code asks for before it launches) answers a stand-in stream; on a GPU the
launch runs as well. Nothing else of the host code changes.
"""
from __future__ import annotations

import contextlib
import os
import runpy
import sys
import threading
import time
import traceback
from pathlib import Path

from ..errors import WorkbenchError
from .record import IN, INOUT, OUT, RECORDS_DIR, Record, RecordedLaunch
from .record_data import INPUT, KEEP_BUDGET, OUTPUT, save_launch_data, snapshot
from .record_args import (caller, describe_argument, grid_numbers, kernel_of, launch_hints,
                          plain_config)
from .record_triton import triton_launches
from .written import parameter_roles
from .kernel import parameters_of


class Recording(Record):
    """A Record that is being made: launches are appended as the host code makes them.
    keep_data: each launch's input values are kept, and its outputs where it runs
    (record_data.py), written beside the record when it is saved."""

    def __init__(self, source: str = "", run: bool | None = None, keep_data: bool = False):
        super().__init__(source=source)
        self.run = has_gpu() if run is None else run
        self.keep_data = keep_data
        self._kept: dict[int, tuple[dict, dict]] = {}
        self._kept_bytes = 0
        self._unwritten: set[str] = set()      # buffers an intercepted (not run) launch wrote
        self._buffers: dict[int, str] = {}
        # every recorded array is kept alive until the recording ends, so a freed array's
        # address, reused by a later one, never makes two arrays look like one buffer
        self._alive: list = []
        self._quiet = threading.local()        # set while an autotuner times its configs
        self.tuned: list | None = None         # candidates of a search the next launch follows
        self.arrays_seen = False

    def buffer_id(self, address: int, array) -> str:
        self._alive.append(array)
        return self._buffers.setdefault(address, f"buffer{len(self._buffers)}")


    def launched(self, launch: RecordedLaunch, values: dict, run):
        """Append `launch` (its arguments' values by parameter), keep what it reads, run it
        where the recording runs launches (`run()`), and keep what it wrote."""
        self.launches.append(launch)
        if self.keep_data:
            self._keep(launch, values, (IN, INOUT), INPUT)
        result = None
        if self.run:
            result = run()
            launch.ran = True
            if self.keep_data:
                self._keep(launch, values, (OUT, INOUT), OUTPUT)
        else:
            self._unwritten.update(a.buffer for a in launch.args
                                   if a.buffer and a.role in (OUT, INOUT))
        return result

    def _keep(self, launch: RecordedLaunch, values: dict, roles: tuple, which: str) -> None:
        kept = self._kept.setdefault(launch.index, ({}, {}))[which == OUTPUT]
        for arg in launch.runtime:
            # what an intercepted launch would have written was never computed
            if arg.role not in roles or (which == INPUT and arg.buffer in self._unwritten):
                continue
            values_now = snapshot(values[arg.name]) if arg.buffer else None
            if values_now is None:
                continue
            if self._kept_bytes + values_now.nbytes > KEEP_BUDGET:
                self.problems.append(f"launch {launch.index}: {arg.name}'s values not kept: "
                                     f"over the {KEEP_BUDGET >> 20} MiB a recording keeps")
                continue
            self._kept_bytes += values_now.nbytes
            kept[arg.name] = values_now

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        for index, (inputs, outputs) in self._kept.items():
            if inputs or outputs:
                relative = f"{path.stem}.data/launch{index}.npz"
                save_launch_data(path.parent / relative, inputs, outputs)
                self.launches[index].data = relative
        return super().save(path)


def has_gpu() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


@contextlib.contextmanager
def record(out: str | Path | None = None, source: str = "a call", run: bool | None = None,
           keep_data: bool = False):
    """Capture every kernel launch made inside the block. `run`: also run each launch
    (default: where there is a GPU). `keep_data`: keep each launch's input values, and its
    outputs where it ran, as the expected result (record_data.py). The record is saved when
    the block ends, even when the host code raised (what was recorded before the error is
    kept): to `out`, by default runs/records/record-<time>-<pid>.json (rec.path says where)."""
    if out is None:
        out = RECORDS_DIR / f"record-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.json"
    rec = Recording(source, run, keep_data)
    try:
        with _intercepting(rec):
            yield rec
    finally:
        rec._alive.clear()
        rec.save(out)


def record_script(script: str | Path, argv: list[str], out: str | Path | None = None,
                  run: bool | None = None, keep_data: bool = False) -> Record:
    """Run `script` as `python SCRIPT ARGS` would (as __main__, with sys.argv and its folder
    on sys.path) under record(). A script that raises stops the recording with one line
    naming its file and line; the launches recorded before it are kept (and saved)."""
    path = Path(script).resolve()
    if not path.is_file():
        raise WorkbenchError(f"{script}: no such script", "name the Python file to run")
    source = " ".join(["python", str(script), *argv])
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv, sys.path[:0] = [str(path), *argv], [str(path.parent)]
    rec = Recording(source, run, keep_data)
    try:
        with _intercepting(rec):
            runpy.run_path(str(path), run_name="__main__")
    except SystemExit as e:
        if e.code not in (0, None):
            rec.problems.append(f"{script} exited with {e.code}")
    except WorkbenchError as e:
        rec.problems.append(e.message)
    except Exception as e:
        # Justified: the user's host code may raise anything; it becomes one line naming
        # where (the innermost frame in their files), and the record so far is kept.
        rec.problems.append(f"{_where(e)}: {type(e).__name__}: {e}")
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        rec._alive.clear()
        if out is not None:
            rec.save(out)
    return rec


def _where(error: BaseException) -> str:
    """file:line of the innermost frame outside the workbench and the libraries."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if "site-packages" not in f.filename and "/workbench/" not in f.filename]
    frame = frames[-1] if frames else traceback.extract_tb(error.__traceback__)[-1]
    return f"{frame.filename}:{frame.lineno}"


# -- interception ----------------------------------------------------------------------

@contextlib.contextmanager
def _intercepting(rec: Recording):
    with contextlib.ExitStack() as stack:
        stack.enter_context(_cutile_launch(rec))
        stack.enter_context(_cutile_tuning(rec))
        stack.enter_context(triton_launches(rec))
        if not rec.run:
            stack.enter_context(_stand_in_cuda())
        yield


@contextlib.contextmanager
def _cutile_launch(rec: Recording):
    import cuda.tile as ct
    import cuda.tile._cext as cext
    original = ct.launch

    def launch(stream, grid, kernel, args):
        if not isinstance(kernel, ct.kernel):
            raise WorkbenchError(f"{caller()}: ct.launch of {kernel!r}, which is not a "
                                 "@ct.kernel", "launch a function decorated with @ct.kernel")
        launch = _cutile_launch_record(rec, grid, kernel, tuple(args))
        values = dict(zip((a.name for a in launch.args), args))
        rec.launched(launch, values, lambda: original(stream, grid, kernel, args))

    with _swapped(original, launch, [ct, cext]):
        yield


@contextlib.contextmanager
def _swapped(original, replacement, modules):
    """`original` replaced by `replacement` in `modules` and in every loaded module that
    bound it by name (`from cuda.tile import launch`); all put back afterwards."""
    holders = [m.__dict__ for m in modules] + [
        vars(m) for m in list(sys.modules.values())
        if m is not None and m not in modules and _binds(m, original)]
    swapped = []
    for namespace in holders:
        for name, value in list(namespace.items()):
            if value is original:
                namespace[name] = replacement
                swapped.append((namespace, name))
    try:
        yield
    finally:
        for namespace, name in swapped:
            namespace[name] = original


def _binds(module, value) -> bool:
    try:
        return any(v is value for v in vars(module).values())
    except TypeError:
        return False


# What host code asks of the GPU before it launches, answered with no GPU as the target
# (workbench/target.py: sm_90, an H200) would answer: its grids follow the SM count.
STAND_IN_DEVICE = {"name": "NVIDIA H200 (stand-in: recorded with no GPU)", "major": 9,
                   "minor": 0, "multi_processor_count": 132, "total_memory": 143 * 2 ** 30,
                   "warp_size": 32}


@contextlib.contextmanager
def _stand_in_cuda():
    """torch.cuda's stream, device-property and synchronize calls with no GPU: stand-ins
    the intercepted launches never use, so the host code gets as far as its launches."""
    try:
        import torch
    except ImportError:
        yield
        return
    import types
    cuda = torch.cuda
    names = ("current_stream", "default_stream", "synchronize", "get_device_properties",
             "get_device_capability", "current_device")
    saved = {n: getattr(cuda, n) for n in names}
    properties = types.SimpleNamespace(**STAND_IN_DEVICE)
    cuda.current_stream = cuda.default_stream = lambda device=None: NoGpuStream()
    cuda.synchronize = lambda device=None: None
    cuda.get_device_properties = lambda device=None: properties
    cuda.get_device_capability = lambda device=None: (properties.major, properties.minor)
    cuda.current_device = lambda: 0
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(cuda, name, value)


class NoGpuStream:
    """What host code gets for a CUDA stream while it is recorded with no GPU."""
    cuda_stream = 0
    device = "cpu"

    def synchronize(self) -> None:
        return None

    def __repr__(self) -> str:
        return "<workbench stand-in stream: recording with no GPU>"

# -- cuTile launches ---------------------------------------------------------------------

def _cutile_launch_record(rec: Recording, grid, kernel, args: tuple) -> RecordedLaunch:
    pyfunc = kernel._pyfunc
    params, const_params = parameters_of(kernel)
    where = caller()
    if len(args) != len(params):
        raise WorkbenchError(f"{where}: {pyfunc.__name__} takes {len(params)} arguments "
                             f"({', '.join(params)}), the launch gave {len(args)}",
                             "pass one value per kernel parameter")
    roles = parameter_roles(pyfunc, params)
    described = [describe_argument(rec, name, value, name in const_params, roles.get(name, IN), where)
                 for name, value in zip(params, args)]
    hints = launch_hints(kernel)
    options = {"hints": hints} if hints else {}
    if rec.tuned is not None:
        options["tuned"], rec.tuned = rec.tuned, None
    return RecordedLaunch(len(rec.launches), kernel_of(pyfunc, "cutile"), grid_numbers(grid, where),
                          described, options=options, caller=where)

@contextlib.contextmanager
def _cutile_tuning(rec: Recording):
    """cuda.tile.tune.exhaustive_search with no GPU to time on: the first candidate wins,
    and the launch that follows notes every candidate (a GPU check can time them)."""
    try:
        import cuda.tile.tune as tune
        import cuda.tile.tune._tune as tune_impl
    except ImportError:
        yield
        return
    original = tune.exhaustive_search

    def first_candidate(search_space, stream, grid_fn, kernel, args_fn, hints_fn=None,
                        *args, **kwargs):
        space = list(search_space)
        if not space:
            raise ValueError("Search space is empty.")
        rec.tuned = [plain_config(c) for c in space]
        best = tune_impl.Measurement(config=space[0], mean_us=float("nan"), num_samples=0,
                                     error_margin_us=float("nan"))
        return tune_impl.TuningResult(best=best, successes=[], failures=[])

    if rec.run:
        yield
        return
    with _swapped(original, first_candidate, [tune, tune_impl]):
        yield
