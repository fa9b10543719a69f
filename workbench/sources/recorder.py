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
import math
import runpy
import sys
import threading
import traceback
from pathlib import Path

from ..argspec import DTYPES
from ..errors import WorkbenchError
from .record import IN, NONE, Record, RecordedArg, RecordedKernel, RecordedLaunch
from .written import parameter_roles

_NUMPY_NAMES = {info[0]: name for name, info in DTYPES.items()}   # "float32" -> "f32"
_TYPESTR = {"<f8": "f64", "<f4": "f32", "<f2": "f16", "<i8": "i64", "<i4": "i32",
            "<i2": "i16", "|i1": "i8", "|u1": "u8", "|b1": "bool", "<V2": "bf16"}
_INT32 = 2 ** 31


class Recording(Record):
    """A Record that is being made: launches are appended as the host code makes them."""

    def __init__(self, source: str = "", run: bool | None = None):
        super().__init__(source=source)
        self.run = has_gpu() if run is None else run
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


def has_gpu() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


@contextlib.contextmanager
def record(out: str | Path | None = None, source: str = "a call", run: bool | None = None):
    """Capture every kernel launch made inside the block. `run`: also run each launch
    (default: where there is a GPU). `out`: save the record there when the block ends, even
    when the host code raised (what was recorded before the error is kept)."""
    rec = Recording(source, run)
    try:
        with _intercepting(rec):
            yield rec
    finally:
        rec._alive.clear()
        if out is not None:
            rec.save(out)


def record_script(script: str | Path, argv: list[str], out: str | Path | None = None,
                  run: bool | None = None) -> Record:
    """Run `script` as `python SCRIPT ARGS` would (as __main__, with sys.argv and its folder
    on sys.path) under record(). A script that raises stops the recording with one line
    naming its file and line; the launches recorded before it are kept (and saved)."""
    path = Path(script).resolve()
    if not path.is_file():
        raise WorkbenchError(f"{script}: no such script", "name the Python file to run")
    source = " ".join(["python", str(script), *argv])
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv, sys.path[:0] = [str(path), *argv], [str(path.parent)]
    rec = Recording(source, run)
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
        stack.enter_context(_triton_launch(rec))
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
            raise WorkbenchError(f"{_caller()}: ct.launch of {kernel!r}, which is not a "
                                 "@ct.kernel", "launch a function decorated with @ct.kernel")
        rec.launches.append(_cutile_launch_record(rec, grid, kernel, tuple(args)))
        if rec.run:
            original(stream, grid, kernel, args)
            rec.launches[-1].ran = True

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


def _caller() -> str:
    for frame in reversed(traceback.extract_stack()[:-2]):
        if "/workbench/" not in frame.filename and "site-packages" not in frame.filename:
            return f"{frame.filename}:{frame.lineno}"
    return "?"


# -- cuTile launches ---------------------------------------------------------------------

def _cutile_launch_record(rec: Recording, grid, kernel, args: tuple) -> RecordedLaunch:
    from .kernel import parameters_of
    pyfunc = kernel._pyfunc
    params, const_params = parameters_of(kernel)
    where = _caller()
    if len(args) != len(params):
        raise WorkbenchError(f"{where}: {pyfunc.__name__} takes {len(params)} arguments "
                             f"({', '.join(params)}), the launch gave {len(args)}",
                             "pass one value per kernel parameter")
    roles = parameter_roles(pyfunc, params)
    described = [_argument(rec, name, value, name in const_params, roles.get(name, IN), where)
                 for name, value in zip(params, args)]
    hints = launch_hints(kernel)
    options = {"hints": hints} if hints else {}
    if rec.tuned is not None:
        options["tuned"], rec.tuned = rec.tuned, None
    return RecordedLaunch(len(rec.launches), _kernel_of(pyfunc, "cutile"), _grid(grid, where),
                          described, options=options, caller=where)


HINTS = ("occupancy", "num_ctas", "num_worker_warps")


def launch_hints(kernel) -> dict:
    """The hints a kernel object carries for the target (`replace_hints(occupancy=2)`, or
    `@ct.kernel(occupancy=2)`), as numbers; a ByTarget resolved for sm_90."""
    from ..target import TARGET
    options = getattr(kernel, "_compiler_options", None)
    out = {}
    for name in HINTS:
        value = getattr(options, name, None)
        by_target = getattr(value, "_by_target", None)
        if by_target is not None:
            value = by_target.get(TARGET, getattr(value, "_default", None))
        if isinstance(value, int) and not isinstance(value, bool):
            out[name] = value
    return out


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
        rec.tuned = [_plain_config(c) for c in space]
        best = tune_impl.Measurement(config=space[0], mean_us=float("nan"), num_samples=0,
                                     error_margin_us=float("nan"))
        return tune_impl.TuningResult(best=best, successes=[], failures=[])

    if rec.run:
        yield
        return
    with _swapped(original, first_candidate, [tune, tune_impl]):
        yield


def _plain_config(config) -> object:
    raw = vars(config) if hasattr(config, "__dict__") else config
    try:
        import json
        json.dumps(raw)
        return raw
    except TypeError:
        return repr(raw)


def _kernel_of(pyfunc, language: str) -> RecordedKernel:
    import inspect
    try:
        file = inspect.getsourcefile(pyfunc) or pyfunc.__code__.co_filename
    except TypeError:
        file = pyfunc.__code__.co_filename
    closure = {}
    for name, cell in zip(pyfunc.__code__.co_freevars, pyfunc.__closure__ or ()):
        closure[name] = _closure_value(cell.cell_contents)
    return RecordedKernel(pyfunc.__name__, language, str(Path(file).resolve()),
                          pyfunc.__code__.co_firstlineno, pyfunc.__module__ or "",
                          pyfunc.__qualname__, closure)


def _closure_value(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    name = getattr(value, "name", None) or str(value)
    if type(value).__module__.startswith("cuda.tile") and name in _NUMPY_NAMES:
        return {"ct_dtype": name}
    return f"<unrecordable {type(value).__name__}>"


def _grid(grid, where: str) -> tuple:
    if callable(grid):
        raise WorkbenchError(f"{where}: the grid is a function", "internal: resolve it first")
    values = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
    try:
        values = tuple(int(g) for g in values)
    except (TypeError, ValueError):
        raise WorkbenchError(f"{where}: grid {grid!r} is not one to three integers",
                             "launch with grid=(x,), (x, y) or (x, y, z)")
    if not 1 <= len(values) <= 3 or min(values) < 1:
        raise WorkbenchError(f"{where}: grid {values}: one to three dimensions, each >= 1",
                             "fix the launch's grid")
    return values + (1,) * (3 - len(values))


def _argument(rec: Recording, name: str, value, constant: bool, role: str,
              where: str) -> RecordedArg:
    if constant:
        return RecordedArg(name, "", IN, True, _plain(value))
    view = _array_view(value)
    if view is None:
        return RecordedArg(name, _scalar_spec(value, name, where), IN, False, _plain(value))
    dtype, shape, strides, address, itemsize, low_high = view
    if not rec.arrays_seen:
        rec.device, rec.arrays_seen = _device_of(value), True
    if dtype is None:
        raise WorkbenchError(f"{where}: argument {name} has a dtype the C ABI does not take",
                             "the port's C ABI takes " + ", ".join(DTYPES))
    offset = (address % 16) // itemsize if address % itemsize == 0 else 1
    spec = f"{dtype}[{','.join(map(str, shape))}]"
    contiguous = _contiguous(shape)
    if tuple(strides) != contiguous:
        spec += f":strides=({','.join(map(str, strides))})"
    if offset:
        spec += f":offset={offset}"
    # a meta tensor has no address (0, taken as aligned): it is its own buffer
    return RecordedArg(name, spec, role, range=low_high,
                       buffer=rec.buffer_id(address or id(value), value))


def _device_of(value) -> str:
    """Where an array lives: torch's device type, `cuda` for __cuda_array_interface__."""
    device = getattr(value, "device", None)
    if hasattr(device, "type"):
        return device.type
    return "cuda" if hasattr(value, "__cuda_array_interface__") else "cpu"


def _contiguous(shape) -> tuple:
    out, running = [], 1
    for d in reversed(shape):
        out.append(running)
        running *= d
    return tuple(reversed(out))


def _plain(value):
    if hasattr(value, "item"):
        value = value.item()
    return value if isinstance(value, (bool, int, float, str)) or value is None else repr(value)


def _scalar_spec(value, name: str, where: str) -> str:
    value = _plain(value)
    if isinstance(value, bool):
        return f"bool={int(value)}"
    if isinstance(value, int):
        return f"{'i32' if -_INT32 <= value < _INT32 else 'i64'}={value}"
    if isinstance(value, float):
        return f"f32={value!r}" if math.isfinite(value) else "f32"
    if value is None:
        return NONE
    raise WorkbenchError(f"{where}: argument {name} = {value!r} is neither an array nor a "
                         "number", "pass arrays (torch, CuPy, NumPy) and numbers")


def _array_view(value):
    """(dtype, shape, strides in elements, address, itemsize, [min, max] or None), or None
    for a value that is not an array. Torch tensors, NumPy arrays, anything with
    __cuda_array_interface__ or __array_interface__."""
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and isinstance(value, torch.Tensor):
        dtype = _NUMPY_NAMES.get(str(value.dtype).removeprefix("torch."))
        return (dtype, tuple(value.shape), tuple(value.stride()), value.data_ptr(),
                value.element_size(), _range(value, dtype))
    iface = getattr(value, "__cuda_array_interface__", None) or \
        getattr(value, "__array_interface__", None)
    if not isinstance(iface, dict) or "shape" not in iface:
        return None
    dtype = _TYPESTR.get(iface["typestr"])
    itemsize = int(iface["typestr"][2:])
    shape = tuple(iface["shape"])
    strides = tuple(s // itemsize for s in iface["strides"]) if iface.get("strides") \
        else _contiguous(shape)
    return dtype, shape, strides, int(iface["data"][0]), itemsize, _range(value, dtype)


def _range(value, dtype: str | None) -> list | None:
    """[min, max] of an integer or bool array (index-like inputs are made in that range)."""
    if dtype is None or not (dtype.startswith(("i", "u")) or dtype == "bool"):
        return None
    try:
        if getattr(value, "numel", lambda: 1)() == 0 or getattr(value, "size", 1) == 0:
            return None
        return [int(value.min().item()), int(value.max().item())]
    except Exception:  # noqa: BLE001 -- memory this process cannot read: no range recorded
        return None


# -- Triton launches ---------------------------------------------------------------------

@contextlib.contextmanager
def _triton_launch(rec: Recording):
    try:
        from triton.runtime import autotuner, jit
    except ImportError:
        yield
        return
    run, tuned_run, bench = jit.JITFunction.run, autotuner.Autotuner.run, \
        autotuner.Autotuner._bench

    def jit_run(self, *args, grid, warmup, **kwargs):
        if warmup or getattr(rec._quiet, "on", False):
            return run(self, *args, grid=grid, warmup=warmup, **kwargs)
        rec.launches.append(_triton_launch_record(rec, self, args, kwargs, grid))
        if rec.run:
            result = run(self, *args, grid=grid, warmup=warmup, **kwargs)
            rec.launches[-1].ran = True
            return result
        return None

    def autotuned_run(self, *args, **kwargs):
        if rec.run:
            return tuned_run(self, *args, **kwargs)
        # no GPU to time the configs on: the first is launched, and all are kept
        config = self.configs[0]
        options = {**kwargs, **config.all_kwargs()}
        before = len(rec.launches)
        result = self.fn.run(*args, **options)
        for launch in rec.launches[before:]:
            launch.options["autotune_candidates"] = [c.all_kwargs() for c in self.configs]
        return result

    def quiet_bench(self, *args, **kwargs):
        rec._quiet.on = True
        try:
            return bench(self, *args, **kwargs)
        finally:
            rec._quiet.on = False

    jit.JITFunction.run, autotuner.Autotuner.run = jit_run, autotuned_run
    autotuner.Autotuner._bench = quiet_bench
    try:
        yield
    finally:
        jit.JITFunction.run, autotuner.Autotuner.run = run, tuned_run
        autotuner.Autotuner._bench = bench


_TRITON_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg")


def _triton_launch_record(rec: Recording, fn, args: tuple, kwargs: dict, grid):
    where = _caller()
    names = [p.name for p in fn.params]
    bound = dict(zip(names, args))
    bound.update({k: v for k, v in kwargs.items() if k in names})
    for p in fn.params:
        if p.name not in bound and p.has_default:
            bound[p.name] = p.default
    missing = [n for n in names if n not in bound]
    if missing:
        raise WorkbenchError(f"{where}: {fn.__name__} launched without {', '.join(missing)}",
                             "pass every kernel parameter")
    if callable(grid):
        grid = grid({**bound, **kwargs})
    roles = parameter_roles(fn.fn, names)
    described = [_argument(rec, p.name, bound[p.name], p.is_constexpr, roles.get(p.name, IN),
                           where) for p in fn.params]
    options = {k: kwargs[k] for k in _TRITON_OPTIONS if k in kwargs}
    return RecordedLaunch(len(rec.launches), _kernel_of(fn.fn, "triton"), _grid(grid, where),
                          described, options=options, caller=where)
