"""Facts and hints weakened at the source, exported for real: the Python kernel compiled
by cuda-tile for a case's call (the reference) and for the same call with one fact or hint
weakened (standing in for a port that lost it). Both sides are real bytecode, so both can
be compiled to SASS and the diff can be judged with machine-code evidence."""
from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

from workbench.catalog import Operator
from workbench.ir.signature import kernel_signature
from workbench.sources.kernel import load_kernel, load_operator_kernel
from workbench.target import BYTECODE_VERSION, TARGET


def export(kernel_obj, name, params, consts_names, args, consts, edit=None) -> bytes:
    """Bytecode for one call; `edit(constraints) -> constraints` changes the signature."""
    from cuda.tile.compilation import CallingConvention, KernelSignature, export_kernel
    signature = kernel_signature(name, params, consts_names, args, consts)
    if edit is not None:
        constraints = edit(_constraints(signature))
        signature = KernelSignature(constraints, CallingConvention.cutile_python_v1()) \
            .with_mangled_symbol(name)
    buffer = io.BytesIO()
    export_kernel(kernel_obj, [signature], buffer, output_format="tileir_bytecode",
                  gpu_code=TARGET, bytecode_version=BYTECODE_VERSION)
    return buffer.getvalue()


def _constraints(signature) -> list:
    return list(signature.parameters)


def _first_array(edit_array):
    def edit(constraints):
        for i, c in enumerate(constraints):
            if dataclasses.is_dataclass(c) and hasattr(c, "base_addr_divisible_by"):
                new = edit_array(c)
                if new is None:
                    return None
                constraints[i] = new
                return constraints
        return None
    return edit


def _replace_divisor(field):
    def edit(c):
        values = getattr(c, field)
        values = list(values) if isinstance(values, (list, tuple)) else [values]
        hit = next((i for i, v in enumerate(values) if v and v > 1), None)
        if hit is None:
            return None
        values[hit] = 1
        return dataclasses.replace(c, **{field: values})
    return edit


SIGNATURE_WEAKENINGS = {
    # name -> (edit of the first array's ArrayConstraint, fact kind of the finding)
    "base": (lambda c: dataclasses.replace(c, base_addr_divisible_by=1)
             if c.base_addr_divisible_by > 1 else None, "div_by"),
    "shape": (_replace_divisor("shape_divisible_by"), "div_by"),
    "stride": (_replace_divisor("stride_divisible_by"), "div_by"),
    "unit_stride": (lambda c: dataclasses.replace(c, stride_constant=[None] * c.ndim,
                                                  stride_lower_bound_incl=0)
                    if any(v == 1 for v in (c.stride_constant or [])) else None, "layout"),
}


def _load_with(source: str, extra: str) -> str | None:
    """The kernel source with `extra` keyword arguments on its first ct.load."""
    match = re.search(r"ct\.load\(", source)
    if not match:
        return None
    depth, i = 1, match.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(source[i], 0)
        i += 1
    return source[:i - 1] + f", {extra}" + source[i - 1:]


def mutations(op: Operator, case_index: int, tmp: Path) -> dict[str, tuple[bytes, bytes, str]]:
    """name -> (reference bytecode, weakened bytecode, fact kind) for one case."""
    kernel = load_operator_kernel(op)
    case = op.case(case_index)
    args, consts = list(case.args), case.consts
    call = (kernel.name, kernel.params, kernel.const_params, args, consts)
    reference = export(kernel.kernel, *call)
    out = {}
    for name, (edit_array, kind) in SIGNATURE_WEAKENINGS.items():
        edit = _first_array(edit_array)
        constraints = edit(_constraints(kernel_signature(*call)))
        if constraints is not None:
            out[name] = (reference, export(kernel.kernel, *call, edit=_first_array(edit_array)), kind)
    source = op.kernel_file.read_text()
    hints = re.search(r"@ct\.kernel\(([^)]*)\)", source)
    if hints and "occupancy" in hints[1]:
        out["occupancy"] = (reference, export(kernel.kernel.replace_hints(occupancy=None), *call),
                            "occupancy")
        out["worker_warps"] = (reference, export(kernel.kernel.replace_hints(num_worker_warps=None),
                                                 *call), "num_worker_warps_per_cta")
    else:
        out["occupancy"] = (export(kernel.kernel.replace_hints(occupancy=2), *call), reference,
                            "occupancy")
    for name, extra, kind in (("latency", "latency=3", "latency"),
                              ("allow_tma", "allow_tma=False", "allow_tma")):
        edited = _load_with(source, extra)
        if edited is None:
            continue
        path = tmp / f"{op.name}_{name}" / "kernel.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(edited)
        hinted = load_kernel(path, kernel.name)
        # the reference states the hint; the port (the unedited kernel) lacks it
        out[name] = (export(hinted.kernel, *call), reference, kind)
    return out
