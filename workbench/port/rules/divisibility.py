"""The divisibility facts cuTile Python derives (_passes/dataflow_analysis.py) and states as
`assume div_by<N>` (_passes/propagate_divby.py), stated on a drafted entry's statements.

cuTile's rules, over the drafted integer values: a constant divides by |value|; add/sub take
the gcd, mul the product; negation and reshape/broadcast keep it; a narrowing integer cast
takes the gcd with 2^bits; an `assume_div_by` sets it; a loop-carried value takes the gcd over
its initial value and every value the body carries on (a fixpoint); anything else divides
by 1. cuTile states N = the largest power of two dividing the divisor (at most 1024) on every
loop body parameter (a carried value, at the body's top) and on every value a pointer load or
store reads (a scattered value), never on an exact scalar constant. Drafted names are unique
(fresh()), except `let mut` values, which this pass follows statement by statement."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from math import gcd

from .values import NeedConstants, Stmt

MAX_DIVBY = 1024
INT_TYPE = re.compile(r"^(?:Tile<)?[iu](8|16|32|64)\b")
RANK0 = re.compile(r"\{ \[\s*\] \}")
ASSUME = re.compile(r"^unsafe \{ assume_div_by::<_, (\d+)>\((\w+)\) \}$")
STORE = re.compile(r"store_ptr_tko\(\s*(\w+),\s*(\w+)")
SUFFIX = re.compile(r"\b(\d+)[iu](?:8|16|32|64)\b")
SHAPE = re.compile(r"shape!\[[^\]]*\]")
KEEPS = {"scalar_to_tile", "exti", "reshape", "broadcast", "broadcast_scalar"}


@dataclass(frozen=True)
class Fact:
    div: int                  # 0: the value 0, which every integer divides
    const: int | None = None  # an exact scalar constant (cuTile states nothing on it)
    # the const generics whose values would change `div` (a port computes them on tiles;
    # cuTile knows their values): a fact stated from them needs the entry split on them
    needs: frozenset = frozenset()

    def unify(self, other: "Fact") -> "Fact":
        return Fact(gcd(self.div, other.div), self.const if self.const == other.const else None,
                    _needs(self, other))

    def assumed(self) -> int:
        """The N of the `assume div_by<N>` cuTile writes for this fact (1: none)."""
        if self.const is not None or self.div == 0:
            return 1
        return min(self.div & -self.div, MAX_DIVBY)


UNKNOWN = Fact(1)


def _needs(a: Fact, b: Fact) -> frozenset:
    """What a gcd of the two depends on: nothing once one side divides by 1 for certain."""
    if (a.div == 1 and not a.needs) or (b.div == 1 and not b.needs):
        return frozenset()
    return a.needs | b.needs


def assume_text(n: int, expr: str) -> str:
    return f"unsafe {{ assume_div_by::<_, {n}>({expr}) }}"


class Evaluator:
    """The fact of one drafted expression, given the facts of the names it reads."""

    def __init__(self, constants: dict[str, int]):
        self.constants = constants

    def of(self, expr: str, ty: str, env: dict[str, Fact]) -> Fact:
        if not INT_TYPE.match(ty):
            return UNKNOWN
        assumed = ASSUME.match(expr)
        if assumed:
            return Fact(int(assumed.group(1)))
        text = SHAPE.sub("0", SUFFIX.sub(r"\1", expr))
        try:
            node = ast.parse(text, mode="eval").body
        except SyntaxError:
            return UNKNOWN
        fact = self.node(node, ty, env)
        return fact if fact.const is None or RANK0.search(ty) or not ty.startswith("Tile") \
            else Fact(fact.div)

    def node(self, node, ty: str, env) -> Fact:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return Fact(abs(node.value), node.value)
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            value = self.constants.get(node.id)
            return Fact(abs(value), value) if type(value) is int else UNKNOWN
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            return self.binary(node.op, self.node(node.left, ty, env),
                               self.node(node.right, ty, env))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            x = self.node(node.operand, ty, env)
            return Fact(x.div, None if x.const is None else -x.const, x.needs)
        if isinstance(node, ast.Call):
            return self.call(node, ty, env)
        return UNKNOWN

    @staticmethod
    def binary(op, a: Fact, b: Fact) -> Fact:
        const = None
        if a.const is not None and b.const is not None:
            const = a.const + b.const if isinstance(op, ast.Add) else \
                a.const - b.const if isinstance(op, ast.Sub) else a.const * b.const
        if isinstance(op, ast.Mult):
            return Fact(a.div * b.div, const, a.needs | b.needs)
        return Fact(gcd(a.div, b.div), const, _needs(a, b))

    def call(self, node: ast.Call, ty: str, env) -> Fact:
        fn = node.func
        if isinstance(fn, ast.Attribute) and fn.attr in KEEPS:      # x.reshape(..)
            return self.node(fn.value, ty, env)
        if not isinstance(fn, ast.Name) or not node.args:
            return UNKNOWN
        x = self.node(node.args[0], ty, env)
        if fn.id == "constant" or fn.id in KEEPS:
            return x
        if fn.id == "trunci":
            bits = int(INT_TYPE.match(ty).group(1))
            return Fact(gcd(x.div, 1 << bits), needs=x.needs)
        return UNKNOWN


class Divisibility:
    """Walks one entry's statements, as cuTile's dataflow analysis walks its blocks, and
    collects where the assumes go; apply() writes them."""

    def __init__(self, constants: dict[str, int], generic_ints: dict[str, tuple] = None):
        self.eval = Evaluator(constants)
        self.generic_ints = generic_ints or {}
        self.types: dict[str, str] = {}
        self.wrap: dict[int, tuple[Stmt, int]] = {}         # a let/assign -> its N
        self.tops: dict[int, tuple[list[Stmt], list]] = {}   # a loop body -> its (var, N)s
        self.after: dict[int, tuple[list[Stmt], Stmt, list]] = {}

    def block(self, stmts: list[Stmt], env: dict, sites: dict, record: bool) -> None:
        for s in stmts:
            if s.kind == "let":
                self.types[s.name] = s.ty
                env[s.name] = Fact(1, needs=frozenset(self.generic_ints[s.name])) \
                    if s.name in self.generic_ints else self.eval.of(s.expr, s.ty, env)
                sites[s.name] = s
            elif s.kind == "assign" and s.name in self.types:
                env[s.name] = self.eval.of(s.expr, self.types[s.name], env)
                alias = sites.get(s.expr) if re.fullmatch(r"\w+", s.expr) else s
                sites[s.name] = alias
            elif s.kind == "raw" and record:
                for _, value in STORE.findall(s.text):
                    self.candidate(value, env, sites)
            elif s.kind == "if":
                self.branches(stmts, s, env, sites, record)
            elif s.kind == "loop":
                self.loop(stmts, s, env, sites, record)

    def candidate(self, name: str, env: dict, sites: dict) -> None:
        """A value a pointer store reads: cuTile states its fact where it is made."""
        fact, site = env.get(name), sites.get(name)
        if fact is not None and site not in (None, "top"):
            _stated(fact)
        if fact is None or fact.assumed() == 1 or site is None or site == "top":
            return                   # nothing to state, or stated at the loop body's top
        if isinstance(site, Stmt):
            self.wrap[id(site)] = (site, fact.assumed())
        else:                        # ("after", block, op): a `for` loop's or an if's result
            _, block, loop = site
            self.after.setdefault(id(loop), (block, loop, []))
            entry = self.after[id(loop)][2]
            if (name, fact.assumed()) not in entry:
                entry.append((name, fact.assumed()))

    def branches(self, block: list[Stmt], s: Stmt, env: dict, sites: dict, record: bool) -> None:
        then_env, else_env = dict(env), dict(env)
        self.block(s.body, then_env, dict(sites), record)
        self.block(s.orelse, else_env, dict(sites), record)
        for name in assigned(s.body + s.orelse) & set(env):      # the if's results
            env[name] = then_env[name].unify(else_env[name])
            sites[name] = ("after", block, s)
        if s.name:                        # `let x = if c { a } else { b }`
            self.types[s.name] = s.ty
            a, b = (self.eval.of(v, s.ty, e) for v, e in zip(s.args, (then_env, else_env)))
            env[s.name], sites[s.name] = a.unify(b), ("after", block, s)

    def loop(self, block: list[Stmt], s: Stmt, env: dict, sites: dict, record: bool) -> None:
        carried = sorted(n for n in assigned(s.body + s.orelse) if n in env)
        top = {n: env[n] for n in carried}
        for _ in range(64):                       # facts only shrink: a fixpoint comes
            inner = {**env, **top}
            if s.loop_var:
                inner[s.loop_var] = UNKNOWN
            self.body(s, inner, dict(sites), False)
            new = {n: top[n].unify(inner.get(n, UNKNOWN)) for n in carried}
            if new == top:
                break
            top = new
        else:
            top = {n: UNKNOWN for n in carried}
        inner = {**env, **top}
        if s.loop_var:
            inner[s.loop_var] = UNKNOWN
        if record:
            for n in carried:
                _stated(top[n])
            self.tops[id(s)] = (s.body, [(n, top[n].assumed()) for n in carried
                                         if top[n].assumed() > 1])
        self.body(s, inner, {**sites, **{n: "top" for n in carried}}, record)
        for n in carried:
            env[n] = top[n].unify(inner.get(n, UNKNOWN))
            sites[n] = ("after", block, s) if s.header.startswith("for ") else None

    def body(self, loop: Stmt, env: dict, sites: dict, record: bool) -> None:
        """A loop's test (a `while`'s) and body, each walked as the block it is."""
        self.block(loop.orelse, env, sites, record)
        self.block(loop.body, env, sites, record)

    def apply(self) -> None:
        for stmt, n in self.wrap.values():
            stmt.expr = assume_text(n, stmt.expr)
        for body, facts in self.tops.values():
            body[:0] = [Stmt("assign", name=v, expr=assume_text(n, v), pure=False)
                        for v, n in facts]
        for block, loop, facts in self.after.values():
            at = next(i for i, x in enumerate(block) if x is loop) + 1
            block[at:at] = [Stmt("assign", name=v, expr=assume_text(n, v), pure=False)
                            for v, n in facts]


def _stated(fact: Fact) -> None:
    """A fact cuTile states: one that depends on a const generic's value needs the value."""
    if fact.needs:
        raise NeedConstants(sorted(fact.needs), None, "a divisibility fact cuTile states "
                            f"from the value of {', '.join(sorted(fact.needs))}")


def assigned(stmts: list[Stmt]) -> set[str]:
    """The `let mut` names a block reassigns (what a loop carries)."""
    out = set()
    for s in stmts:
        if s.kind == "assign":
            out.add(s.name)
        elif s.kind in ("if", "loop"):
            out |= assigned(s.body + s.orelse)
    return out


def state_divisibility(blocks: list[list[Stmt]], constants: dict[str, object],
                       generic_ints: dict[str, tuple] = None) -> None:
    """Adds cuTile's `assume div_by<N>` to an entry's blocks (the prologue, then the body).
    `generic_ints`: the lets holding int const generics as tiles; a fact that depends on
    one raises NeedConstants (the entry is split on its value, which cuTile knew)."""
    ints = {k: v for k, v in constants.items() if type(v) is int}
    walk = Divisibility(ints, generic_ints)
    env, sites = {}, {}
    for block in blocks:
        walk.block(block, env, sites, True)
    walk.apply()
