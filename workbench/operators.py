"""What the catalog is made of: an operator family (the project's own kernel, or a module of
TileGym), its entries (one `@ct.kernel` each, a variant the user can pick), and each entry's
cases. catalog.py loads them; this module only describes them, so loaders of any source can
build them without importing each other.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path

from .argspec import ArgSpec
from .errors import WorkbenchError

REPO_ROOT = Path(__file__).resolve().parent.parent
KERNELS_DIR = REPO_ROOT / "kernels_src"
PORTS_DIR = REPO_ROOT / "runs" / "ports"      # drafted ports of kernels outside the catalog
OWN = "own"
PROVENANCES = ("drafted", "hand-finished", "hand-written")
# in a drafted or copied port: which kernel it is a port of (port/folders.py reads it)
DRAFT_MARK = ".draft.json"


def draft_home(stem: str, kernel: str, place: str) -> Path:
    """runs/ports/<stem>.<kernel>-<hash>: where a kernel outside the catalog drafts by
    default. The hash (8 hex) is of `place`, the kernel's full path (or a recorded kernel's
    key), so two projects' layernorm.py never share a draft."""
    return PORTS_DIR / f"{stem}.{kernel}-{hashlib.sha256(place.encode()).hexdigest()[:8]}"


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
    # the launch the entry's launcher makes (TileGym entries); None: the port's own grid
    grid: tuple[int, int, int] | None = None
    hints: dict[str, int] = field(default_factory=dict)   # launch hints it replaces

    def label(self) -> str:
        arrays = [str(a) for a in self.args if a.is_array]
        consts = ",".join(f"{k}={v}" for k, v in self.consts.items())
        return f"case {self.index}: {arrays[0] if arrays else ''} {consts}".strip()


@dataclass(frozen=True)
class Operator:
    """One kernel with its cases and port: a whole own operator, or one entry of a family."""
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
    family: str | None = None           # the family this is an entry of (None: its own)
    source: str = OWN                   # `own`, or the installed module the kernel is from
    provenance: str = ""                # drafted | hand-finished | hand-written
    language: str = "cutile"            # "triton": a @triton.jit kernel (translate/)
    triton: object = field(default=None, repr=False, compare=False)   # its TritonTarget
    # a recorded target: {"path": the record's JSON, "launches": this kernel's launches}
    record: dict | None = field(default=None, repr=False, compare=False)

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
        for case in self.cases:
            if case.index == index:
                return case
        known = ", ".join(str(c.index) for c in self.cases) or "none"
        raise WorkbenchError(f"{self.name} has no case {index}", f"pick --case from {known}")


@dataclass(frozen=True)
class Family:
    """An operator as a user names it: its entries are the variants to pick from."""
    name: str
    source: str                         # `own`, or the TileGym module
    summary: str
    entries: tuple[Operator, ...]
    bound: str = "memory"               # memory | compute: which ceiling judges its large case
    # an operator of several launches: each kernel in launch order, with this family's cases
    # (a step of another family's kernel is that entry's port on these cases); its check
    # and benchmark run the whole chain, its IR diff covers each step
    steps: tuple[Operator, ...] = ()

    def entry(self, name: str) -> Operator:
        for op in self.entries:
            if name in (op.name, op.kernel_name, op.name.rpartition(".")[2]):
                return op
        raise WorkbenchError(f"{self.name} has no entry {name!r}",
                             "entries: " + ", ".join(op.name for op in self.entries))
