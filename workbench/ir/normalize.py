"""Normalization of a parsed module: named rules that remove differences that do not
change the program, so that two modules can be compared structurally.

Each rule is a function on the model (never a text substitution), can be switched off,
and is listed by `workbench ir --stage normalized --explain`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from .attrs import rule_sort_dict_attrs, rule_target_hints
from .branch_results import rule_passthrough_if_results, rule_sink_after_return
from .fold import rule_fold_splat
from .hoist import INVARIANT_OPS, rule_hoist_branch_constants, rule_hoist_invariant
from .single_trip import rule_empty_loops, rule_single_trip_index
from .tokens import rule_fresh_token_loads, rule_self_joins
from .locations import resolve_locations
from .model import (Block, Module, Node, Operation, Token, clone_module, gc_paused,
                    split_value_ref)
from ..errors import WorkbenchError
from .printer import print_nodes

COMMUTATIVE_OPS = {"addf", "mulf", "addi", "muli", "maxf", "minf", "maxi", "mini",
                   "andi", "ori", "xori"}
# Operand-free ops whose repeats mean the same value: a constant, the block id, and a fresh
# token (two fresh tokens order nothing, so they are interchangeable).
PURE_NO_OPERAND_OPS = {"constant", "iota", "get_tile_block_id", "get_num_tile_blocks",
                       "make_token"}


@dataclass(frozen=True)
class Rule:
    name: str
    summary: str
    apply: Callable[[Module], None]


def normalize(module: Module, disabled: Iterable[str] = ()) -> Module:
    """A normalized copy of `module`; rules named in `disabled` are skipped."""
    disabled = set(disabled)
    unknown = disabled - {r.name for r in RULES}
    if unknown:
        raise WorkbenchError(f"unknown normalization rule(s): {', '.join(sorted(unknown))}",
                             "see `workbench ir --stage normalized --explain`")
    with gc_paused():
        result = clone_module(module)
        _make_names_unique(result)
        for rule in RULES:
            if rule.name not in disabled:
                rule.apply(result)
    return result


# -- values ------------------------------------------------------------------------------

def _rename_uses(ops: Iterable[Operation], mapping: dict[str, str]) -> None:
    for op in ops:
        for tok in op.value_tokens():
            name, index = split_value_ref(tok.text)
            if name in mapping:
                tok.text = mapping[name] + (f"#{index}" if index is not None else "")


def _all_ops(module: Module) -> Iterator[Operation]:
    return module.walk()


def _make_names_unique(module: Module) -> None:
    """Give every definition in an entry its own name (sibling regions may reuse names)."""
    for entry in module.entries:
        seen = {a.name for a in entry.args}
        _unique_block(entry.block, dict(), seen)


def _unique_block(block: Block, scope: dict[str, str], seen: set[str]) -> None:
    scope = dict(scope)

    def define(name: str) -> str:
        new = name
        n = 1
        while new in seen:
            new, n = f"{name}__{n}", n + 1
        seen.add(new)
        scope[name] = new
        return new

    for arg in block.args or []:
        arg.name = define(arg.name)
    for op in block.ops:
        # a loop header's own definitions (`for %i`, `%iterArg0 = ..`) are not uses: renamed
        # as uses first, a third sibling loop's would take the second's name
        defined = {id(tok) for tok in op.definitions()}
        for tok in op.value_tokens():
            name, index = split_value_ref(tok.text)
            if id(tok) not in defined and name in scope:
                tok.text = scope[name] + (f"#{index}" if index is not None else "")
        for tok in op.definitions():
            tok.text = define(tok.text)
        for result in op.results:
            result.name = define(result.name)
        for region in op.regions:
            _unique_block(region.block, scope, seen)


# -- rules -------------------------------------------------------------------------------

def rule_cse_pure(module: Module) -> None:
    """Merge repeated constants and repeated get_tile_block_id reads into the first one."""
    _cse(module, lambda op: op.name in PURE_NO_OPERAND_OPS and not op.regions
         and not list(op.operands()))


def rule_cse_invariant(module: Module) -> None:
    """Merge a pure op that repeats one already visible (same op, operands and types) into
    it: `exti %offs` written once per gather (cuTile Python) or once per use (a port) is one
    value, as tileiras makes it. Only single-result, region-free INVARIANT_OPS and assumes
    (a port drafts `assume bounded` of the block id at each read of it), commutative ones
    whichever order their operands are in (`pid * C + iota` written twice inline)."""
    _cse(module, lambda op: op.name in INVARIANT_OPS | {"assume"} and not op.regions
         and len(op.results) == 1 and op.results[0].count == 1 and bool(list(op.operands())))


def _cse(module: Module, mergeable: Callable[[Operation], bool]) -> None:
    for entry in module.entries:
        mapping: dict[str, str] = {}
        _cse_block(entry.block, {}, mapping, mergeable)
        _rename_uses(entry.walk(), mapping)


def _cse_block(block: Block, visible: dict[str, str], mapping: dict[str, str],
               mergeable: Callable[[Operation], bool]) -> None:
    """An op whose text (operands renamed as merged so far) repeats a visible one's is
    that one: its results are mapped to the first's and it is dropped."""
    visible = dict(visible)
    kept = []
    for op in block.ops:
        _rename_uses([op], mapping)
        if mergeable(op):
            key = _cse_key(op)
            if key in visible:
                mapping.update(zip([r.name for r in op.results], visible[key].split(",")))
                continue
            visible[key] = ",".join(r.name for r in op.results)
        for region in op.regions:
            _cse_block(region.block, visible, mapping, mergeable)
        kept.append(op)
    block.ops = kept


def _cse_key(op: Operation) -> str:
    """The op as printed; a commutative one's two operands in name order, so `a + b` and
    `b + a` are one key (the op itself keeps its order: commutative_operands sets it)."""
    operands = [n for n in op.body if isinstance(n, Token) and n.kind == "value"]
    if op.name not in COMMUTATIVE_OPS or len(operands) != 2:
        return op.name + " " + _print_body(op)
    written = [t.text for t in operands]
    for token, text in zip(operands, sorted(written)):
        token.text = text
    key = op.name + " " + _print_body(op)
    for token, text in zip(operands, written):
        token.text = text
    return key


def rule_identity_casts(module: Module) -> None:
    """A `bitcast` to its own type is its operand: a port's i64 -> u64 (Rust types them apart,
    Tile IR's signless integers do not; cuTile Python writes no op there)."""
    for entry in module.entries:
        mapping = {}
        for op in entry.walk():
            if op.name != "bitcast" or len(op.results) != 1 or len(op.operands()) != 1:
                continue
            types = _print_body(op).split(" : ", 1)[-1].split(" -> ")
            if len(types) == 2 and types[0].strip() == types[1].strip():
                mapping[op.results[0].name] = split_value_ref(op.operands()[0].text)[0]
        _rename_uses(entry.walk(), mapping)


def rule_fold_assumes(module: Module) -> None:
    """Rewrite chains of `assume` into one `assume P1, P2, ..., %root` per distinct predicate
    set: an assume only states facts about its root value, so the order and nesting of the
    chain carry no meaning."""
    for entry in module.entries:
        info: dict[str, tuple[str, tuple[str, ...]]] = {}   # result -> (root, predicates)
        canonical: dict[tuple[str, tuple[str, ...]], str] = {}
        mapping: dict[str, str] = {}
        for op in entry.walk():
            if op.name != "assume" or len(op.results) != 1 or len(op.operands()) != 1:
                continue
            operand = op.operands()[0].text
            root, preds = info.get(operand, (operand, ()))
            preds = tuple(sorted(set(preds) | set(assume_predicates(op))))
            info[op.results[0].name] = (root, preds)
            key = (root, preds)
            if not any(isinstance(n, Token) and n.text == ":" for n in op.body):
                continue                                  # no type: leave it as written
            if key in canonical:
                mapping[op.results[0].name] = canonical[key]
                continue
            canonical[key] = op.results[0].name
            op.body = _assume_body(preds, root, op.body)
            op.refresh()
        _rename_uses(entry.walk(), mapping)


def assume_predicates(op: Operation) -> list[str]:
    preds = []
    for node in op.body:
        if isinstance(node, Token) and node.kind == "value":
            break
        if isinstance(node, Token) and node.text != ",":
            preds.append(node.text)
    return preds


def _assume_body(preds: tuple[str, ...], root: str, old_body: list[Node]) -> list[Node]:
    """`P1, P2, %root` followed by the old body's type part (`: tile<i32>`)."""
    type_start = next(i for i, n in enumerate(old_body)
                      if isinstance(n, Token) and n.text == ":")
    nodes: list[Node] = []
    for i, pred in enumerate(preds):
        kind = "typed" if "<" in pred else "ident"
        nodes += ([Token("punct", ",")] if i else []) + [Token(kind, pred, i > 0)]
    nodes += [Token("punct", ","), Token("value", root, True)]
    return nodes + old_body[type_start:]


PURE_OPS = {"constant", "assume", "make_token", "get_tile_block_id", "get_num_tile_blocks",
            "make_tensor_view", "make_partition_view", "reshape", "broadcast", "iota", "extract",
            "trunci", "exti", "bitcast"}


def rule_dead_pure_ops(module: Module) -> None:
    """Remove ops without side effects whose results nothing uses (dead constants, assumes,
    tokens, views), until none is left."""
    for entry in module.entries:
        while True:
            used = {split_value_ref(t.text)[0] for op in entry.walk() for t in op.operands()}
            if not _drop_dead(entry.block, used):
                break


def _drop_dead(block: Block, used: set[str]) -> bool:
    before = len(block.ops)
    block.ops = [op for op in block.ops
                 if not (op.name in PURE_OPS and all(r.name not in used for r in op.results))]
    changed = len(block.ops) != before
    for op in block.ops:
        for region in op.regions:
            changed |= _drop_dead(region.block, used)
    return changed


def rule_canonical_names(module: Module) -> None:
    """Rename values by position: entry arguments %argN, results %N, region arguments %rN."""
    for entry in module.entries:
        counters = {"arg": 0, "res": 0, "reg": 0}
        mapping: dict[str, str] = {}
        for arg in entry.args:
            mapping[arg.name] = arg.name = f"%arg{counters['arg']}"
            counters["arg"] += 1
        _canonical_block(entry.block, mapping, counters, top=True)
        _rename_uses(entry.walk(), mapping)


def _canonical_block(block: Block, mapping: dict, counters: dict, top: bool = False) -> None:
    def fresh(kind: str, prefix: str) -> str:
        name = f"%{prefix}{counters[kind]}"
        counters[kind] += 1
        return name

    if not top:
        for arg in block.args or []:
            old, arg.name = arg.name, fresh("reg", "r")
            mapping[old] = arg.name
    for op in block.ops:
        for tok in op.definitions():
            old, tok.text = tok.text, fresh("reg", "r")
            mapping[old] = tok.text
        for result in op.results:
            old, result.name = result.name, fresh("res", "")
            mapping[old] = result.name
        for region in op.regions:
            _canonical_block(region.block, mapping, counters)


def rule_commutative_operands(module: Module) -> None:
    """Order the two operands of commutative ops (addf, mulf, maxf, ...) by definition, a
    constant after any other value: where a constant is defined says nothing (cutile defines
    a const generic's at the entry's top, cuTile Python where the source reads it). An
    `assume` result counts where the value it states a fact about is defined (one side may
    state a fact, say a scalar's div_by, that the other does not)."""
    for entry in module.entries:
        order = {a.name: i for i, a in enumerate(entry.args)}
        constants = {r.name for op in entry.walk() if op.name == "constant" for r in op.results}
        for op in entry.walk():
            root = _assumed_value(op)
            for tok in op.definitions():
                order.setdefault(tok.text, len(order))
            for r in op.results:
                order.setdefault(r.name, order.get(root, len(order)) if root else len(order))
            for region in op.regions:
                for arg in region.block.args or []:
                    order.setdefault(arg.name, len(order))
        for op in entry.walk():
            operands = [n for n in op.body if isinstance(n, Token) and n.kind == "value"]
            if op.name in COMMUTATIVE_OPS and len(operands) == 2:
                a, b = operands
                def key(t):
                    name = split_value_ref(t.text)[0]
                    return (name in constants, order.get(name, len(order)), t.text)
                if key(a) > key(b):
                    a.text, b.text = b.text, a.text


def _assumed_value(op: Operation) -> str | None:
    """The value an `assume` op states its predicates of (its one value operand)."""
    if op.name != "assume":
        return None
    values = [n.text for n in op.body if isinstance(n, Token) and n.kind == "value"]
    return split_value_ref(values[0])[0] if len(values) == 1 else None


def rule_entry_symbol(module: Module) -> None:
    """Map each entry's (mangled) symbol to a stable name: `kernel`, `kernel_1`, ..."""
    for i, entry in enumerate(module.entries):
        module.symbols[f"kernel{'_' + str(i) if i else ''}"] = entry.symbol
        entry.symbol = f"kernel{'_' + str(i) if i else ''}"


def rule_locations(module: Module) -> None:
    """Move `loc(...)` to a side table (op index -> source line) and drop the alias lines."""
    resolved = resolve_locations(module)
    module.locations = {}
    for index, op in enumerate(module.walk()):
        if op.loc is not None and op.loc in resolved:
            module.locations[index] = resolved[op.loc]
        op.loc = None
    for entry in module.entries:
        entry.loc = None
    module.aliases = {}


def _print(nodes: list[Node]) -> str:
    return print_nodes(nodes)


def _print_body(op: Operation) -> str:
    return _print(op.body)


RULES: list[Rule] = [
    Rule("sink_after_return", "ops after an `if` whose other branch returns moved into the "
         "branch that reaches them (an early return read as an if/else)",
         rule_sink_after_return),
    Rule("empty_loops", "a `for` over constant bounds that runs no trip removed, its results "
         "the values it starts from (a Rust port leaves it out)", rule_empty_loops),
    Rule("single_trip_index", "a loop index of a one-trip loop folded with constants into "
         "the constant it computes (cutile folds it, cuTile Python does not)",
         rule_single_trip_index),
    Rule("hoist_invariant", "pure loop-invariant ops moved out of loop bodies (tileiras "
         "hoists them either way)", rule_hoist_invariant),
    Rule("fold_splat", "broadcast(reshape(scalar constant)) written as the splat constant it is",
         rule_fold_splat),
    Rule("hoist_branch_constants", "constants moved out of `if` branches to just before the `if`",
         rule_hoist_branch_constants),
    Rule("passthrough_if_results", "`if` results both branches yield unchanged from before "
         "the `if` replaced by that value (cutile yields every loop-carried value)",
         rule_passthrough_if_results),
    Rule("identity_casts", "a `bitcast` to its own type replaced by its operand (a port's "
         "i64 -> u64: one signless Tile IR type)", rule_identity_casts),
    Rule("fresh_token_loads", "a view load with no token ordered on a fresh `make_token` "
         "(both wait for nothing)", rule_fresh_token_loads),
    Rule("cse_pure", "repeated constants, block-id reads and fresh tokens merged into the first",
         rule_cse_pure),
    Rule("cse_invariant", "repeated pure ops of the same operands (an `exti` per gather) merged "
         "into the first visible one", rule_cse_invariant),
    Rule("self_joins", "a `join_tokens` of one token with itself replaced by that token",
         rule_self_joins),
    Rule("fold_assumes", "assume chains folded into one `assume P1, P2, %root` per predicate set",
         rule_fold_assumes),
    Rule("dead_pure_ops", "unused constants, assumes, tokens and views removed",
         rule_dead_pure_ops),
    Rule("canonical_names", "values renamed by position (%argN, %N, region args %rN)",
         rule_canonical_names),
    Rule("commutative_operands", "operands of addf/mulf/maxf/... put in definition order, "
         "constants last",
         rule_commutative_operands),
    Rule("sort_dict_attrs", "dictionary attribute entries sorted by key", rule_sort_dict_attrs),
    Rule("target_hints", "entry optimization_hints resolved for sm_90 (its own, else "
         "`default`); none treated as absent", rule_target_hints),
    Rule("entry_symbol", "mangled entry symbols mapped to `kernel` (original kept)",
         rule_entry_symbol),
    Rule("locations", "loc(...) moved to a side table of source lines; alias lines dropped",
         rule_locations),
]

__all__ = ["normalize", "RULES", "Rule", "SourceLoc"]
