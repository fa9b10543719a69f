"""Tile IR as plain classes (the printer is printer.py, as xDSL keeps its printer apart).

An operation keeps its textual body as a small tree of tokens and bracket groups, so the
printer reproduces what tileirdisasm wrote (whitespace aside) for any op, known or not,
while the structure the diff needs (results, operands, regions, attributes, types,
locations) is available as data.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Union

@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while building a model: a parse allocates tens of
    thousands of small acyclic objects, and in a process with a large heap (cuda-tile
    loaded) the collections they trigger double the parse time. Reference counting still
    frees everything."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class Token:
    kind: str            # value, symbol, alias, string, number, ident, arrow, punct
    text: str
    space_before: bool = False


@dataclass
class Group:
    """A bracketed part of an op: (...), [...], <...> or {...}."""
    open: Token
    items: list["Node"]
    close: Token

    @property
    def space_before(self) -> bool:
        return self.open.space_before


Node = Union[Token, Group]


def walk_tokens(nodes: list[Node]) -> Iterator[Token]:
    for node in nodes:
        if isinstance(node, Group):
            yield node.open
            yield from walk_tokens(node.items)
            yield node.close
        else:
            yield node


def split_commas(nodes: list[Node]) -> list[list[Node]]:
    """The items of a bracket group's contents, split at its top-level commas (an empty
    group gives one empty item)."""
    parts: list[list[Node]] = [[]]
    for node in nodes:
        if isinstance(node, Token) and node.text == ",":
            parts.append([])
        else:
            parts[-1].append(node)
    return parts


def split_value_ref(text: str) -> tuple[str, int | None]:
    """`%1#1` -> ("%1", 1); `%x` -> ("%x", None)."""
    name, sep, index = text.partition("#")
    return (name, int(index)) if sep else (name, None)


@dataclass
class Result:
    name: str            # "%tile"
    count: int = 1       # "%1:2" defines two results used as %1#0, %1#1

    def __str__(self) -> str:
        return self.name if self.count == 1 else f"{self.name}:{self.count}"


@dataclass
class BlockArg:
    name: str
    type: list[Node]


@dataclass
class Block:
    ops: list["Operation"] = field(default_factory=list)
    args: list[BlockArg] | None = None      # printed as "(%a: t, ...) {" when present


@dataclass
class Region:
    block: Block
    opener: list[Node] = field(default_factory=list)   # e.g. `else` in "} else {"


@dataclass(eq=False)
class Operation:
    name: str
    results: list[Result]
    body: list[Node]
    regions: list[Region] = field(default_factory=list)
    loc: str | None = None       # text inside loc(...), e.g. "#loc14"
    line: int = 0                # 1-based line in the text it was parsed from

    def __post_init__(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Recompute the value tokens after the body is replaced."""
        tokens = list(walk_tokens(self.body))
        self._values = [t for t in tokens if t.kind == "value"]
        self._defined = [t for t, nxt in zip(tokens, tokens[1:])
                         if t.kind == "value" and nxt.text in ("=", "in")]

    def value_tokens(self) -> list[Token]:
        return self._values

    def definitions(self) -> list[Token]:
        """Values the op's header defines for its regions (`for %i in`, `%iterArg0 = %x`)."""
        return self._defined

    def operands(self) -> list[Token]:
        defined = {id(t) for t in self._defined}
        return [t for t in self._values if id(t) not in defined]

    def result_names(self) -> list[str]:
        names = []
        for r in self.results:
            names += [r.name] if r.count == 1 else [f"{r.name}#{i}" for i in range(r.count)]
        return names

    def walk(self) -> Iterator["Operation"]:
        yield self
        for region in self.regions:
            for op in region.block.ops:
                yield from op.walk()


@dataclass
class Entry:
    """A top-level item with a body: `entry @symbol(%arg0: type, ...) attrs { ... }`."""
    keyword: str
    symbol: str
    args: list[BlockArg]
    attrs: list[Node]
    block: Block
    loc: str | None = None
    line: int = 0

    def walk(self) -> Iterator[Operation]:
        for op in self.block.ops:
            yield from op.walk()


@dataclass
class Module:
    entries: list[Entry] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)   # "#loc14" -> its definition text
    locations: dict[int, "object"] = field(default_factory=dict)  # op index -> SourceLoc,
    symbols: dict[str, str] = field(default_factory=dict)      # filled by normalization

    def walk(self) -> Iterator[Operation]:
        for entry in self.entries:
            yield from entry.walk()

    def entry(self, name: str | None = None) -> Entry:
        if name is None:
            return self.entries[0]
        return next(e for e in self.entries if e.symbol == name)


def clone_nodes(nodes: list[Node]) -> list[Node]:
    return [Group(Token(n.open.kind, n.open.text, n.open.space_before), clone_nodes(n.items),
                  Token(n.close.kind, n.close.text, n.close.space_before))
            if isinstance(n, Group) else Token(n.kind, n.text, n.space_before) for n in nodes]


def clone_block(block: Block) -> Block:
    args = None if block.args is None else [BlockArg(a.name, clone_nodes(a.type))
                                             for a in block.args]
    return Block(ops=[clone_op(op) for op in block.ops], args=args)


def clone_op(op: Operation) -> Operation:
    return Operation(name=op.name, results=[Result(r.name, r.count) for r in op.results],
                     body=clone_nodes(op.body),
                     regions=[Region(clone_block(r.block), clone_nodes(r.opener))
                              for r in op.regions], loc=op.loc, line=op.line)


def clone_module(module: Module) -> Module:
    """A deep copy, much faster than copy.deepcopy for this model."""
    return Module(
        entries=[Entry(e.keyword, e.symbol, [BlockArg(a.name, clone_nodes(a.type)) for a in e.args],
                       clone_nodes(e.attrs), clone_block(e.block), e.loc, e.line)
                 for e in module.entries],
        aliases=dict(module.aliases), locations=dict(module.locations),
        symbols=dict(module.symbols))
