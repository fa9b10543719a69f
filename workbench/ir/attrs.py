"""Normalization rules on attributes: dictionary entries sorted by key, and an entry's
per-target optimization hints resolved for the one target (workbench/ir/normalize.py lists
them with the other rules)."""
from __future__ import annotations

import re

from ..target import TARGET
from .lexer import group, tokenize
from .model import Group, Module, Node, Token, split_commas
from .printer import print_nodes as _print


def rule_sort_dict_attrs(module: Module) -> None:
    """Sort the entries of dictionary attributes `{b = 1, a = 2}` by key."""
    for entry in module.entries:
        _sort_dicts(entry.attrs)
        for op in entry.walk():
            _sort_dicts(op.body)


def _sort_dicts(nodes: list[Node]) -> None:
    for node in nodes:
        if isinstance(node, Group):
            _sort_dicts(node.items)
            if node.open.text == "{" and node.items:
                entries = split_commas(node.items)
                entries.sort(key=lambda e: _print(e))
                node.items = _join_commas(entries)


def _join_commas(parts: list[list[Node]]) -> list[Node]:
    items: list[Node] = []
    for i, part in enumerate(parts):
        if i:
            items.append(Token("punct", ","))
        first = part[0] if part else None
        if isinstance(first, Token):
            first.space_before = i > 0
        elif isinstance(first, Group):
            first.open.space_before = i > 0
        items += part
    return items


_ARCH_HINTS = re.compile(r"([A-Za-z_]\w*)\s*=\s*\{([^}]*)\}")


def rule_target_hints(module: Module) -> None:
    """Entry and op hints as they apply on the target (sm_90): its own `sm_90 = {..}` hints, else
    the `default` ones, keys sorted; none at all is the same as no attribute. cuTile Python
    writes `default`, and cutile Rust can only name architectures."""
    for entry in module.entries:
        entry.attrs = _target_hints(entry.attrs)
        for op in entry.walk():            # per-op hints too (a load's latency)
            if any(getattr(n, "text", "") == "optimization_hints" for n in op.body):
                op.body = _target_hints(op.body, sort_keys=False)
                op.refresh()


def _target_hints(nodes: list[Node], sort_keys: bool = True) -> list[Node]:
    for i in range(len(nodes) - 2):
        if not (isinstance(nodes[i], Token) and nodes[i].text == "optimization_hints"):
            continue
        by_arch = {arch: dict(_hint_pairs(body))
                   for arch, body in _ARCH_HINTS.findall(_print(nodes[i:i + 3]))}
        hints = by_arch.get(TARGET, by_arch.get("default", {}))
        if not hints:
            return nodes[:i] + nodes[i + 3:]
        text = (f"optimization_hints=<{TARGET} = {{"
                + ", ".join(f"{k} = {v}" for k, v in (sorted(hints.items()) if sort_keys
                                                       else hints.items())) + "}>")
        replacement = group(tokenize(text, 0), 0, text)
        replacement[0].space_before = nodes[i].space_before
        return nodes[:i] + replacement + nodes[i + 3:]
    return nodes


def _hint_pairs(body: str) -> list[tuple[str, str]]:
    pairs = [item.split("=", 1) for item in body.split(",") if "=" in item]
    return [(key.strip(), value.strip()) for key, value in pairs]


