"""Pointer-and-mask accesses mapped onto cuTile's tile model.

A Triton pointer is a parameter plus an offset in elements; the case says which tensor the
parameter points at (its shape and strides). Each term of the offset is matched to one
dimension of that tensor by its stride (a factor, or a product of factors, whose value in
every case is that dimension's stride); what is left of the term is an index into that
dimension. When every dimension is indexed by a scalar, or by a scalar multiple of a block
plus one `tl.arange` of that block's length, the access is a block: `ct.load` / `ct.store`
at a tile index. Anything else goes through `ct.gather` / `ct.scatter` with element indices.

A mask term `index < limit` on a dimension is that dimension's bounds when the limit equals
its extent in every case: cuTile's tile accesses already stop there. Other masks stay
explicit (`ct.where` after a load, `mask=` of a scatter).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from .arith import divide, product_text, shape_text, sum_text, text_of, text_of as txt
from .flattened import contiguous_outer, fold_flattened, fold_flattened_tiles, within_extent
from .values import Bound, Fail, Run, Static, Term

PADDING = {0: "ZERO", float("-inf"): "NEG_INF", float("inf"): "POS_INF"}


@dataclass
class Access:
    """One pointer tile matched against a tensor: per dimension, its scalar index terms and
    its arange term (or None)."""
    param: str
    scalar: list            # per dim: list[Term] (stride removed)
    axis: list              # per dim: Term | None (an arange term, stride removed)
    strided: bool           # some term did not fit a dimension as a block


def decompose(t, ptr, node) -> Access:
    """Split `ptr`'s offset terms by the dimensions of the tensor its parameter points at."""
    specs = t.array_specs(ptr.param, node)
    rank = len(specs[0].shape)
    scalar, axis, strided = [[] for _ in range(rank)], [None] * rank, False
    constant = [0] * len(specs)
    beyond: dict[int, Term] = {}       # dim -> a data index that may run past its extent
    for term in ptr.terms:
        if term.axis is None and all(isinstance(f, Static) and f.uniform for f in term.factors):
            for c, v in enumerate(_product_values(term.factors, len(specs))):
                constant[c] += v
            continue
        dim, rest, past = _match_stride(t, term, specs, node)
        if past:
            beyond[dim] = term
        index_term = Term(tuple(rest), term.axis, term.size)
        if any(isinstance(f, Run) and f.is_tile for f in rest):
            strided = True            # element indices read from a tile: a gather/scatter
            scalar[dim].append(index_term)
        elif term.axis is None:
            scalar[dim].append(index_term)
        elif rest or axis[dim] is not None:
            strided = True
            scalar[dim].append(index_term)
        else:
            axis[dim] = index_term
    split = fold_flattened(t, ptr.param, scalar, axis, specs, node) if not strided else \
        fold_flattened_tiles(t, ptr.param, scalar, axis, specs, node)
    for dim, term in beyond.items():
        if dim not in split:          # beside an arange, or in a gather: no split follows it
            raise Fail(node, "pointer arithmetic", _past_extent(term, specs[0]))
    for dim, value in _unflatten(constant, specs, node):
        scalar[dim].append(Term((value,)))
    return Access(ptr.param, scalar, axis, strided)


def _product_values(factors, cases: int) -> list:
    out = []
    for c in range(cases):
        out.append(math.prod(f.vals[c] for f in factors))
    return out


def _known(t, factor, cases) -> tuple | None:
    if isinstance(factor, Static):
        return factor.vals
    if isinstance(factor, Run) and factor.case_values is not None:
        return factor.case_values
    return None


def _match_stride(t, term: Term, specs, node):
    """(dim, remaining factors) for the largest set of known factors whose product is one
    dimension's stride in every case."""
    unvalued = [f for f in term.factors if isinstance(f, Run) and f.kind == "param"
                and f.is_int and f.case_values is None]
    if unvalued:
        raise Fail(node, "pointer arithmetic", f"the offset term {product_text(term.factors)} "
                   f"has {text_of(unvalued[0])}, whose value the case does not give: which "
                   f"dimension it indexes depends on it; give it, e.g. --arg i32=VALUE")
    known = [i for i, f in enumerate(term.factors) if _known(t, f, len(specs)) is not None]
    strides = [s.effective_strides() for s in specs]
    subsets = [c for size in range(len(known), -1, -1) for c in itertools.combinations(known, size)]
    # a stride the kernel names (a scalar parameter: `rows * K`) before constants that only
    # happen to multiply to it in these cases (`2 * 64` when K is 128); among as many
    # factors, the ones written last, as a stride is (`g * M * N` with g = pid * G + ..:
    # M * N, not G * M when G * M happens to equal N)
    last = len(term.factors)
    subsets.sort(key=lambda c: (not any(isinstance(term.factors[i], Run) for i in c),
                                -len(c), c != tuple(range(last - len(c), last))))
    for subset in subsets:
        values = [math.prod(_known(t, term.factors[i], len(specs))[c] for i in subset)
                  for c in range(len(specs))]
        dims = [d for d in range(len(strides[0]))
                if all(strides[c][d] == values[c] for c in range(len(specs)))]
        if dims:
            big = [d for d in dims if specs[0].shape[d] > 1] or dims
            dim = big[-1] if not subset else big[0]
            rest = [f for i, f in enumerate(term.factors) if i not in subset]
            past = not subset and _check_unit_stride_guess(term, dim, specs, node)
            return dim, rest, past
    raise Fail(node, "pointer arithmetic", f"no dimension of {t.param_label(term)} has the "
               "stride of the offset term " + product_text(term.factors) +
               " in every case: give the tensor the shape and strides the kernel addresses")


def _check_unit_stride_guess(term: Term, dim: int, specs, node) -> bool:
    """A term with no factor equal to a stride is an element count along the unit-stride
    dimension. Triton's pointer arithmetic is flat: such a count may run past that
    dimension's extent into the next one (`idx * D + col` with idx read from memory), and
    cuTile indexes each dimension within its own extent. A block position (program ids,
    loop variables, block sizes, aranges) is the block idiom and stays on that dimension; a
    value computed from data has no known range, so unless no other dimension of more than
    one element lies beyond it, it is refused, the term named; a scalar one on a dimension
    laid out contiguously with the next is left to _fold_flattened to split (True)."""
    if not any(isinstance(f, Run) and f.kind == "value" for f in term.factors):
        return False
    if within_extent([term], dim, specs):
        return False        # `offs % D` with D the dimension's extent: it stays in there
    for spec in specs:
        strides = spec.effective_strides()
        outer = [d for d in range(len(strides)) if d != dim and spec.shape[d] > 1
                 and strides[d] > strides[dim]]
        wrapped = [f for f in term.factors if isinstance(f, Run) and " % " in f.code]
        scalar = term.axis is None and not any(isinstance(f, Run) and f.is_tile
                                               for f in term.factors)
        if outer and scalar and not wrapped and \
                contiguous_outer(dim, [s.effective_strides() for s in specs], specs) is not None:
            return True     # a scalar index past the dimension: _fold_flattened splits it
        if outer and wrapped:
            raise Fail(node, "pointer arithmetic", f"the offset `{wrapped[0].code}` wraps "
                       "with `%` (out-of-range rows or columns read other valid ones instead "
                       "of being masked, the Triton tutorial's trick): cuTile's tile loads pad "
                       "them instead, so the translator does not follow it; drop the `%` and "
                       "mask the access (or let the tile load pad)")
        if outer:
            raise Fail(node, "pointer arithmetic", _past_extent(term, spec))
    return False


def _past_extent(term: Term, spec) -> str:
    return ("the offset term " + product_text(term.factors) + " has no factor that is a "
            f"stride of the {len(spec.shape)}-D tensor it addresses, so the dimension it "
            "indexes is not known (it may cross rows): write it as index * stride with a "
            "stride the cases give, or give the tensor as 1-D")


def _unflatten(constant: list, specs, node) -> list:
    """A constant element offset as a constant index per dimension (largest stride first),
    rounded toward zero: `(t - 1) * D` is -1 on t's dimension, not -1 on the one outside it
    and D - 1 on t's (the same address, but an index past t's extent, which cuTile pads)."""
    if not any(constant):
        return []
    strides = [s.effective_strides() for s in specs]
    order = sorted(range(len(strides[0])), key=lambda d: -strides[0][d])
    per_dim = {d: [] for d in order}
    for c, value in enumerate(constant):
        for d in order:
            q = _toward_zero(value, strides[c][d]) if strides[c][d] else 0
            value -= q * strides[c][d]
            per_dim[d].append(q)
        if value:
            raise Fail(node, "pointer arithmetic", "a constant offset that is not a whole "
                       "number of elements of any dimension")
    out = []
    for d, vals in per_dim.items():
        if any(vals):
            static = Static(tuple(vals), repr(vals[0]) if len(set(vals)) == 1 else "")
            if not static.text:
                raise Fail(node, "pointer arithmetic", "a constant offset that differs "
                           "between cases")
            out.append((d, static))
    return out


def _toward_zero(value: int, stride: int) -> int:
    q = abs(value) // stride
    return q if value >= 0 else -q


# -- masks ------------------------------------------------------------------------------

def split_mask(t, access: Access, mask, ptr_shape, node) -> str | None:
    """The part of `mask` that is not the tensor's bounds nor always true: cuTile text of
    it, or None when nothing is left."""
    if mask is None:
        return None
    if isinstance(mask, Static):
        if all(bool(v) for v in mask.vals):
            return None
        raise Fail(node, "mask", "a mask that is false for the whole access")
    if not isinstance(mask, Run) or mask.bounds is None:
        return text_of(mask)
    rank = len(ptr_shape or ())
    left = []
    for bound in mask.bounds:
        shift = rank - _bound_rank(mask)
        if not (_is_bounds(t, access, bound, shift) or _always_true(bound)):
            left.append(_bound_text(bound, _bound_rank(mask)))
    return " & ".join(left) if left else None


def _bound_rank(mask: Run) -> int:
    return len(mask.shape or ())


def _is_bounds(t, access: Access, bound: Bound, shift: int) -> bool:
    aranges = [x for x in bound.terms if x.axis is not None]
    if len(aranges) != 1 or aranges[0].factors or bound.op not in ("<", "<="):
        return False
    arange = aranges[0]
    rest = sorted(x.key() for x in bound.terms if x.axis is None)
    for dim, term in enumerate(access.axis):
        if term is None or term.axis != arange.axis + shift or term.size.vals != arange.size.vals:
            continue
        if sorted(x.key() for x in access.scalar[dim]) != rest:
            continue
        limits = _limit_values(bound.limit)
        if limits is None:
            return False
        specs = t.array_specs(access.param, None)
        extra = 1 if bound.op == "<=" else 0
        return all(lim + extra == spec.shape[dim] for lim, spec in zip(limits, specs))
    return False


def _limit_values(limit) -> tuple | None:
    if isinstance(limit, Static):
        return limit.vals
    if isinstance(limit, Run):
        return limit.case_values
    return None


def _always_true(bound: Bound) -> bool:
    """`start + arange(B) < limit` with start, B and limit known and start + B <= limit."""
    aranges = [x for x in bound.terms if x.axis is not None]
    if len(aranges) != 1 or aranges[0].factors or not isinstance(bound.limit, Static):
        return False
    starts = [x for x in bound.terms if x.axis is None]
    if not all(isinstance(f, Static) for x in starts for f in x.factors):
        return False
    for c, limit in enumerate(bound.limit.vals):
        start = sum(math.prod(f.vals[c] for f in x.factors) for x in starts)
        last = start + aranges[0].size.vals[c] - 1
        if not (last < limit if bound.op == "<" else last <= limit):
            return False
    return True


def _bound_text(bound: Bound, rank: int) -> str:
    return f"({_terms_code(bound.terms, rank)} {bound.op} {txt(bound.limit)})"


def _terms_code(terms, rank: int) -> str:
    """Only used for bounds that stay explicit: the comparison's left side, rebuilt; an
    arange along one axis of a rank-2+ mask is reshaped onto that axis."""
    parts = []
    for x in terms:
        base = product_text(x.factors)
        if x.axis is not None:
            arange = f"ct.arange({x.size.text}, dtype=ct.int32)"
            if rank > 1:
                dims = ["1"] * rank
                dims[x.axis] = x.size.text
                arange = f"ct.reshape({arange}, ({', '.join(dims)}))"
            parts.append(arange if base == "1" else f"{base} * {arange}")
        elif base != "0":
            parts.append(base)
    return "(" + " + ".join(parts or ["0"]) + ")"


# -- block form -------------------------------------------------------------------------

def block_form(access: Access) -> tuple[list[str], list[str], list[int]] | None:
    """(tile index text per dim, tile shape text per dim, the pointer axis of each block
    dim), or None when the access is not a block."""
    if access.strided:
        return None
    index, shape, axes = [], [], []
    for dim, (scalars, arange) in enumerate(zip(access.scalar, access.axis)):
        if arange is None:
            index.append(_index_text(scalars))
            shape.append("1")
            continue
        parts = [divide(Run(product_text(s.factors), terms=(s,)), arange.size) for s in scalars]
        if None in parts:
            return None
        parts = [p for p in parts if p != "0"]
        index.append(" + ".join(parts) if parts else "0")
        shape.append(arange.size.text)
        axes.append(arange.axis)
    return index, shape, axes


def _index_text(scalars) -> str:
    """A scalar tile index: one computed from data read from memory (a label of int64) is
    cast to int32, as cuTile's tile indices are."""
    text = sum_text(scalars)
    if any(isinstance(f, Run) and f.kind == "value" for x in scalars for f in x.factors) \
            and not text.startswith("ct.astype("):
        return f"ct.astype({text}, ct.int32)"
    return text


def permutation(axes: list[int]) -> tuple[int, ...] | None:
    """For a block whose tile axes run through the tensor's dimensions in another order (a
    transposed access), the `ct.permute` axes that take the tile from the tensor's order to
    the pointer tile's; None when they run in order."""
    if axes == sorted(axes):
        return None
    return tuple(axes.index(a) for a in range(len(axes)))


def gather_indices(access: Access, ptr_shape) -> list[str]:
    """Per dimension, the cuTile text of its element index tile (for gather/scatter)."""
    out = []
    for scalars, arange in zip(access.scalar, access.axis):
        terms = list(scalars) + ([arange] if arange is not None else [])
        parts = []
        for x in terms:
            base = product_text(x.factors)
            if x.axis is not None:
                parts.append(_arange_tile(x, ptr_shape, base))
            elif base != "0":
                parts.append(base)
        out.append(" + ".join(parts) if parts else "0")
    return out


def _arange_tile(term: Term, ptr_shape, base: str) -> str:
    rank = len(ptr_shape)
    code = f"ct.arange({term.size.text}, dtype=ct.int32)"
    if rank > 1:
        dims = ["1"] * rank
        dims[term.axis] = term.size.text
        code = f"ct.reshape({code}, ({', '.join(dims)}))"
    return code if base == "1" else f"{base} * {code}"


def padding_for(other) -> str | None:
    """The padding mode of a load's `other=` (None: not one of cuTile's paddings)."""
    if other is None:
        return "ZERO"
    if isinstance(other, Static) and other.uniform and isinstance(other.value, (int, float)) \
            and not isinstance(other.value, bool):
        value = other.value
        if value != value:
            return "NAN"
        return PADDING.get(value)
    return None


def reshape(code: str, from_shape: list[str], to_shape) -> str:
    target = shape_text(to_shape) if to_shape is not None else "()"
    source = "(" + ", ".join(from_shape) + ("," if len(from_shape) == 1 else "") + ")"
    return code if source == target else f"ct.reshape({code}, {target})"
