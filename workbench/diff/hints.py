"""Optimization hints as they apply on the target: the entry's `occupancy`,
`num_worker_warps_per_cta`, ..., and each memory op's `latency`, `allow_tma`, ...

cuTile Python writes `optimization_hints = <default = {..}>`; cutile names each GPU
(`sm_90 = {..}, sm_100 = {..}`). On sm_90 a hint is its `sm_90` value, else its `default`
value, else absent. Hints change no result, only the machine code: a differing hint is a
note when the SASS of both sides is the same, and a FAIL (perf) when it is not or when no
SASS can be made.
"""
from __future__ import annotations

import re

from ..ir.model import Group, Node, Token
from ..target import TARGET

HINTS_KEY = "optimization_hints"
_ARCH = re.compile(r"([A-Za-z_]\w*)\s*=\s*\{([^}]*)\}")


def _hint_span(nodes: list[Node]) -> tuple[int, int] | None:
    """Index range of `optimization_hints = <...>` in a node list."""
    for i, node in enumerate(nodes):
        if isinstance(node, Token) and node.text == HINTS_KEY:
            j = i + 1
            if j < len(nodes) and isinstance(nodes[j], Token) and nodes[j].text == "=":
                j += 1
            if j < len(nodes) and isinstance(nodes[j], Group) and nodes[j].open.text == "<":
                return i, j + 1
    return None


def _text(nodes) -> str:
    out = []
    for node in nodes:
        if isinstance(node, Group):
            out.append(node.open.text + _text(node.items) + node.close.text)
        else:
            out.append(" " + node.text)
    return "".join(out)


def target_hints(nodes: list[Node], target: str = TARGET) -> dict[str, str]:
    """The hints of an op body or entry attribute list that apply on `target`."""
    span = _hint_span(nodes)
    if span is None:
        return {}
    by_arch = {}
    for arch, body in _ARCH.findall(_text(nodes[span[0]:span[1]])):
        pairs = [item.split("=", 1) for item in body.split(",") if "=" in item]
        by_arch[arch] = {k.strip(): v.strip() for k, v in pairs}
    return by_arch.get(target, by_arch.get("default", {}))


def without_hints(nodes: list[Node]) -> list[Node]:
    span = _hint_span(nodes)
    return nodes if span is None else nodes[:span[0]] + nodes[span[1]:]


def hint_differences(reference: dict[str, str], port: dict[str, str]) -> list[tuple[str, str | None, str | None]]:
    """(hint, reference value, port value) for every hint whose value differs (None: absent)."""
    return [(key, reference.get(key), port.get(key))
            for key in sorted(set(reference) | set(port)) if reference.get(key) != port.get(key)]


def describe(key: str, reference: str | None, port: str | None) -> str:
    if port is None:
        return f"`{key} = {reference}` in the reference, absent in the port"
    if reference is None:
        return f"`{key} = {port}` in the port, absent in the reference"
    return f"`{key}`: {reference} -> {port}"
