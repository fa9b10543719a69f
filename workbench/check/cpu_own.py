"""The CPU check of an own operator or a recorded kernel (cpu.py says what it runs): the case's
inputs, both sides run by the interpreter, each compared with the float64 reference (a recorded
kernel has none: the port is compared with the user's own kernel, the Python side)."""
from __future__ import annotations

import importlib.util
import inspect
import math
import time

import numpy as np

from ..catalog import Operator
from ..errors import WorkbenchError
from ..interp import (InterpError, Options, Partitioned, UnsupportedOp, bind_args,
                      compile_entry, run_program)
from ..ir.stages import operator_python_ir
from ..rust.cargo import has_port
from ..rust.emit import operator_rust_ir
from ..rust.manifest import load_manifest
from ..rust.partitions import partition_tiles
from ..sources.kernel import load_operator_kernel
from ..sources.record import Record
from .compare import AGAINST_RECORDED, DEFAULT_TOLERANCE
from .cpu_common import SideFailed, case_args, compared, copied, poisoned, too_many


def check_case(op: Operator, case, sides: list[str], seed: int,
               options: Options | None) -> dict:
    kernel = load_operator_kernel(op)
    names = [p for p in kernel.params if p not in kernel.const_params]
    outputs = [n for n in names if n in op.outputs]
    result = {"case": case.index, "label": case.label(), "sides": {}, "cross": None}
    budget = too_many(sum(math.prod(a.shape) * (a.length or 1) for a in case.args
                          if a.is_array or a.is_list))
    if budget:              # said before any array is made: a big case costs nothing
        result["sides"] = {s: {"skipped": True, "reason": budget} for s in sides}
        return result
    values = dict(zip(names, case_args(case.args, np.random.default_rng(seed),
                                       {names.index(n) for n in outputs})))
    record = Record.load(op.record["path"]) if op.record is not None else None
    kept_inputs, kept_outputs = _kept(op, record, case)
    for name, bits in kept_inputs.items():
        values[name][...] = bits.view(values[name].dtype)
    produced, seconds = {}, {}
    for side in sides:
        try:
            produced[side], seconds[side] = run_side(op, case, side, values, outputs, options)
        except SideFailed as failed:
            result["sides"][side] = failed.outcome
    tolerance = _tolerance(op, record, case, names, outputs)
    expected = _expected(op, values, outputs, produced)
    kept = {n: b.view(values[n].dtype) for n, b in kept_outputs.items()}
    for side, got in produced.items():
        result["sides"][side] = _judged(op, side, got, expected or kept, produced, outputs,
                                        tolerance)
        result["sides"][side]["seconds"] = seconds[side]
    if "python" in produced and "rust" in produced:
        result["cross"] = compared(produced["rust"], produced["python"], outputs, tolerance)
    return result


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
            outputs: list[str], tolerance: float) -> dict:
    """A side against the float64 reference. A recorded kernel has none: the user's own
    kernel (the Python side) is judged against what it wrote on the GPU when the call was
    recorded (where the record kept it), and the port against the user's kernel, as on the
    GPU."""
    if op.record is None:
        return compared(got, expected, outputs, tolerance) if expected is not None else \
            {"ok": True, "rel_error": None, "reason": "ran; no reference to compare with"}
    if side == "python":
        if not expected:
            return {"ok": True, "rel_error": None, "note": "the recorded kernel: the reference"}
        return {**compared(got, expected, outputs, tolerance),
                "note": AGAINST_RECORDED}
    reference = produced.get("python") or expected
    if not reference:
        return {"ok": True, "rel_error": None, "reason": "ran; no reference to compare with"}
    return compared(got, reference, outputs, tolerance)


def run_side(op: Operator, case, side: str, values: dict, outputs: list[str],
             options: Options | None, grid: tuple | None = None) -> tuple[dict, float]:
    """One side run on its own copy of the inputs (`values` in the kernel's parameter order):
    its arrays by name, and the seconds the interpreter ran. `grid`: the launch's, where the
    caller has it (a Triton kernel's), else the case's or the port's own."""
    mine = {n: poisoned(v) if n in outputs else copied(v) for n, v in values.items()}
    try:
        if side == "python":
            module = operator_python_ir(op, case.index).module()
            args = list(mine.values())
            grid = grid or python_grid(op, case, mine)
        else:
            if not has_port(op):
                raise SideFailed({"skipped": True, "reason": "no port"})
            module = operator_rust_ir(op, case.index).module()
            args, own_grid = rust_launch(op, case, mine, grid)
            grid = grid or own_grid
        program = compile_entry(module)
        memory, params = bind_args(program, args)
        start = time.perf_counter()
        run_program(program, memory, params, grid, options)
    except UnsupportedOp as e:
        raise SideFailed({"skipped": True, "reason": str(e).splitlines()[0]}) from None
    except (InterpError, WorkbenchError) as e:
        raise SideFailed({"ok": False, "rel_error": None, "reason": str(e)}) from None
    return mine, time.perf_counter() - start


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
    given = {n: torch.from_numpy(np.asarray(v, np.float64)) if isinstance(v, np.ndarray) else v
             for n, v in values.items()}
    names = inspect.signature(module.reference).parameters
    out = module.reference(**{n: given[n] for n in names})
    return {outputs[0]: out.numpy()}
