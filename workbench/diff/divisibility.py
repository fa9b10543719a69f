"""Which integer values of a Tile IR entry are multiples of a power of two by the entry's own
arithmetic: constants, sums, differences and products, through reshapes, broadcasts, signed
extensions and a `for` loop's induction (the value it starts from and the value each
iteration carries on). An `assume` passes its operand's divisor through: a promise is what
is being proved, never part of the proof.

Divisors are powers of two (0 for a value that is zero), because i32 and i64 arithmetic
wraps, and a wrapped multiple of 2^k is still one; a multiple of 3 need not be.
"""
from __future__ import annotations

import math
import re

from ..ir.model import Group, Operation, Token, walk_tokens

_PASS_THROUGH = {"reshape", "broadcast", "exti", "assume"}


def multiple_of(divisors: dict[str, int], value: str, divisor: int) -> bool:
    known = divisors.get(value)
    return known is not None and (known == 0 or known % divisor == 0)


def proved_divisors(entries) -> dict[str, int]:
    """value name -> the power of two it is a multiple of (0: it is zero); values with no
    divisor known beyond 1 are left out."""
    defs: dict[str, Operation] = {}
    for entry in entries:
        for op in entry.walk():
            for name in op.result_names():
                defs[name] = op
    prover = _Prover(defs)
    out = {}
    for name in list(defs):
        d = prover.divisor(name)
        if d != 1:
            out[name] = d
    out.update({k: v for k, v in prover.carried.items() if v != 1})
    return out


def _pow2(n: int) -> int:
    return 0 if n == 0 else abs(n) & -abs(n)


class _Prover:
    def __init__(self, defs: dict[str, Operation]):
        self.defs = defs
        self.carried: dict[str, int] = {}       # loop-carried block args, once proved
        self.assumed: dict[str, int] = {}       # block args during their loop's induction
        self.memo: dict[str, int] = {}

    def divisor(self, value: str) -> int:
        if value in self.assumed:
            return self.assumed[value]
        if value in self.carried:
            return self.carried[value]
        if value in self.memo:
            return self.memo[value]
        op = self.defs.get(value.split("#")[0] if value not in self.defs else value)
        result = 1 if op is None else self._of(op, value)
        if not self.assumed:                   # an induction's guesses are not memoized
            self.memo[value] = result
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
        if op.name == "for":
            index = int(value.partition("#")[2] or 0)
            return self._induction(op).get(index, 1)
        return 1

    def _induction(self, loop: Operation) -> dict[int, int]:
        """Each carried value's divisor: start from what it is initialised with, and narrow
        it to what each iteration carries on (assuming it), until that holds."""
        args, inits = _iter_values(loop)
        yields = _continued(loop)
        if len(yields) != len(args):
            return {}
        nested = bool(self.assumed)            # inside an outer loop's induction: a guess too
        guess = {a: self.divisor(v) for a, v in zip(args, inits)}
        for _ in range(8):
            self.assumed.update(guess)
            carried = {a: math.gcd(guess[a], self.divisor(y)) for a, y in zip(args, yields)}
            for a in args:
                self.assumed.pop(a, None)
            if carried == guess:
                break
            guess = carried
        else:
            guess = {a: 1 for a in args}
        if not nested:
            self.carried.update(guess)
        return {i: guess[a] for i, a in enumerate(args)}


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


def _continued(loop: Operation) -> list[str]:
    if not loop.regions or not loop.regions[0].block.ops:
        return []
    last = loop.regions[0].block.ops[-1]
    return [t.text for t in last.operands()] if last.name == "continue" else []
