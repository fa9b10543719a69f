"""The check on the CPU, for a machine with no GPU: both sides' Tile IR run by the interpreter
(workbench/interp) on the same small inputs, each compared with the float64 reference (or, for
a recorded kernel, the port with the user's own kernel) and with each other, in the GPU check's
report shape (CheckResponse, `sides` and `cross` per case).

What it runs: the Python side is the kernel's Tile IR, launched with the case's grid; the Rust
side is the port's own C call (lib.rs, host_cpu.py) against a recording CUDA driver, every
kernel it launches run by the interpreter as it is launched, so a bug in the launch lib.rs
makes fails here as on a GPU. Where the driver cannot be built (no C compiler) the port's
entry runs alone, its arrays laid out as the entry takes them (rust/partitions.py), and the
report says so. A case past the budget runs a sample of its blocks (cpu_common.py).
"""
from __future__ import annotations

from ..catalog import Operator, all_families, all_operators, get_operator
from ..interp import Options
from .cpu_common import response_of
from .cpu_family import check_family_on_cpu
from .cpu_own import check_case
from .shrink import annotated, shrink_operator
from .shrink_family import shrink_family
from .runner import CheckResponse


def check_on_cpu(target: Operator | str, cases=None, sides=("python", "rust"),
                 seed: int = 0, options: Options | None = None,
                 shrink: bool = False) -> CheckResponse:
    """Check a catalog operator (own, a TileGym family or one entry) or a recorded target on
    the CPU; the response has the GPU check's shape, with DEVICE as its device. shrink: each
    case shrunk to a small one of the same structure first (check/shrink.py); each result
    then says its original and shrunk shapes."""
    if isinstance(target, str) and target in all_families() and \
            all_families()[target].source != "own":
        return _family(all_families()[target], cases, sides, seed, options, shrink)
    op = get_operator(target) if isinstance(target, str) else target
    if op.family and op.record is None:                # one entry of a TileGym family
        return _family(all_families()[op.family], cases, sides, seed, options, shrink,
                       only=[op.name])
    indexes = cases if cases is not None else [c.index for c in op.cases]
    if not shrink:
        return response_of([check_case(op, op.case(i), list(sides), seed, options)
                            for i in indexes])
    shrunk = shrink_operator(op)
    run = [i for i in indexes if i in shrunk.indexes()]
    results = [check_case(shrunk.op, shrunk.op.case(i), list(sides), seed, options)
               for i in run]
    return response_of(annotated(results, shrunk, indexes, sides))


def _family(family, cases, sides, seed, options, shrink, only=None) -> CheckResponse:
    if not shrink:
        return check_family_on_cpu(family, cases, sides, seed, options, only=only)
    shrunk = shrink_family(family)
    indexes = cases if cases is not None else list(range(len(shrunk.rules.problems)))
    run = [i for i in indexes if i in shrunk.indexes()]
    response = check_family_on_cpu(shrunk.family, run, sides, seed, options, only=only,
                                   rules=shrunk.rules)
    return response_of(annotated(response.results, shrunk, indexes, sides))


def cpu_targets() -> list[str]:
    """Every catalog operator the CPU check takes: own operators and TileGym families."""
    own = [name for name, op in all_operators().items() if not op.family]
    return own + [name for name, f in all_families().items() if f.source != "own"]
