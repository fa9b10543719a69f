"""Pointers a `for` loop advances by a fixed amount each iteration (`a_ptrs += BK * stride_ak`,
the Triton tutorials' matmul, or a block pointer's `p = tl.advance(p, (0, BK))`), and counters
it steps the same way (`cnt = 0` before the loop, `cnt += 1` in it): in iteration
`i` such a pointer is its value before the loop plus `i` times the amount, and after the loop
its value plus the trip count times the amount. The translator gives the pointer that closed
form, so the access analysis sees the same offsets as if they had been written from the loop
variable.

Followed: one `p += d` (or `p = p + d`, `p = tl.advance(p, d)`) at the loop body's own level,
after every other read of `p` in the body, with `d` made of names the body does not assign.
Anything else stays refused as a loop-carried pointer."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from .block_ptrs import is_zero, moved
from .values import BlockPtr, Fail, Ptr, Run, Static

ADVANCE = ("tl.advance", "triton.language.advance")


@dataclass
class Advance:
    name: str
    statement: ast.stmt          # the `p += d` the closed form replaces
    amount: ast.expr             # d


def advances(t, stmt: ast.For) -> list[Advance]:
    """The pointers (and lazily kept offsets) of `t.state.env` the loop advances in closed form."""
    assigned = {n.id for s in stmt.body for n in ast.walk(s)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    assigned.add(stmt.target.id)
    found = []
    for index, s in enumerate(stmt.body):
        step = _increment(s)
        if step is None:
            continue
        name, amount = step
        current = t.state.env.get(name)
        if name in t.state.variables:        # a variable an outer loop carries: updated in place
            continue
        if not (isinstance(current, (Ptr, BlockPtr))
                or (isinstance(current, Run) and current.terms is not None)
                or (isinstance(current, Static) and isinstance(current.value, int))):
            continue
        if {n.id for n in ast.walk(amount) if isinstance(n, ast.Name)} & assigned or \
                any(isinstance(n, ast.Call) for n in ast.walk(amount)):
            continue                   # the amount changes in the loop (or reads memory)
        writes = [n for n in ast.walk(ast.Module(stmt.body, [])) if isinstance(n, ast.Name)
                  and n.id == name and isinstance(n.ctx, ast.Store)]
        later_reads = [n for later in stmt.body[index + 1:] for n in ast.walk(later)
                       if isinstance(n, ast.Name) and n.id == name]
        if len(writes) == 1 and not later_reads:
            found.append(Advance(name, s, amount))
    return found


def _increment(s) -> tuple[str, ast.expr] | None:
    """(p, d) of `p += d`, `p = p + d` / `p = d + p` or `p = tl.advance(p, d)`."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
            and isinstance(s.value, ast.Call) and ast.unparse(s.value.func) in ADVANCE \
            and len(s.value.args) == 2 and not s.value.keywords \
            and isinstance(s.value.args[0], ast.Name) and s.value.args[0].id == s.targets[0].id:
        return s.targets[0].id, s.value.args[1]
    if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Name):
        return s.target.id, s.value
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
            and isinstance(s.value, ast.BinOp) and isinstance(s.value.op, ast.Add):
        name = s.targets[0].id
        for mine, other in ((s.value.left, s.value.right), (s.value.right, s.value.left)):
            if isinstance(mine, ast.Name) and mine.id == name:
                return name, other
    return None


def at_iteration(t, advance: Advance, base, iteration, node):
    """The pointer in iteration `iteration` (a symbolic value): base + iteration * amount."""
    amount = t.expr(advance.amount)
    if isinstance(base, BlockPtr):
        if not isinstance(amount, tuple):
            raise Fail(node, "tl.advance", "the offsets must be a tuple")
        return moved(t, base, tuple(d if is_zero(d) else t.binary(ast.Mult(), iteration, d, node)
                                    for d in amount), node)
    return t.binary(ast.Add(), base, t.binary(ast.Mult(), iteration, amount, node), node)
