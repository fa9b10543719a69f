"""A recorded call made into an Operator the pipeline ports: its kernel, and one case per
kernel the JIT would compile (calls that share a specialization share a case, as they
share a compiled kernel), each with the grid the host code launched it on.

    op = record_operator("runs/records/ln.json")               # the record's only kernel
    op = record_operator("runs/records/chain.json", launch=1)  # the kernel launch 1 ran
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..operators import Case, Operator, draft_home
from ..errors import WorkbenchError
from ..sources.record import INOUT, NONE, Record, RecordedLaunch, kernel_source_file
from ..ir.signature import kernel_signature
from ..sources.kernel import load_kernel
from ..translate.targets import triton_target


def load_record(record: Record | str | Path) -> Record:
    return record if isinstance(record, Record) else Record.load(record)


def record_operator(record: Record | str | Path, launch: int | None = None,
                    out: str | Path | None = None) -> Operator:
    """The Operator of one recorded kernel; its port goes to `out` (default
    runs/ports/<file>.<kernel>-<hash of its path>/port, so two files' kernels of one name
    never share a draft)."""
    record = load_record(record)
    if record.path is None:
        raise WorkbenchError("the record is not saved", "save it first: rec.save(PATH)")
    launches = record.launches_of(launch)
    kernel = launches[0].kernel
    place = kernel.key
    if kernel.language == "triton":
        flags = _differing_flags(launches)
        launches = _same_pattern(launches, launch, flags)
        place += "".join(f"|{n}=None" for n in _nones(launches[0]))
        place += "".join(f"|{n}={launches[0].consts[n]}" for n in flags)
    folder = draft_home(Path(kernel.file).stem, kernel.name, place)
    path = kernel_source_file(kernel, folder)
    outputs = tuple(dict.fromkeys(n for ln in launches for n in ln.writes))
    if kernel.language == "triton":
        cases, case_of = _triton_cases(launches)
    else:
        cases, case_of = cutile_cases(path, kernel.name, launches)
    # which case serves each launch (a check's result names both)
    ref = {"path": str(record.path), "launches": [ln.index for ln in launches],
           "case_of": {str(i): c for i, c in case_of.items()}}
    if kernel.language == "triton":
        updated = tuple(dict.fromkeys(a.name for ln in launches for a in ln.args
                                      if a.role == INOUT))
        op = _triton_operator(path, kernel.name, cases, outputs, updated, ref)
    else:
        op = Operator(name=kernel.name, summary=f"{kernel.label()} (recorded)",
                      kernel_name=kernel.name, outputs=outputs, tolerance={}, cases=cases,
                      folder=folder, kernel_path=path, record=ref)
    port = Path(out).resolve() if out is not None else folder / "port"
    return op.with_port(port)


def cutile_cases(path: Path, name: str, launches: list[RecordedLaunch]):
    """One case per specialization the JIT would compile for these launches, in launch
    order (each keeps the first such launch's arguments, grid and hints: a kernel object
    with other hints is another compiled kernel too), and the case of each launch."""
    kernel = load_kernel(path, name)
    return _grouped(launches, lambda launch, args: (kernel_signature(
        name, kernel.params, kernel.const_params, list(args), launch.consts).symbol,
        tuple(sorted(launch.hints.items()))))


def _triton_cases(launches: list[RecordedLaunch]):
    """Triton compiles per argument description and constants: a case per distinct one. An
    argument passed as None stays None (Triton makes it a compile-time None)."""
    return _grouped(launches, lambda launch, args: (tuple(map(str, args)),
                                                    tuple(sorted(launch.consts.items()))))


def _nones(launch: RecordedLaunch) -> tuple[str, ...]:
    return tuple(a.name for a in launch.runtime if a.spec == NONE)


def _differing_flags(launches: list[RecordedLaunch]) -> tuple[str, ...]:
    """The boolean constexprs (`IS_NEOX`, `HAS_BIAS`) the launches set differently: each
    value picks other code (Triton compiles a kernel for each), so each is a port."""
    names = dict.fromkeys(n for ln in launches for n, v in ln.consts.items()
                          if isinstance(v, bool))
    return tuple(n for n in names if len({repr(ln.consts.get(n)) for ln in launches}) > 1)


def _same_pattern(launches: list[RecordedLaunch], launch: int | None,
                flags: tuple[str, ...] = ()) -> list[RecordedLaunch]:
    """The launches Triton compiles with launch `launch`'s None arguments and flags: a
    pointer passed as None is a compile-time None and a flag a compile-time branch, so each
    pattern of them is a kernel of its own (and a port of its own). With no launch named,
    the kernel's launches must share one."""
    patterns: dict[tuple, list[RecordedLaunch]] = {}
    for one in launches:
        key = (_nones(one), tuple((n, one.consts.get(n)) for n in flags))
        patterns.setdefault(key, []).append(one)
    if launch is not None:
        return next(ls for ls in patterns.values() if launch in [x.index for x in ls])
    if len(patterns) == 1:
        return launches
    listing = "; ".join(f"--launch {ls[0].index}: " + _pattern_text(nones, set_flags)
                        for (nones, set_flags), ls in patterns.items())
    raise WorkbenchError(f"{launches[0].kernel.label()}: its launches pass None for different "
                         "arguments or set a flag differently, and Triton compiles a kernel "
                         "for each", "port one at a time: " + listing)


def _pattern_text(nones: tuple, flags: tuple) -> str:
    parts = [", ".join(nones) + " None" if nones else "no None"]
    return ", ".join(parts + [f"{n}={v}" for n, v in flags])


def _grouped(launches: list[RecordedLaunch], key_of):
    cases, case_of, index_of = [], {}, {}
    for launch in launches:
        if launch.kernel.language != "triton":
            _refuse_none(launch)
        args = tuple(a.arg_spec() for a in launch.runtime)
        key = key_of(launch, args)
        if key not in index_of:
            index_of[key] = len(cases)
            cases.append(Case(len(cases), args, launch.consts, grid=tuple(launch.grid),
                              hints=launch.hints))
        case_of[launch.index] = index_of[key]
    return tuple(cases), case_of


def _refuse_none(launch: RecordedLaunch) -> None:
    passed_none = [a.name for a in launch.runtime if a.spec == NONE]
    if passed_none:
        raise WorkbenchError(
            f"{launch.kernel.label()}: launch {launch.index} passes None for "
            f"{', '.join(passed_none)}: a cuTile kernel takes arrays and scalars only",
            "record a call that passes a value there, or port another launch with --launch N")


def specializations(op: Operator) -> list[dict]:
    """Which case (which compiled kernel) serves each recorded launch: the JIT -> AOT view
    of a record, one row per launch."""
    record = Record.load(op.record["path"])
    return [{"launch": i, "case": op.record["case_of"][str(i)],
             "label": record.launches[i].label()} for i in op.record["launches"]]


def _triton_operator(path: Path, name: str, cases, outputs, updated, ref: dict) -> Operator:
    """`updated`: the arrays the kernel reads and writes (updated in place, not poisoned)."""
    target = triton_target(f"{path}:{name}")
    if target is None:
        raise WorkbenchError(f"{path}: no @triton.jit kernel named {name!r}",
                             "record again: the file changed")
    target = replace(target, cases=cases, outputs=outputs, inplace=updated)
    return replace(target.operator(), record=ref)
