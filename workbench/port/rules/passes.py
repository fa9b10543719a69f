"""What cuTile Python's compiler does to the program after translating it, done to the drafted
Rust statements so both sides agree: fuse a float multiply into the add or subtract that is its
only use (cuda.tile/_passes/rewrite_patterns.py), and drop pure lets nothing uses (dead code
elimination).

cuTile's fusion rule, exactly (it runs after its first dead code elimination and before loop
invariant hoisting and loop splitting):
- an `add`/`sub` of unrestricted floats (f16, bf16, f32, f64) whose LEFT operand is a float
  `mul` takes that mul; only when the left operand is no mul at all does it look at the right
  one. A left mul that cannot fuse (another use, a different rounding mode or flush-to-zero)
  leaves the op unfused: the right operand is not tried.
- the mul's result has no use but this add/sub (uses in any block count; `m + m` is no fusion);
  the mul and the add may sit in different blocks: the fma takes the add's place.
- `a*b + c` and `c + a*b` -> fma(a, b, c); `a*b - c` -> fma(a, b, negf(c));
  `c - a*b` -> fma(negf(a), b, c); the negf sits right before the fma.
A statement that loop splitting put into both loops is one op of the unsplit loop here."""
from __future__ import annotations

from collections import Counter, defaultdict

from .loop_split import mutated
from .values import IDENT, Stmt


def walk(stmts: list[Stmt]):
    """(statement, the block holding it) in program order."""
    for s in stmts:
        yield s, stmts
        if s.kind in ("loop", "if"):
            yield from walk(s.body)
            yield from walk(s.orelse)


def named_if(s: Stmt) -> bool:
    return s.kind == "if" and bool(s.name)


def outer_text(s: Stmt) -> str:
    """The text of a statement that its enclosing scope evaluates."""
    if s.kind == "let":
        return s.expr
    if s.kind == "assign":
        return f"{s.name} {s.expr}"
    if s.kind == "raw":
        return s.text
    if s.kind in ("loop", "if"):
        return " ".join([s.header] if named_if(s) else [s.header, *s.args])
    return ""


class Scopes:
    """Each let's uses, resolved the way Rust scopes names (the two loops of a split reuse
    names, and share statement objects).

    For fusion (cuTile's view: an assignment is a rename, `x = y; .. x ..` reads y's value):
    `operands[id(user)][name]` is the let whose value a name holds there, `users[id(let)]`
    counts each user once however many blocks hold it (the unsplit program, which cuTile
    fuses). A value assigned to a variable is used where the variable is read, where it flows
    into a loop or `if` that assigns the variable, and where it leaves the block.
    For dead code: `instance_uses[(id(let), id(block))]` counts the textual uses of the let
    held by that block (the split program, which cuTile's last dead code elimination sees).
    `holders[id(stmt)]` are the blocks holding a statement."""

    def __init__(self, blocks: list[list[Stmt]]):
        self.operands: dict[int, dict[str, Stmt]] = defaultdict(dict)
        self.via: dict[int, dict[str, object]] = defaultdict(dict)   # the rename read through
        self.users: dict[int, dict[int, int]] = defaultdict(dict)
        self.versions: dict[int, dict[str, int]] = {}     # each variable's value at a let
        self.renames: dict[int, tuple[int, int]] = {}     # a rename: its target's (old, new)
        self.instance_uses: Counter = Counter()
        self.lets: list[tuple[Stmt, list[Stmt]]] = []
        self.holders: dict[int, list[list[Stmt]]] = defaultdict(list)
        self.serial = 0
        env: dict[str, tuple[Stmt, list[Stmt]]] = {}
        for block in blocks:
            env = self.visit(block, env, {}, {})

    def bump(self, ver: dict[str, int], names) -> None:
        for name in names:
            self.serial += 1
            ver[name] = self.serial

    def note(self, user, text: str, env, alias, renamed: str = "") -> None:
        counts = Counter(n for n in IDENT.findall(text) if n in env)
        for name, n in counts.items():
            let, block = env[name]
            self.instance_uses[(id(let), id(block))] += n
            if name != renamed:
                target, via = alias.get(name, (let, None))
                self.use(target, user, n, key=name, via=via)

    def use(self, let: Stmt, user, n: int = 1, key: str = "", via=None) -> None:
        if key:
            self.operands[id(user)][key] = let
            self.via[id(user)][key] = via
        self.users[id(let)][id(user)] = n

    def visit(self, block: list[Stmt], env, alias, ver):
        entry, env, alias, assigned = env, dict(env), dict(alias), set()
        for s in block:
            if not any(b is block for b in self.holders[id(s)]):
                self.holders[id(s)].append(block)
            rename = s.kind == "assign" and s.expr in env
            if s.kind == "assign" and s.name in env:     # the target: keeps its declaration
                self.note(s, s.name, env, {})
            self.note(s, s.expr if s.kind == "assign" else outer_text(s), env, alias,
                      renamed=s.expr if rename else "")
            if s.kind == "assign":
                assigned.add(s.name)
                alias.pop(s.name, None)
                old = ver.get(s.name, 0)
                self.bump(ver, [s.name])
                self.renames[id(s)] = (old, ver[s.name])
                if rename:       # a rename of a rename is read as a use (no fusion through)
                    alias[s.name] = (env[s.expr][0], s) if s.expr not in alias else \
                        (alias[s.expr][0], "chain")
            elif s.kind in ("loop", "if"):
                self.enter(s, env, alias, ver)
            elif s.kind == "raw":
                for name in mutated([s]):
                    alias.pop(name, None)
                self.bump(ver, mutated([s]))
            if s.kind == "let":
                env[s.name] = (s, block)
                self.lets.append((s, block))
                if s.op:
                    self.versions[id(s)] = dict(ver)
            elif s.kind == "raw" or named_if(s):     # a name that is no let of ours now
                for name in s.defines() if s.kind == "raw" else {s.name}:
                    env.pop(name, None)
        for name in assigned & set(entry) & set(alias):     # the value leaves the block
            self.use(alias[name][0], block)
        return env

    def enter(self, s: Stmt, env, alias, ver) -> None:
        changed = mutated([s])
        for name in changed:                 # the value flows in, then a loop/if result
            if name in alias:
                self.use(alias.pop(name)[0], s)
        inner = {k: v for k, v in env.items() if k != s.loop_var}
        inner_ver = dict(ver)
        if s.kind == "loop":                 # the loop's carried values
            self.bump(inner_ver, changed)
        ends = [self.visit(s.body, inner, alias, inner_ver),
                self.visit(s.orelse, inner, alias, dict(inner_ver))]
        if named_if(s):
            for value, end in zip(s.args, ends):
                self.note(s, value, end, alias)
        self.bump(ver, changed)

    def same_operands(self, mul: Stmt, add: Stmt, via) -> bool:
        """The mul's operands hold the same values where the add is (the fma's place); a
        rename read through is dropped with the mul."""
        for name in mul.args:
            at_mul = self.versions[id(mul)].get(name, 0)
            at_add = self.versions[id(add)].get(name, 0)
            if isinstance(via, Stmt) and via.name == name:
                if (at_mul, at_add) != self.renames[id(via)]:
                    return False
            elif at_mul != at_add:
                return False
        return True

    def uses(self, s: Stmt) -> int:
        return sum(self.users[id(s)].values())

    def dead(self) -> list[tuple[Stmt, list[Stmt]]]:
        """(a pure let, the block holding it) where nothing in scope uses it."""
        return [(s, block) for s, block in self.lets
                if s.pure and not self.instance_uses[(id(s), id(block))]]


def is_float_mul(s: Stmt | None) -> bool:
    return s is not None and s.kind == "let" and s.op == "mul"


def fusion(s: Stmt, scopes: Scopes) -> tuple[Stmt, int, object] | None:
    """(the mul, its side, the rename read through or None) when cuTile fuses the add/sub
    `s`, else None."""
    lhs, rhs = (scopes.operands[id(s)].get(name) for name in s.args)
    side = 0 if is_float_mul(lhs) else 1 if is_float_mul(rhs) else None
    if side is None:
        return None
    mul = (lhs, rhs)[side]
    via = scopes.via[id(s)].get(s.args[side])
    if mul.opts != s.opts or scopes.uses(mul) != 1 or via == "chain" \
            or not scopes.same_operands(mul, s, via):
        return None
    return mul, side, via


def fuse_fma(blocks: list[list[Stmt]], fresh) -> None:
    scopes = Scopes(blocks)
    seen: set[int] = set()
    fused: set[int] = set()
    for block in blocks:
        for s, _ in list(walk(block)):
            if id(s) in seen or s.kind != "let" or s.op not in ("add", "sub"):
                continue
            seen.add(id(s))
            found = fusion(s, scopes)
            if found is None or id(found[0]) in fused:
                continue
            fused |= {id(found[0]), id(s)}
            rewrite(s, *found, scopes, fresh)


def rewrite(s: Stmt, mul: Stmt, side: int, via, scopes: Scopes, fresh) -> None:
    a, b = mul.args
    acc = s.args[1 - side]
    rounding, ftz = s.opts
    ftz_text = "ftz::Enabled" if ftz else "ftz::Disabled"
    if s.op == "sub":
        target = a if side == 1 else acc
        # operands are already broadcast: the negated one has the add's (or the mul's) type
        neg = Stmt("let", name=fresh(f"{target}_neg"), ty=s.ty if side == 0 else mul.ty,
                   expr=f"negf({target})")
        for holder in scopes.holders[id(s)]:
            holder.insert(next(i for i, x in enumerate(holder) if x is s), neg)
        if side == 1:
            a = neg.name
        else:
            acc = neg.name
    s.expr = f"fma({a}, {b}, {acc}, rounding::{rounding}, {ftz_text})"
    s.op, s.args = "fma", (a, b, acc)
    for gone in (mul, via) if isinstance(via, Stmt) else (mul,):
        for holder in scopes.holders[id(gone)]:
            holder[:] = [x for x in holder if x is not gone]


def eliminate_dead_lets(blocks: list[list[Stmt]]) -> None:
    """Drop every pure let nothing in its scope uses (from that block only: a statement the
    loop split put into both loops can be dead in one of them), until none is left."""
    while dead := Scopes(blocks).dead():
        for s, holder in dead:
            holder[:] = [x for x in holder if x is not s]


def drop_empty_for_loops(blocks: list[list[Stmt]]) -> None:
    """A `for` whose body is empty (its token assignments dropped as dead, a split loop's
    branch that does nothing) runs nothing and carries nothing: cuTile's dead code
    elimination drops such a loop, so the port does not write it."""
    for block in blocks:
        # until none is left: a loop that held only an empty one is empty after it goes
        while empty := [(s, holder) for s, holder in walk(block) if _empty_for(s)]:
            for s, holder in empty:
                holder[:] = [x for x in holder if x is not s]


def _empty_for(s: Stmt) -> bool:
    return s.kind == "loop" and not s.body and s.header.lstrip().startswith("for ")
