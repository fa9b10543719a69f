"""The CPU check of a TileGym family (cpu.py has the rest): each entry, or the family's chain as
one, launched as its launch.py says on the family problem's tensors, on both sides: TileGym's
kernel (the `python` side) and the port (`rust`), compared with the family's float64 reference
(its reference.py, run by torch on the CPU) and with each other."""
from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import math
import time

import numpy as np

from ..catalog import Family
from ..errors import WorkbenchError
from ..interp import (InterpError, Options, OverBudget, Partitioned, UnsupportedOp,
                      bind_args, compile_entry, run_program)
from ..ir.stages import operator_python_ir
from ..rust.cargo import has_port
from ..rust.emit import operator_rust_ir
from ..rust.partitions import partition_tiles
from ..tilegym_catalog import family_rules
from .chain import chain_label
from .compare import DEFAULT_TOLERANCE
from .cpu_common import (SAMPLE_LIMIT, SideFailed, as_numpy, compared, make_array, response_of,
                         sample_fraction, too_many, torch_cpu, written)
from .cuda_stub import NoHostRun
from .host_cpu import HOST_NOTE, run_port_host
from .family import clone, make_tensors
from .shrink import spec_facts
from ..sources.kernel import load_operator_kernel


def check_family_on_cpu(family: Family, cases=None, sides=("python", "rust"), seed: int = 0,
                        options: Options | None = None, only=None, rules=None):
    """`rules`: the family's (default), or shrink.py's on shrunk problems, `family` then
    carrying its entries' shrunk cases."""
    global _IR_MADE
    rules = rules or family_rules(family.name)
    _IR_MADE = {}
    try:
        return _check_family(family, rules, cases, sides, seed, options, only)
    finally:
        _IR_MADE = None


_IR_MADE: dict | None = None       # a check's IR by specialization, while it runs


def _check_family(family, rules, cases, sides, seed, options, only):
    indexes = cases if cases is not None else range(len(rules.problems))
    groups = [(chain_label(family), family.steps)] if family.steps else \
        [(op.name, (op,)) for op in family.entries if only is None or op.name in only]
    results = []
    with torch_cpu() as torch:
        for index in indexes:
            for label, ops in groups:
                launches = [rules.launch(op.name, index) for op in ops]
                if all(launch is not None for launch in launches):
                    results.append(_check(rules, label, ops, launches, index, list(sides),
                                          seed, options, torch))
    return response_of(results)


def _check(rules, label, ops, launches, index, sides, seed, options, torch) -> dict:
    problem = rules.problem(index)
    pristine = _tensors(rules, problem, torch, seed)
    outputs = [n for n in problem.outputs()
               if any(b.source == n for launch in launches for b in launch.args)]
    result = {"case": index, "entry": label, "label": f"{label} case {index}",
              "sides": {}, "cross": None}
    arrays = [a for t in pristine.values() for a in (t if isinstance(t, list) else [t])]
    count = sum(a.numel() for a in arrays)
    if too_many(count, SAMPLE_LIMIT):
        result["sides"] = {s: {"skipped": True, "reason": too_many(count, SAMPLE_LIMIT)}
                           for s in sides}
        return result
    # too large to run whole: a sample of the last launch's blocks (a chain's earlier
    # launches run whole: the last one reads all they wrote)
    last_options = options
    if sample_fraction(count):
        last_options = dataclasses.replace(options or Options(), sample=sample_fraction(count))
        result["label"] += f" [sampled: {last_options.sample:.1%} of the last launch's blocks]"
    produced, seconds, how = {}, {}, {}
    for side in sides:
        tensors = {n: clone(t) for n, t in pristine.items()}
        try:
            runs = [_run(op, index, launch, tensors, side,
                         last_options if step == len(ops) - 1 else options)
                    for step, (op, launch) in enumerate(zip(ops, launches))]
            seconds[side] = sum(run[0] for run in runs)
            how[side] = next((run[1] for run in runs if run[1]), "")
            produced[side] = {n: tensors[n] for n in outputs}
        except SideFailed as failed:
            result["sides"][side] = failed.outcome
    expected = _reference(rules, problem, pristine, torch)
    tolerance = ops[-1].tolerance.get(problem.dtype, DEFAULT_TOLERANCE["f32"])
    where = written(produced, outputs) if last_options is not options else None
    for side, got in produced.items():
        result["sides"][side] = {**compared(got, expected, outputs, tolerance, where),
                                 "seconds": seconds[side]}
        if how[side]:
            result["sides"][side]["host"] = how[side]
    if "python" in produced and "rust" in produced:
        result["cross"] = compared(produced["rust"], produced["python"], outputs, tolerance)
    return result


def _run(op, index: int, launch, tensors: dict, side: str, options) -> tuple[float, str]:
    """One launch on `tensors` (written in place): the seconds the interpreter ran, and how
    the side ran (the Rust side: the port's own C call, host_cpu.py, where it can run here)."""
    args = _launch_args(launch, tensors)
    note = ""
    try:
        if side == "python":
            module = _ir(operator_python_ir, op, index, side).module()
        else:
            if not has_port(op):
                raise SideFailed({"skipped": True, "reason": f"{op.name} has no port"})
            try:
                return _run_port(op, launch, args, options), HOST_NOTE
            except NoHostRun as e:
                note = f"the port's kernel alone: its host code did not run ({e})"
            module = _ir(operator_rust_ir, op, index, side).module()
            args = _partitioned(op, index, args)
        program = compile_entry(module)
        memory, params = bind_args(program, args)
        start = time.perf_counter()
        run_program(program, memory, params, launch.grid, options)
    except (UnsupportedOp, OverBudget) as e:
        raise SideFailed({"skipped": True, "reason": str(e).splitlines()[0]}) from None
    except (InterpError, WorkbenchError) as e:
        raise SideFailed({"ok": False, "rel_error": None, "reason": f"{op.name}: {e}"}) from None
    return time.perf_counter() - start, note


def _run_port(op, launch, args: list, options) -> float:
    """The port's C call on the launch's arrays (in place), as the GPU check makes it."""
    kernel = load_operator_kernel(op)
    names = [p for p in kernel.params if p not in kernel.const_params]
    try:
        launches = run_port_host(op, dict(zip(names, args)), launch.consts, launch.grid,
                                 options, launch.hints)
    except SideFailed as failed:
        if "reason" in failed.outcome and not failed.outcome.get("skipped"):
            failed.outcome["reason"] = f"{op.name}: {failed.outcome['reason']}"
        raise
    return sum(run["seconds"] for run in launches)


def _partitioned(op, index: int, args: list) -> list:
    kernel = load_operator_kernel(op)
    names = [p for p in kernel.params if p not in kernel.const_params]
    tiles = partition_tiles(op, op.case(index))
    return [Partitioned(a, tiles[n]) if n in tiles else a for n, a in zip(names, args)]


def _ir(make, op, index: int, side: str):
    """The side's IR for the case: made once per specialization within one check (cases of
    the same dtypes, divisibility, constants and hints compile to the same IR; an assume the
    inputs break is still checked when it runs)."""
    if _IR_MADE is None:
        return make(op, index)
    case = op.case(index)
    scalars = tuple((math.gcd(s.value, 16), s.value in (0, 1)) if isinstance(s.value, int) else None
                    for s in case.args if not s.is_array)
    key = (side, op.name, tuple(spec_facts(a) for a in case.args if a.is_array), scalars,
           tuple(sorted(map(str, case.consts.items()))), tuple(sorted(case.hints.items())))
    if key not in _IR_MADE:
        _IR_MADE[key] = make(op, index)
    return _IR_MADE[key]


def _launch_args(launch, tensors: dict) -> list:
    args = []
    for bind in launch.args:
        spec = bind.spec
        if bind.source is not None and spec.is_list:
            args.append([as_numpy(t) for t in tensors[bind.source]])
        elif bind.source is not None:
            args.append(as_numpy(tensors[bind.source].view(spec.shape)))
        elif spec.is_array:                    # scratch the launcher allocates
            args.append(make_array(spec, np.random.default_rng(0), "nan"))
        else:
            args.append(spec.value)
    return args


def _tensors(rules, problem, torch, seed: int) -> dict:
    """The problem's tensors, filled as the GPU check fills them (`torch` is torch_cpu()'s,
    so they are made on the CPU)."""
    torch.manual_seed(seed)
    return make_tensors(rules, problem, torch)


def _reference(rules, problem, pristine: dict, torch) -> dict:
    path = rules.folder / "reference.py"
    spec = importlib.util.spec_from_file_location(f"wb_cpu_tgref_{rules.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names = inspect.signature(module.reference).parameters
    extra = ({"options": dict(problem.options)} if "options" in names else
             {k: v for k, v in problem.options.items() if k in names})
    return module.reference({n: clone(t) for n, t in pristine.items()}, torch, **extra)

