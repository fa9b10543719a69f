"""The corpus manifest, kernels_src/corpus/tilegym.toml: every `@ct.kernel` entry of the
installed TileGym with the cases its launchers use and the launchers' rules as data.

    manifest = load_manifest()
    entry = manifest.entry("tilegym.ops.cutile.softmax", "_softmax_kernel_tma")
    cases = entry.resolve(["output", "input", "N_ROWS", "N_COLS", "TILE_SIZE"])
    cases[0].consts   # the case's constants, derived ones included: {"N_ROWS": 256, ...}
    cases[0].grid     # the launcher's grid for it: (132*2 capped at the rows, 1, 1)

Low in the layers: it reads TOML and argspecs and evaluates rules (expr.py); sources/ reads
it for the default cases of a MODULE:KERNEL target, so it imports nothing above argspec.
"""
from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..argspec import ArgSpec, parse_arg
from ..operators import KERNELS_DIR, Case
from ..errors import WorkbenchError
from .corpus_expr import ArrayView, evaluate

MANIFEST_FILE = KERNELS_DIR / "corpus" / "tilegym.toml"
ENTRY_KEYS = {"experimental", "launcher", "grid", "derive", "hints", "cases", "note"}
CASE_KEYS = {"args", "consts", "sizes", "note"}


@dataclass(frozen=True)
class ResolvedCase:
    """One case as the kernel sees it: arguments, every constant, and the launch grid."""
    args: tuple[ArgSpec, ...]
    consts: dict
    grid: tuple[int, ...] | None = None
    note: str = ""

    def case(self, index: int) -> Case:
        return Case(index, self.args, dict(self.consts))

    def to_json(self) -> dict:
        data = {"args": [str(a) for a in self.args], "consts": dict(self.consts)}
        if self.grid is not None:
            data["grid"] = list(self.grid)
        return data


@dataclass(frozen=True)
class CorpusCase:
    args: tuple[str, ...]
    consts: dict = field(default_factory=dict)     # chosen by the launcher (a config)
    sizes: dict = field(default_factory=dict)      # problem sizes no argument shows
    note: str = ""


@dataclass(frozen=True)
class CorpusEntry:
    module: str                  # dotted, e.g. tilegym.ops.cutile.softmax
    kernel: str
    experimental: bool
    cases: tuple[CorpusCase, ...]
    launcher: str = ""           # the TileGym function that launches it
    grid: tuple[str, ...] = ()   # the launcher's grid rule, one expression per dimension
    derive: dict = field(default_factory=dict)   # constant -> rule, in order
    hints: dict = field(default_factory=dict)    # launch hints the launcher picks by default
    num_sm: int = 132
    note: str = ""

    @property
    def target(self) -> str:
        return f"{self.module}:{self.kernel}"

    @property
    def short(self) -> str:
        """module:kernel with the module relative to the corpus root (softmax:_softmax_kernel)."""
        return f"{self.module.rpartition('.')[2]}:{self.kernel}"

    @property
    def slug(self) -> str:
        return f"{self.module.rpartition('.')[2]}.{self.kernel}"

    def resolve(self, params: list[str]) -> tuple[ResolvedCase, ...]:
        """The cases with the derived constants and the grid computed; `params` are the
        kernel's parameter names in order (the runtime ones get the case's args)."""
        return tuple(self._resolve(case, params, i) for i, case in enumerate(self.cases))

    def _resolve(self, case: CorpusCase, params: list[str], index: int) -> ResolvedCase:
        where = f"{MANIFEST_FILE.name} [{self.slug}] case {index}"
        try:
            args = tuple(parse_arg(a) for a in case.args)
            names = {"NUM_SM": self.num_sm, **self.hints, **case.sizes, **case.consts}
            consts = dict(case.consts)
            runtime = [p for p in params if p not in consts and p not in self.derive]
            names.update({p: ArrayView.of(a) if a.is_array else a.value
                          for p, a in zip(runtime, args)})
            for name, rule in self.derive.items():
                consts[name] = names[name] = evaluate(rule, names)
            grid = tuple(int(evaluate(r, names)) for r in self.grid) if self.grid else None
        except WorkbenchError as e:
            raise WorkbenchError(f"{where}: {e.message}", e.hint) from None
        # a derived name that is no parameter is a step of the launcher's arithmetic
        ordered = {p: consts[p] for p in params if p in consts}
        ordered.update({k: v for k, v in case.consts.items() if k not in ordered})
        return ResolvedCase(args, ordered, grid, case.note)

    def to_json(self) -> dict:
        return {"kernel": self.target, "experimental": self.experimental,
                "launcher": self.launcher, "grid": list(self.grid), "derive": dict(self.derive),
                "hints": dict(self.hints)}


@dataclass(frozen=True)
class Manifest:
    path: Path
    package: str
    version: str
    root: str                    # the package the entries' modules are under
    num_sm: int
    entries: tuple[CorpusEntry, ...]

    def entry(self, module: str, kernel: str) -> CorpusEntry | None:
        return next((e for e in self.entries if e.module == module and e.kernel == kernel),
                    None)

    def select(self, pattern: str | None) -> list[CorpusEntry]:
        """Entries whose module:kernel (full or relative to the root) matches the glob."""
        if not pattern:
            return list(self.entries)
        return [e for e in self.entries
                if fnmatch.fnmatchcase(e.target, pattern) or fnmatch.fnmatchcase(e.short, pattern)]


@cache
def load_manifest(path: Path = MANIFEST_FILE) -> Manifest:
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except OSError as e:
        raise WorkbenchError(f"{path}: cannot read the corpus manifest: {e.strerror}",
                             "restore kernels_src/corpus/ from git")
    except tomllib.TOMLDecodeError as e:
        raise WorkbenchError(f"{path}: {e}", "fix the TOML")
    head = raw.pop("corpus", {})
    root, num_sm = head.get("root", "tilegym.ops.cutile"), int(head.get("num_sm", 132))
    entries = [_entry(path, f"{root}.{module}", kernel, table, num_sm)
               for module, kernels in raw.items() for kernel, table in kernels.items()]
    return Manifest(path, head.get("package", "tilegym"), str(head.get("version", "")), root,
                    num_sm, tuple(entries))


def _entry(path: Path, module: str, kernel: str, table: dict, num_sm: int) -> CorpusEntry:
    where = f"{path.name}: [{module.rpartition('.')[2]}.{kernel}]"
    if not isinstance(table, dict) or not isinstance(table.get("cases"), list):
        raise WorkbenchError(f"{where}: an entry needs `cases = [...]`",
                             "see the comment at the top of the manifest for the format")
    unknown = set(table) - ENTRY_KEYS
    bad_case = next((set(c) - CASE_KEYS for c in table["cases"]
                     if not isinstance(c, dict) or set(c) - CASE_KEYS or "args" not in c), None)
    if unknown or bad_case is not None:
        raise WorkbenchError(f"{where}: unknown keys {sorted(unknown or bad_case)} "
                             f"(or a case without args)",
                             f"entries take {sorted(ENTRY_KEYS)}, cases {sorted(CASE_KEYS)}")
    cases = tuple(CorpusCase(tuple(c["args"]), dict(c.get("consts", {})),
                             dict(c.get("sizes", {})), c.get("note", "")) for c in table["cases"])
    return CorpusEntry(module, kernel, bool(table.get("experimental", False)), cases,
                       table.get("launcher", ""), tuple(str(g) for g in table.get("grid", ())),
                       dict(table.get("derive", {})), dict(table.get("hints", {})), num_sm,
                       table.get("note", ""))


def corpus_entry(module: str, kernel: str) -> CorpusEntry | None:
    """The manifest's entry for module:kernel, or None (also when there is no manifest)."""
    if not MANIFEST_FILE.exists():
        return None
    return load_manifest().entry(module, kernel)
