"""The CPU check of an own operator or a recorded kernel (cpu.py says what it runs): the case's
inputs, both sides run by the interpreter, each compared with the float64 reference (a recorded
kernel has none: the port is compared with the user's own kernel, the Python side)."""
from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import math
import time
from typing import NamedTuple

import numpy as np

from ..catalog import Operator
from ..errors import WorkbenchError
from ..interp import (InterpError, Options, OverBudget, Partitioned, UnsupportedOp,
                      bind_args, compile_entry, run_program)
from ..ir.stages import operator_python_ir
from ..rust.cargo import has_port
from ..rust.emit import operator_rust_ir
from ..rust.manifest import load_manifest
from ..rust.partitions import partition_tiles
from ..rust.tuned import tuned_case
from ..sources.kernel import load_operator_kernel
from ..sources.record import INOUT, Record
from .compare import AGAINST_RECORDED, DEFAULT_TOLERANCE
from .cpu_common import (SAMPLE_LIMIT, SideFailed, case_args, compared, copied, poisoned,
                         sample_fraction, too_many, written)
from .cuda_stub import NoHostRun
from .host_cpu import HOST_NOTE, kernels, run_port_host


def check_case(op: Operator, case, sides: list[str], seed: int,
               options: Options | None) -> dict:
    kernel = load_operator_kernel(op)
    names = [p for p in kernel.params if p not in kernel.const_params]
    outputs = [n for n in names if n in op.outputs]
    result = {"case": case.index, "label": case.label(), "sides": {}, "cross": None}
    count = sum(math.prod(a.shape) * (a.length or 1) for a in case.args
                if a.is_array or a.is_list)
    if too_many(count, SAMPLE_LIMIT):   # said before any array is made: it costs nothing
        result["sides"] = {s: {"skipped": True, "reason": too_many(count, SAMPLE_LIMIT)}
                           for s in sides}
        return result
    if sample_fraction(count):      # too large to run whole: a sample of its blocks
        options = dataclasses.replace(options or Options(), sample=sample_fraction(count))
        result["label"] += f" [sampled: {options.sample:.1%} of each launch's blocks]"
    record = Record.load(op.record["path"]) if op.record is not None else None
    # an array the kernel reads and then writes keeps its inputs: poisoned, both sides would
    # read NaN and agree on NaN
    poison = [n for n in outputs if n not in updated_in_place(op, record)]
    values = dict(zip(names, case_args(case.args, np.random.default_rng(seed),
                                       {names.index(n) for n in poison})))
    kept_inputs, kept_outputs = _kept(op, record, case)
    for name, bits in kept_inputs.items():
        values[name][...] = bits.view(values[name].dtype)
    produced, runs, launched = {}, {}, {}
    for side in sides:
        try:
            runs[side] = run_side(op, case, side, values, poison, options)
            produced[side], launched[side] = runs[side].values, runs[side].kernels
        except SideFailed as failed:
            result["sides"][side] = failed.outcome
            launched[side] = failed.kernels
    tolerance = _tolerance(op, record, case, names, outputs)
    expected = _expected(op, values, outputs, produced)
    kept = {n: b.view(values[n].dtype) for n, b in kept_outputs.items()}
    tuned = tuned_case(op, case)[2] if "rust" in runs and runs["rust"].host == HOST_NOTE \
        else None
    where = _sampled_where(produced, outputs, tuned) if options and options.sample else {}
    for side, got in produced.items():
        result["sides"][side] = _judged(op, side, got, expected or kept, produced, outputs,
                                        tolerance, where.get(side))
        result["sides"][side]["seconds"] = runs[side].seconds
        if runs[side].host:
            result["sides"][side]["host"] = runs[side].host
    if tuned:
        result["tuned"] = {"consts": tuned.consts, "hints": tuned.hints}
    # the launches each side made, as the GPU check records them (the owner compares them)
    result["launches"] = {side: {"kernels": made} for side, made in launched.items() if made}
    if "python" in produced and "rust" in produced:
        result["cross"] = compared(produced["rust"], produced["python"], outputs, tolerance,
                                   where.get("cross"))
    return result


def _sampled_where(produced: dict, outputs: list[str], tuned) -> dict:
    """By side (and "cross"), the elements a sampled run compares: where the Python side's
    blocks wrote, the same blocks on both sides. A port tuned to other tile sizes runs
    other blocks: each side is then judged where it wrote, and the two where both did (its
    tuned launch was checked whole on a GPU before it was kept)."""
    shared = written(produced, outputs)
    if not (tuned and tuned.consts):
        return {"python": shared, "rust": shared, "cross": None}
    own = {side: written({side: got}, outputs) for side, got in produced.items()}
    both = {n: m & own.get("rust", {}).get(n) if m is not None and
            own.get("rust", {}).get(n) is not None else None
            for n, m in own.get("python", {}).items()}
    return {**own, "cross": both}


def _kept(op: Operator, record: Record | None, case) -> tuple[dict, dict]:
    """The values a recorded case's first launch kept (inputs, outputs), if it kept any."""
    if record is None:
        return {}, {}
    first = next(i for i in op.record["launches"] if op.record["case_of"][str(i)] == case.index)
    return record.kept_values(record.launches[first]) or ({}, {})


def _tolerance(op: Operator, record: Record | None, case, names: list[str],
               outputs: list[str]) -> float:
    """The catalog's tolerance for the case's dtype; a recorded kernel's is the loosest its
    outputs allow (the record's own, else their dtypes')."""
    if record is None:
        return op.tolerance.get(next(a.dtype for a in case.args if a.is_array),
                                DEFAULT_TOLERANCE["f32"])
    first = record.launches[op.record["launches"][0]]
    own = {a.name: a.tolerance for a in first.runtime if a.tolerance}
    return max((own.get(n) or DEFAULT_TOLERANCE.get(case.args[names.index(n)].dtype, 1e-5)
                for n in outputs), default=DEFAULT_TOLERANCE["f32"])


def _judged(op: Operator, side: str, got: dict, expected: dict | None, produced: dict,
            outputs: list[str], tolerance: float, where: dict | None) -> dict:
    """A side against the float64 reference (`where`: only at those elements, a sampled
    run's). A recorded kernel has none: the user's own kernel (the Python side) is judged
    against what it wrote on the GPU when the call was recorded (where the record kept it),
    and the port against the user's kernel, as on the GPU."""
    if op.record is None:
        return compared(got, expected, outputs, tolerance, where) if expected is not None \
            else {"ok": True, "rel_error": None, "reason": "ran; no reference to compare with"}
    if side == "python":
        if not expected:
            return {"ok": True, "rel_error": None, "note": "the recorded kernel: the reference"}
        return {**compared(got, expected, outputs, tolerance, where),
                "note": AGAINST_RECORDED}
    reference = produced.get("python")
    if reference is not None:           # the same blocks ran on both sides: every element
        return compared(got, reference, outputs, tolerance)
    if not expected:
        return {"ok": True, "rel_error": None, "reason": "ran; no reference to compare with"}
    return compared(got, expected, outputs, tolerance, where)


def updated_in_place(op: Operator, record: Record | None) -> set[str]:
    """The arrays a recorded kernel reads and writes (role inout in its launches)."""
    if record is None:
        return set()
    mine = set(op.record["launches"])
    return {a.name for launch in record.launches if launch.index in mine
            for a in launch.args if a.role == INOUT}


class SideRun(NamedTuple):
    values: dict            # the side's arrays by name, after the run
    seconds: float          # the interpreter's time
    host: str               # how the side ran, where it matters (the Rust side's host code)
    kernels: list           # the launches: {name, grid}


def run_side(op: Operator, case, side: str, values: dict, outputs: list[str],
             options: Options | None, grid: tuple | None = None) -> SideRun:
    """One side run on its own copy of the inputs (`values` in the kernel's parameter order).
    `grid`: the launch's, where the caller has it (a Triton kernel's), else the case's or the
    port's own. The Rust side is the port's own C call (host_cpu.py), its kernel alone only
    where that cannot run here (`host` says so)."""
    mine = {n: poisoned(v) if n in outputs else copied(v) for n, v in values.items()}
    if side == "rust":
        if not has_port(op):
            raise SideFailed({"skipped": True, "reason": "no port"})
        try:
            launch_grid = grid or (_guarded(lambda: python_grid(op, case, mine))
                                   if load_manifest(op).launch else None)
            consts, hints, _ = tuned_case(op, case)      # the port as it serves this shape
            launches = run_port_host(op, mine, consts, launch_grid, options, hints)
            return SideRun(mine, sum(launch["seconds"] for launch in launches), HOST_NOTE,
                           kernels(launches))
        except NoHostRun as e:
            note = f"the port's kernel alone: its host code did not run ({e})"
        module = _guarded(lambda: operator_rust_ir(op, case.index).module())
        args, own_grid = _guarded(lambda: rust_launch(op, case, mine, grid))
        return _interpreted(mine, module, args, grid or own_grid, options, note)
    module = _guarded(lambda: operator_python_ir(op, case.index).module())
    grid = grid or _guarded(lambda: python_grid(op, case, mine))
    return _interpreted(mine, module, list(mine.values()), grid, options, "")


def _interpreted(values: dict, module, args: list, grid: tuple, options: Options | None,
                 host: str) -> SideRun:
    seconds = _interpret(module, args, grid, options)
    grid = [int(g) for g in grid] + [1] * (3 - len(grid))
    return SideRun(values, seconds, host, [{"name": module.entries[0].symbol, "grid": grid}])


def _interpret(module, args: list, grid: tuple, options: Options | None) -> float:
    """Run the module's entry on `args` over `grid`; the seconds it ran."""
    def run() -> float:
        program = compile_entry(module)
        memory, params = bind_args(program, args)
        start = time.perf_counter()
        run_program(program, memory, params, grid, options)
        return time.perf_counter() - start
    return _guarded(run)


def _guarded(work):
    """work(), with the interpreter's and the workbench's errors as the side's outcome."""
    try:
        return work()
    except (UnsupportedOp, OverBudget) as e:
        raise SideFailed({"skipped": True, "reason": str(e).splitlines()[0]}) from None
    except (InterpError, WorkbenchError) as e:
        raise SideFailed({"ok": False, "rel_error": None, "reason": str(e)}) from None


def python_grid(op: Operator, case, values: dict) -> tuple:
    """The case's launch grid: the catalog's (TileGym entries, records), else kernel.py's grid()."""
    if case.grid is not None:
        return tuple(case.grid)
    spec = importlib.util.spec_from_file_location(f"wb_cpu_grid_{op.name}", op.kernel_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, "grid"):
        raise WorkbenchError(f"{op.kernel_file}: no grid() and no recorded grid for case "
                             f"{case.index}", "define grid(...) beside the kernel")
    known = {**values, **case.consts}
    return tuple(module.grid(**{n: known[n] for n in inspect.signature(module.grid).parameters}))


def rust_launch(op: Operator, case, values: dict, grid: tuple | None = None) -> tuple[list, tuple]:
    """The Rust entry's arguments (partitioned outputs wrapped with their tile) and grid: the
    caller's or the case's where the port's call carries its launch, else the first
    partition's."""
    tiles = partition_tiles(op, case)
    args = [Partitioned(v, tiles[n]) if n in tiles else v for n, v in values.items()]
    if grid is not None:
        return args, grid
    if load_manifest(op).launch or not tiles:
        return args, python_grid(op, case, values)
    name, tile = next(iter(tiles.items()))
    counts = [math.ceil(d / t) for d, t in zip(values[name].shape, tile)]
    return args, tuple(counts + [1] * (3 - len(counts)))


def _expected(op: Operator, values: dict, outputs: list[str], produced: dict) -> dict | None:
    """The float64 reference's outputs by name (kernels_src/<op>/reference.py); None for a
    kernel with none (a recorded kernel: the user's own kernel, the Python side, is it)."""
    path = op.folder / "reference.py"
    if op.record is not None or not path.exists():
        return None
    import torch
    spec = importlib.util.spec_from_file_location(f"wb_cpu_ref_{op.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names = inspect.signature(module.reference).parameters
    # only what the reference takes: a NaN-filled f16 output converts about 60x slower
    given = {n: torch.from_numpy(np.asarray(values[n], np.float64))
             if isinstance(values[n], np.ndarray) else values[n] for n in names}
    out = module.reference(**given)
    return {outputs[0]: out.numpy()}
