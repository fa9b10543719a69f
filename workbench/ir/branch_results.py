"""Normalization rules on `if` regions.

`sink_after_return`: in a block that ends the kernel, an `if` one branch of which ends in
`return` is followed by ops that only the other branch reaches; they move into that branch
(and the `if`'s results, which only that branch yields, become its yielded values). cuTile
Python writes an early return as `if c { A; return } else { }` and then the rest; cutile, which
lowers `return` only at a function's top level, is ported as `if c { A } else { rest }`: the
same program.

`passthrough_if_results`: an `if` result that both branches yield as
the same value, defined before the `if`, is that value: its uses read the value itself and
the result goes (MLIR's canonicalizer does the same to scf.if). A branch that ends in `break`
or `continue` yields nothing (it leaves the iteration): the results are the other branch's.

cutile's `if` inside a loop yields every value the loop carries, changed or not
(compile_expression.rs, Expr::If: the captured names start with ctx.carry_vars); cuTile
Python yields only what a branch assigns and is still used after the `if`. A value passed
through unchanged computes nothing, so the two `if`s are the same program once it is gone.
"""
from __future__ import annotations

from .model import Block, Group, Module, Operation, Result, Token, split_commas, split_value_ref


def rule_sink_after_return(module: Module) -> None:
    for entry in module.entries:
        block = entry.block
        if block.ops and block.ops[-1].name == "return":
            mapping: dict[str, str] = {}
            _sink_block(block, block.ops[:-1], mapping)
            _rename(entry, mapping)


def _rename(entry, mapping: dict[str, str]) -> None:
    for op in entry.walk():
        for tok in op.value_tokens():
            seen = 0
            while tok.text in mapping and seen < len(mapping):     # chains of sunk results
                tok.text, seen = mapping[tok.text], seen + 1


def _sink_block(block: Block, ops: list[Operation], mapping: dict[str, str]) -> None:
    """`ops` (the block's ops but its terminator) end the kernel."""
    for i, op in enumerate(ops):
        if op.name != "if" or len(op.regions) != 2:
            continue
        rest = ops[i + 1:]
        ends = [_ends_in_return(r.block) for r in op.regions]
        if rest and not (ends.count(True) == 1 and _sink(op, ends, rest, block, mapping)):
            continue
        for region in op.regions:          # the `if` ends the kernel now: so do its branches
            _sink_block(region.block, _body(region.block), mapping)
        return


def _sink(op: Operation, ends: list[bool], rest: list[Operation], block: Block,
          mapping: dict[str, str]) -> bool:
    """Move `rest` into the branch of `op` that does not return; False if it cannot."""
    other = op.regions[ends.index(False)].block
    returning = op.regions[ends.index(True)].block
    tail = other.ops[-1] if other.ops and other.ops[-1].name == "yield" else None
    if op.results:
        values = [_text(v) for v in _items(_before_colon(tail.body))] if tail else []
        count = op.results[0].count
        if len(values) != count or None in values:
            return False
        mapping.update({_ref(op.results[0].name, k, count): v for k, v in enumerate(values)})
        op.results = []
        _keep_result_types(op, [])
        op.refresh()
    returning.ops = returning.ops[:-1]
    other.ops = (other.ops[:-1] if tail is not None else other.ops) + list(rest)
    for moved in rest:
        block.ops.remove(moved)
    return True


def _body(block: Block) -> list[Operation]:
    ops = block.ops
    return ops[:-1] if ops and ops[-1].name in ("yield", "return") else list(ops)


def _ends_in_return(block: Block) -> bool:
    return bool(block.ops) and block.ops[-1].name == "return"


def rule_passthrough_if_results(module: Module) -> None:
    for entry in module.entries:
        for op in list(entry.walk()):
            if op.name == "if" and len(op.regions) == 2 and op.results:
                mapping = _drop_passthrough(op)
                # at once and once per reference: one `if`'s map both sends a passed-through
                # result away (%r#0 -> %a) and renumbers the kept ones (%r#2 -> %r#0), so
                # following it twice would send %r#2 to %a; a later `if` then yields the
                # new names
                if mapping:
                    _rename_once(entry, mapping)


def _rename_once(entry, mapping: dict[str, str]) -> None:
    for op in entry.walk():
        for tok in op.value_tokens():
            tok.text = mapping.get(tok.text, tok.text)


def _drop_passthrough(op: Operation) -> dict[str, str]:
    """Remove `op`'s pass-through results; the old result references -> their new text."""
    ends = [_last_yield(r.block) or _jump(r.block) for r in op.regions]
    if any(y is None for y in ends):
        return {}
    yields = [y for y in ends if y.name == "yield"]     # a jump gives the `if` no results
    if not yields:
        return {}
    count = op.results[0].count if len(op.results) == 1 else 0
    operand_lists = [_items(_before_colon(y.body)) for y in yields]
    if count == 0 or any(len(ops) != count for ops in operand_lists):
        return {}
    inside = _defined_in(op)
    keep, mapping = [], {}
    name = op.results[0].name
    for i in range(count):
        texts = {_text(items[i]) for items in operand_lists}
        a = next(iter(texts)) if len(texts) == 1 else None
        if a is not None and split_value_ref(a)[0] not in inside:
            mapping[_ref(name, i, count)] = a
        else:
            keep.append(i)
    if not mapping:
        return {}
    for new, old in enumerate(keep):
        mapping[_ref(name, old, count)] = _ref(name, new, len(keep))
    for region in op.regions:
        y = _last_yield(region.block)
        if y is not None and keep:
            _keep_yield_items(y, keep)
        elif y is not None:              # an empty yield: Tile IR prints the branch empty
            region.block.ops.pop()
    _keep_result_types(op, keep)
    op.results = [Result(name, len(keep))] if keep else []
    op.refresh()
    return mapping


def _ref(name: str, index: int, count: int) -> str:
    return name if count == 1 else f"{name}#{index}"


def _last_yield(block: Block) -> Operation | None:
    return block.ops[-1] if block.ops and block.ops[-1].name == "yield" else None


def _jump(block: Block) -> Operation | None:
    """The `break` / `continue` a branch ends in (it leaves the loop's iteration: the `if`'s
    results are what the other branch yields)."""
    return block.ops[-1] if block.ops and block.ops[-1].name in ("break", "continue") else None


def _before_colon(body: list) -> list:
    for i, node in enumerate(body):
        if isinstance(node, Token) and node.text == ":":
            return body[:i]
    return body


def _items(nodes: list) -> list[list]:
    return [item for item in split_commas(nodes) if item]


def _text(items: list) -> str | None:
    return items[0].text if len(items) == 1 and isinstance(items[0], Token) \
        and items[0].kind == "value" else None


def _defined_in(op: Operation) -> set[str]:
    names: set[str] = set()
    for region in op.regions:
        for arg in region.block.args or []:
            names.add(arg.name)
        for inner in region.block.ops:
            for o in inner.walk():
                names |= {r.name for r in o.results}
                names |= {t.text for t in o.definitions()}
                for r in o.regions:
                    names |= {a.name for a in r.block.args or []}
    return names


def _join(items: list[list]) -> list:
    out: list = []
    for i, item in enumerate(items):
        if i:
            out.append(Token("punct", ","))
            _space_first(item, True)
        out += item
    return out


def _keep_yield_items(y: Operation, keep: list[int]) -> None:
    colon = next((i for i, n in enumerate(y.body) if isinstance(n, Token) and n.text == ":"),
                 len(y.body))
    values, types = _items(y.body[:colon]), _items(y.body[colon + 1:])
    body = _join([values[i] for i in keep])
    _space_first(body, True)
    if keep and len(types) == len(values):
        kept_types = _join([types[i] for i in keep])
        _space_first(kept_types, True)
        body += [Token("punct", ":", True)] + kept_types
    y.body = body
    y.refresh()


def _space_first(nodes: list, space: bool) -> None:
    """The first token of `nodes` written with (or without) a space before it."""
    if nodes:
        first = nodes[0]
        (first.open if isinstance(first, Group) else first).space_before = space


def _keep_result_types(op: Operation, keep: list[int]) -> None:
    """`-> (t0, t1, ..)` in the `if` header keeps the types of the kept results."""
    for i, node in enumerate(op.body):
        if isinstance(node, Token) and node.text == "->" and i + 1 < len(op.body) \
                and isinstance(op.body[i + 1], Group):
            group = op.body[i + 1]
            types = _items(group.items)
            if keep:
                group.items = _join([types[k] for k in keep])
                _space_first(group.items, False)
            else:
                del op.body[i:i + 2]
            return
