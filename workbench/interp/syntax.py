"""Reading an op's text once, when the kernel is compiled: its operands, keywords, `key = value`
attributes and the types after its `:`. Works on the parsed model (workbench/ir/model.py): an op
body is a list of tokens and bracket groups."""
from __future__ import annotations

from ..ir.model import Group, Node, Operation, Token, split_commas
from ..ir.printer import print_nodes
from .errors import Fault, UnsupportedOp
from .types import parse_type


class OpText:
    """One op's body split at its top-level `:` into the head (operands and attributes) and the
    types (those before `->` and those after)."""

    def __init__(self, op: Operation):
        self.op = op
        body = op.body
        colon = next((i for i, n in enumerate(body)
                      if isinstance(n, Token) and n.text == ":" and n.kind == "punct"), None)
        self.head: list[Node] = body if colon is None else body[:colon]
        tail = [] if colon is None else body[colon + 1:]
        arrow = next((i for i, n in enumerate(tail)
                      if isinstance(n, Token) and n.kind == "arrow"), None)
        self._before, self._after = (tail, []) if arrow is None else \
            (tail[:arrow], tail[arrow + 1:])
        self._types = None

    @property
    def in_types(self) -> list:
        """The types before `->` (all of them when there is no arrow)."""
        if self._types is None:
            self._types = (_types(self._before), _types(self._after))
        return self._types[0]

    @property
    def out_types(self) -> list:
        self.in_types
        return self._types[1]

    # -- the head ---------------------------------------------------------------------------
    def values(self) -> list[str]:
        """Every value the head names, in order, `token = %t` included."""
        return [t.text for t in _flat(self.head) if t.kind == "value"]

    def operands(self) -> list[str]:
        """The head's values but the one after `token =`."""
        token = self.keyed("token")
        skip = id(token) if token is not None else None
        return [t.text for t in _flat(self.head) if t.kind == "value" and id(t) != skip]

    def words(self) -> list[str]:
        """Top-level identifiers (`signed`, `less_than`, `weak`, `flush_to_zero`, ...)."""
        return [n.text for n in self.head if isinstance(n, Token) and n.kind == "ident"]

    def typed(self, prefix: str) -> str | None:
        """The argument text of a top-level `prefix<...>` attribute (`rounding<approx>` ->
        `approx`), or None."""
        for n in self.head:
            if isinstance(n, Token) and n.kind == "typed" and n.text.startswith(prefix + "<"):
                return n.text[len(prefix) + 1:-1]
        return None

    def keyed(self, key: str) -> Node | None:
        """The node after a top-level `key =` (or `key=`)."""
        head = self.head
        for i in range(len(head) - 2):
            if (isinstance(head[i], Token) and head[i].text == key
                    and isinstance(head[i + 1], Token) and head[i + 1].text == "="):
                return head[i + 2]
        return None

    def group(self, open_text: str, nth: int = 0) -> Group | None:
        found = [n for n in self.head if isinstance(n, Group) and n.open.text == open_text]
        return found[nth] if nth < len(found) else None

    def tile_type(self, index: int = -1, out: bool = True):
        types = self.out_types if out else self.in_types
        if not types:
            raise Fault(f"{self.op.name}: no type after `:` to read", kind=UnsupportedOp)
        return types[index]

    @property
    def result_type(self):
        """The single result's type: the last type of the op (ops that print one type)."""
        return (self.out_types or self.in_types)[-1]


def _flat(nodes: list[Node]):
    for node in nodes:
        if isinstance(node, Group):
            yield from _flat(node.items)
        else:
            yield node


def _types(nodes: list[Node]) -> list:
    """`tile<4xf32>, token` or `(tile<4xf32>, token)` -> parsed types."""
    if len(nodes) == 1 and isinstance(nodes[0], Group) and nodes[0].open.text == "(":
        nodes = nodes[0].items
    return [parse_type(print_nodes(part)) for part in split_commas(nodes) if part]


def node_text(node: Node) -> str:
    return print_nodes([node])


def ints_of(node: Node) -> list[int]:
    """`[1, 0]` -> [1, 0]."""
    items = node.items if isinstance(node, Group) else [node]
    return [int(node_text(part[0])) for part in split_commas(items) if part]


def value_or_int(parts: list[Node]):
    """One item of `shape = [%a, 5]`: the value's name, or the integer."""
    text = print_nodes(parts).strip()
    return text if text.startswith("%") else int(text)
