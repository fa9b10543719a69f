"""What cuTile Python's JIT specializes on, as cuda-tile constraints.

At call time the JIT reads each array's dtype, rank, base address, shape and strides and
compiles for what it finds (FACTS.md, checked against mangled names on an H200):
base address % 16 bytes (p16), each dim % 16 (i16), each stride divisible by 16 bytes
(v4 for f32, v8 for f16), a unit stride as the constant 1 (t1), strides >= 0 (l0), no
aliasing between arrays. An AOT port has to declare each of these.
"""
from __future__ import annotations

from .argspec import DTYPES, ArgSpec

ALIGN_BYTES = 16
SHAPE_DIVISOR = 16


def ct_dtype(name: str):
    import cuda.tile as ct
    return getattr(ct, DTYPES[name][0])


def array_constraint(spec: ArgSpec):
    """The ArrayConstraint the JIT would compile for an array described by `spec`."""
    from cuda.tile import int32
    from cuda.tile.compilation import ArrayConstraint

    strides = spec.effective_strides()
    elements_per_align = max(1, ALIGN_BYTES // spec.itemsize)
    base_aligned = (spec.offset * spec.itemsize) % ALIGN_BYTES == 0
    return ArrayConstraint(
        ct_dtype(spec.dtype), len(spec.shape),
        index_dtype=int32,
        stride_lower_bound_incl=0,
        alias_groups=(),
        may_alias_internally=False,
        stride_constant=[1 if s == 1 else None for s in strides],
        stride_divisible_by=[elements_per_align if s % elements_per_align == 0 else 1
                             for s in strides],
        shape_divisible_by=[SHAPE_DIVISOR if d % SHAPE_DIVISOR == 0 else 1 for d in spec.shape],
        base_addr_divisible_by=ALIGN_BYTES if base_aligned else 1,
    )


def parameter_constraint(spec: ArgSpec):
    from cuda.tile.compilation import ScalarConstraint
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


# -- the explorer: calls -> specializations -> what an AOT port must declare ------------

from dataclasses import dataclass, field  # noqa: E402


@dataclass
class ArrayFacts:
    """What the JIT assumed about one array argument, in plain words."""
    name: str
    dtype: str
    rank: int
    base_aligned: bool
    shape_div16: tuple[bool, ...]
    stride_div: tuple[int, ...]          # divisor in elements (1: none)
    unit_stride: tuple[bool, ...]

    def words(self) -> str:
        parts = [f"{self.dtype}, rank {self.rank}",
                 "base 16-byte aligned" if self.base_aligned else "base NOT aligned"]
        for dim in range(self.rank):
            facts = []
            if self.shape_div16[dim]:
                facts.append("size % 16 == 0")
            if self.unit_stride[dim]:
                facts.append("stride == 1")
            elif self.stride_div[dim] > 1:
                facts.append(f"stride % {self.stride_div[dim]} == 0")
            parts.append(f"dim {dim}: " + (", ".join(facts) or "nothing assumed"))
        return "; ".join(parts)

    def implies(self, other: "ArrayFacts") -> bool:
        """Does a call with these facts satisfy a kernel compiled for `other`?"""
        return (self.dtype == other.dtype and self.rank == other.rank
                and (self.base_aligned or not other.base_aligned)
                and all(a or not b for a, b in zip(self.shape_div16, other.shape_div16))
                and all(a or not b for a, b in zip(self.unit_stride, other.unit_stride))
                and all(b <= 1 or (a % b == 0 and a > 1) or u
                        for a, b, u in zip(self.stride_div, other.stride_div, self.unit_stride)))


@dataclass
class CallSpecialization:
    index: int
    call: str
    symbol: str
    arrays: list[ArrayFacts]
    scalars: dict[str, str]
    consts: dict
    group: int = 0
    serves: list[int] = field(default_factory=list)

    def to_json(self) -> dict:
        from dataclasses import asdict
        return asdict(self)


def facts_for(name: str, spec: ArgSpec) -> ArrayFacts:
    c = array_constraint(spec)
    return ArrayFacts(name=name, dtype=spec.dtype, rank=len(spec.shape),
                      base_aligned=c.base_addr_divisible_by >= ALIGN_BYTES,
                      shape_div16=tuple(d >= SHAPE_DIVISOR for d in c.shape_divisible_by),
                      stride_div=tuple(c.stride_divisible_by),
                      unit_stride=tuple(s == 1 for s in c.stride_constant))


def explore(kernel, calls: list[list[ArgSpec]], consts: dict,
            call_texts: list[str]) -> list[CallSpecialization]:
    """One entry per call; calls that compile to the same kernel share a group number."""
    from .ir.export import check_call
    runtime = [p for p in kernel.params if p not in kernel.const_params]
    results, groups = [], {}
    for i, (args, text) in enumerate(zip(calls, call_texts)):
        check_call(kernel, args, consts)
        symbol = kernel_signature(kernel.name, kernel.params, kernel.const_params, args,
                                  consts).symbol
        arrays = [facts_for(n, a) for n, a in zip(runtime, args) if a.is_array]
        scalars = {n: a.dtype for n, a in zip(runtime, args) if not a.is_array}
        group = groups.setdefault(symbol, len(groups))
        results.append(CallSpecialization(i, text, symbol, arrays, scalars, dict(consts), group))
    for spec in results:
        spec.serves = [other.index for other in results
                       if other.scalars == spec.scalars and len(other.arrays) == len(spec.arrays)
                       and all(o.implies(s) for o, s in zip(other.arrays, spec.arrays))]
    return results


def const_branches(kernel) -> list[str]:
    """ct.Constant parameters that an `if` in the kernel tests: each value is its own
    compiled program (the branch disappears), so an AOT port needs an entry per value."""
    import ast
    import inspect
    import textwrap
    source = textwrap.dedent(inspect.getsource(kernel.kernel._annotated_function.pyfunc))
    tested = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.If, ast.IfExp)):
            tested |= {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
    return sorted(tested & kernel.const_params)


def format_exploration(kernel, results: list[CallSpecialization]) -> str:
    lines = []
    for spec in results:
        lines.append(f"call {spec.index}: {spec.call}")
        lines.append(f"  compiles {spec.symbol}   (group {spec.group})")
        for facts in spec.arrays:
            lines.append(f"    {facts.name}: {facts.words()}")
    lines.append("")
    lines.append("What an ahead-of-time port must declare, per distinct kernel:")
    seen = set()
    for spec in results:
        if spec.group in seen:
            continue
        seen.add(spec.group)
        dtypes = sorted({f.dtype for f in spec.arrays})
        consts = ", ".join(f"{k}={v}" for k, v in spec.consts.items()) or "none"
        lines.append(f"  group {spec.group}: generics dtype {'/'.join(dtypes)}; const generics "
                     f"{consts}; serves calls {spec.serves}")
        for facts in spec.arrays:
            lines.append(f"    {facts.name}: {facts.words()}")
    branches = const_branches(kernel)
    if branches:
        lines.append(f"  constants tested by an `if` ({', '.join(branches)}): one entry per "
                     "value, each without the branch")
    return "\n".join(lines)
