"""Align two normalized modules op by op.

Both blocks are walked in lockstep while the ops are equivalent (same name, attributes
and types, operands that correspond through the value map built so far). Where the walk
diverges, the rest of that block is aligned by edit distance over op keys (Myers' algorithm,
as llvm-diff does), so one inserted op does not cascade; ops left over on both sides with the same key
are then paired as moved (independent ops in another order). Regions are aligned
recursively. Operand correspondence is checked last, once every pair is known.

A loop's carried values are a set, not a sequence: cuTile Python and cutile order them
differently (cuTile Python by first assignment in the body, cutile by declaration), so a
paired `for` whose carried values are the same in another order is aligned through that
permutation (its inits, region arguments, `continue` operands and results), chosen as the
order under which the body's operands correspond best (carried.py). A carried value that
really differs corresponds under no order and still fails.

Over 400 lines because _Aligner is one walk whose steps (pairing, binding, repairing swaps,
checking operands and arguments) share one state, the value map; its separable part, the
carried values' order, lives in carried.py.
"""
from __future__ import annotations


from dataclasses import dataclass, field

from ..ir.model import Block, Entry, Module, Operation, split_value_ref, walk_tokens
from ..ir.printer import print_nodes
from ..ir.normalize import assume_predicates
from .carried import apply_carried, carried_order, map_carried
from .hints import without_hints
from .myers import opcodes
from .subjects import mask_layout, operand_pairs, view_layout

SAME, CHANGED, MOVED, MISSING, EXTRA = "same", "changed", "moved", "missing", "extra"


@dataclass(eq=False)
class OpPair:
    left: Operation | None          # Python side (reference)
    right: Operation | None         # Rust side (port)
    status: str
    parent: str | None = None       # name of the enclosing op (e.g. "reduce"), None at top
    operand_mismatch: list[int] = field(default_factory=list)
    # (operand position, left predicates, right predicates) where the assumed facts differ
    predicate_diffs: list[tuple[int, tuple, tuple]] = field(default_factory=list)
    # right operand position of each left operand position where they differ (a loop whose
    # carried values are permuted: its `for` and `continue`); None = the same positions
    operand_order: list[int] | None = None


def paired_operands(pair: OpPair) -> list[tuple[int, str, str]] | None:
    """operand_pairs of a pair, through its operand_order when it has one."""
    pairs = operand_pairs(pair.left, pair.right)
    if pairs is None or pair.operand_order is None:
        return pairs
    r_ops = pair.right.operands()
    return [(i, lo, r_ops[pair.operand_order[i]].text) for i, lo, _ in pairs]


@dataclass
class Alignment:
    pairs: list[OpPair]
    value_map: dict[str, str]                 # left value name -> right value name
    signature_mismatch: list[str] = field(default_factory=list)
    unused_args: list[str] = field(default_factory=list)   # "left %arg3: tile<i32>" ...
    # assume result -> (root value, predicates), per side (the facts compared at each use)
    left_facts: dict = field(default_factory=dict)
    right_facts: dict = field(default_factory=dict)
    entries: list[tuple[Entry, Entry]] = field(default_factory=list)


def op_key(op: Operation) -> tuple:
    """What must be equal for two ops to be the same op, operands aside. Optimization hints
    and the static entries of a view's layout are facts, compared on their own (facts.py,
    hints.py), so an op that differs only in them still pairs with its counterpart."""
    return (op.name, _attr_text(op), tuple(r.count for r in op.results), len(op.regions))


def _attr_text(op: Operation) -> str:
    cached = getattr(op, "_attr_cache", None)
    if cached is None:
        cached = mask_layout(_mask_values(op))
        op._attr_cache = cached
    return cached


def _mask_values(op: Operation) -> str:
    out = []
    for i, tok in enumerate(walk_tokens(without_hints(op.body))):
        text = "%" if tok.kind == "value" else tok.text
        out.append((" " if tok.space_before and i else "") + text)
    return "".join(out)


def align_modules(left: Module, right: Module) -> Alignment:
    aligner = _Aligner()
    for l_entry, r_entry in zip(left.entries, right.entries):
        aligner.entry(l_entry, r_entry)
    aligner.repair_swaps()
    aligner.check_operands()
    aligner.check_arguments()
    return Alignment(aligner.pairs, aligner.value_map, aligner.signature_mismatch,
                     aligner.unused_args, aligner.left_facts, aligner.right_facts,
                     aligner.entries)


def assume_facts(entry: Entry) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each `assume` result -> (root value, sorted predicates), following chains."""
    facts: dict[str, tuple[str, tuple[str, ...]]] = {}
    for op in entry.walk():
        if op.name == "assume" and len(op.results) == 1 and len(op.operands()) == 1:
            operand = op.operands()[0].text
            root, preds = facts.get(operand, (operand, ()))
            own = assume_predicates(op)
            facts[op.results[0].name] = (root, tuple(sorted(set(preds) | set(own))))
    return facts


class _Aligner:
    """Entry arguments are bound lazily, by the first paired ops that use them: the two
    front ends order and number their arguments differently (cutile passes an output's
    partition shape and strides too). `assume` ops are not aligned as ops: they state
    facts about values, which are compared at every use instead."""

    def __init__(self):
        self.pairs: list[OpPair] = []
        self.value_map: dict[str, str] = {}
        self.signature_mismatch: list[str] = []
        self.unused_args: list[str] = []
        self.left_facts: dict = {}
        self.right_facts: dict = {}
        self.left_args: dict[str, str] = {}      # free entry arguments -> type text
        self.right_args: dict[str, str] = {}
        self.entries: list[tuple[Entry, Entry]] = []
        # id(left op) -> right operand position of each left operand position (permuted
        # carried values of a loop: the `for` and its `continue`)
        self.operand_order: dict[int, list[int]] = {}

    def entry(self, left: Entry, right: Entry) -> None:
        self.entries.append((left, right))
        self.left_facts.update(assume_facts(left))
        self.right_facts.update(assume_facts(right))
        self.left_args.update({a.name: print_nodes(a.type) for a in left.args})
        self.right_args.update({a.name: print_nodes(a.type) for a in right.args})
        l_attrs, r_attrs = print_nodes(without_hints(left.attrs)), print_nodes(without_hints(right.attrs))
        if l_attrs != r_attrs:               # hints are compared by hints.py, key by key
            self.signature_mismatch.append(
                f"entry attributes: {l_attrs or '(none)'} vs {r_attrs or '(none)'}")
        self.block(left.block, right.block, parent=None)

    # -- blocks -----------------------------------------------------------------------
    def block(self, left: Block, right: Block, parent: str | None) -> None:
        for la, ra in zip(left.args or [], right.args or []):
            self.value_map[la.name] = ra.name
        lops = [op for op in left.ops if op.name != "assume"]
        rops = [op for op in right.ops if op.name != "assume"]
        i = 0
        while i < min(len(lops), len(rops)) and self._equivalent(lops[i], rops[i]):
            self.pair(lops[i], rops[i], SAME, parent)
            i += 1
        self._edit_distance(lops[i:], rops[i:], parent)

    def _equivalent(self, left: Operation, right: Operation) -> bool:
        return op_key(left) == op_key(right) and self._operands_map(left, right)

    def _resolve(self, text: str, facts: dict) -> tuple[str, tuple[str, ...]]:
        return facts.get(text, (text, ()))

    def _maps_to(self, left: str, right: str) -> bool:
        """Do the two operands name corresponding values (facts aside)?"""
        l_root = self._resolve(left, self.left_facts)[0]
        r_root = self._resolve(right, self.right_facts)[0]
        if "#" in l_root and l_root in self.value_map:     # a permuted loop result
            return self.value_map[l_root] == r_root
        name, index = split_value_ref(l_root)
        mapped = self.value_map.get(name)
        if mapped is None:
            # two still-unbound entry arguments of one type may become each other
            return (name in self.left_args and r_root in self.right_args
                    and r_root not in self._bound_right()
                    and self.left_args[name] == self.right_args[r_root])
        return (mapped + (f"#{index}" if index is not None else "")) == r_root

    def _is_known(self, left: str) -> bool:
        """False for operands whose definition is unpaired: that is reported already."""
        root = split_value_ref(self._resolve(left, self.left_facts)[0])[0]
        return root in self.value_map or root in self.left_args

    def _bound_right(self) -> set[str]:
        cached = getattr(self, "_bound_cache", None)
        if cached is None or cached[0] != len(self.value_map):
            cached = (len(self.value_map), set(self.value_map.values()))
            self._bound_cache = cached
        return cached[1]

    def _bind_arguments(self, left: Operation, right: Operation) -> None:
        for _, lo, ro in self._operand_pairs(left, right) or []:
            l_root = self._resolve(lo, self.left_facts)[0]
            r_root = self._resolve(ro, self.right_facts)[0]
            if (l_root in self.left_args and l_root not in self.value_map
                    and r_root in self.right_args and r_root not in self._bound_right()
                    and self.left_args[l_root] == self.right_args[r_root]):
                self.value_map[l_root] = r_root

    def _edit_distance(self, lops: list[Operation], rops: list[Operation],
                       parent: str | None) -> None:
        missing, extra = [], []
        for tag, a0, a1, b0, b1 in opcodes([op_key(o) for o in lops], [op_key(o) for o in rops]):
            if tag == "equal":
                self._pair_equal_run(lops[a0:a1], rops[b0:b1], parent)
            elif tag == "replace":
                left_over = self._pair_by_name(lops[a0:a1], rops[b0:b1], parent)
                missing += left_over[0]
                extra += left_over[1]
            elif tag == "delete":
                missing += lops[a0:a1]
            else:
                extra += rops[b0:b1]
        self._pair_moved(missing, extra, parent)

    def _pair_equal_run(self, lops, rops, parent, window: int = 16) -> None:
        """Pair a run of equal keys, preferring (within a small window) the right-hand op
        whose operands correspond: two swapped independent ops with the same key stay
        paired with their own operands."""
        used = [False] * len(rops)
        start = 0
        for lo in lops:
            while used[start]:
                start += 1
            key = op_key(lo)
            chosen = None
            for j in range(start, min(len(rops), start + window)):
                if not used[j] and op_key(rops[j]) == key and self._operands_map(lo, rops[j]):
                    chosen = j
                    break
            if chosen is None:
                chosen = next(j for j in range(start, len(rops))
                              if not used[j] and op_key(rops[j]) == key)
            used[chosen] = True
            self.pair(lo, rops[chosen], SAME if chosen == start else MOVED, parent)

    def _operand_pairs(self, left: Operation, right: Operation):
        order = self.operand_order.get(id(left))
        pairs = operand_pairs(left, right)
        if pairs is None or order is None or len(order) != len(right.operands()):
            return pairs
        r_ops = right.operands()
        return [(i, lo, r_ops[order[i]].text) for i, lo, _ in pairs]

    def _operands_map(self, left: Operation, right: Operation) -> bool:
        pairs = self._operand_pairs(left, right)
        return pairs is not None and all(self._maps_to(lo, ro) for _, lo, ro in pairs)

    def _pair_by_name(self, lops, rops, parent):
        """Within a replaced run: equal keys first, then same op name. Two constants of
        different values are different values, never one value changed."""
        used, missing = set(), []
        for lo in lops:
            match = next((ro for ro in rops if id(ro) not in used and op_key(ro) == op_key(lo)),
                         None)
            if match is None and lo.name != "constant":
                match = next((ro for ro in rops if id(ro) not in used and ro.name == lo.name),
                             None)
            if match is None:
                missing.append(lo)
                continue
            used.add(id(match))
            self.pair(lo, match, SAME if op_key(lo) == op_key(match) else CHANGED, parent)
        return missing, [ro for ro in rops if id(ro) not in used]

    def _pair_moved(self, missing, extra, parent) -> None:
        """Leftovers: pair equal keys (moved), then ops of one name whose operands come from
        corresponding values (changed in place, e.g. only the padding differs); the rest
        are missing or extra."""
        used = set()
        unpaired = []
        for lo in missing:
            match = next((ro for ro in extra
                          if id(ro) not in used and op_key(ro) == op_key(lo)), None)
            if match is None:
                unpaired.append(lo)
                continue
            used.add(id(match))
            self.pair(lo, match, MOVED, parent)
        for lo in unpaired:
            match = next((ro for ro in extra if id(ro) not in used and ro.name == lo.name
                          and lo.name != "constant" and self._operands_map(lo, ro)), None)
            if match is None:
                self.pairs.append(OpPair(lo, None, MISSING, parent))
                continue
            used.add(id(match))
            self.pair(lo, match, CHANGED, parent)
        for ro in extra:
            if id(ro) not in used:
                self.pairs.append(OpPair(None, ro, EXTRA, parent))

    # -- pairs ------------------------------------------------------------------------
    def pair(self, left: Operation, right: Operation, status: str, parent: str | None) -> None:
        perm = carried_order(self, left, right) if op_key(left) == op_key(right) else None
        if perm is not None:
            apply_carried(self, left, right, perm)
        self.pairs.append(OpPair(left, right, status, parent,
                                 operand_order=self.operand_order.get(id(left))))
        self._bind_arguments(left, right)
        for lr, rr in zip(left.results, right.results):
            self.value_map[lr.name] = rr.name
        for ld, rd in zip(left.definitions(), right.definitions()):
            self.value_map[ld.text] = rd.text
        if perm is not None:
            map_carried(self, left, right, perm)
        for lreg, rreg in zip(left.regions, right.regions):
            self.block(lreg.block, rreg.block, parent=left.name)
        for lreg in left.regions[len(right.regions):]:
            for op in lreg.block.ops:
                self.pairs.append(OpPair(op, None, MISSING, left.name))
        for rreg in right.regions[len(left.regions):]:
            for op in rreg.block.ops:
                self.pairs.append(OpPair(None, op, EXTRA, left.name))

    def repair_swaps(self, rounds: int = 4) -> None:
        """Re-match ops of equal key whose operands do not correspond: the edit script may
        pair interchangeable-looking ops crosswise (two swapped, or rotated, `assume`s).
        Within each such group, each left op takes the first right op whose operands
        correspond through the value map; the rest keep their order."""
        groups: dict[tuple, list[OpPair]] = {}
        for p in self.pairs:
            if p.left is not None and p.right is not None and not p.left.regions:
                groups.setdefault(op_key(p.left), []).append(p)
        for _ in range(rounds):
            changed = False
            for group in groups.values():
                if all(self._operands_map(p.left, p.right) for p in group):
                    continue
                changed |= self._rematch(group)
            if not changed:
                return

    def _rematch(self, group: list[OpPair]) -> bool:
        rights = [p.right for p in group]
        taken: set[int] = set()
        chosen: list[Operation | None] = []
        for p in group:
            match = next((r for r in rights if id(r) not in taken
                          and self._operands_map(p.left, r)), None)
            if match is not None:
                taken.add(id(match))
            chosen.append(match)
        leftovers = iter(r for r in rights if id(r) not in taken)
        changed = False
        for p, match in zip(group, chosen):
            new = match if match is not None else next(leftovers)
            if new is not p.right:
                p.right, p.status, changed = new, MOVED, True
                for lr, rr in zip(p.left.results, new.results):
                    self.value_map[lr.name] = rr.name
        return changed

    def check_operands(self) -> None:
        for pair in self.pairs:
            if pair.left is None or pair.right is None:
                continue
            pair.operand_order = self.operand_order.get(id(pair.left))
            pairs = paired_operands(pair)
            if pairs is None:
                count = max(len(pair.left.operands()), len(pair.right.operands()))
                pair.operand_mismatch = list(range(count))
                continue
            pair.operand_mismatch = [i for i, lo, ro in pairs
                                     if self._is_known(lo) and not self._maps_to(lo, ro)]
            for i, lo, ro in pairs:
                l_preds = self._resolve(lo, self.left_facts)[1]
                r_preds = self._resolve(ro, self.right_facts)[1]
                if l_preds != r_preds and i not in pair.operand_mismatch:
                    pair.predicate_diffs.append((i, l_preds, r_preds))

    def _unmatched(self, args: dict, bound: set, used: set, side: str, other: str) -> list:
        """One side's arguments with no counterpart: a mismatch where used, else unused."""
        unused = []
        for name, type_text in args.items():
            if name in bound:
                continue
            if name in used:
                self.signature_mismatch.append(f"{side} argument {name}: {type_text} has "
                                               f"no counterpart in {other}")
            else:
                unused.append((name, type_text))
        return unused

    def check_arguments(self) -> None:
        """Arguments used on one side only are findings; unused ones are listed."""
        used_left = self._used_roots(self.left_facts, left=True) - self._static_twins(True)
        used_right = self._used_roots(self.right_facts, left=False) - self._static_twins(False)
        unused_left = self._unmatched(self.left_args, set(self.value_map), used_left,
                                      "python", "the port")
        unused_right = self._unmatched(self.right_args, set(self.value_map.values()),
                                       used_right, "port", "the Python kernel")
        # unused on both sides in equal kinds is no difference at all
        for name, type_text in list(unused_left):
            twin = next((r for r in unused_right if r[1] == type_text), None)
            if twin is not None:
                unused_left.remove((name, type_text))
                unused_right.remove(twin)
        self.unused_args += [f"python {n}: {t}" for n, t in unused_left]
        self.unused_args += [f"port {n}: {t}" for n, t in unused_right]

    def _static_twins(self, left: bool) -> set[str]:
        """Roots of view entries whose counterpart is a constant in the other side's view:
        a layout fact (fact_findings.py), not an argument without a counterpart."""
        out = set()
        for pair in self.pairs:
            if not (pair.left and pair.right and pair.left.name == "make_tensor_view"):
                continue
            mine, other = (pair.left, pair.right) if left else (pair.right, pair.left)
            mine_v, other_v = view_layout(mine), view_layout(other)
            if mine_v and other_v:
                other_roles = dict(other_v.operands())
                facts = self.left_facts if left else self.right_facts
                out |= {self._resolve(value, facts)[0] for role, value in mine_v.operands()
                        if role not in other_roles}
        return out

    def _used_roots(self, facts: dict, left: bool) -> set[str]:
        used = set()
        for l_entry, r_entry in self.entries:
            entry = l_entry if left else r_entry
            for op in entry.walk():
                if op.name == "assume":
                    continue
                for tok in op.operands():
                    used.add(split_value_ref(self._resolve(tok.text, facts)[0])[0])
        return used
