"""A view load with no ordering token waits for nothing, exactly as one ordered on a fresh
`make_token` does (a fresh token carries no memory op). Front ends write the one or the other
(cuTile Python leaves a list's table loads free and orders array loads on the entry's fresh
token; cutile orders every view load on its view's token), so before comparing, each free
`load_view_tko` is given a fresh token of its own entry; `cse_pure` then merges the fresh
tokens, and loads that wait for nothing compare equal whichever way they were written."""
from __future__ import annotations

from .model import Block, Module, Operation, Result, Token, split_value_ref

FRESH = "%fresh_token"


def rule_fresh_token_loads(module: Module) -> None:
    for entry in module.entries:
        free = [op for op in entry.walk() if op.name == "load_view_tko" and _is_free(op)]
        if not free:
            continue
        for op in free:
            _order_on(op, FRESH)
        entry.block.ops.insert(0, _make_token())


def _is_free(op: Operation) -> bool:
    """No `token = %t` before the op's type (the `token` in its result types comes after)."""
    for node in op.body:
        if isinstance(node, Token) and node.text == ":":
            return True
        if isinstance(node, Token) and node.kind == "ident" and node.text == "token":
            return False
    return True


def _order_on(op: Operation, token: str) -> None:
    """Insert `token = %t` before the op's `:` (after the view and its index)."""
    at = next(i for i, n in enumerate(op.body) if isinstance(n, Token) and n.text == ":")
    op.body[at:at] = [Token("ident", "token", True), Token("punct", "=", True),
                      Token("value", token, True)]
    op.refresh()


def _make_token() -> Operation:
    return Operation("make_token", [Result(FRESH)],
                     [Token("punct", ":", True), Token("ident", "token", True)])


def rule_self_joins(module: Module) -> None:
    """A `join_tokens` whose operands are one token is that token (a port joins an array's
    token with an acquire that is the same value; cuTile Python writes no join there)."""
    for entry in module.entries:
        mapping: dict[str, str] = {}
        for op in entry.walk():
            if op.name != "join_tokens" or len(op.results) != 1:
                continue
            operands = {_renamed(t.text, mapping) for t in op.operands()}
            if len(operands) == 1:
                mapping[op.results[0].name] = operands.pop()
        if mapping:
            _drop_joins(entry.block, set(mapping))
            for op in entry.walk():
                for tok in op.value_tokens():
                    tok.text = _renamed(tok.text, mapping)


def _renamed(text: str, mapping: dict[str, str]) -> str:
    name, index = split_value_ref(text)
    return mapping.get(name, text) if index is None else text


def _drop_joins(block: Block, results: set[str]) -> None:
    block.ops = [op for op in block.ops
                 if not (op.name == "join_tokens" and op.results[0].name in results)]
    for op in block.ops:
        for region in op.regions:
            _drop_joins(region.block, results)


__all__ = ["rule_fresh_token_loads", "rule_self_joins"]
