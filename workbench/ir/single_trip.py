"""Normalization rule `single_trip_index`: in a `for` loop that runs exactly once (constant
bounds and step, one trip), the index is its lower bound, and integer arithmetic of that
index with constants is the constant it computes.

cutile folds it (its loop index carries exact bounds, and `j * TILE` of an index in
`0..1` is the constant 0); cuTile Python keeps `muli %iv, %c`. A kernel whose row fits one
tile (`for j in range(cdiv(N, TILE))` with N <= TILE) then differs only in that fold, which
tileiras makes on both sides.
"""
from __future__ import annotations

from .hoist import INVARIANT_OPS
from .lexer import group, tokenize
from .model import Module, Operation, split_value_ref

_FOLDS = {"addi": lambda a, b: a + b, "subi": lambda a, b: a - b, "muli": lambda a, b: a * b}
_PICKS = {"maxi": max, "mini": min}


def rule_single_trip_index(module: Module) -> None:
    for entry in module.entries:
        known: dict[str, int] = {}
        for op in entry.walk():
            value = _int_constant(op)
            if value is not None:
                known[op.results[0].name] = value
            elif op.name == "for":
                _note_single_trip(op, known)
            elif op.name == "assume" and len(op.results) == 1 and op.operands() and \
                    (root := split_value_ref(op.operands()[-1].text)[0]) in known:
                known[op.results[0].name] = known[root]     # an assume passes its value on
            elif op.name in _FOLDS:
                _fold(op, known)


def _note_single_trip(op: Operation, known: dict[str, int]) -> None:
    bounds = [known.get(split_value_ref(t.text)[0]) for t in op.operands()[:3]]
    defs = op.definitions()
    if None in bounds or len(bounds) != 3 or not defs:
        return
    low, high, step = bounds
    if step > 0 and low < high <= low + step:
        known[defs[0].text] = low


def _fold(op: Operation, known: dict[str, int]) -> None:
    """`addi/subi/muli` of two known scalars (a constant, a single-trip index): the constant."""
    operands = [known.get(split_value_ref(t.text)[0]) for t in op.operands()]
    result = op.body[-1] if op.body else None
    text = getattr(result, "text", "")
    if len(operands) != 2 or None in operands or len(op.results) != 1 or \
            text != "tile<i32>" and text != "tile<i64>":
        return
    value = _FOLDS[op.name](*operands)
    bits = 32 if text == "tile<i32>" else 64
    if not -2 ** (bits - 1) <= value < 2 ** (bits - 1):
        return
    body = f"<{text[5:-1]}: {value}> : {text}"
    op.name = "constant"
    op.body = group(tokenize(body, 0), 0, body)
    op.refresh()
    known[op.results[0].name] = value


def _int_constant(op: Operation) -> int | None:
    if op.name != "constant" or len(op.results) != 1 or not op.body or \
            not hasattr(op.body[0], "items"):
        return None
    items = [getattr(t, "text", "") for t in op.body[0].items]
    if len(items) != 3 or not items[0].startswith("i") or items[0] == "i1":
        return None
    last = getattr(op.body[-1], "text", "")
    if "x" in last.removeprefix("tile<"):
        return None                         # a splat tile, not a scalar
    try:
        return int(items[2])
    except ValueError:
        return None


def rule_empty_loops(module: Module) -> None:
    """A `for` over constant bounds (or min/max of constants) that runs no trip is gone, its
    results the values it starts from (cuTile Python writes `for 0 to 0`, and a split loop's
    empty half `for 0 to mini 2, 0`; a Rust port cannot: cutile 0.5.0 writes
    an invalid bounded `assume` for an empty constant range, so the draft leaves it out)."""
    for entry in module.entries:
        known: dict[str, int] = {}
        renamed: dict[str, str] = {}
        if not _drop_empty_loops(entry.block, known, renamed):
            continue
        for op in entry.walk():
            for tok in op.value_tokens():
                tok.text = renamed.get(tok.text, tok.text)
        while _drop_unused(entry.block, {split_value_ref(t.text)[0] for op in entry.walk()
                                         for t in op.operands()}):
            pass                # what only the loop read (cuTile hoists its invariants)


def _drop_unused(block, used: set[str]) -> bool:
    before = len(block.ops)
    block.ops[:] = [op for op in block.ops if not (
        op.name in INVARIANT_OPS and op.results and all(n not in used for n in
                                                        (r.name for r in op.results)))]
    changed = len(block.ops) != before
    for op in block.ops:
        for region in op.regions:
            changed |= _drop_unused(region.block, used)
    return changed


def _drop_empty_loops(block, known: dict[str, int], renamed: dict[str, str]) -> bool:
    """Remove the block's empty loops (and those of its regions); whether any was."""
    kept, dropped = [], False
    for op in block.ops:
        value = _int_constant(op)
        if value is None and op.name in _PICKS and len(op.results) == 1:
            # cuTile Python's split loop ends its first half at `mini %stop, %split`
            picked = [known.get(split_value_ref(t.text)[0]) for t in op.operands()]
            value = _PICKS[op.name](picked) if len(picked) == 2 and None not in picked else None
        if value is not None:
            known[op.results[0].name] = value
        if op.name == "for" and _runs_no_trip(op, known):
            inits = [t.text for t in op.operands()[3:]]
            names = op.result_names()
            if len(inits) == len(names):
                renamed.update(zip(names, inits))
                dropped = True
                continue
        for region in op.regions:
            dropped |= _drop_empty_loops(region.block, known, renamed)
        kept.append(op)
    block.ops[:] = kept
    return dropped


def _runs_no_trip(op: Operation, known: dict[str, int]) -> bool:
    bounds = [known.get(split_value_ref(t.text)[0]) for t in op.operands()[:3]]
    return len(bounds) == 3 and None not in bounds and bounds[2] > 0 and bounds[1] <= bounds[0]
