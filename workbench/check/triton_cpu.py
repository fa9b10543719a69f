"""A translation checked against Triton itself with no GPU (issue 35): the Triton kernel run by
Triton's own interpreter (`TRITON_INTERPRET=1`, NumPy on the CPU) in a worker process, and the
derived cuTile kernel and the Rust port run by the Tile IR interpreter on the same inputs and
grid; both compared with the Triton kernel's outputs, in the Triton GPU check's report shape
(sides `triton`, `derived`, `rust`).

    response = check_translation_on_cpu(target, derived_op)       # parent
    python -m workbench.check.triton_cpu REQUEST.json              # the worker (Triton side)

The worker reads the inputs from an .npz the parent wrote, and writes the outputs back to one.
"""
from __future__ import annotations

import ast
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
from ..errors import ToolTimeout, WorkbenchError
from ..sources.kernel import load_operator_kernel
from ..tools import run_tool
from ..translate.targets import TritonTarget
from .cpu_common import (DEVICE, ML_FLOATS, SideFailed, as_numpy, compared, make_array,
                         response_of, too_large)
from .cpu_own import run_side
from .triton_launch import case_tolerance, grid_of, triton_launcher

TRITON_TIMEOUT_S = 600


def check_translation_on_cpu(target, op, seed: int = 0):
    """The derived kernel and the port against the Triton kernel, every case, on the CPU."""
    results = [_check_case(target, op, case, seed) for case in target.cases]
    response = response_of(results)
    response.device = {**DEVICE, "name": DEVICE["name"] + "; Triton's TRITON_INTERPRET=1"}
    return response


def _check_case(target, op, case, seed: int) -> dict:
    values = triton_inputs(target, case, np.random.default_rng(seed))
    result = {"case": case.index, "label": case.label(), "sides": {}, "cross": None,
              "reference": "triton"}
    budget = too_large([v for v in values.values() if isinstance(v, np.ndarray)])
    if budget:
        result["sides"] = {s: {"skipped": True, "reason": budget}
                           for s in ("triton", "derived", "rust")}
        return result
    # outputs unknown (a kernel named by file): every array is compared after the run
    outputs = list(target.outputs) or [n for n, v in values.items() if isinstance(v, np.ndarray)]
    try:
        grid = grid_of(target, values, case)
    except WorkbenchError as e:
        result["sides"] = {"triton": {"skipped": True, "reason": str(e).splitlines()[0]}}
        return result
    expected, why = run_triton(target, case, values, outputs)
    if expected is None:
        result["sides"] = {"triton": {"skipped": True, "reason": why}}
        return result
    result["sides"]["triton"] = {"ok": True, "rel_error": 0.0, "reason": "the reference"}
    derived_case = op.case(case.index)
    params = _derived_params(op)
    ordered = {p: values[p] for p in params}
    tolerance = case_tolerance(target, case, op.tolerance)
    for side, interp_side in (("derived", "python"), ("rust", "rust")):
        try:
            poisoned = [n for n in target.outputs if n not in target.inplace]
            got = run_side(op, derived_case, interp_side, ordered, poisoned, None, grid).values
        except SideFailed as failed:
            result["sides"][side] = failed.outcome
            continue
        result["sides"][side] = compared(got, expected, [n for n in outputs if n in got],
                                         tolerance)
    return result


def _derived_params(op) -> list[str]:
    kernel = load_operator_kernel(op)
    return [p for p in kernel.params if p not in kernel.const_params]


def triton_inputs(target, case, rng) -> dict:
    """One NumPy array per pointer parameter (outputs NaN unless updated in place, arrays
    only atomics touch zero), one value per scalar, by Triton parameter name, as the GPU
    check makes them."""
    source = target.source()
    zeroed, values = source.atomic_only_params, {}
    for p, spec in zip(source.runtime_params, case.args):
        if not spec.is_array:
            values[p.name] = spec.value
            continue
        fill = "zeros" if p.name in zeroed else \
            "nan" if p.name in target.outputs and p.name not in target.inplace else "randn"
        values[p.name] = make_array(spec, rng, fill)
    return values


def run_triton(target, case, values: dict, outputs: list[str]) -> tuple[dict | None, str]:
    """(the Triton kernel's outputs by name, '') or (None, why it did not run), from a worker
    with TRITON_INTERPRET=1 (set before triton is imported: hence a process of its own)."""
    with tempfile.TemporaryDirectory(prefix="wb-triton-cpu-") as tmp:
        inputs, written = Path(tmp) / "in.npz", Path(tmp) / "out.npz"
        save_arrays(inputs, {k: v for k, v in values.items() if isinstance(v, np.ndarray)})
        request = {"target": target.to_json(), "case": case.index, "inputs": str(inputs),
                   "outputs": str(written), "names": outputs,
                   "scalars": {k: v for k, v in values.items() if not isinstance(v, np.ndarray)}}
        env = {**os.environ, "TRITON_INTERPRET": "1"}
        try:
            proc = run_tool([sys.executable, "-m", "workbench.check.triton_cpu"],
                            input=json.dumps(request), text=True, timeout=TRITON_TIMEOUT_S,
                            check=False, env=env, name="Triton interpreter worker")
        except ToolTimeout:
            return None, f"Triton's interpreter did not finish in {TRITON_TIMEOUT_S} s"
        if proc.returncode != 0 or not written.exists():
            tail = (proc.stderr or proc.stdout or "").strip().splitlines()[-3:]
            return None, "Triton's interpreter could not run the kernel: " + " | ".join(tail)
        return load_arrays(written), ""


# bf16 and fp8 (ml_dtypes) travel as their bits: .npz keeps only NumPy's own dtypes
def save_arrays(path: Path, arrays: dict) -> None:
    payload = {}
    for name, a in arrays.items():
        dense = np.ascontiguousarray(a)
        if dense.dtype in ML_FLOATS:
            payload[f"{name}::{dense.dtype.name}"] = dense.view(f"u{dense.dtype.itemsize}")
        else:
            payload[name] = dense
    np.savez(path, **payload)


def load_arrays(path: Path) -> dict:
    import ml_dtypes
    out = {}
    with np.load(path) as data:
        for key in data.files:
            name, _, dtype = key.partition("::")
            out[name] = data[key].view(getattr(ml_dtypes, dtype)) if dtype else data[key]
    return out


# -- the worker (Triton's interpreter) -------------------------------------------------------

def main() -> int:
    request = json.loads(sys.stdin.read())
    import torch
    _patch_interpreter()
    target = TritonTarget.from_json(request["target"])
    case = next(c for c in target.cases if c.index == request["case"])
    specs = dict(zip((p.name for p in target.source().runtime_params), case.args))
    values = {name: _laid_out(_tensor(a, torch), specs[name], torch)
              for name, a in load_arrays(Path(request["inputs"])).items()}
    values.update(request["scalars"])
    triton_launcher(target, torch)(values, case)
    save_arrays(Path(request["outputs"]),
                {name: _array(values[name], torch) for name in request["names"]})
    return 0


def _tensor(array: np.ndarray, torch):
    if array.dtype in ML_FLOATS:
        bits = torch.from_numpy(array.view(f"i{array.dtype.itemsize}").copy())
        return bits.view({"bfloat16": torch.bfloat16, "float8_e4m3fn": torch.float8_e4m3fn,
                          "float8_e5m2": torch.float8_e5m2}[array.dtype.name])
    return torch.from_numpy(array.copy())


def _patch_interpreter() -> None:
    """Gaps of Triton 3.6's interpreter, filled so it runs kernels as people write them:
    libdevice functions (extern calls it cannot make) become tl's own math of the same
    function; a scalar argument reads as an index (`range(n)` asks int() of its one-element
    array, which NumPy 2 refuses); and a dtype called as a scalar constructor
    (`tl.float32(-float("inf"))`, which earlier Tritons compiled and 3.6 refuses) makes a
    0-d tensor of that dtype (a tensor argument: cast to it); a float argument is fp32, and
    bf16 arithmetic is f32's rounded to bf16 (below)."""
    import triton.language as tl
    from triton.language.extra import libdevice
    from triton.runtime import interpreter

    def tanh(x):
        e = tl.exp(-2.0 * tl.abs(x))
        return tl.where(x >= 0, (1.0 - e) / (1.0 + e), (e - 1.0) / (1.0 + e))

    # looked up in tl at each call: the interpreter patches tl's builtins while a kernel runs
    same = {name: (lambda *a, n=name: getattr(tl, n)(*a))
            for name in ("exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "floor",
                         "ceil", "erf", "fma", "abs")}
    stand_ins = {**same, "fabs": same["abs"], "tanh": tanh, "fast_expf": same["exp"],
                 "fast_logf": same["log"], "sigmoid": lambda x: 1.0 / (1.0 + tl.exp(-x)),
                 "pow": lambda x, y: tl.exp2(y * tl.log2(x)),      # a base > 0 only
                 "fast_powf": lambda x, y: tl.exp2(y * tl.log2(x))}
    for name, fn in stand_ins.items():
        setattr(libdevice, name, fn)
    tl.dtype.__call__ = lambda self, value: value.to(self) if isinstance(value, tl.tensor) \
        else tl.full((), value, self)
    _float_arguments_as_f32(interpreter)
    _loop_variables_as_tensors(interpreter)
    _bf16_arithmetic_in_f32(interpreter, tl)
    original = interpreter._patch_lang_tensor

    def index_from_one(tensor, scope):
        original(tensor, scope)
        scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.reshape(-1)[0]))
    interpreter._patch_lang_tensor = index_from_one


def _loop_variables_as_tensors(interpreter) -> None:
    """Compiled Triton's `for i in range(n)` (and `tl.range`) gives an i32 tensor, so kernels
    write `i.to(tl.int64)`; the interpreter gives a Python int. Its own AST rewrite (each
    assignment's value made a tensor) is extended: the loop body starts with `i = i`, made a
    tensor the same way. `tl.static_range` stays a Python int, as it is compiled."""
    transformer = interpreter.ASTTransformer

    def visit_for(self, node):
        self.generic_visit(node)
        func = node.iter.func if isinstance(node.iter, ast.Call) else None
        ranged = isinstance(func, ast.Name) and func.id == "range" or \
            isinstance(func, ast.Attribute) and func.attr == "range"
        if ranged and isinstance(node.target, ast.Name):
            name = node.target.id
            node.body.insert(0, ast.parse(
                f"{name} = interpreter_semantic.to_tensor({name}, False)").body[0])
        return node
    transformer.visit_For = visit_for


def _float_arguments_as_f32(interpreter) -> None:
    """A float argument is an fp32 scalar to compiled Triton (`eps.to(tl.float32)` works);
    the interpreter wraps ints as tensors and leaves floats plain Python floats."""
    import triton.language as tl
    wrap = interpreter._implicit_cvt

    def implicit_cvt(arg):
        if isinstance(arg, float):
            return tl.tensor(interpreter.TensorHandle(np.array([arg], np.float32), tl.float32),
                             tl.float32)
        return wrap(arg)
    interpreter._implicit_cvt = implicit_cvt


def _bf16_arithmetic_in_f32(interpreter, tl) -> None:
    """The interpreter holds bf16 as its raw 16 bits and applies NumPy's binary ops,
    reductions and `tl.dot` to those integers, and has no bf16 constant (`get_bf16`); on a
    GPU a bf16 op is the f32 op rounded to bf16 (nearest even), and a bf16 dot multiplies
    the values, accumulating in the accumulator's type."""
    builder = interpreter.InterpreterBuilder
    binary = builder.binary_op

    def binary_op(self, lhs, rhs, op):
        if lhs.dtype.scalar != tl.bfloat16 or rhs.dtype.scalar != tl.bfloat16:
            return binary(self, lhs, rhs, op)
        out = op(_widened(lhs.data), _widened(rhs.data))
        if out.dtype == np.bool_:
            return interpreter.TensorHandle(out, tl.int1)
        return interpreter.TensorHandle(_bf16_bits(out), tl.bfloat16)
    builder.binary_op = binary_op
    builder.get_bf16 = lambda self, value: interpreter.TensorHandle(
        _bf16_bits(np.array([value], np.float32)), tl.bfloat16)
    dot = builder.create_dot

    def create_dot(self, a, b, d, *precision):
        # a bf16 operand's bits would be multiplied as integers: its f32 values instead
        if tl.bfloat16 not in (a.dtype.scalar, b.dtype.scalar):
            return dot(self, a, b, d, *precision)
        wide = [_widened(x.data) if x.dtype.scalar == tl.bfloat16 else x.data for x in (a, b)]
        out = np.matmul(*wide, dtype=np.float32).astype(d.data.dtype) + d.data
        return interpreter.TensorHandle(out, d.dtype.scalar)
    builder.create_dot = create_dot
    _bf16_reductions_in_f32(interpreter.ReduceOps, tl)


def _bf16_reductions_in_f32(ops, tl) -> None:
    total, extreme = ops.sum, ops.min_max

    def sum_(self, input):
        if input.dtype.scalar != tl.bfloat16:
            return total(self, input)
        out = np.sum(_widened(input.handle.data), axis=self.axis, keepdims=self.keep_dims)
        return self.to_tensor(_bf16_bits(out), input.dtype)

    def min_max(self, input, val_reduce_op, idx_reduce_op=None):
        value = input[0] if isinstance(input, tuple) else input
        if value.dtype.scalar != tl.bfloat16:
            return extreme(self, input, val_reduce_op, idx_reduce_op)
        wide = _widened(value.handle.data)
        found = []
        if val_reduce_op:
            picked = val_reduce_op(wide, axis=self.axis, keepdims=self.keep_dims)
            found.append(self.to_tensor(_bf16_bits(picked), value.dtype))
        if idx_reduce_op:
            found.append(self.to_tensor(idx_reduce_op(wide, axis=self.axis,
                                                       keepdims=self.keep_dims), tl.int32))
        return tuple(found) if len(found) == 2 else found[0]
    ops.sum, ops.min_max = sum_, min_max


def _widened(bits) -> np.ndarray:
    """bf16 bits as the f32 values they are."""
    return (np.asarray(bits).astype(np.uint32) << 16).view(np.float32)


def _bf16_bits(values) -> np.ndarray:
    """f32 values rounded to bf16 (nearest even; NaN stays NaN), as bits; a 0-d stays 0-d."""
    x = np.array(values, dtype=np.float32)
    u = x.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(x), np.uint16(0x7FC0), rounded).astype(np.uint16)


def _laid_out(dense, spec, torch):
    """`dense` copied into a view with the spec's strides and offset (a bigger buffer, as the
    GPU check makes it): the kernel gets the strides the case names."""
    strides = spec.effective_strides()
    extent = spec.offset + sum((d - 1) * s for d, s in zip(spec.shape, strides)) + 1
    base = torch.full((extent,), float("nan"), dtype=dense.dtype) if dense.is_floating_point() \
        else torch.zeros(extent, dtype=dense.dtype)
    view = base.as_strided(spec.shape, strides, spec.offset)
    view.copy_(dense)
    return view


def _array(tensor, torch) -> np.ndarray:
    return as_numpy(tensor.contiguous())


if __name__ == "__main__":
    sys.exit(main())
