"""A catalog case shrunk to a small one with the same structure, for the CPU check.

What "the same structure" means here (the case's *fingerprint*; a shrunk case must have the
original's exactly):
  - every array argument's dtype, rank, list-ness, contiguity, and what the JIT specializes
    on: each extent divisible by 16 or not, each stride 1 or a multiple of 16 bytes or not,
    the base offset aligned or not;
  - for every dimension and each tile the kernel reads it with (`ct.load(x, .., shape=..)`,
    `ct.num_tiles(x, axis, shape)`, read from the kernel's source): whether the tile divides
    it (no partial tile) and whether it is smaller than, equal to or larger than the tile (one
    loop trip or block, or more). A dimension no tile is known for (a gather's) is held so
    against every integer constant;
  - every constant: a non-integer one (a flag) unchanged, integer ones in the same order and
    divisibility among themselves (`TILE_SIZE != N` keeps its branch); the hints unchanged;
  - the grid: each axis 1 or more than 1 and, for a TileGym launch whose grid follows the SM
    count (a persistent grid), each axis smaller than the work it walks or not (each block
    loops more than once, or once).

Own operators keep their constants (tile sizes) and recompute the grid with kernel.py's
grid(); a TileGym family's problem tensors shrink and its launch rule recomputes the launch
(constants, grid) from them, with a smaller SM count where the grid is persistent. Every
distinct extent is shrunk on its own (equal extents stay equal), greedily, to the smallest
candidate that keeps the fingerprint. A case no smaller shape keeps is checked as it is where
it fits the CPU budget, else skipped with why. (A TileGym family's cases: shrink_family.py.)

    shrunk = shrink_operator(get_operator("softmax"))
    shrunk.op.cases          # the small cases, their original indexes
    shrunk.notes[3]          # 'x f16[16384,4096] -> f16[16,4096]'
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from ..argspec import ALIGN_BYTES, SHAPE_DIVISOR, ArgSpec
from ..catalog import Family, Operator
from ..tilegym_catalog import FamilyRules, kernel_params
from .cpu_common import SAMPLE_LIMIT, too_many

PASSES = 3
BIG_SM = 1 << 20          # an SM count no problem fills: the grid a persistent launch walks


# -- tiles from the kernel's source --------------------------------------------------------

@cache
def tile_axes(path: Path, kernel: str) -> dict[str, dict[int, tuple]]:
    """param -> axis -> the tile expressions the kernel reads that axis with (ast nodes over
    constants and literals), from `ct.load(p, index, shape)` and `ct.num_tiles(p, axis, shape)`."""
    try:
        tree = ast.parse(Path(path).read_text())
    except (OSError, SyntaxError):
        return {}
    fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == kernel),
              None)
    if fn is None:
        return {}
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args}
    found: dict[str, dict[int, list]] = {}
    for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
        name = call.func.attr if isinstance(call.func, ast.Attribute) else None
        if name not in ("load", "num_tiles") or not call.args:
            continue
        array = call.args[0]
        if not isinstance(array, ast.Name) or array.id not in params:
            continue
        keywords = {k.arg: k.value for k in call.keywords}
        shape = keywords.get("shape") or (call.args[2] if len(call.args) > 2 else None)
        if not isinstance(shape, ast.Tuple):
            continue
        for axis, element in enumerate(shape.elts):
            found.setdefault(array.id, {}).setdefault(axis, []).append(element)
    return {p: {a: tuple(e) for a, e in axes.items()} for p, axes in found.items()}


def _value(node, consts: dict):
    """A tile expression's value with these constants; None where it is not simple."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        value = consts.get(node.id)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left, consts), _value(node.right, consts)
        if left is None or right is None:
            return None
        ops = {ast.Add: lambda: left + right, ast.Sub: lambda: left - right,
               ast.Mult: lambda: left * right,
               ast.FloorDiv: lambda: left // right if right else None}
        return ops[type(node.op)]() if type(node.op) in ops else None
    return None


# -- the fingerprint -----------------------------------------------------------------------

@dataclass(frozen=True)
class Launched:
    """One kernel launch as the fingerprint sees it."""
    kernel: tuple[Path, str]           # the kernel's source file and name
    params: tuple[str, ...]            # its runtime parameters, in order
    args: tuple[ArgSpec, ...]
    consts: dict
    grid: tuple | None                 # None: own operator (kernel.py's grid(), from the tiles)
    walked: tuple | None = None        # a persistent launch: the grid with no SM limit
    hints: dict = field(default_factory=dict)


def _cmp(a, b) -> int:
    return (a > b) - (a < b)


def spec_facts(spec: ArgSpec) -> tuple:
    if not spec.is_array:
        return (spec.dtype,)
    size = spec.itemsize
    strides = spec.effective_strides()
    contiguous = replace(spec, strides=None).effective_strides()
    return (spec.dtype, len(spec.shape), spec.is_list, bool(spec.length > 1),
            tuple(math.gcd(n, SHAPE_DIVISOR) for n in spec.shape),
            tuple((s == 1, math.gcd(s * size, ALIGN_BYTES), s == c)
                  for s, c in zip(strides, contiguous)),
            spec.offset == 0, spec.offset * size % ALIGN_BYTES == 0)


def fingerprint(launch: Launched, groups: list[list[tuple[int, int]]]) -> tuple:
    """What must not change (see the module's docstring). `groups`: the positions (argument,
    axis) of equal extents in the original case, which share their tiles."""
    path, kernel = launch.kernel
    axes = tile_axes(path, kernel)
    ints = {k: v for k, v in launch.consts.items()
            if isinstance(v, int) and not isinstance(v, bool)}
    ints.update({f"arg{i}": int(s.value) for i, s in enumerate(launch.args)
                 if not s.is_array and isinstance(s.value, int) and s.dtype[0] in "iu"})
    facts: list = [tuple(spec_facts(s) for s in launch.args),
                   tuple(sorted((k, v) for k, v in launch.consts.items() if k not in ints)),
                   tuple(sorted(launch.hints.items()))]
    names = sorted(ints)
    facts.append(tuple((_cmp(ints[a], ints[b]), bool(ints[b]) and ints[a] % ints[b] == 0)
                       for a in names for b in names if a != b))
    facts.append(tuple((_cmp(ints[a], 0), _cmp(ints[a], 1), ints[a] & (ints[a] - 1) == 0,
                        math.gcd(ints[a], SHAPE_DIVISOR)) for a in names))
    for group in groups:
        tiles = []
        for i, axis in group:
            param = launch.params[i] if i < len(launch.params) else None
            for node in axes.get(param, {}).get(axis, ()):
                value = _value(node, launch.consts)
                if value:
                    tiles.append(value)
        tiles = tiles or [v for v in ints.values() if v > 0]
        for i, axis in group:
            n = launch.args[i].shape[axis]
            facts.append(tuple((n % t == 0, _cmp(n, t)) for t in tiles))
    if launch.grid is not None:
        facts.append(tuple(g == 1 for g in launch.grid))
        if launch.walked is not None:
            facts.append(tuple(g < w for g, w in zip(launch.grid, launch.walked)))
    return tuple(facts)


def extent_groups(launches: list[Launched]) -> list[list[list[tuple[int, int]]]]:
    """Per launch, the positions of each distinct extent (in the original case)."""
    result = []
    for launch in launches:
        by_value: dict[int, list] = {}
        for i, spec in enumerate(launch.args):
            for axis, n in enumerate(spec.shape or ()):
                by_value.setdefault(n, []).append((i, axis))
        result.append(list(by_value.values()))
    return result


def candidates(v: int) -> list[int]:
    """Extents below `v` to try, smallest first: v's residue modulo each power of two, plus
    one to three times that power."""
    found = set()
    for j in range(v.bit_length() + 1):
        m = 1 << j
        r = v % m
        found.update(r + q * m for q in range(0, 4))
    return sorted(c for c in found if 0 < c < v)


def shrink_values(values: list[int], build, original_prints) -> dict[int, int]:
    """Each extent (largest first) to the smallest candidate whose build keeps the
    fingerprints; `build(mapping)` returns the fingerprints or None (the launch refused)."""
    mapping = {v: v for v in values}
    for _ in range(PASSES):         # an extent freed by another's shrinking shrinks next pass
        before = dict(mapping)
        for v in sorted(values, reverse=True):
            for c in candidates(mapping[v]):
                trial = {**mapping, v: c}
                try:
                    prints = build(trial)
                except Exception:        # a launch rule or an output rule refused the shapes
                    continue
                if prints == original_prints:
                    mapping = trial
                    break
        if mapping == before:
            break
    return mapping


def mapped_spec(spec: ArgSpec, mapping: dict[int, int]) -> ArgSpec:
    """`spec` with its extents mapped; a strided view's strides and offset follow: a stride
    that was k times the contiguous one stays k times it, one equal to an extent maps with it;
    an offset that is a multiple of a contiguous stride (a view into the next half) likewise,
    an alignment offset stays."""
    if not spec.is_array:
        return spec
    shape = tuple(mapping.get(n, n) for n in spec.shape)
    old = replace(spec, strides=None).effective_strides()
    new = replace(spec, shape=shape, strides=None).effective_strides()
    strides = None
    if spec.strides is not None:
        strides = tuple(_follow(s, o, n, mapping) for s, o, n in zip(spec.strides, old, new))
    offset = spec.offset
    if offset:
        offset = next((offset // o * n for o, n in zip(old, new) if o > 1 and offset % o == 0),
                      mapping.get(offset, offset))
    return replace(spec, shape=shape, strides=strides, offset=offset)


def _follow(stride: int, old: int, new: int, mapping: dict[int, int]) -> int:
    if stride in mapping and stride != 1:
        return mapping[stride]
    if old > 0 and stride % old == 0:
        return stride // old * new
    return stride


def describe(before: list[ArgSpec], after: list[ArgSpec], names=None) -> str:
    """'x f16[16384,4096] -> f16[16,4096]; ...' for the arrays whose spec changed."""
    names = names or [f"arg{i}" for i in range(len(before))]
    parts = [f"{n} {b} -> {a}" for n, b, a in zip(names, before, after)
             if b.is_array and str(b) != str(a)]
    return "; ".join(parts)


# -- own operators -------------------------------------------------------------------------

@dataclass
class Shrunk:
    """An operator with its shrunk cases: `notes[index]` says what each case became (the
    original and shrunk shapes), `same[index]` the earlier case an identical shrunk case is
    checked as, `skipped[index]` why a case is not checked."""
    op: Operator | None = None
    family: Family | None = None
    rules: FamilyRules | None = None
    notes: dict = field(default_factory=dict)
    same: dict = field(default_factory=dict)
    skipped: dict = field(default_factory=dict)

    def indexes(self) -> list[int]:
        """The cases to run: each distinct shrunk case once."""
        every = [c.index for c in self.op.cases] if self.op is not None else \
            list(range(len(self.rules.problems)))
        return [i for i in every if i not in self.same and i not in self.skipped]


@cache
def _params(path: Path, kernel: str) -> tuple[str, ...]:
    return tuple(kernel_params(Path(path), kernel))


def runtime_params(op: Operator, consts: dict) -> tuple[str, ...]:
    """The kernel's runtime parameters (those the case gives no constant), in order."""
    return tuple(p for p in _params(op.kernel_file, op.kernel_name) if p not in consts)


def _elements(specs) -> int:
    return sum(math.prod(s.shape) * (s.length or 1) for s in specs if s.is_array)


def shrink_operator(op: Operator) -> Shrunk:
    """An own operator (or a recorded kernel's cases) shrunk: the constants kept, the grid
    recomputed by kernel.py's grid() when the check runs."""
    result = Shrunk()
    cases, seen = [], {}
    for case in op.cases:
        params = runtime_params(op, case.consts)

        def launched(args, case=case, params=params):
            return Launched((op.kernel_file, op.kernel_name), params, tuple(args), case.consts,
                            None, None, case.hints)
        original = launched(case.args)
        groups = extent_groups([original])[0]
        prints = fingerprint(original, groups)
        values = sorted({n for s in case.args if s.is_array for n in s.shape})
        if case.grid is not None:            # a recorded grid: nothing to recompute it by
            mapping = {v: v for v in values}
        else:
            mapping = shrink_values(values, lambda m: fingerprint(
                launched([mapped_spec(s, m) for s in case.args]), groups), prints)
        args = tuple(mapped_spec(s, mapping) for s in case.args)
        small = replace(case, args=args)
        key = (tuple(map(str, args)), tuple(sorted(case.consts.items())), case.grid,
               tuple(sorted(case.hints.items())))
        change = describe(list(case.args), list(args), list(params))
        result.notes[case.index] = change or "kept as is: no smaller shape keeps its structure"
        budget = too_many(_elements(args), SAMPLE_LIMIT)     # past the budget: sampled
        if budget:
            result.skipped[case.index] = f"{budget} (no smaller shape keeps its structure)"
        elif key in seen:
            result.same[case.index] = seen[key]
        else:
            seen[key] = case.index
        cases.append(small)
    result.op = replace(op, cases=tuple(cases))
    return result


def annotated(results: list[dict], shrunk: Shrunk, indexes, sides) -> list[dict]:
    """The results of a shrunk run, each labelled with its original and shrunk shapes; a case
    checked as an identical earlier one, or skipped, gets a result of its own saying so."""
    out = []
    for result in results:
        note = shrunk.notes.get(result["case"], "")
        also = [i for i, same in shrunk.same.items() if same == result["case"] and i in indexes]
        result["shrunk"] = note
        result["label"] += f" [shrunk: {note}]" + (
            f" (also case {', '.join(map(str, also))}, the same when shrunk)" if also else "")
        out.append(result)
    for index in indexes:
        if index in shrunk.skipped:
            reason = shrunk.skipped[index]
            out.append({"case": index, "label": f"case {index} [shrunk: {shrunk.notes[index]}]",
                        "shrunk": shrunk.notes[index], "cross": None,
                        "sides": {s: {"skipped": True, "reason": reason} for s in sides}})
    return sorted(out, key=lambda r: r["case"])
