"""The findings of facts and hints: one per fact that differs, for each value (however many
ops use it), each view entry and each hint, with its direction, origin, unit conversion and
the machine-code evidence it was judged with (facts.py has the rules)."""
from __future__ import annotations

from .align import Alignment, paired_operands
from .facts import (CALL, GIVEN, IMPLIES, INCOMPARABLE, OWN_ARITHMETIC, PORT, STRONGER,
                    UNIT_RULES, UNKNOWN, WEAKER, FactContext, FactSet, compare_facts, direction,
                    in_units, judge, restricted, unchecked_promise, vouched)
from .divisibility import multiple_of, proved_divisors
from .hints import describe, hint_differences, target_hints
from .subjects import name_of, subjects, view_layout, zero_offset_aliases

NOISE_BOUNDED = "extra_assume_bounded"



def fact_findings(alignment: Alignment, context: FactContext | None) -> list[tuple]:
    """(category, kind, detail, left op, right op, noise id, fact) for every fact and hint
    of the port that differs from the reference's."""
    ctx = context or FactContext()
    sides = _Sides(alignment, ctx)
    found = _assumed(alignment, ctx, sides)
    return found + _promises(alignment, ctx, sides, found) + _layouts(alignment, ctx, sides) + \
        _hints(alignment, ctx)


class _Sides:
    def __init__(self, alignment: Alignment, ctx: FactContext):
        left = [l for l, _ in alignment.entries]
        right = [r for _, r in alignment.entries]
        self.left_roles, _ = subjects(left, alignment.left_facts)
        self.right_roles, _ = subjects(right, alignment.right_facts)
        self.right_view_index = {id(op): i for i, op in enumerate(
            op for e in right for op in e.walk() if op.name == "make_tensor_view")}
        self.left_names = dict(ctx.names.get("left", {}))
        self.right_names = dict(ctx.names.get("right", {}))
        self.right_divisors = proved_divisors(right)
        for entries, facts, roles, names in (
                (left, alignment.left_facts, self.left_roles, self.left_names),
                (right, alignment.right_facts, self.right_roles, self.right_names)):
            for pointer, base in zero_offset_aliases(entries, facts).items():
                if base in roles:
                    roles[pointer] = roles[base]
                if base in names:
                    names[pointer] = names[base]


# -- assumed facts ------------------------------------------------------------------------------

def _assumed(alignment: Alignment, ctx: FactContext, sides: _Sides) -> list[tuple]:
    groups: dict[tuple, list] = {}
    for pair in alignment.pairs:
        if not pair.predicate_diffs:
            continue
        positions = {p for p, _, _ in pair.predicate_diffs}
        for i, lo, ro in paired_operands(pair) or []:
            if i not in positions:
                continue
            l_root, l_preds = alignment.left_facts.get(lo, (lo, ()))
            r_root, r_preds = alignment.right_facts.get(ro, (ro, ()))
            key = (l_root, r_root, tuple(l_preds), tuple(r_preds))
            groups.setdefault(key, []).append(pair)
    out = []
    for (l_root, r_root, l_preds, r_preds), pairs in groups.items():
        for kind, way in compare_facts(l_preds, r_preds).items():
            out.append(_assumed_one(ctx, sides, kind, way, l_root, r_root, l_preds, r_preds,
                                    pairs))
    return out


def _assumed_one(ctx, sides, kind, way, l_root, r_root, l_preds, r_preds, pairs) -> tuple:
    subject = sides.left_roles.get(l_root) or sides.right_roles.get(r_root)
    role = subject.role if subject else "value"
    name = name_of(l_root, subject, sides.left_names)
    port_name = name_of(r_root, sides.right_roles.get(r_root) or subject, sides.right_names)
    ref, port = FactSet.of(l_preds), FactSet.of(r_preds)
    ref_text, port_text = restricted(ref, kind), restricted(port, kind)
    itemsize = subject.itemsize if subject else None
    fact = {"kind": kind, "subject": name, "port_subject": port_name, "port_root": r_root,
            "role": role,
            "unit": _unit(role), "itemsize": itemsize, "reference": ref_text,
            "port": port_text, "direction": way, "uses": len(pairs)}
    if kind == "div_by" and role in ("shape", "stride"):
        fact["conversion"] = UNIT_RULES
    shown = (f"{name}: {in_units(ref_text, role, itemsize)} -> "
             f"{in_units(port_text, role, itemsize)}")
    uses = f" (used by {len(pairs)} ops)" if len(pairs) > 1 else ""
    if kind == "bounded" and way == STRONGER and _given(subject, port):
        fact.update(origin=GIVEN, checked_by=None)
        why = (f"stronger in the port, but true of every {_KIND_NAMES.get(role, role)} there "
               f"can be (its range: {_bound(subject.lower)}..{_bound(subject.upper)})")
        return ("noise", "bounded", f"{shown}{uses}: {why}", pairs[0].left, pairs[0].right,
                NOISE_BOUNDED, fact)
    if kind == "div_by" and way == STRONGER and _aligned_by_type(subject, port):
        fact.update(origin=GIVEN, checked_by=None)
        why = f"stronger in the port, but every pointer to {subject.itemsize}-byte elements is"
        return ("noise", "div_by", f"{shown}{uses}: {why}", pairs[0].left, pairs[0].right,
                NOISE_BOUNDED, fact)
    origin, fixed = _origin(ctx, r_root, ref, kind)
    checked_by = (_checked_by(ctx, port_name, fixed, kind) or _proved(sides, r_root, fixed, kind)) \
        if origin == PORT else None
    category, reason, evidence = judge(way, origin, checked_by, ctx.machine_evidence)
    fact.update(origin=origin, checked_by=checked_by,
                evidence=evidence.to_json() if evidence else None)
    fact["promise"] = unchecked_promise(fact)
    return (category, kind if kind != "other" else "assume", f"{shown}{uses}: {reason}",
            pairs[0].left, pairs[0].right, NOISE_BOUNDED if category == "noise" else None, fact)


def _promises(alignment: Alignment, ctx: FactContext, sides: _Sides, found: list) -> list:
    """Facts the port's code fixes for every call, where this case's reference happens to
    state the same: still a promise its callers must keep, unless the C ABI checks it."""
    if not ctx.port_fixed:
        return []
    reported = {(f[6].get("port_root"), f[6]["kind"]) for f in found if f[6]}
    uses: dict[str, object] = {}
    for pair in alignment.pairs:
        if pair.left and pair.right:
            for _, _, ro in paired_operands(pair) or []:
                uses.setdefault(alignment.right_facts.get(ro, (ro, ()))[0], pair)
    out = []
    for root, preds in sorted(ctx.port_fixed.items()):
        subject = sides.right_roles.get(root)
        role = subject.role if subject else "value"
        facts = FactSet.of(preds)
        for kind, text in facts.kinds().items():
            if (root, kind) in reported or root not in uses or (
                    kind == "bounded" and _given(subject, facts)) or (
                    kind == "div_by" and _aligned_by_type(subject, facts)):
                continue
            name = name_of(root, subject, sides.right_names)
            checked_by = _checked_by(ctx, name, facts, kind) or _proved(sides, root, facts, kind)
            category = "hint" if checked_by else "critical"
            reason = (vouched(checked_by) if checked_by else
                      "unchecked promise: it holds for this case, but the port's code assumes "
                      "it for every call and nothing checks it")
            fact = {"kind": kind, "subject": name, "port_subject": name, "port_root": root,
                    "role": role, "unit": _unit(role), "reference": "(same for this case)",
                    "port": text, "direction": "fixed", "origin": PORT,
                    "checked_by": checked_by, "uses": 1, "evidence": None}
            fact["promise"] = unchecked_promise(fact)
            pair = uses[root]
            out.append((category, kind, f"{name}: {text} fixed by the port's code: {reason}",
                        pair.left, pair.right, None, fact))
    return out


def _unit(role: str) -> str:
    return {"base": "bytes", "shape": "elements", "stride": "elements"}.get(role, "value")


_KIND_NAMES = {"shape": "size", "stride": "stride", "block_id": "block id",
               "block_count": "block count", "loop_iv": "index of this loop"}


def _aligned_by_type(subject, facts: FactSet) -> bool:
    """A pointer's divisibility up to its element size holds for every valid pointer."""
    return (subject is not None and subject.role in ("base", "pointer") and bool(subject.itemsize)
            and not facts.every and subject.itemsize % facts.div_by == 0)


def _given(subject, facts: FactSet) -> bool:
    """Is what `facts` bound true of every value of this subject's kind (a size >= 0, a
    block count >= 1, a loop index within its bounds)?"""
    if subject is None or (subject.lower is None and subject.upper is None):
        return False
    lower_ok = facts.lower is None or (subject.lower is not None and subject.lower >= facts.lower)
    upper_ok = facts.upper is None or (subject.upper is not None and subject.upper <= facts.upper)
    return lower_ok and upper_ok


def _bound(value) -> str:
    return "?" if value is None else str(value)


def _origin(ctx: FactContext, r_root: str, ref: FactSet, kind: str) -> tuple[str, FactSet]:
    """Is the port's fact of `kind` re-derived per call or fixed by its code?"""
    if ctx.port_fixed is None:
        return UNKNOWN, FactSet()
    fixed = FactSet.of(ctx.port_fixed.get(r_root, ()))
    return (PORT if direction(ref, fixed, kind) in (STRONGER, INCOMPARABLE) else CALL), fixed


def _proved(sides: _Sides, root: str, fixed: FactSet, kind: str) -> str | None:
    """A divisibility the port states that its own Tile IR computes anyway (a running sum of
    multiples of 16): no caller can break it, so it is no promise."""
    if kind != "div_by" or fixed.every or fixed.div_by <= 1 \
            or not multiple_of(sides.right_divisors, root, fixed.div_by):
        return None
    return (f"{OWN_ARITHMETIC}: {root} is a multiple of {fixed.div_by} by its constants, sums, "
            "products and loop induction alone (diff/divisibility.py)")


def _checked_by(ctx: FactContext, subject: str, fixed: FactSet, kind: str) -> str | None:
    for fact_text, who in ctx.checked.get(subject, []):
        if IMPLIES[kind](FactSet.of([fact_text]), fixed):
            return who
    return None


# -- static layout of views -----------------------------------------------------------------------

def _layouts(alignment: Alignment, ctx: FactContext, sides: _Sides) -> list[tuple]:
    out = []
    for pair in alignment.pairs:
        if not (pair.left and pair.right and pair.left.name == pair.right.name
                == "make_tensor_view"):
            continue
        lv, rv = view_layout(pair.left), view_layout(pair.right)
        if not (lv and rv):
            continue
        index = sides.right_view_index.get(id(pair.right))
        for part, role in (("shape", "shape"), ("strides", "stride")):
            for dim, (le, re_) in enumerate(zip(getattr(lv, part), getattr(rv, part))):
                found = _layout_entry(ctx, sides, alignment, pair, part, role, dim, le, re_,
                                      index, lv.itemsize)
                if found:
                    out.append(found)
    return out


def _layout_entry(ctx, sides, alignment, pair, part, role, dim, le, re_, index, itemsize):
    if le.value is None and re_.value is None and le.constant == re_.constant:
        return None
    if le.value is not None and re_.value is not None:
        return None                         # both dynamic: their assumed facts are compared
    value = le.value or re_.value
    facts = alignment.left_facts if le.value else alignment.right_facts
    root = facts.get(value, (value, ()))[0]
    roles = sides.left_roles if le.value else sides.right_roles
    subject = roles.get(root)
    name = name_of(root, subject, sides.left_names if le.value else sides.right_names)
    if le.value is None and re_.value is None:
        way = INCOMPARABLE
    elif le.value is None:
        way = WEAKER
    else:
        preds = alignment.left_facts.get(le.value, (le.value, ()))[1]
        way = STRONGER if _satisfies(re_.constant, FactSet.of(preds)) else INCOMPARABLE
    ref_text = f"{le.constant}" if le.value is None else "? (dynamic)"
    port_text = f"{re_.constant}" if re_.value is None else "? (dynamic)"
    origin = UNKNOWN
    if way == STRONGER and ctx.fixed_layout is not None and index is not None \
            and index < len(ctx.fixed_layout):
        fixed = ctx.fixed_layout[index].get(part, {})
        origin = PORT if fixed.get(dim) == re_.constant else CALL
    checked_by = None
    if origin == PORT:
        checked_by = next((who for text, who in ctx.checked.get(name, [])
                           if text == f"{role} == {re_.constant}"), None)
    category, reason, evidence = judge(way, origin, checked_by, ctx.machine_evidence)
    fact = {"kind": "layout", "subject": name, "port_subject": name, "role": role,
            "unit": "elements", "itemsize": itemsize, "reference": ref_text, "port": port_text,
            "direction": way, "origin": origin, "checked_by": checked_by, "uses": 1,
            "evidence": evidence.to_json() if evidence else None}
    fact["promise"] = unchecked_promise(fact)
    detail = f"{name}: static layout {ref_text} -> {port_text}: {reason}"
    return (category, "layout", detail, pair.left, pair.right, None, fact)


def _satisfies(value: int | None, facts: FactSet) -> bool:
    if value is None:
        return False
    return (value % facts.div_by == 0 and (facts.lower is None or value >= facts.lower)
            and (facts.upper is None or value <= facts.upper))


# -- optimization hints ---------------------------------------------------------------------------

def _hints(alignment: Alignment, ctx: FactContext) -> list[tuple]:
    out = []
    for left, right in alignment.entries:
        for key, ref, port in hint_differences(target_hints(left.attrs), target_hints(right.attrs)):
            out.append(_hint_one(ctx, key, ref, port, None, None, "entry"))
    for pair in alignment.pairs:
        if pair.left is None or pair.right is None:
            continue
        for key, ref, port in hint_differences(target_hints(pair.left.body),
                                               target_hints(pair.right.body)):
            out.append(_hint_one(ctx, key, ref, port, pair.left, pair.right,
                                 f"`{pair.left.name}`"))
    return out


def _hint_one(ctx, key, ref, port, left_op, right_op, where) -> tuple:
    evidence = ctx.machine_evidence()
    category = "hint" if evidence.available and evidence.same else "perf"
    fact = {"kind": "hint", "hint": key, "subject": where, "reference": ref, "port": port,
            "direction": "differs", "origin": PORT if ctx.port_fixed is not None else UNKNOWN,
            "checked_by": None, "evidence": evidence.to_json(), "uses": 1}
    detail = f"{where} hint {describe(key, ref, port)}: {evidence.consequence()}"
    return (category, key, detail, left_op, right_op, None, fact)
