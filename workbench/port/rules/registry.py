"""The table of `ct.*` rules. A family module (ops_math.py, ops_memory.py, ...) makes one
`Family` and registers each rule with one decorator, so that a new `ct.*` function is one
entry in one file:

    FAMILY = Family("math")

    @FAMILY.rule("exp", tile_method="exp")
    def exp(t, call, hint):              # t: the Translator, call: the ast.Call
        ...                              # -> a Value (None: a statement such as ct.store)

    FAMILY.refuse("static_eval", "ct.static_eval runs Python at compile time; not drafted")

`tile_method`: the rule also translates the `Tile` method of that name (`x.astype(dt)` is
`ct.astype(x, dt)`); `refuse`: a function the drafter knows and does not translate, with the
reason (what cutile-rs lacks). table.py collects the families.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class CtRule:
    name: str                         # the cuda.tile function, without `ct.`
    fn: Callable                      # (translator, ast.Call, hint) -> Value | None
    family: str
    tile_method: str | None = None    # the Tile method it also translates


@dataclass(frozen=True)
class Refusal:
    name: str
    reason: str
    family: str


class Family:
    def __init__(self, name: str):
        self.name = name
        self.rules: list[CtRule] = []
        self.refusals: list[Refusal] = []
        self.builtins: list[CtRule] = []

    def builtin(self, name: str):
        """A rule for a Python builtin (`min`, `max`, ..) called in a kernel."""
        def register(fn):
            self.builtins.append(CtRule(name, fn, self.name))
            return fn
        return register

    def rule(self, name: str, tile_method: str | None = None):
        def register(fn):
            self.rules.append(CtRule(name, fn, self.name, tile_method))
            return fn
        return register

    def refuse(self, name: str, reason: str) -> None:
        self.refusals.append(Refusal(name, reason, self.name))


def collect(families):
    """(rules by function name, rules by Tile method name, refusals by function name,
    builtin rules by name); a name registered twice is a programming error."""
    rules: dict[str, CtRule] = {}
    methods: dict[str, CtRule] = {}
    refusals: dict[str, Refusal] = {}
    builtins: dict[str, CtRule] = {}
    for family in families:
        for b in family.builtins:
            if b.name in builtins:
                raise ValueError(f"builtin {b.name} has two rules")
            builtins[b.name] = b
        for r in family.rules:
            if r.name in rules or r.name in refusals:
                raise ValueError(f"ct.{r.name} is registered twice (family {r.family})")
            rules[r.name] = r
            if r.tile_method:
                if r.tile_method in methods:
                    raise ValueError(f"Tile.{r.tile_method} has two rules")
                methods[r.tile_method] = r
        for f in family.refusals:
            if f.name in rules or f.name in refusals:
                raise ValueError(f"ct.{f.name} is both translated and refused")
            refusals[f.name] = f
    return rules, methods, refusals, builtins
