"""Launchers of the three sides of a Triton port on the GPU: the Triton kernel (its
JITFunction from the reduced module; tensor descriptors built from the case's :block=), the
derived cuTile Python kernel (ct.launch on the same grid) and the Rust port (the C ABI)."""
from __future__ import annotations

import math

from ..errors import WorkbenchError
from .compare import DEFAULT_TOLERANCE
from ..rust.ffi import rust_launcher
from ..sources.kernel import load_operator_kernel

TORCH_DTYPES = {"f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16",
                "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8",
                "u16": "uint16", "u32": "uint32", "u64": "uint64"}


def make_inputs(target, case, torch) -> dict:
    """One tensor per pointer/descriptor parameter (random; outputs that are not read are
    NaN-poisoned, arrays only atomics touch zero), one value per scalar, by Triton parameter
    name."""
    source = target.source()
    zeroed, values = source.atomic_only_params, {}
    for p, spec in zip(source.runtime_params, case.args):
        if not spec.is_array:
            values[p.name] = spec.value
            continue
        dtype = getattr(torch, TORCH_DTYPES[spec.dtype])
        strides = spec.effective_strides()
        extent = spec.offset + sum((d - 1) * s for d, s in zip(spec.shape, strides)) + 1
        base = torch.empty(extent, dtype=dtype, device="cuda")
        if p.name in zeroed:
            base.zero_()
        elif p.name in target.outputs and p.name not in target.inplace:
            base.fill_(float("nan")) if dtype.is_floating_point else base.fill_(0)
        elif dtype.is_floating_point:
            base.copy_(torch.randn(extent, dtype=torch.float32, device="cuda") + 0.01)
        else:
            base.copy_(torch.randint(0, max(2, min(spec.shape)), (extent,), device="cuda"))
        values[p.name] = base.as_strided(spec.shape, strides, spec.offset)
    return values


def grid_of(target, values: dict, case) -> tuple:
    if case.grid is not None:           # a recorded launch's own grid
        return tuple(case.grid)
    if target.grid is None:
        raise WorkbenchError(f"{target.label}: no launch grid is known for case {case.index}",
                             "record your host code's launch (`workbench record SCRIPT.py`), "
                             "then port and check with --record")
    env = {"cdiv": lambda a, b: -(-a // b), "min": min, "max": max, "math": math,
           **case.consts, **values}
    grid = eval(target.grid, {"__builtins__": {}}, env)    # the catalog's own expression
    return tuple(grid) + (1,) * (3 - len(grid))


def jit_kernel(fn):
    """The JITFunction under @autotune / @heuristics wrappers (their `.fn`), launched with the
    case's own constants; a JITFunction's own `.fn` is the plain Python function."""
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction
    # under TRITON_INTERPRET=1 (check/triton_cpu.py) @triton.jit makes InterpretedFunctions
    while not isinstance(fn, (JITFunction, InterpretedFunction)) and hasattr(fn, "fn"):
        fn = fn.fn
    return fn


def triton_launcher(target, torch):
    from triton.tools.tensor_descriptor import TensorDescriptor
    source = target.source()
    fn = jit_kernel(source.jit_function())
    runtime = source.runtime_params
    defaults = {p.name: p.default for p in source.constexpr_params if p.has_default}

    def launch(values: dict, case) -> None:
        # by name: a tl.constexpr may sit between runtime parameters
        args = {}
        for p, spec in zip(runtime, case.args):
            v = values[p.name]
            if spec.is_array and spec.block:
                v = TensorDescriptor(v, list(v.shape), list(v.stride()), list(spec.block))
            args[p.name] = v
        grid = grid_of(target, values, case)
        fn[grid](**args, **{**defaults, **case.consts})
    return launch


def case_tolerance(target, case, tolerance: dict) -> float:
    """The loosest tolerance of the case's written arrays' dtypes: `tolerance`'s (the derived
    operator's), else the dtype's default (a bf16 output is within one bf16 step, not f32's)."""
    written = [spec.dtype for p, spec in zip(target.source().runtime_params, case.args)
               if p.name in target.outputs] or [case.args[0].dtype]
    return max(tolerance.get(d, DEFAULT_TOLERANCE.get(d, 1e-5)) for d in written)


def derived_launcher(target, op, torch):
    import cuda.tile as ct
    kernel = load_operator_kernel(op)

    def launch(values: dict, case) -> None:
        derived = op.case(case.index)
        args = [derived.consts[p] if p in kernel.const_params else values[p]
                for p in kernel.params]
        ct.launch(torch.cuda.current_stream(), grid_of(target, values, case), kernel.kernel,
                  tuple(args))
    return launch


def rust_side(target, op, library, torch):
    """The Rust port on the Triton kernel's grid, as the derived kernel is launched (a port
    without a partitioned output has no grid of its own to infer)."""
    inner = rust_launcher(op, library, torch)

    def launch(values: dict, case) -> None:
        inner(values, op.case(case.index).consts, torch.cuda.current_stream(),
              grid=grid_of(target, values, case))
    return launch


def launchers(target, op, library, torch) -> dict:
    sides = {"triton": triton_launcher(target, torch), "derived": None, "rust": None}
    try:
        sides["derived"] = derived_launcher(target, op, torch)
    except Exception:
        sides["derived"] = None
    if library:
        sides["rust"] = rust_side(target, op, library, torch)
    return sides
