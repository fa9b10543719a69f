"""Classify aligned op pairs into findings: critical, perf, arithmetic, hint or noise.

critical, perf and arithmetic fail a diff; a hint is a note; noise changes nothing. Facts
(assume predicates, static view layouts) and optimization hints are judged by
fact_findings.py with the rules of facts.py."""
from __future__ import annotations

import re
import tomllib
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from ..ir.model import Operation
from ..ir.printer import op_header
from .align import (CHANGED, EXTRA, MISSING, MOVED, Alignment, OpPair, _attr_text,
                    paired_operands)
from .fact_findings import fact_findings
from .facts import FactContext
from .token_order import TOKEN_OPS, TokenOrder, order_difference

CRITICAL, PERF, HINT, ARITHMETIC, NOISE = "critical", "perf", "hint", "arithmetic", "noise"
SEVERITY = {CRITICAL: "error", PERF: "error", ARITHMETIC: "error", HINT: "warning",
            NOISE: "note"}
FAILING = {CRITICAL, PERF, ARITHMETIC}
# the categories that can explain wrong results (a perf finding changes no value)
EXPLAINING = (CRITICAL, ARITHMETIC)

MEMORY_OPS = {"load_view_tko", "store_view_tko", "load_ptr_tko", "store_ptr_tko",
              "make_tensor_view", "make_partition_view", "get_index_space_shape",
              "atomic_rmw_tko", "atomic_cas_tko"}
STORE_OPS = {"store_view_tko", "store_ptr_tko"}
LOAD_OPS = {"load_view_tko", "load_ptr_tko"}
CONTROL_OPS = {"for", "if", "loop", "while", "continue", "yield", "break", "return"}
REDUCTION_OPS = {"reduce", "scan"}
MMA_OPS = {"mmaf", "mmai"}
BLOCK_ID_OPS = {"get_tile_block_id", "get_num_tile_blocks"}

# attribute features whose change names the finding (name, regex over masked op text; hints
# and view layouts are masked there and judged by fact_findings.py)
_FEATURES = [
    ("padding_value", CRITICAL, re.compile(r"padding_value\s*=\s*\w+")),
    ("tile_shape", CRITICAL, re.compile(r"tile=\([^)]*\)")),
    ("reduction_identity", CRITICAL, re.compile(r"identities=\[[^\]]*\]")),
    ("reduction_dim", CRITICAL, re.compile(r"dim=\d+")),
    ("constant_value", CRITICAL, re.compile(r"^<[^>]*>")),
]
_TYPES = re.compile(r":\s*(.*)$")


@dataclass
class Finding:
    category: str            # critical, hint, arithmetic, noise
    kind: str                # what differs, e.g. "div_by", "missing store", "dataflow"
    detail: str
    left: dict | None        # {"ir_line", "text", "source"} on the Python side
    right: dict | None       # the same on the Rust side
    noise_id: str | None = None
    # facts and hints: {kind, subject, reference, port, direction, origin, checked_by,
    # evidence, ...} (fact_findings.py)
    fact: dict | None = None

    @property
    def severity(self) -> str:
        return SEVERITY[self.category]

    def to_json(self) -> dict:
        return dict(asdict(self), severity=self.severity)

    @classmethod
    def from_json(cls, data: dict) -> "Finding":
        return cls(data["category"], data["kind"], data["detail"], data["left"], data["right"],
                   data.get("noise_id"), data.get("fact"))


@cache
def noise_catalog() -> dict[str, dict]:
    with open(Path(__file__).with_name("noise.toml"), "rb") as f:
        return tomllib.load(f)


def classify(pair: OpPair, orders=None,
             explained: frozenset[int] = frozenset()) -> list[tuple[str, str, str, str | None]]:
    """(category, kind, detail, noise_id) for one aligned pair; [] when they agree. `orders`
    (pair -> its token-order finding or None) reads what a memory op waits for; `explained`:
    operand positions a changed constant already accounts for."""
    if pair.status == MISSING:
        return [_one_sided(pair.left, pair.parent, "missing in the port")]
    if pair.status == EXTRA:
        return [_one_sided(pair.right, pair.parent, "extra in the port")]
    found = []
    if pair.status == CHANGED:
        found += _changed(pair.left, pair.right)
    if pair.status == MOVED and not pair.operand_mismatch:
        found.append((NOISE, "reordered", f"{pair.left.name} in another order", "reordered"))
    if pair.operand_mismatch and not set(pair.operand_mismatch) <= explained:
        ordered = orders(pair) if orders and _only_token_differs(pair) else None
        found.append(ordered or _operands(pair))
    return found


# an op on one side only, of one of these families, is critical: (ops, finding kind)
_CRITICAL_ONE_SIDED = ((MEMORY_OPS, "memory"), (CONTROL_OPS, "control_flow"), (MMA_OPS, "mma"),
                       (BLOCK_ID_OPS, "block_id"))


def _one_sided(op: Operation, parent: str | None, where: str):
    name = op.name
    text = _attr_text(op)
    if parent in REDUCTION_OPS:
        return CRITICAL, "reduction_kind", f"`{name}` in the {parent} body {where}", None
    if name in STORE_OPS:
        return CRITICAL, "store", f"a store {where}", None
    if name == "assume" and "bounded<" in text:
        return NOISE, "bounded", f"`assume {text.split(',')[0]}` {where}", "extra_assume_bounded"
    if name == "assume":
        return HINT, "div_by", f"`assume {text.split(',')[0]}` {where}", None
    if name == "make_token":
        return NOISE, "token", f"`make_token` {where}", "make_token"
    kind = next((kind for ops, kind in _CRITICAL_ONE_SIDED if name in ops), None)
    if kind:
        return CRITICAL, kind, f"`{name}` {where}", None
    return ARITHMETIC, "op", f"`{name}` {where}", None


def _changed(left: Operation, right: Operation):
    l_text, r_text = _attr_text(left), _attr_text(right)
    found = []
    for kind, category, pattern in _FEATURES:
        l_vals, r_vals = pattern.findall(l_text), pattern.findall(r_text)
        if l_vals != r_vals:
            found.append((category, kind, f"`{left.name}`: {_show(l_vals)} -> {_show(r_vals)}",
                          None))
    l_types, r_types = _TYPES.search(l_text), _TYPES.search(r_text)
    if (l_types and r_types and l_types[1] != r_types[1]
            and not any(f[1] in ("tile_shape", "padding_value") for f in found)):
        found.append((CRITICAL, "types", f"`{left.name}`: {l_types[1]} -> {r_types[1]}", None))
    if not found:
        found.append((_category_of(left.name), "attributes",
                      f"`{left.name}`: `{l_text}` -> `{r_text}`", None))
    return found


def _category_of(name: str) -> str:
    if name in MEMORY_OPS | CONTROL_OPS | REDUCTION_OPS | MMA_OPS | BLOCK_ID_OPS:
        return CRITICAL
    if name == "constant":
        return CRITICAL
    return ARITHMETIC


def _operands(pair: OpPair):
    name = pair.left.name
    positions = ", ".join(str(i) for i in pair.operand_mismatch)
    if name in LOAD_OPS and _only_token_differs(pair):
        return NOISE, "token", f"`{name}` on another token", "readonly_load_token"
    if name in CONTROL_OPS:
        return CRITICAL, "loop_bounds" if name == "for" else "control_flow", \
            f"`{name}` operand(s) {positions} come from different values", None
    kind = "mma_operands" if name in MMA_OPS else "dataflow"
    return CRITICAL, kind, f"`{name}` operand(s) {positions} come from different values", None


def _only_token_differs(pair: OpPair) -> bool:
    operands = pair.left.operands()
    return all(i < len(operands) and _is_token_operand(pair.left, operands[i])
               for i in pair.operand_mismatch)


def _is_token_operand(op: Operation, token) -> bool:
    text = op_header(op)
    return f"token = {token.text}" in text


def _show(values: list[str]) -> str:
    return ", ".join(values) if values else "(none)"


def describe_side(op: Operation | None, op_lines: dict[int, int], sources: dict) -> dict | None:
    if op is None:
        return None
    source = sources.get(id(op))
    return {"ir_line": op_lines.get(id(op)), "text": op_header(op),
            "source": str(source) if source else None,
            "source_line": source.line if source else None}


def findings_for(alignment: Alignment, left_lines, right_lines, left_src, right_src,
                 context: FactContext | None = None):
    out: list[Finding] = []
    for problem in alignment.signature_mismatch:
        category = HINT if problem.startswith("entry attributes") else CRITICAL
        out.append(Finding(category, "signature", problem, None, None))
    if alignment.unused_args:
        out.append(Finding(NOISE, "unused_arguments",
                           "entry arguments no op uses: " + ", ".join(alignment.unused_args),
                           None, None, "unused_entry_argument"))
    orders = token_orders(alignment)
    changed = _changed_constants(alignment)
    for left, right in changed.constants:
        out.append(Finding(ARITHMETIC, "constant_value", _constant_change(left, right),
                           describe_side(left, left_lines, left_src),
                           describe_side(right, right_lines, right_src)))
    for pair in alignment.pairs:
        if id(pair) in changed.absorbed:
            continue
        checked = overflow_flag_note(pair, context)
        for category, kind, detail, noise_id in classify(
                pair, orders, changed.explained.get(id(pair), frozenset())):
            if checked and kind == "attributes":
                category, kind, detail = HINT, "overflow_flag", checked
            out.append(Finding(category, kind, detail,
                               describe_side(pair.left, left_lines, left_src),
                               describe_side(pair.right, right_lines, right_src), noise_id))
    for category, kind, detail, left, right, noise_id, fact in fact_findings(alignment, context):
        out.append(Finding(category, kind, detail, describe_side(left, left_lines, left_src),
                           describe_side(right, right_lines, right_src), noise_id, fact))
    return out


@dataclass
class _ConstantChanges:
    constants: list[tuple[Operation, Operation]]   # (Python's constant, the port's), per change
    absorbed: set[int]                  # ids of the pairs these findings stand for
    explained: dict[int, frozenset[int]]    # id(consumer pair) -> operand positions explained


# ops that hand a constant's value on unchanged (to the use that differs)
_CARRIERS = {"reshape", "broadcast"}


def _constant_chain(value: str, defs: dict[str, OpPair], side: str) -> list[OpPair] | None:
    """The pairs from the op defining `value` back to the constant it carries (through
    reshapes and broadcasts), the constant last; None when `value` is no constant."""
    chain = []
    while value in defs and len(chain) < 4:
        pair = defs[value]
        op = getattr(pair, side)
        chain.append(pair)
        if op.name == "constant":
            return chain if _CONSTANT.match(_attr_text(op)) and pair.parent not in \
                REDUCTION_OPS else None
        if op.name not in _CARRIERS or not op.operands():
            return None
        value = op.operands()[0].text
    return None


def _changed_constants(alignment: Alignment) -> _ConstantChanges:
    """An aligned op that takes, at one operand position, a constant on the Python side and
    a constant of another value on the port's side that the port alone has: one constant
    whose value changed, reported as such (not as an extra constant and an op reading other
    values). Python's constant may be one-sided too (its value changed everywhere) or shared
    with other uses (the port changed one use of it)."""
    def defs(side):
        return {name: p for p in alignment.pairs if getattr(p, side) is not None
                for name in getattr(p, side).result_names()}
    left_defs, right_defs = defs("left"), defs("right")
    changes = _ConstantChanges([], set(), {})
    for pair in alignment.pairs:
        if pair.left is None or pair.right is None:
            continue
        for i, lo, ro in paired_operands(pair) or []:
            left = _constant_chain(lo, left_defs, "left")
            right = _constant_chain(ro, right_defs, "right")
            if not left or not right or any(p.status != EXTRA or id(p) in changes.absorbed
                                             for p in right):
                continue
            one_sided = all(p.status == MISSING for p in left)
            a = _CONSTANT.match(_attr_text(left[-1].left))
            b = _CONSTANT.match(_attr_text(right[-1].right))
            if a["type"] != b["type"] or a["value"] == b["value"] or \
                    not (one_sided or i in pair.operand_mismatch):
                continue
            changes.constants.append((left[-1].left, right[-1].right))
            changes.absorbed |= {id(p) for p in right + (left if one_sided else [])}
            changes.explained[id(pair)] = changes.explained.get(id(pair), frozenset()) | {i}
    return changes


_CONSTANT = re.compile(r"^<(?P<type>\w+):\s*(?P<value>[^>]+)>")


def _constant_change(left: Operation, right: Operation) -> str:
    a = _CONSTANT.match(_attr_text(left))
    b = _CONSTANT.match(_attr_text(right))
    return f"`constant` ({a['type']}): {a['value']} -> {b['value']}"


_OVERFLOW = re.compile(r"\s*overflow<\w+>")
FITS_I32 = "fits i32"       # a checked fact: the value lies in [0, 2^31) on every call


def overflow_flag_note(pair: OpPair, context: FactContext | None) -> str | None:
    """A `trunci` that differs only by an overflow flag the port states where the reference
    states none: the same op on every value that fits the narrower type. cutile 0.4.0 and
    0.5.0 write no trunci without a flag (overflow::None writes no attribute, and cutile-ir's
    op_writer.rs requires one), so a port states one: no wrap where the C ABI checks on every
    call that the value fits, else no signed wrap (a value past i32 is where they differ)."""
    if pair.status != CHANGED or pair.left.name != "trunci":
        return None
    l_text, r_text = _attr_text(pair.left), _attr_text(pair.right)
    flag = _OVERFLOW.search(r_text)
    if not flag or _OVERFLOW.search(l_text) or _OVERFLOW.sub("", r_text).split() != l_text.split():
        return None
    name = None if context is None else \
        context.names.get("right", {}).get(pair.right.result_names()[0])
    who = None if context is None else \
        next((w for fact, w in context.checked.get(name, ()) if fact == FITS_I32), None)
    if who:
        return (f"`trunci`: (none) ->{flag[0]}: no wrap on {name}, whose value fits i32, "
                f"checked on every call by {who}")
    if "no_signed_wrap" in flag[0]:
        return (f"`trunci`: (none) ->{flag[0]}: cutile cannot write a wrapping trunci, so the "
                f"port's keeps every value that fits the narrower signed type, as the "
                f"reference does; a value past it, which the reference wraps, is undefined "
                f"in the port")
    return None


def token_orders(alignment: Alignment):
    """pair -> the finding on what its memory op waits for on each side (token_order.py),
    for ops that differ only in their token."""
    graphs: dict[int, TokenOrder] = {}
    for left, right in alignment.entries:
        for entry in (left, right):
            graph = TokenOrder(entry.block)
            for op in entry.walk():
                graphs[id(op)] = graph

    def finding(pair: OpPair):
        name = pair.left.name
        left, right = graphs.get(id(pair.left)), graphs.get(id(pair.right))
        if name not in TOKEN_OPS or left is None or right is None:
            return None
        dropped, added = order_difference(pair, left, right, alignment.pairs)
        if not dropped and not added:
            if name in LOAD_OPS and not left.waits_for(pair.left):
                return NOISE, "token", f"`{name}` on another token", "readonly_load_token"
            return NOISE, "token", f"`{name}` on another token that waits for the same ops", \
                "token_same_order"
        if dropped:
            extra = f"; it waits for {_ops_text(added)} instead" if added else ""
            return CRITICAL, "token_order", (
                f"`{name}` is ordered after fewer memory ops in the port (a coarser order: an "
                f"ordering the reference has is gone): it no longer waits for "
                f"{_ops_text(dropped)}{extra}"), None
        return PERF, "token_order", (
            f"`{name}` is ordered after more memory ops in the port (a finer order: correct, "
            f"but it serializes what the reference leaves free): it also waits for "
            f"{_ops_text(added)}"), None

    return finding


def _ops_text(ops: list[Operation]) -> str:
    return ", ".join(sorted(f"`{o.name}` (IR line {o.line})" for o in ops))
