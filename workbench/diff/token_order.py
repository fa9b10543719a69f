"""What a memory op waits for: the memory ops whose tokens flow into its input token, through
`join_tokens`, loop-carried values (initial and next values), `if` results (each branch's
yield) and the ops' own tokens, transitively.

Two sides that chain a memory op on different token values may still order it after the
same ops (a join written another way); if the port orders it after fewer of the reference's
ops, it drops an ordering the reference has (a coarser order: a race the reference rules
out); if after more, it orders what the reference leaves free (a finer order: correct, but
it serializes). The finding says which.
"""
from __future__ import annotations

from ..ir.model import Block, Operation, walk_tokens
from ..ir.printer import op_header

TOKEN_OPS = {"load_view_tko", "store_view_tko", "load_ptr_tko", "store_ptr_tko",
             "atomic_rmw_tko", "atomic_cas_tko", "print_tko"}


def result_refs(op: Operation) -> list[str]:
    refs: list[str] = []
    for r in op.results:
        refs += [r.name] if r.count == 1 else [f"{r.name}#{i}" for i in range(r.count)]
    return refs


def input_token(op: Operation) -> str | None:
    header = op_header(op)
    for tok in op.value_tokens():
        if f"token = {tok.text}" in header or f"token={tok.text}" in header:
            return tok.text
    return None


class TokenOrder:
    """The token graph of one entry (Python or Rust side)."""

    def __init__(self, block: Block):
        self.deps: dict[str, list] = {}       # value -> values (str) and memory ops it is
        self._index(block)

    def _index(self, block: Block) -> None:
        for op in block.ops:
            refs = result_refs(op)
            if op.name in TOKEN_OPS and refs:
                self.deps[refs[-1]] = [op]
            elif op.name == "join_tokens":
                for r in refs:
                    self.deps[r] = [t.text for t in op.operands()]
            elif op.name in ("for", "loop") and op.regions:
                self._loop(op, refs)
            elif op.name == "if":
                yields = [r.block.ops[-1] for r in op.regions
                          if r.block.ops and r.block.ops[-1].name == "yield"]
                for k, r in enumerate(refs):
                    self.deps[r] = [y.operands()[k].text for y in yields
                                    if len(y.operands()) > k]
            for region in op.regions:
                self._index(region.block)

    def _loop(self, op: Operation, refs: list[str]) -> None:
        body = op.regions[0].block
        nexts = [t.text for t in body.ops[-1].operands()] \
            if body.ops and body.ops[-1].name == "continue" else []
        tokens = list(walk_tokens(op.body))
        carried = [(a.text, c.text) for a, b, c in zip(tokens, tokens[1:], tokens[2:])
                   if a.kind == "value" and b.text == "=" and c.kind == "value"]
        for k, (name, init) in enumerate(carried):
            sources = [init] + ([nexts[k]] if k < len(nexts) else [])
            self.deps[name] = sources
            if k < len(refs):
                self.deps[refs[k]] = sources

    def waits_for(self, op: Operation) -> list[Operation]:
        """The memory ops `op` is ordered after (its input token's sources), in no order."""
        start = input_token(op)
        seen_values: set[str] = set()
        found: dict[int, Operation] = {}
        stack = [start] if start else []
        while stack:
            value = stack.pop()
            if value in seen_values:
                continue
            seen_values.add(value)
            for dep in self.deps.get(value, []):
                if isinstance(dep, Operation):
                    if id(dep) not in found:
                        found[id(dep)] = dep
                        token = input_token(dep)
                        if token:
                            stack.append(token)
                else:
                    stack.append(dep)
        return list(found.values())


def order_difference(pair, left: TokenOrder, right: TokenOrder, pairs) -> tuple[list, list]:
    """(reference ops the port's op no longer waits for, port ops it waits for in addition:
    the reference's counterpart, or the port op itself when it has none)."""
    to_left = {id(p.right): p.left for p in pairs if p.left is not None and p.right is not None}
    theirs = {id(o): o for o in left.waits_for(pair.left)}
    ours = [to_left.get(id(o), o) for o in right.waits_for(pair.right)]
    ours_ids = {id(o) for o in ours}
    dropped = [o for i, o in theirs.items() if i not in ours_ids]
    added = [o for o in ours if id(o) not in theirs]
    return dropped, added
