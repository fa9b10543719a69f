"""What cuTile Python's compiler does to the program after translating it, done to the drafted
Rust statements so both sides agree: fuse a float multiply whose only use is an add or subtract
into `fma` (its rewrite_patterns pass: `a*b + c`, `a*b - c` -> fma(a, b, -c), `c - a*b` ->
fma(-a, b, c)), and drop pure lets nothing uses (dead code elimination)."""
from __future__ import annotations

from collections import Counter

from .values import IDENT, Stmt


def walk(stmts: list[Stmt]):
    """(statement, the block holding it) in program order."""
    for s in stmts:
        yield s, stmts
        if s.kind in ("loop", "if"):
            yield from walk(s.body)
            yield from walk(s.orelse)


def use_counts(blocks: list[list[Stmt]]) -> Counter:
    uses: Counter = Counter()
    for block in blocks:
        for s, _ in walk(block):
            if s.kind == "let":
                uses.update(IDENT.findall(s.expr))
            elif s.kind == "assign":
                uses.update(IDENT.findall(f"{s.name} {s.expr}"))
            elif s.kind == "raw":
                uses.update(IDENT.findall(s.text))
            elif s.kind in ("loop", "if"):
                uses.update(IDENT.findall(" ".join([s.header, *s.args])))
    return uses


def fuse_fma(blocks: list[list[Stmt]], fresh) -> None:
    lets = {s.name: (s, block) for block in blocks for s, block in walk(block) if s.kind == "let"}
    uses = use_counts(blocks)
    fused: set[str] = set()
    for block in blocks:
        for s, holder in list(walk(block)):
            if s.kind != "let" or s.op not in ("add", "sub") or s.name in fused:
                continue
            for side in (0, 1):
                operand = s.args[side]
                mul = lets.get(operand, (None, None))[0]
                if mul is None or mul.op != "mul" or mul.opts != s.opts or uses[operand] != 1 \
                        or mul.name in fused:
                    continue
                rewrite(s, holder, mul, side, lets, fresh)
                fused |= {mul.name, s.name}
                break


def rewrite(s: Stmt, holder: list[Stmt], mul: Stmt, side: int, lets, fresh) -> None:
    a, b = mul.args
    acc = s.args[1 - side]
    rounding, ftz = s.opts
    ftz_text = "ftz::Enabled" if ftz else "ftz::Disabled"
    if s.op == "sub":
        target = a if side == 1 else acc
        # operands are already broadcast: the negated one has the add's (or the mul's) type
        neg = Stmt("let", name=fresh(f"{target}_neg"), ty=s.ty if side == 0 else mul.ty,
                   expr=f"negf({target})")
        holder.insert(holder.index(s), neg)
        if side == 1:
            a = neg.name
        else:
            acc = neg.name
    s.expr = f"fma({a}, {b}, {acc}, rounding::{rounding}, {ftz_text})"
    s.op, s.args = "fma", (a, b, acc)
    _, mul_block = lets[mul.name]
    mul_block.remove(mul)


def eliminate_dead_lets(blocks: list[list[Stmt]]) -> None:
    while True:
        uses = use_counts(blocks)
        dead = [(s, holder) for block in blocks for s, holder in walk(block)
                if s.kind == "let" and s.pure and uses[s.name] == 0]
        if not dead:
            return
        for s, holder in dead:
            holder.remove(s)
