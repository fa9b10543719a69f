"""What cuTile Python's JIT specializes on, as cuda-tile constraints: the KernelSignature
(and its mangled symbol) one call of a kernel compiles to.

At call time the JIT reads each array's dtype, rank, base address, shape and strides and
compiles for what it finds (FACTS.md, checked against mangled names on an H200):
base address % 16 bytes (p16), each dim % 16 (i16), each stride divisible by 16 bytes
(v4 for f32, v8 for f16), a unit stride as the constant 1 (t1), strides >= 0 (l0), no
aliasing between arrays. An AOT port has to declare each of these.
"""
from __future__ import annotations

from ..argspec import ALIGN_BYTES, DTYPES, SHAPE_DIVISOR, ArgSpec  # noqa: F401  (re-exported)


def ct_dtype(name: str):
    import cuda.tile as ct
    return getattr(ct, DTYPES[name][0])


def divisibility(spec: ArgSpec) -> dict[str, int]:
    """What the JIT states of an array's divisibility, by subject (`base` in bytes, `shape[d]`
    and `stride[d]` in elements; 1: nothing): a 16-byte aligned base, extents divisible by
    16, strides divisible by 16 bytes."""
    elements_per_align = max(1, ALIGN_BYTES // spec.itemsize)
    out = {"base": ALIGN_BYTES if (spec.offset * spec.itemsize) % ALIGN_BYTES == 0 else 1}
    for d, extent in enumerate(spec.shape):
        out[f"shape[{d}]"] = SHAPE_DIVISOR if extent % SHAPE_DIVISOR == 0 else 1
    for d, stride in enumerate(spec.effective_strides()):
        out[f"stride[{d}]"] = elements_per_align if stride % elements_per_align == 0 else 1
    return out


def array_constraint(spec: ArgSpec):
    """The ArrayConstraint the JIT would compile for an array described by `spec`."""
    from cuda.tile import int32
    from cuda.tile.compilation import ArrayConstraint

    strides = spec.effective_strides()
    facts = divisibility(spec)
    return ArrayConstraint(
        ct_dtype(spec.dtype), len(spec.shape),
        index_dtype=int32,
        stride_lower_bound_incl=0,
        alias_groups=(),
        may_alias_internally=False,
        stride_constant=[1 if s == 1 else None for s in strides],
        stride_divisible_by=[facts[f"stride[{d}]"] for d in range(len(strides))],
        shape_divisible_by=[facts[f"shape[{d}]"] for d in range(len(spec.shape))],
        base_addr_divisible_by=facts["base"],
    )


def parameter_constraint(spec: ArgSpec):
    from cuda.tile.compilation import ListConstraint, ScalarConstraint
    if spec.is_list:
        return ListConstraint(array_constraint(spec), alias_groups=(), elements_may_alias=False)
    if spec.is_array:
        return array_constraint(spec)
    return ScalarConstraint(ct_dtype(spec.dtype))


def kernel_signature(kernel_name: str, param_names: list[str], const_names: set[str],
                     args: list[ArgSpec], consts: dict):
    """The KernelSignature (with its mangled symbol) for one call of a kernel."""
    from cuda.tile.compilation import CallingConvention, KernelSignature

    constraints, arg_iter = [], iter(args)
    for name in param_names:
        constraints.append(consts[name] if name in const_names
                           else parameter_constraint(next(arg_iter)))
    signature = KernelSignature(constraints, CallingConvention.cutile_python_v1())
    return signature.with_mangled_symbol(kernel_name)
