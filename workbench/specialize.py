"""JIT vs AOT, the explorer: calls -> the kernel each one compiles (ir.signature) -> which
calls share one, and what an ahead-of-time port must declare."""
from __future__ import annotations

from dataclasses import dataclass, field

from .argspec import ArgSpec
from .ir.export import check_call
from .sources.branches import constant_branches
from .ir.signature import ALIGN_BYTES, SHAPE_DIVISOR, array_constraint, kernel_signature


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
    fn = ast.parse(source).body[0]
    return sorted({c for b in constant_branches(fn, kernel.const_params) for c in b.constants})


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
