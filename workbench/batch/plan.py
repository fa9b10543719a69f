"""What a batch does: the kernels it covers (the catalog, the corpus, or named targets), the
stage tasks of each, and the hash of every task's inputs (what resume compares).

    plan = make_plan(["catalog"], stages=("port", "check", "bench"), root=folder)
    plan.tasks[0].key, plan.tasks[0].inputs       # "softmax/port", "3f9c..."

A task's inputs are the kernel's sources and cases (for a catalog operator: kernel.py,
reference.py, its cases and tolerances, and the port's sources), the toolchain (cuda-tile,
tileiras, rustc and cargo), the shared FFI crate and the workbench's own code.
"""
from __future__ import annotations

import fnmatch
import hashlib
import importlib.metadata
import shutil
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Callable

from ..catalog import KERNELS_DIR, REPO_ROOT, all_operators, get_operator, load_catalog
from ..errors import WorkbenchError
from . import stages
from ..port.recorded import record_operator
from ..resolve import resolve_target
from ..rust.cargo import has_port, source_hash
from ..sources.corpus_manifest import load_manifest
from ..sources.locate import module_file
from ..sources.record import Record

STAGES = ("port", "sass", "check", "bench")
GPU_STAGES = ("check", "bench")
STAGE_FUNCTIONS = {"port": stages.port_stage, "sass": stages.sass_stage,
                   "check": stages.check_stage, "bench": stages.bench_stage}
WORKBENCH_DIR = REPO_ROOT / "workbench"
# the workbench's code that no stage result depends on (how results are shown)
NOT_INPUTS = ("ui/", "cli/", "magics.py", "session.py", "doctor.py", "batch/report.py")
TOOLCHAIN_PACKAGES = ("cuda-tile", "nvidia-cuda-tileiras", "nvidia-nvvm", "nvidia-cuda-nvcc")


@dataclass(frozen=True)
class Kernel:
    name: str            # the row: softmax, rms_norm:_rms_norm_kernel, a target's text
    kind: str            # catalog | corpus | target | record
    ref: str             # what the stage functions are given to find it again
    slug: str            # its folder name under the batch folder
    inputs: str          # hash of its sources and cases
    gpu_steps: bool      # check and bench apply (a catalog operator: it has a reference)


@dataclass(frozen=True)
class Task:
    kernel: str
    slug: str
    stage: str
    fn: Callable         # a module-level function: the worker imports it by name
    args: tuple
    inputs: str
    gpu: bool = False
    needs: str | None = None          # the stage of the same kernel it waits for

    @property
    def key(self) -> str:
        return f"{self.slug}/{self.stage}"


@dataclass
class Plan:
    kernels: list[Kernel]
    stages: tuple[str, ...]
    tasks: list[Task] = field(default_factory=list)

    def rows(self) -> list[str]:
        return [k.name for k in self.kernels]

    @property
    def needs_gpu(self) -> bool:
        return any(t.gpu for t in self.tasks)


def make_plan(selection: list[str], stages: tuple[str, ...], root: Path,
              only: str | None = None, gpu: bool = True) -> Plan:
    """Every kernel `selection` names (catalog, corpus, or targets), filtered by the glob
    `only`, with one task per stage that applies to it. gpu=False leaves check/bench out."""
    unknown = [s for s in stages if s not in STAGES]
    if unknown:
        raise WorkbenchError(f"--stages: no stage {unknown[0]!r}",
                             f"stages are {', '.join(STAGES)}")
    kernels = select_kernels(selection, only)
    if not kernels:
        raise WorkbenchError(f"the batch has no kernel ({' '.join(selection) or 'catalog'}"
                             + (f", --only {only!r}" if only else "") + ")",
                             "name catalog, corpus, or targets; --only takes a glob like "
                             "'softmax*'")
    plan = Plan(kernels, stages)
    common = _common_inputs()
    for kernel in kernels:
        for stage in stages:
            if stage in GPU_STAGES and not (gpu and kernel.gpu_steps):
                continue
            inputs = _hash(common, kernel.inputs, stage)
            plan.tasks.append(Task(kernel.name, kernel.slug, stage, STAGE_FUNCTIONS[stage],
                                   (kernel.kind, kernel.ref, str(root), kernel.slug), inputs,
                                   gpu=stage in GPU_STAGES,
                                   needs=None if stage == "port" or "port" not in stages
                                   else "port"))
    return plan


# -- which kernels -------------------------------------------------------------------------

def select_kernels(selection: list[str], only: str | None = None) -> list[Kernel]:
    kernels: list[Kernel] = []
    for text in selection or ["catalog"]:
        if text == "catalog":
            kernels += [_catalog_kernel(name) for name in load_catalog()]
        elif text == "corpus":
            kernels += [_corpus_kernel(e) for e in load_manifest().entries]
        elif text.endswith(".json"):
            kernels += _record_kernels(text)
        else:
            kernels.append(_target_kernel(text))
    seen, unique = set(), []
    for k in kernels:
        if k.slug not in seen and (not only or fnmatch.fnmatchcase(k.name, only)
                                   or fnmatch.fnmatchcase(k.ref, only)):
            seen.add(k.slug)
            unique.append(k)
    return unique


def _catalog_kernel(name: str) -> Kernel:
    op = get_operator(name)
    reference = op.folder / "reference.py"
    parts = [_file(op.kernel_file), _file(reference), repr(op.cases), repr(op.tolerance),
             source_hash(op) if has_port(op) else "no port"]
    return Kernel(name, "catalog", name, name, _hash(*parts), reference.exists())


def _corpus_kernel(entry) -> Kernel:
    return Kernel(entry.short, "corpus", entry.target, entry.slug,
                  _hash(_file(module_file(entry.module)), repr(entry)), False)


def _record_kernels(path: str) -> list[Kernel]:
    """Every kernel of a record (`workbench record`), its cases and grids the record's; its
    check and bench run against the user's own kernel. A Triton kernel launched with other
    None arguments or flags is a kernel per pattern (recorded.py), each a task."""
    record = Record.load(path)
    out = []
    for launches in record.kernels().values():
        covered: set[int] = set()
        for launch in launches:
            if launch.index not in covered:
                op = record_operator(record, launch.index)
                covered |= set(op.record["launches"])
                out.append(_record_kernel(record, launch.index, op, path))
    return out


def _record_kernel(record: Record, first: int, op, path: str) -> Kernel:
    ref = f"{record.path}#{first}"
    slug = f"{op.name}-{hashlib.sha256(ref.encode()).hexdigest()[:8]}"
    return Kernel(f"{op.name} ({Path(path).name} launch {first})", "record", ref, slug,
                  _hash(_file(op.kernel_file), repr(op.cases), _file(record.path)), True)


def _target_kernel(text: str) -> Kernel:
    if text in all_operators():
        return _catalog_kernel(text)
    entry = next((e for e in load_manifest().entries if text in (e.target, e.short)), None)
    if entry is not None:
        return _corpus_kernel(entry)
    op = resolve_target(text)            # a bad target is its one-line error, before any task
    if not op.cases:
        raise WorkbenchError(f"{text}: no case to run it with",
                             "a batch takes catalog operators, corpus entries, and kernels "
                             "of the corpus manifest; run `workbench port` with --arg for others")
    slug = f"{op.name}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"
    return Kernel(text, "target", text, slug, _hash(_file(op.kernel_file), repr(op.cases)),
                  False)


# -- hashing -------------------------------------------------------------------------------

@cache
def _common_inputs() -> str:
    """The toolchain, the shared FFI crate and the workbench's own code."""
    versions = []
    for name in TOOLCHAIN_PACKAGES:
        try:
            versions.append(f"{name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} missing")
    for tool in ("rustc", "cargo"):
        path = shutil.which(tool)
        stat = Path(path).stat() if path else None
        versions.append(f"{tool}:{path}:{stat.st_size if stat else 0}:"
                        f"{stat.st_mtime_ns if stat else 0}")
    code = [p for p in sorted(WORKBENCH_DIR.rglob("*.py"))
            if not p.relative_to(WORKBENCH_DIR).as_posix().startswith(NOT_INPUTS)]
    code += sorted((KERNELS_DIR / "wb_ffi").rglob("*.rs"))
    return _hash(*versions, *(_file(p) for p in code), _file(KERNELS_DIR / "Cargo.lock"))


def _file(path: Path) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return f"{path}: missing"


def _hash(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(str(part).encode() + b"\0")
    return digest.hexdigest()[:20]
