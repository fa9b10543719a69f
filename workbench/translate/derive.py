"""A Triton kernel and its cases -> a derived cuTile Python kernel file and its cases.

    derived = derive(source, cases, label="tilegym.ops.triton.rms_norm:_rms_norm_kernel")
    derived.text        # the file: a labelled docstring, `import cuda.tile as ct`, the kernel
    derived.cases       # one cuTile case per Triton case (the parameters the kernel kept)
    derived.lines       # derived line -> Triton line

The derived kernel keeps the Triton kernel's name and the parameters its body still reads,
in Triton's order: pointers become arrays (the tensors the case gives), runtime scalars stay
scalars, constexprs that differ between cases become `ct.Constant`s (the others are folded).
It is a derived reference, not the original: the original is the Triton kernel.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..argspec import ArgSpec
from ..operators import Case
from .translate import Translation, translate

DERIVED_MARK = "derived from the Triton kernel"


@dataclass
class Derived:
    text: str
    kernel_name: str
    cases: list[Case]
    params: list[str]                 # the derived kernel's parameters, in order
    constants: list[str]              # those that are ct.Constant
    lines: dict[int, int]             # derived file line -> Triton source line
    translation: Translation
    label: str
    notes: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.translation.diagnostics


def with_occupancy(derived: Derived, occupancy: int | None, note: str) -> Derived:
    """The derived kernel asking for `occupancy` programs per SM (no line moves)."""
    from dataclasses import replace
    notes = derived.notes + [{"line": 0, "message": note}]
    if occupancy is None or not derived.ok:
        return replace(derived, notes=notes)
    text = derived.text.replace("\n@ct.kernel\n", f"\n@ct.kernel(occupancy={occupancy})\n", 1)
    return replace(derived, text=text, notes=notes)


def _annotation(values) -> str:
    kinds = {type(v) for v in values}
    if kinds <= {bool}:
        return "ct.Constant[bool]"
    if kinds <= {int, bool}:
        return "ct.Constant[int]"
    return "ct.Constant[float]"


def derive(source, cases: list[Case], label: str) -> Derived:
    translation = translate(source, cases)
    runtime = [p.name for p in source.runtime_params]
    params, constants, signature = [], [], []
    for p in source.params:
        if p.name not in translation.params_used:
            continue
        params.append(p.name)
        if p.constexpr:
            constants.append(p.name)
            values = [c.consts.get(p.name, p.default) for c in cases]
            signature.append(f"{p.name}: {_annotation(values)}")
        else:
            signature.append(p.name)
    header = [
        '"""' + f"{source.kernel_name}: {DERIVED_MARK} {label}",
        f"({source.filename}:{source.line}) by the workbench's Triton translator.",
        "",
        "A derived reference, not the original: the original is the Triton kernel. The",
        "workbench checks the Rust port against the Triton kernel itself on the GPU; this file",
        "exists so that the port's Tile IR has a cuTile kernel to be diffed against.",
        '"""',
        "import cuda.tile as ct",
        "",
        "",
        "@ct.kernel",
        f"def {source.kernel_name}({', '.join(signature)}):",
    ]
    body = [("    " * line.indent + line.text, line.triton_line) for line in translation.lines]
    if not body:
        body = [("    pass", source.line)]
    text = "\n".join(header + [b for b, _ in body]) + "\n"
    lines = {len(header) + i + 1: tl for i, (_, tl) in enumerate(body) if tl}
    derived_cases = [_derived_case(c, runtime, params, constants) for c in cases]
    return Derived(text, source.kernel_name, derived_cases, params, constants, lines,
                   translation, label, translation.notes)


def _derived_case(case: Case, runtime: list[str], params: list[str],
                  constants: list[str]) -> Case:
    args = []
    for name, spec in zip(runtime, case.args):
        if name in params:
            args.append(ArgSpec(spec.dtype, spec.shape, spec.strides, spec.offset, spec.value))
    consts = {n: case.consts[n] for n in constants if n in case.consts}
    return Case(case.index, tuple(args), consts)
