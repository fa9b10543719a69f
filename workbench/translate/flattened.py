"""A scalar index that Triton's flat pointer lets run past its dimension into the one laid
out just outside it (a program id over flattened batch and sequence dimensions), split over
the two as cuTile indexes each dimension within its own extent (memory.py's decompose)."""
from __future__ import annotations

import math

from .arith import sum_text
from .values import Run, Static, Term


def fold_flattened(t, param: str, scalar: list, axis: list, specs, node) -> set[int]:
    """A scalar index on one dimension may run over the dimensions outside it too, when they
    are laid out contiguously with it: `q + pid * stride_s` with q of [B, S, H, D] and pid in
    range(B * S) addresses (pid // S, pid % S, 0, 0), as Triton's flat pointer does. cuTile
    indexes each dimension within its own extent, so such an index is split: its remainder
    by the dimension's extent stays there and its quotient joins the outer dimension (which
    may in turn run over the next one). An index known to stay below the extent (a program
    id whose grid does, `x % n` with n at most the extent) stays as it is. -> the dimensions
    whose index is split or known to stay within."""
    handled: set[int] = set()
    for dim, outer in _past_extent(t, scalar, axis, specs, handled, tiles=False):
        index = sum_text(scalar[dim])
        extent = f"{param}.shape[{dim}]"
        index = index if _atomic(index) else f"({index})"
        if any(isinstance(f, Run) and f.kind == "value" for x in scalar[dim] for f in x.factors):
            index = f"ct.astype({index}, ct.int32)"     # read from memory: an int64 maybe
        scalar[dim] = [Term((Run(f"({index} % {extent})", kind="position", is_int=True),))]
        scalar[outer].append(Term((Run(f"({index} // {extent})", kind="position",
                                       is_int=True),)))
        message = (f"an index of {param}'s dimension {dim} may run past its extent into "
                   f"dimension {outer} (laid out contiguously with it, as Triton's flat pointer "
                   f"does): split as {index} // {extent} and {index} % {extent}")
        if all(n["message"] != message for n in t.state.notes):
            t.note(node, message)
    return handled


def fold_flattened_tiles(t, param: str, scalar: list, axis: list, specs, node) -> set[int]:
    """fold_flattened for a gather's element indices: a tile of row indices over flattened
    dimensions (`offs // D` with offs over every element of x[B, T, D]) is split over the
    dimensions laid out contiguously around it, unless it is known to stay below its
    extent (`offs % D`). -> the dimensions split or known to stay within."""
    handled: set[int] = set()
    for dim, outer in _past_extent(t, scalar, axis, specs, handled, tiles=True):
        tiles = [f for x in scalar[dim] for f in x.factors if isinstance(f, Run) and f.is_tile]
        index, extent = f"({sum_text(scalar[dim])})", f"{param}.shape[{dim}]"
        scalar[dim] = [Term((Run(f"({index} % {extent})", tiles[0].shape, is_int=True),))]
        scalar[outer].append(Term((Run(f"({index} // {extent})", tiles[0].shape,
                                       is_int=True),)))
        t.note(node, f"element indices of {param}'s dimension {dim} run past its extent into "
                     f"dimension {outer} (laid out contiguously with it, as Triton's flat "
                     f"pointer allows): split as {index} // {extent} and {index} % {extent}")
    return handled


def _past_extent(t, scalar: list, axis: list, specs, handled: set, tiles: bool):
    """(dim, the dimension outside it) for each dimension, innermost first, whose index
    (scalar, or with `tiles` a tile of element indices) is not known to stay below its
    extent and has a contiguous outer dimension to run into; each dimension with such an
    outer one joins `handled`. Lazy: the caller's split of one dimension is seen by the next."""
    strides = [s.effective_strides() for s in specs]
    for dim in range(len(axis) - 1, -1, -1):
        indexed = [f for x in scalar[dim] for f in x.factors
                   if isinstance(f, Run) and f.is_tile] if tiles else scalar[dim]
        if axis[dim] is not None or not indexed:
            continue
        outer = contiguous_outer(dim, strides, specs)
        if outer is None:
            continue
        handled.add(dim)
        if not within_extent(scalar[dim], dim, specs):
            yield dim, outer


def _atomic(code: str) -> bool:
    return code.isidentifier() or (code.startswith("(") and code.endswith(")")) or \
        (code.startswith("ct.") and code.endswith(")") and code.count("(") == 1)


def contiguous_outer(dim: int, strides, specs) -> int | None:
    """The dimension just outside `dim` in memory when it starts where `dim` ends (its
    stride is dim's stride times dim's extent) in every case and has more than one element in
    some case; else None."""
    rank = len(strides[0])
    for o in range(rank):
        if o == dim:
            continue
        if all(st[o] == st[dim] * spec.shape[dim] and st[dim] > 0
               for st, spec in zip(strides, specs)):
            return o if any(spec.shape[o] > 1 for spec in specs) else None
    return None


def within_extent(terms: list, dim: int, specs) -> bool:
    """The index (a sum of terms) is known to stay below dimension `dim`'s extent in every
    case: a constant that does, a program id whose launch grid does, `x % n` with n that
    does (times a non-negative constant)."""
    extents = [spec.shape[dim] for spec in specs]
    if all(isinstance(f, Static) for x in terms for f in x.factors):
        values = [sum(math.prod(f.vals[c] for f in x.factors) for x in terms)
                  for c in range(len(specs))]
        return all(0 <= v < e for v, e in zip(values, extents))
    if len(terms) != 1:
        return False
    ranged = [f for f in terms[0].factors if isinstance(f, Run) and f.upper is not None]
    scales = [f for f in terms[0].factors if isinstance(f, Static)]
    if len(ranged) != 1 or len(ranged) + len(scales) != len(terms[0].factors):
        return False
    # `2 * (offs % half)` of an interleaved pair: its largest value is 2 * (half - 1)
    scale = [math.prod(f.vals[c] for f in scales) for c in range(len(specs))]
    return all(isinstance(k, int) and k >= 0 and k * (u - 1) < e
               for k, u, e in zip(scale, ranged[0].upper, extents))
