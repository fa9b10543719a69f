"""Which integer values of a Tile IR entry are multiples of a power of two by the entry's own
arithmetic: constants, sums, differences and products, through reshapes, broadcasts, integer
extensions, an `if`'s or a `select`'s two branches and a `for` loop's induction (the value it
starts from and the value each iteration carries on). An `assume` passes its operand's divisor through: a promise is what
is being proved, never part of the proof.

Divisors are powers of two (0 for a value that is zero), because i32 and i64 arithmetic
wraps, and a wrapped multiple of 2^k is still one; a multiple of 3 need not be.
"""
from __future__ import annotations

import math
import re

from ..ir.model import Group, Operation, Token, walk_tokens

_PASS_THROUGH = {"reshape", "broadcast", "exti", "assume"}
_MAX_ROUNDS = 64        # an induction narrows a power of two at each round, or stops


def multiple_of(divisors: dict[str, int], value: str, divisor: int) -> bool:
    known = divisors.get(value)
    return known is not None and (known == 0 or known % divisor == 0)


def proved_divisors(entries) -> dict[str, int]:
    """value name -> the power of two it is a multiple of (0: it is zero); values with no
    divisor known beyond 1 are left out. Values are visited in definition order, so each
    one's operands are known before it (a chain of any length stays shallow)."""
    defs: dict[str, Operation] = {}
    for entry in entries:
        for op in entry.walk():
            for name in op.result_names():
                defs[name] = op
    prover = _Prover(defs)
    out = {}
    for name in defs:
        try:
            d = prover.divisor(name)
        except RecursionError:          # a loop body too deep to follow: nothing proved
            continue
        if d != 1:
            out[name] = d
    out.update({k: v for k, v in prover.carried.items() if v != 1})
    return out


def _pow2(n: int) -> int:
    return 0 if n == 0 else abs(n) & -abs(n)


class _Prover:
    def __init__(self, defs: dict[str, Operation]):
        self.defs = defs
        self.memo: dict[str, int] = {}          # divisors that hold
        self.carried: dict[str, int] = {}       # loop-carried block args, once proved
        self.inductions: dict[int, dict[int, int]] = {}   # loop op -> its results' divisors
        # the inductions under way, innermost last: (what they assume of their carried
        # values, what was derived from that), dropped when the induction moves on
        self.guesses: list[tuple[dict[str, int], dict[str, int]]] = []

    def divisor(self, value: str) -> int:
        for assumed, derived in reversed(self.guesses):
            if value in assumed:
                return assumed[value]
            if value in derived:
                return derived[value]
        if value in self.carried:
            return self.carried[value]
        if value in self.memo:
            return self.memo[value]
        op = self.defs.get(value)
        result = 1 if op is None else self._of(op, value)
        (self.guesses[-1][1] if self.guesses else self.memo)[value] = result
        return result

    def _of(self, op: Operation, value: str) -> int:
        operands = [t.text for t in op.operands()]
        if op.name == "constant":
            return _constant(op)
        if op.name in _PASS_THROUGH and operands:
            return self.divisor(operands[0])
        if op.name in ("addi", "subi") and len(operands) == 2:
            return math.gcd(self.divisor(operands[0]), self.divisor(operands[1]))
        if op.name == "muli" and len(operands) == 2:
            return self.divisor(operands[0]) * self.divisor(operands[1])
        if op.name == "select" and len(operands) == 3:
            return math.gcd(self.divisor(operands[1]), self.divisor(operands[2]))
        if op.name == "if":
            index = int(value.partition("#")[2] or 0)
            branches = [_terminator(r.block, "yield") for r in op.regions]
            if len(branches) == 2 and all(len(b) > index for b in branches):
                return math.gcd(*(self.divisor(b[index]) for b in branches))
            return 1
        if op.name == "for":
            index = int(value.partition("#")[2] or 0)
            return self._induction(op).get(index, 1)
        return 1

    def _induction(self, loop: Operation) -> dict[int, int]:
        """Each carried value's divisor: start from what it is initialised with, and narrow
        it to what each iteration carries on (assuming it), until that holds."""
        if id(loop) in self.inductions:
            return self.inductions[id(loop)]
        args, inits = _iter_values(loop)
        yields = _terminator(loop.regions[0].block, "continue") if loop.regions else []
        if len(yields) != len(args):
            return {}
        guess = {a: self.divisor(v) for a, v in zip(args, inits)}
        for _ in range(_MAX_ROUNDS):
            self.guesses.append((guess, {}))
            try:
                carried = {a: math.gcd(guess[a], self.divisor(y)) for a, y in zip(args, yields)}
            finally:
                self.guesses.pop()
            if carried == guess:
                break
            guess = carried
        else:
            guess = {a: 1 for a in args}
        result = {i: guess[a] for i, a in enumerate(args)}
        if not self.guesses:                   # not inside another loop's guess: it holds
            self.carried.update(guess)
            self.inductions[id(loop)] = result
        return result


def _constant(op: Operation) -> int:
    """`constant <i32: 16>`: the value's power of two; a dense or float constant: 1."""
    group = next((n for n in op.body if isinstance(n, Group) and n.open.text == "<"), None)
    if group is None or len(group.items) < 3 or not re.fullmatch(r"[iu]\d+", group.items[0].text) \
            or group.items[1].text != ":":
        return 1
    text = "".join(t.text for t in group.items[2:] if isinstance(t, Token))
    return _pow2(int(text)) if re.fullmatch(r"-?\d+", text) else 1


def _iter_values(loop: Operation) -> tuple[list[str], list[str]]:
    """The loop's carried block args and their initial values, `%a = %init` in order."""
    tokens = [t for t in walk_tokens(loop.body)]
    args, inits = [], []
    for before, eq, after in zip(tokens, tokens[1:], tokens[2:]):
        if before.kind == "value" and eq.text == "=" and after.kind == "value":
            args.append(before.text)
            inits.append(after.text)
    return args, inits


def _terminator(block, name: str) -> list[str]:
    """The values a block ends by handing on (`yield` of an if, `continue` of a loop)."""
    last = block.ops[-1] if block.ops else None
    return [t.text for t in last.operands()] if last is not None and last.name == name else []
