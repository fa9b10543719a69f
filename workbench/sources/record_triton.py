"""Triton launches under record (recorder.py): `kernel[grid](...)` captured through
JITFunction.run; an autotuner with no GPU to time on launches its first config and notes
all of them; the launches its own timing makes are not recorded."""
from __future__ import annotations

import contextlib

from ..errors import WorkbenchError
from .record import IN, RecordedLaunch
from .record_args import caller, describe_argument, grid_numbers, kernel_of
from .written import parameter_roles

@contextlib.contextmanager
def triton_launches(rec):
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
        launch, values = _triton_launch_record(rec, self, args, kwargs, grid)
        return rec.launched(launch, values,
                            lambda: run(self, *args, grid=grid, warmup=warmup, **kwargs))

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


def _triton_launch_record(rec, fn, args: tuple, kwargs: dict, grid):
    where = caller()
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
    described = [describe_argument(rec, p.name, bound[p.name], p.is_constexpr, roles.get(p.name, IN),
                           where) for p in fn.params]
    options = {k: kwargs[k] for k in _TRITON_OPTIONS if k in kwargs}
    launch = RecordedLaunch(len(rec.launches), kernel_of(fn.fn, "triton"),
                            grid_numbers(grid, where), described, options=options, caller=where)
    return launch, bound
