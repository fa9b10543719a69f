"""The bundled operators, read from kernels_src/catalog.toml."""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from .argspec import ArgSpec, parse_arg
from .errors import WorkbenchError

REPO_ROOT = Path(__file__).resolve().parent.parent
KERNELS_DIR = REPO_ROOT / "kernels_src"
CATALOG_FILE = KERNELS_DIR / "catalog.toml"


def display_path(path: Path) -> str:
    """How a file is named to the user and in Tile IR locations: relative to the checkout,
    or to site-packages for a module of an installed package, else absolute."""
    path = Path(path).resolve()
    if path.is_relative_to(REPO_ROOT) and ".venv" not in path.relative_to(REPO_ROOT).parts:
        return str(path.relative_to(REPO_ROOT))
    parts = path.parts
    if "site-packages" in parts:
        return str(Path(*parts[parts.index("site-packages") + 1:]))
    return str(path)


@dataclass(frozen=True)
class Case:
    index: int
    args: tuple[ArgSpec, ...]
    consts: dict[str, int | float | bool]

    def label(self) -> str:
        arrays = [str(a) for a in self.args if a.is_array]
        consts = ",".join(f"{k}={v}" for k, v in self.consts.items())
        return f"case {self.index}: {arrays[0] if arrays else ''} {consts}".strip()


@dataclass(frozen=True)
class Operator:
    name: str
    summary: str
    kernel_name: str
    outputs: tuple[str, ...]
    tolerance: dict[str, float]
    cases: tuple[Case, ...] = field(repr=False)
    folder: Path = field(default=None, repr=False)     # default: kernels_src/<name>
    kernel_path: Path | None = field(default=None, repr=False)   # default: folder/kernel.py
    port_path: Path | None = field(default=None, repr=False)     # default: folder/port
    kernel_module: str | None = None    # the kernel is in this module of an installed package
    language: str = "cutile"            # "triton": a @triton.jit kernel (sources/triton/)
    triton: object = field(default=None, repr=False, compare=False)   # its TritonTarget

    def __post_init__(self):
        if self.folder is None:
            object.__setattr__(self, "folder", KERNELS_DIR / self.name)

    @property
    def kernel_file(self) -> Path:
        return self.kernel_path or self.folder / "kernel.py"

    @property
    def port_folder(self) -> Path:
        return self.port_path or self.folder / "port"

    def with_port(self, port: Path) -> "Operator":
        """The same operator with its port in another folder (a draft, a notebook's copy)."""
        return replace(self, port_path=Path(port), kernel_path=self.kernel_file)

    def case(self, index: int) -> Case:
        if not self.cases:
            raise WorkbenchError(f"{self.summary}: no case to compile",
                                 "give the call: --arg SPEC per runtime parameter and "
                                 "--const NAME=VALUE per constant")
        if not 0 <= index < len(self.cases):
            raise WorkbenchError(f"{self.name} has no case {index}",
                                 f"pick --case 0..{len(self.cases) - 1}")
        return self.cases[index]


@cache
def load_catalog(path: Path = CATALOG_FILE) -> dict[str, Operator]:
    with open(path, "rb") as f:
        raw = tomllib.load(f)
    return {name: _operator(name, entry, path) for name, entry in raw.items()}


def _operator(name: str, entry: dict, path: Path) -> Operator:
    folder = (path.parent / entry["folder"]).resolve() if "folder" in entry else path.parent / name
    try:
        cases = tuple(
            Case(index=i, args=tuple(parse_arg(a) for a in case["args"]),
                 consts=dict(case.get("consts", {})))
            for i, case in enumerate(entry["cases"]))
        return Operator(name=name, summary=entry["summary"], kernel_name=entry["kernel"],
                        outputs=tuple(entry["outputs"]), tolerance=dict(entry["tolerance"]),
                        cases=cases, folder=folder)
    except (KeyError, WorkbenchError) as e:
        raise WorkbenchError(f"{path}: operator [{name}] is malformed: {e}",
                             "see the comment at the top of the catalog for the format")


def extra_operators() -> dict[str, Operator]:
    """Operators of the catalogs named in WORKBENCH_EXTRA_CATALOG (test fixtures)."""
    extra = {}
    for path in filter(None, os.environ.get("WORKBENCH_EXTRA_CATALOG", "").split(os.pathsep)):
        extra.update(load_catalog(Path(path).resolve()))
    return extra


def all_operators() -> dict[str, Operator]:
    """The catalog's operators and those of any extra catalog (test fixtures)."""
    return {**load_catalog(), **extra_operators()}


def get_operator(name: str) -> Operator:
    catalog = all_operators()
    if name not in catalog:
        raise WorkbenchError(f"no operator named {name!r}",
                             "bundled operators: " + ", ".join(catalog))
    return catalog[name]
