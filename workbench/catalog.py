"""The catalog: the project's own operators (kernels_src/catalog.toml), TileGym's
(kernels_src/tilegym/catalog.toml, loaded by tilegym_catalog.py), and test fixtures'.

    get_operator("softmax")                     # an own operator (a family of one entry)
    get_operator("tilegym.softmax.tma")         # one entry of a TileGym family
    get_family("tilegym.softmax").entries       # all of them
"""
from __future__ import annotations

import os
import tomllib
from functools import cache
from pathlib import Path

from .argspec import parse_arg
from .errors import WorkbenchError
from .operators import (KERNELS_DIR, OWN, REPO_ROOT, Case, Family, Operator,  # noqa: F401
                        display_path)
from .tilegym_catalog import load_tilegym

CATALOG_FILE = KERNELS_DIR / "catalog.toml"


@cache
def load_catalog(path: Path = CATALOG_FILE) -> dict[str, Operator]:
    with open(path, "rb") as f:
        raw = tomllib.load(f)
    return {name: _operator(name, entry, path) for name, entry in raw.items()}


def _operator(name: str, entry: dict, path: Path) -> Operator:
    folder = (path.parent / entry.get("folder", name)).resolve()
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


def tilegym_families() -> dict[str, Family]:
    return load_tilegym()


def all_families() -> dict[str, Family]:
    """Every operator as a user names it: own ones (one entry each), then TileGym's."""
    own = {name: Family(name, OWN, op.summary, (op,),
                        "compute" if name in COMPUTE_BOUND else "memory")
           for name, op in {**load_catalog(), **extra_operators()}.items()}
    return {**own, **tilegym_families()}


COMPUTE_BOUND = {"matmul", "attention"}


def all_operators() -> dict[str, Operator]:
    """Every kernel with a port: own operators, fixtures' and every TileGym entry."""
    ops = {**load_catalog(), **extra_operators()}
    for family in tilegym_families().values():
        ops.update({op.name: op for op in family.entries})
    return ops


def get_family(name: str) -> Family:
    families = all_families()
    if name in families:
        return families[name]
    op = all_operators().get(name)
    if op is not None and op.family:
        return families[op.family]
    raise WorkbenchError(f"no operator named {name!r}", "operators: " + ", ".join(families))


def get_operator(name: str) -> Operator:
    """An entry by name; a family's name stands for its only entry."""
    catalog = all_operators()
    if name in catalog:
        return catalog[name]
    family = all_families().get(name)
    if family is not None and len(family.entries) == 1:
        return family.entries[0]
    if family is not None:
        raise WorkbenchError(f"{name} has {len(family.entries)} entries",
                             "name one: " + ", ".join(op.name for op in family.entries))
    raise WorkbenchError(f"no operator named {name!r}",
                         "bundled operators: " + ", ".join(all_families()))
