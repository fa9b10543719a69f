"""TileGym's operators in the catalog: kernels_src/tilegym/catalog.toml names each family
(a module of tilegym.ops.cutile), its cases and its entries; the family's launch.py says how
TileGym's launcher runs each entry (workbench/launchrules.py). Each entry becomes an
Operator whose kernel is read from the installed package (never copied) and whose cases are
the family's, launched as that entry's launcher would.

    family = load_tilegym()["tilegym.softmax"]
    op = family.entry("tma")                   # tilegym.softmax.tma
    op.case(3).grid                            # (264, 1, 1): min(132 * 2, rows)
    family_rules("tilegym.softmax").problem(3) # the case's tensors, for the GPU side
"""
from __future__ import annotations

import importlib.util
import tomllib
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from .errors import WorkbenchError
from .launchrules import INOUT, OUT, Launch, Problem, Rules, problem_from_toml
from .operators import KERNELS_DIR, PROVENANCES, Case, Family, Operator
from .sources.locate import module_file
from .sources.module import reduce_module

TILEGYM_DIR = KERNELS_DIR / "tilegym"
CATALOG_FILE = TILEGYM_DIR / "catalog.toml"
PREFIX = "tilegym."
NUM_SM = 132           # the H200's; the GPU side launches with the device's own count


@dataclass
class FamilyRules:
    """A family's launch.py with its problems: what the GPU worker needs beyond the cases."""
    name: str
    folder: Path
    module: object
    problems: tuple[Problem, ...]
    entries: dict[str, str]            # entry name -> kernel name (a chain's other steps too)
    tolerance: dict
    chain: tuple[str, ...] = ()        # the entries a multi-launch operator runs, in order

    def problem(self, index: int) -> Problem:
        if not 0 <= index < len(self.problems):
            raise WorkbenchError(f"{self.name} has no case {index}",
                                 f"pick 0..{len(self.problems) - 1}")
        return self.problems[index]

    def launch(self, entry: str, index: int, num_sm: int = NUM_SM) -> Launch | None:
        """The launch of `entry` for case `index`; None where the entry does not take it."""
        problem = self.problem(index)
        return self.module.launch(self.entries[entry], Rules(problem), problem, num_sm)


def _import_rules(folder: Path, name: str):
    path = folder / "launch.py"
    spec = importlib.util.spec_from_file_location(f"wb_launch_{name.replace('.', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except FileNotFoundError:
        raise WorkbenchError(f"{path}: missing", "every TileGym family has a launch.py")
    for needed in ("outputs", "launch"):
        if not hasattr(module, needed):
            raise WorkbenchError(f"{path}: no `{needed}` function",
                                 "see workbench/launchrules.py for what a launch.py defines")
    return module


def _read_catalog(path: Path) -> dict:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError:
        return {}
    except tomllib.TOMLDecodeError as e:
        raise WorkbenchError(f"{path}: {e}", "fix the TOML")


@cache
def load_rules(path: Path = CATALOG_FILE) -> dict[str, FamilyRules]:
    rules = {}
    raw = _read_catalog(path)
    kernels = {f"{PREFIX}{short}.{e['variant']}": e["kernel"]
               for short, table in raw.items() for e in table.get("entries", []) if "variant" in e}
    for short, table in raw.items():
        name = PREFIX + short
        folder = path.parent / short
        module = _import_rules(folder, name)
        problems = tuple(problem_from_toml(case, module.outputs, f"{path.name} [{short}] case {i}")
                         for i, case in enumerate(table.get("cases", [])))
        entries = {f"{name}.{e['variant']}": e["kernel"] for e in table.get("entries", [])}
        chain = chain_names(name, table.get("chain", []), kernels, f"{path.name} [{short}]")
        entries.update({step: kernels[step] for step in chain})
        rules[name] = FamilyRules(name, folder, module, problems, entries,
                                  dict(table.get("tolerance", {})), chain)
    return rules


def chain_names(family: str, chain: list, kernels: dict, where: str) -> tuple[str, ...]:
    """`chain = ["decode", "tilegym.splitk_reduce.reduce"]`: a variant of this family, or any
    family's entry by its full name, in launch order."""
    names = tuple(step if "." in step else f"{family}.{step}" for step in chain)
    for step in names:
        if step not in kernels:
            raise WorkbenchError(f"{where}: chain step {step!r} is no catalog entry",
                                 "name a variant of this family or another family's entry")
    return names


def family_launch(short: str):
    """Another family's launch.py, for a launch rule that reuses its rules (a decode family
    launching splitk_reduce as its chain's last step)."""
    return _import_rules(TILEGYM_DIR / short, PREFIX + short)


def family_rules(name: str) -> FamilyRules:
    rules = load_rules()
    if name not in rules:
        raise WorkbenchError(f"{name} is not a TileGym family", "families: " + ", ".join(rules))
    return rules[name]


@cache
def load_tilegym(path: Path = CATALOG_FILE) -> dict[str, Family]:
    families = {}
    raw, rules = _read_catalog(path), load_rules(path)
    for short, table in raw.items():
        name = PREFIX + short
        where = f"{path.name} [{short}]"
        source = f"tilegym.ops.cutile.{table.get('module', short)}"
        entries = tuple(_entry(rules[name], source, table, e, where)
                        for e in table.get("entries", []))
        families[name] = Family(name, source, table.get("summary", ""), entries,
                                table.get("bound", "memory"))
    for name, family in families.items():
        if rules[name].chain:
            steps = tuple(_step(rules[name], families, step) for step in rules[name].chain)
            families[name] = replace(family, steps=steps)
    return families


def _step(rules: FamilyRules, families: dict, name: str) -> Operator:
    """A chain step: the named entry (its kernel, port and symbols) on the chain's family's
    cases, launched as that family's launch rule says."""
    owner = families[name.rpartition(".")[0]]
    op = owner.entry(name)
    if owner.name == rules.name:
        return op
    cases = []
    for index in range(len(rules.problems)):
        launch = rules.launch(name, index)
        if launch is not None:
            cases.append(Case(index, tuple(b.spec for b in launch.args), dict(launch.consts),
                              launch.grid, dict(launch.hints)))
    return replace(op, cases=tuple(cases), tolerance=dict(rules.tolerance))


def _entry(rules: FamilyRules, source: str, table: dict, raw: dict, where: str) -> Operator:
    try:
        variant, kernel = raw["variant"], raw["kernel"]
    except KeyError as e:
        raise WorkbenchError(f"{where}: an entry needs {e}", "write {variant = .., kernel = ..}")
    provenance = raw.get("provenance", "hand-written")
    if provenance not in PROVENANCES:
        raise WorkbenchError(f"{where} {variant}: provenance {provenance!r}",
                             "one of " + ", ".join(PROVENANCES))
    name = f"{rules.name}.{variant}"
    path = _module_path(source)
    params = kernel_params(path, kernel) if path else []
    cases, outputs = [], []
    for index in range(len(rules.problems)):
        launch = rules.launch(name, index)
        if launch is None:
            continue
        cases.append(Case(index, tuple(b.spec for b in launch.args), dict(launch.consts),
                          launch.grid, dict(launch.hints)))
        outputs = outputs or output_params(params, rules.problem(index), launch)
    return Operator(name=name, summary=f"{source}:{kernel}", kernel_name=kernel,
                    outputs=tuple(outputs), tolerance=dict(rules.tolerance), cases=tuple(cases),
                    folder=rules.folder / variant, kernel_path=path,
                    kernel_module=source, family=rules.name, source=source,
                    provenance=provenance)


def runtime_params(params: list[str], launch: Launch) -> list[str]:
    """The kernel's runtime parameters, in order: those the launch gives no constant."""
    return [p for p in params if p not in launch.consts]


def output_params(params: list[str], problem: Problem, launch: Launch) -> list[str]:
    """The runtime parameters bound to tensors the operator returns."""
    return [param for param, b in zip(runtime_params(params, launch), launch.args)
            if b.source and problem[b.source].role in (OUT, INOUT)]


def kernel_params(path: Path, kernel: str) -> list[str]:
    """Parameter names of `kernel` in the module at `path`, read from its source."""
    fn = reduce_module(path.read_text(), str(path)).functions.get(kernel)
    if fn is None:
        raise WorkbenchError(f"{path}: no @ct.kernel named {kernel!r}",
                             "check the entry's kernel name in kernels_src/tilegym/catalog.toml")
    return [a.arg for a in fn.args.posonlyargs + fn.args.args]


def _module_path(module: str) -> Path | None:
    """The installed module's file; None when TileGym is not installed (said on use)."""
    try:
        return module_file(module)
    except WorkbenchError:
        return None
