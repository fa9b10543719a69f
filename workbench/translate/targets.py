"""Triton kernels as targets: `FILE.py:KERNEL` or `MODULE:KERNEL` naming a `@triton.jit`
function, or a name from kernels_src/triton/catalog.toml (TileGym's Triton kernels with
cases, launch grids and the corpus cuTile kernel of the same operator).

    target = triton_target("tilegym.ops.triton.rms_norm:_rms_norm_kernel", args, consts)
    target = triton_catalog()["triton_rms_norm"]
    op = target.operator(port_folder)        # an Operator with language="triton"
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..argspec import parse_arg, parse_const
from ..operators import KERNELS_DIR, PORTS_DIR, Case, Operator, display_path, draft_home
from ..errors import WorkbenchError
from .reader import TritonSource, is_triton_module, read_triton
from ..sources.kernel import check_arguments
from ..sources.locate import kernel_target, module_file

TRITON_CATALOG = KERNELS_DIR / "triton" / "catalog.toml"


@dataclass(frozen=True)
class CorpusKernel:
    """A cuTile Python kernel of the corpus for the same operator, with its own case."""
    target: str
    case: Case


@dataclass(frozen=True)
class TritonTarget:
    name: str
    label: str                      # MODULE:KERNEL or FILE:KERNEL as given
    path: Path
    kernel_name: str
    module: str | None
    cases: tuple
    grid: str | None = None
    outputs: tuple = ()
    inplace: tuple = ()
    tolerance: dict = field(default_factory=dict)
    corpus: CorpusKernel | None = None
    summary: str = ""
    home: Path | None = None        # its draft folder; None: runs/ports/<name>

    def __post_init__(self):
        if self.home is None:
            object.__setattr__(self, "home", PORTS_DIR / self.name)

    def source(self) -> TritonSource:
        return read_triton(display_path(self.path), self.kernel_name, self.path.read_text(),
                           self.path)

    def operator(self, port: Path | None = None) -> Operator:
        folder = self.home
        op = Operator(name=self.name, summary=self.summary or f"{self.label} (Triton)",
                      kernel_name=self.kernel_name, outputs=self.outputs,
                      tolerance=dict(self.tolerance), cases=self.cases, folder=folder,
                      kernel_path=self.path, port_path=port or folder / "port",
                      kernel_module=self.module, language="triton", triton=self)
        return op.with_port(Path(port).resolve()) if port is not None else op

    def to_json(self) -> dict:
        return {"name": self.name, "label": self.label, "path": str(self.path),
                "kernel": self.kernel_name, "module": self.module,
                "cases": [{"args": [str(a) for a in c.args], "consts": c.consts,
                           **({"grid": list(c.grid)} if c.grid else {})}
                          for c in self.cases],
                "grid": self.grid, "outputs": list(self.outputs),
                "inplace": list(self.inplace), "tolerance": self.tolerance,
                "home": str(self.home),
                "corpus": None if self.corpus is None else {
                    "kernel": self.corpus.target,
                    "args": [str(a) for a in self.corpus.case.args],
                    "consts": self.corpus.case.consts}}

    @classmethod
    def from_json(cls, raw: dict) -> "TritonTarget":
        corpus = raw.get("corpus")
        return cls(raw["name"], raw["label"], Path(raw["path"]), raw["kernel"], raw["module"],
                   _cases(raw["cases"]), raw["grid"], tuple(raw["outputs"]),
                   tuple(raw["inplace"]), dict(raw["tolerance"]),
                   None if corpus is None else CorpusKernel(
                       corpus["kernel"], _cases([corpus])[0]),
                   home=Path(raw["home"]) if raw.get("home") else None)


def _cases(raw: list) -> tuple:
    return tuple(Case(i, tuple(parse_arg(a) for a in c["args"]), dict(c.get("consts", {})),
                      tuple(c["grid"]) if c.get("grid") else None)
                 for i, c in enumerate(raw))


def _locate(where: str, kind: str, base: Path | None = None) -> Path:
    if kind == "module":
        return module_file(where)
    path = Path(where).expanduser()
    if base is not None and not path.is_absolute():
        path = base / path
    path = path.resolve()
    if not path.is_file():
        raise WorkbenchError(f"{where}: no such kernel file", "check the path")
    return path


def triton_target(text: str, args=(), consts=(), grid=None) -> TritonTarget | None:
    """The Triton kernel `text` names (FILE.py:KERNEL / MODULE:KERNEL), or None when it
    names something else (a cuTile kernel, a catalog operator)."""
    parsed = kernel_target(text)
    if parsed is None:          # a name: the Triton catalog's (read only then: it needs TileGym)
        return triton_catalog().get(text) if not args and not consts else None
    kind, where, kernel = parsed
    try:
        path = _locate(where, kind)
    except WorkbenchError:
        return None
    if not is_triton_module(path.read_text(), str(path), kernel):
        return None
    cases = ()
    if args or consts:
        cases = (Case(0, tuple(parse_arg(a) for a in args), dict(parse_const(c) for c in consts),
                      grid=grid),)
        _check_call(path, kernel, cases[0])     # before anything is copied or drafted
    if kind == "module":
        return TritonTarget(f"{where}.{kernel}", text, path, kernel, where, cases)
    return TritonTarget(f"{path.stem}.{kernel}", text, path, kernel, None, cases,
                        home=draft_home(path.stem, kernel, str(path)))


def _check_call(path: Path, kernel: str, case: Case) -> None:
    source = read_triton(display_path(path), kernel, path.read_text(), path)
    check_arguments(display_path(path), kernel, [p.name for p in source.params],
                    {p.name for p in source.constexpr_params}, list(case.args), case.consts,
                    defaults={p.name for p in source.params if p.has_default},
                    language="triton")


@cache
def triton_catalog(path: Path = TRITON_CATALOG) -> dict[str, TritonTarget]:
    if not path.exists():
        return {}
    with open(path, "rb") as f:
        raw = tomllib.load(f)
    out = {}
    for name, entry in raw.items():
        try:
            out[name] = _catalog_entry(name, entry, path.parent)
        except (KeyError, WorkbenchError) as e:
            raise WorkbenchError(f"{path}: [{name}] is malformed: {e}",
                                 "see the comment at the top of the file")
    return out


def _catalog_entry(name: str, entry: dict, base: Path) -> TritonTarget:
    kind, where, kernel = kernel_target(entry["kernel"])
    path = _locate(where, kind, base)
    corpus = entry.get("corpus")
    return TritonTarget(
        name, entry["kernel"], path, kernel, where if kind == "module" else None,
        _cases(entry["cases"]), entry.get("grid"), tuple(entry.get("outputs", ())),
        tuple(entry.get("inplace", ())), dict(entry.get("tolerance", {})),
        None if corpus is None else CorpusKernel(corpus["kernel"], _cases([corpus])[0]),
        entry.get("summary", ""))
