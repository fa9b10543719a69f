"""The evidence a catalog case's diff is judged with, beyond the two IR texts (FactContext):

- which of the port's facts cutile re-derives from each call and which its code fixes:
  the port's emitter is asked for two probe specializations with no divisibility at all
  (odd extents, odd strides, a base at an odd byte; the second also with no unit stride).
  Whatever facts survive there come from the port's code, not from the call;
- which facts are checked on every call: the port's manifest (port.toml `unit_stride`,
  `div_by`, checked by wb_ffi's promises before anything reaches CUDA) and cutile's
  generated launcher (an input's static dims, from the entry's types);
- the machine code: the reference's SASS against the SASS of the port compiled for a call
  whose per-call facts equal the reference's, so that what remains is what the port's
  code itself changes (weaker facts, hints);
- names for the entry arguments (`x.stride[0]`) from the kernel's parameters.
"""
from __future__ import annotations

from pathlib import Path

import tomllib

from ..argspec import ALIGN_BYTES, DTYPES, SHAPE_DIVISOR
from ..operators import Operator
from ..diff.align import align_modules, assume_facts
from ..diff.facts import KERNEL_ITSELF, FactContext, MachineEvidence
from ..diff.findings import FITS_I32
from ..diff.list_items import TABLE_SUFFIX, list_item_names
from ..diff.subjects import view_layout
from ..ir.disasm import disassemble
from ..rust.manifest import DIVIDES
from ..ir.model import Module
from ..ir.normalize import normalize
from ..ir.parse import parse
from ..errors import WorkbenchError
from ..ir.export import export_bytecode
from ..ir.stages import hinted
from ..rust.cargo import build
from ..rust.emit import emit_in_child, emit_request
from ..sass.stages import sass_of
from ..sources.kernel import load_operator_kernel

LAUNCHER = ("cutile's generated launcher (it compares an input's shape with the entry's "
            "static dims before every launch)")
MANIFEST = "the C ABI (port.toml {key}, checked by wb_ffi::promises before any CUDA call)"
LIST_TABLE = ("the C ABI (wb_ffi builds a list's table itself: cuMemAllocAsync, aligned to "
              "256 bytes; kernels_src/wb_ffi/src/lists.rs)")
DERIVED = ("the C ABI (the port's launcher derives its generic {} from every argument on "
           "each call, as cuTile Python's JIT does: a fact it states holds)")
LIST_RANGE = ("the C ABI (every list item's extents and strides fit i32, checked by "
              "wb_ffi::promises before any CUDA call)")
RAW = "the C ABI (a raw array's extents and strides, checked not negative by wb_ffi::raw)"
BORROWED = ("the C ABI (a tensor's extents and strides, checked not negative by "
            "wb_ffi::promises before any CUDA call)")


# -- requests -----------------------------------------------------------------------------------

def _rewrite(request: str, array, scalar) -> str:
    """Apply `array(offset, itemsize, shape, strides) -> same` and `scalar(value) -> value`
    to every line of an emitter request (kernels_src/wb_ffi/src/emit.rs)."""
    out = []
    for line in request.splitlines():
        words = line.split()
        if words[:1] == ["array"] and len(words) == 6:
            offset, itemsize = int(words[2]), int(words[3])
            shape = [int(v) for v in words[4].split(",") if v]
            strides = [int(v) for v in words[5].split(",") if v]
            offset, shape, strides = array(offset, itemsize, shape, strides)
            words[2], words[4], words[5] = str(offset), ",".join(map(str, shape)), \
                ",".join(map(str, strides))
        elif words[:1] == ["scalar"] and len(words) == 4 and words[2].startswith("i"):
            words[3] = str(scalar(int(float(words[3]))))
        out.append(" ".join(words))
    return "\n".join(out) + "\n"


def _odd(v: int) -> int:
    return v if v % 2 else v + 1


def probe_request(request: str, unit_strides: bool) -> str:
    """No divisibility anywhere; unit strides kept (or, without `unit_strides`, none)."""
    def array(offset, itemsize, shape, strides):
        strides = [s if s == 1 else _odd(s) for s in strides]
        if not unit_strides:
            strides = [3 * s for s in strides]
        return offset | 1, [_odd(d) for d in shape], strides
    return _rewrite(request, array, _odd)


def matched_request(request: str) -> str:
    """A call for which cutile derives what cuTile Python's JIT derives for the case: base
    aligned or not, dims multiples of 16 or nothing, strides in 16-byte units or nothing."""
    def array(offset, itemsize, shape, strides):
        per16 = max(1, ALIGN_BYTES // itemsize)
        return (offset if offset % ALIGN_BYTES == 0 else offset | 1,
                [d if d % SHAPE_DIVISOR == 0 else _odd(d) for d in shape],
                [_stride(s, per16) for s in strides])
    return _rewrite(request, array, _odd)


def _stride(s: int, per16: int) -> int:
    if s == 1:
        return 1
    if s % per16:
        return _odd(s)
    # a multiple of 2 * per16 plus per16 has exactly per16 as its largest power-of-two divisor
    return s if per16 >= 16 or (s & -s) == per16 else s + per16


# -- the context ----------------------------------------------------------------------------------

def case_context(op: Operator, case_index: int, left: Module, right: Module,
                 sass: bool = True) -> FactContext:
    library = str(build(op).library)
    request = emit_request(op, case_index)
    emit = lambda text: emit_in_child(op.name, library, text)          # noqa: E731
    probe = _module(emit(probe_request(request, unit_strides=True)))
    no_unit = _module(emit(probe_request(request, unit_strides=False)))
    names = {"left": _fitting(left, argument_names(op, "python")),
             "right": _fitting(right, argument_names(op, "rust"),
                               argument_names(op, "rust", partitions=False))}
    for side, module in (("left", left), ("right", right)):
        names[side].update(list_item_names(module, names[side]))
    evidence = (lambda: machine_evidence(op, case_index, emit(matched_request(request)))) \
        if sass else (lambda: MachineEvidence(False, reason="SASS not asked for (--no-sass)"))
    context = FactContext(names=names, port_fixed=fixed_facts(right, probe),
                          fixed_layout=[view_layout(o).static() for o in _views(no_unit)],
                          evidence=evidence)
    context.checked = checked_facts(op, context, no_unit)
    return context


def _module(bytecode: bytes) -> Module:
    return normalize(parse(disassemble(bytecode)))


def _views(module: Module) -> list:
    return [o for o in module.walk() if o.name == "make_tensor_view"]


def _fitting(module: Module, *candidates: dict) -> dict:
    """The first candidate naming that fits the module's entry arguments, else none."""
    return next((names for names in candidates if _fits(names, module)), {})


def _fits(names: dict, module: Module) -> bool:
    """Names only where the layout they assume matches the entry's arguments."""
    args = module.entries[0].args if module.entries else []
    bases = [a.name for a in args if "ptr<" in "".join(getattr(t, "text", "") for t in a.type)]
    return len(args) == len(names) and all(names.get(b, "").endswith(".base") for b in bases)


def fixed_facts(case: Module, probe: Module) -> dict[str, tuple[str, ...]]:
    """case root value -> the predicates that survive in the probe (the port's own)."""
    alignment = align_modules(case, probe)
    probe_preds: dict[str, set] = {}
    for entry in probe.entries:
        for root, preds in assume_facts(entry).values():
            probe_preds.setdefault(root, set()).update(preds)
    out = {}
    for entry in case.entries:
        for root, _ in assume_facts(entry).values():
            twin = root if root.startswith("%arg") else alignment.value_map.get(root, root)
            out[root] = tuple(sorted(probe_preds.get(twin, ())))
    return out


def argument_names(op: Operator, side: str, partitions: bool = True) -> dict[str, str]:
    """Entry argument -> `x.base`, `x.shape[1]`, `x.stride[0]`, `eps`: cuTile Python passes
    an array as base, shape, strides; cutile adds an output's partition shape and strides
    (`partitions`: unless the port takes its outputs as plain tensors, stored through
    pointers; a port.toml that lists its `partitions` names exactly those)."""
    kernel = load_operator_kernel(op)
    runtime = [p for p in kernel.params if p not in kernel.const_params]
    manifest = _manifest(op) if side == "rust" else {}
    raw = set(manifest.get("raw", ()))
    partitioned = set(manifest.get("partitions", op.outputs))
    labels: list[str] = []
    for name, spec in zip(runtime, op.cases[0].args):
        if spec.is_list:          # the table's pointer and the length (diff/list_items.py)
            labels += [f"{name}{TABLE_SUFFIX}", f"{name}.len"]
            continue
        if not spec.is_array:
            labels.append(name)
            continue
        rank = len(spec.shape)
        labels += [f"{name}.base"] + [f"{name}.shape[{d}]" for d in range(rank)] + \
            [f"{name}.stride[{d}]" for d in range(rank)]
        if partitions and side == "rust" and name in partitioned and name not in raw:
            labels += [f"{name}.partition_shape[{d}]" for d in range(rank)] + \
                [f"{name}.partition_stride[{d}]" for d in range(rank)]
    return {f"%arg{i}": label for i, label in enumerate(labels)}


def _manifest(op: Operator) -> dict:
    path = op.port_folder / "port.toml"
    return tomllib.loads(path.read_text()) if path.exists() else {}


def manifest_promises(op: Operator) -> dict[str, list[tuple[str, str]]]:
    """subject -> [(fact, who checks it)] that port.toml declares (wb_ffi checks each one),
    and for a raw array (port.toml `raw`: passed as pointer, extents and strides, the way
    cuTile Python expands it, or a tensor the C ABI borrows) that its extents and strides
    are not negative (wb_ffi refuses a negative one on every call)."""
    manifest = _manifest(op)
    out: dict[str, list[tuple[str, str]]] = {}
    raw = set(manifest.get("raw", ()))
    for name, rule in manifest.get("tensors", {}).items():
        for d in range(rule.get("rank", 0)):
            for what in ("shape", "stride"):
                out.setdefault(f"{name}.{what}[{d}]", []).append(
                    ("bounded<0, ?>", RAW if name in raw else BORROWED))
    for name, rule in manifest.get("tensors", {}).items():
        for dim in rule.get("unit_stride", ()):
            out.setdefault(f"{name}.stride[{dim}]", []).append(
                ("stride == 1", MANIFEST.format(key="unit_stride")))
        for promise in rule.get("div_by", ()):
            what, divisor = promise.split()
            out.setdefault(f"{name}.{what}", []).append(
                (f"div_by<{int(divisor)}>", MANIFEST.format(key="div_by")))
        if rule.get("list"):
            out.setdefault(f"{name}{TABLE_SUFFIX}", []).append(("div_by<16>", LIST_TABLE))
            for d in range(rule.get("rank", 0)):
                for what in ("shape", "stride"):
                    out[f"{name}.{what}[{d}]"].append((FITS_I32, LIST_RANGE))
    for generic in manifest.get("generics", ()):
        if match := DIVIDES.fullmatch(generic):
            name, what = match[1], match[2]
            out.setdefault(f"{name}.{what}", []).append(
                (f"div_by<{_divisor(what, manifest['tensors'][name])}>", DERIVED.format(generic)))
    return out


def _divisor(subject: str, rule: dict) -> int:
    """The divisibility a true `divides(..)` generic states: 16 bytes of a base, 16 of an
    extent, 16 bytes of a stride (in elements of the largest dtype the port takes: a divisor
    no smaller dtype's fact is weaker than)."""
    if subject.startswith("stride"):
        return max(1, ALIGN_BYTES // max(DTYPES[d][1] for d in rule["dtypes"]))
    return SHAPE_DIVISOR if subject.startswith("shape") else ALIGN_BYTES


KERNEL_PROMISE = (KERNEL_ITSELF + ", its own ct.assume_divisible_by (line {line}), for every "
                  "call, as in the port (cuTile drops the assume for a case whose "
                  "specialization already implies it)")


def kernel_promises(op: Operator) -> dict[str, list[tuple[str, str]]]:
    """parameter -> [(fact, whose promise)] for each `ct.assume_divisible_by(PARAM, D)` in the
    reference kernel's own source: the kernel's promise, which its port keeps too."""
    import ast
    try:
        tree = ast.parse(Path(op.kernel_file).read_text())
    except (OSError, SyntaxError, ValueError):
        return {}
    kernel = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                   and n.name == op.kernel_name), None)
    if kernel is None:
        return {}
    params = {a.arg for a in kernel.args.args}
    out: dict[str, list[tuple[str, str]]] = {}
    for call in ast.walk(kernel):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and call.func.attr == "assume_divisible_by" and len(call.args) == 2 \
                and isinstance(call.args[0], ast.Name) and call.args[0].id in params \
                and isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, int):
            out.setdefault(call.args[0].id, []).append(
                (f"div_by<{call.args[1].value}>", KERNEL_PROMISE.format(line=call.lineno)))
    return out


def checked_facts(op: Operator, context: FactContext, no_unit: Module) -> dict:
    checked = manifest_promises(op)
    for subject, facts in kernel_promises(op).items():
        checked.setdefault(subject, []).extend(facts)
    names = context.names.get("right", {})
    for layout in (view_layout(v) for v in _views(no_unit)):
        tensor = names.get(layout.base or "", "").removesuffix(".base")
        if not tensor or tensor in op.outputs:
            continue
        for dim, value in layout.static()["shape"].items():
            checked.setdefault(f"{tensor}.shape[{dim}]", []).append((f"shape == {value}", LAUNCHER))
    return checked


def _strict(result) -> list[str]:
    import re
    out = []
    for i in result.instructions:
        text = f"{i.predicate} {i.full_opcode} {', '.join(i.operands)}"
        text = re.sub(r"\bc\[0x0\]\[0x[0-9a-f]+\]", "c[0x0][param]", text)
        out.append(re.sub(r"\bU?R\d+\b", "R", text))
    return out


def _resources(result) -> tuple:
    s = result.summary
    return (s.registers, s.shared_bytes, s.local_bytes, s.stack_bytes)


# -- machine code ---------------------------------------------------------------------------------

def reference_bytecode(op: Operator, case_index: int) -> bytes:
    """The Python kernel's bytecode for a case (cuda-tile's export, with the case's hints)."""
    case = op.case(case_index)
    kernel = load_operator_kernel(op)
    if case.hints:
        kernel = hinted(kernel, case.hints)
    return export_bytecode(kernel, list(case.args), case.consts)[0]


def machine_evidence(op: Operator, case_index: int, port_bytecode: bytes) -> MachineEvidence:
    try:
        left, right = sass_of(reference_bytecode(op, case_index)), sass_of(port_bytecode)
    except WorkbenchError as e:
        return MachineEvidence(False, reason=f"SASS could not be made: {str(e).splitlines()[0]}")
    return compare_sass(left, right, "the reference vs the port compiled for a call with the "
                                     "reference's per-call facts", immediates=False)


def compare_sass(left, right, what: str, immediates: bool = True) -> MachineEvidence:
    """Two SassResults: the same when every instruction is, operand for operand, and so is
    the resource use; register numbers aside. Across front ends (`immediates=False`)
    immediates and offsets are set aside too: cutile passes an output's partition shape and
    strides as well, so the same parameter sits at another offset."""
    if immediates:
        same = _strict(left) == _strict(right)
    else:
        same = [i.normalized() for i in left.instructions] == \
            [i.normalized() for i in right.instructions]
        what += " (registers and immediates aside: the two entries lay out their parameters differently)"
    same = same and _resources(left) == _resources(right)
    changes = [f"{a} -> {b.split(': ', 1)[1]}" for a, b in zip(left.summary.lines(),
                                                                right.summary.lines()) if a != b]
    if not same and not changes:
        changes = ["instructions differ (same counts by kind)"]
    return MachineEvidence(True, same, what, changes)
