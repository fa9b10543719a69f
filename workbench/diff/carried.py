"""A `for` loop's carried values paired in the order that matches (align.py's _Aligner
calls these with itself): cuTile Python orders them by first assignment in the body, the
Rust draft by declaration, so an equivalent loop may carry them in another order."""
from __future__ import annotations

from itertools import permutations, product

from ..ir.model import Operation


def _carried(op: Operation):
    """(carried count, the body's `continue`) of a `for` with carried values, else None."""
    if op.name != "for" or len(op.regions) != 1 or len(op.results) != 1:
        return None
    n = op.results[0].count
    defs = op.definitions()
    body = op.regions[0].block.ops
    tail = body[-1] if body and body[-1].name == "continue" else None
    if n < 2 or len(defs) != n + 1 or len(op.operands()) != n + 3 or tail is None \
            or len(tail.operands()) != n:
        return None
    return n, tail

def carried_order(aligner, left: Operation, right: Operation, limit: int = 120):
    """The order (left carried index -> right carried index) under which the right loop's
    carried values correspond best to the left's; None when it is the identity or the
    loops carry nothing comparable (the caller pairs only ops of one key). Inits that map
    already narrow the candidates; the rest is decided by aligning the body under each
    candidate and counting operands that do not correspond (ties keep the identity)."""
    lc, rc = _carried(left), _carried(right)
    if lc is None or rc is None or lc[0] != rc[0]:
        return None
    n = lc[0]
    l_init = [t.text for t in left.operands()[3:]]
    r_init = [t.text for t in right.operands()[3:]]
    choices = []
    for k in range(n):
        fit = [j for j in range(n) if aligner._maps_to(l_init[k], r_init[j])]
        choices.append(fit or list(range(n)))
    candidates = [p for p in product(*choices) if len(set(p)) == n]
    if not candidates:
        candidates = list(permutations(range(n)))
    identity = tuple(range(n))
    if identity in candidates:
        candidates.remove(identity)
    candidates = [identity] + candidates[:limit]
    if len(candidates) == 1:
        return None
    scores = [_trial(aligner, left, right, p) for p in candidates]
    best = candidates[scores.index(min(scores))]
    return None if best == identity else list(best)

def _trial(aligner, left: Operation, right: Operation, perm) -> int:
    """Operands that do not correspond (and ops left unpaired) in the loop's body when it
    is aligned with the carried values in this order; the aligner's state is restored."""
    saved = (aligner.pairs, dict(aligner.value_map), dict(aligner.operand_order))
    aligner._bound_cache = None
    aligner.pairs = []
    try:
        apply_carried(aligner, left, right, perm)
        for ld, rd in zip(left.definitions(), right.definitions()):
            aligner.value_map[ld.text] = rd.text
        map_carried(aligner, left, right, perm)
        aligner.block(left.regions[0].block, right.regions[0].block, parent=left.name)
        score = sum(1 for p in aligner.pairs if p.left is None or p.right is None)
        for p in aligner.pairs:
            if p.left is not None and p.right is not None:
                pairs = aligner._operand_pairs(p.left, p.right)
                score += len(p.left.operands()) if pairs is None else sum(
                    1 for _, lo, ro in pairs if not aligner._maps_to(lo, ro))
        init = aligner._operand_pairs(left, right) or []
        score += sum(1 for _, lo, ro in init if not aligner._maps_to(lo, ro))
        return score
    finally:
        aligner.pairs, aligner.value_map, aligner.operand_order = saved
        aligner._bound_cache = None

def apply_carried(aligner, left: Operation, right: Operation, perm) -> None:
    n = len(perm)
    aligner.operand_order[id(left)] = [0, 1, 2] + [3 + perm[k] for k in range(n)]
    aligner.operand_order[id(_carried(left)[1])] = list(perm)

def map_carried(aligner, left: Operation, right: Operation, perm) -> None:
    """Region arguments and results of the carried values, through the order."""
    l_defs, r_defs = left.definitions(), right.definitions()
    l_res, r_res = left.results[0].name, right.results[0].name
    for k, j in enumerate(perm):
        aligner.value_map[l_defs[1 + k].text] = r_defs[1 + j].text
        aligner.value_map[f"{l_res}#{k}"] = f"{r_res}#{j}"
