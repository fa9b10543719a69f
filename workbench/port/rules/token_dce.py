"""cuTile Python's dead code elimination (dce.py), done to the drafted ordering tokens: a token
is kept while a memory operation waits for it, and declared in the `if` branch that alone
uses it. cuTile threads every array's last-op and last-store tokens through each loop and
`if` that touches the array (token_order.py), then drops each carried value and `if` result
that no operation with a side effect uses; cutile carries and yields every variable a loop
body or branch assigns. So an assignment to a `let mut` token whose value nothing reads
afterwards (in this iteration, a later one, or after the loop) is dropped here: a join or an
alias of a token goes; a store keeps its op and binds its token to a name of its own. A loop
or branch then no longer assigns the token, and cutile carries or yields it no more, just as
cuTile's DCE drops it."""
from __future__ import annotations

import re

from .values import IDENT, Stmt
from .passes import walk

ASSIGNED = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)\s*(.*?);?\s*$", re.S)
DECLARED = re.compile(r"^\s*let\s+mut\s+([A-Za-z_]\w*)\s*:\s*Token\b")
PURE = re.compile(r"^(?:join_tokens\(.*\)|[A-Za-z_]\w*)$", re.S)


def eliminate_dead_tokens(blocks: list[list[Stmt]], tokens: set[str], fresh) -> None:
    """Drop what nothing waits for among the assignments to `tokens` (the `let mut` token
    variables) in `blocks` (the kernel's statement lists, in order)."""
    if not tokens:
        return
    for block in blocks:
        sink_declarations(block, tokens)
    while True:
        live: set[str] = set()
        changed = False
        for block in reversed(blocks):
            live, dropped = sweep(block, live, tokens, fresh, rewrite=True)
            changed |= dropped
        changed |= drop_unused_declarations(blocks, tokens)
        if not changed:
            return


def token_assignment(s: Stmt, tokens: set[str]):
    """(token, right-hand side) when `s` assigns one of `tokens`, else None."""
    if s.kind == "assign" and s.name in tokens:
        return s.name, s.expr
    if s.kind == "raw":
        m = ASSIGNED.match(s.text)
        if m and m.group(1) in tokens:
            return m.group(1), m.group(2).strip()
    return None


def uses_of(s: Stmt) -> set[str]:
    if s.kind in ("loop", "if"):
        return set(IDENT.findall(" ".join([s.header, *s.args])))
    return set(IDENT.findall(f"{s.expr} {s.text}" if s.kind != "assign" else s.expr))


def sweep(block: list[Stmt], live_out: set[str], tokens: set[str], fresh,
          rewrite: bool) -> tuple[set[str], bool]:
    """Backward liveness over `block`: the names live at its start, and (with `rewrite`)
    whether a dead token assignment was dropped or rewritten."""
    live = set(live_out)
    changed = False
    for s in reversed(list(block)):
        if s.kind == "if":
            then_live, a = sweep(s.body, live, tokens, fresh, rewrite)
            else_live, b = sweep(s.orelse, live, tokens, fresh, rewrite)
            live = then_live | else_live | uses_of(s)
            changed |= a or b
            continue
        if s.kind == "loop":
            head: set[str] = set()
            while True:                      # the back edge: what the next iteration reads
                body_live, _ = sweep(s.body, live | head, tokens, fresh, rewrite=False)
                if body_live <= head:
                    break
                head |= body_live
            _, dropped = sweep(s.body, live | head, tokens, fresh, rewrite)
            live = live | head | uses_of(s)
            changed |= dropped
            continue
        assigned = token_assignment(s, tokens)
        if assigned is None:
            live |= uses_of(s)
            continue
        name, rhs = assigned
        if name in live:
            live = (live - {name}) | set(IDENT.findall(rhs))
            continue
        if PURE.match(rhs):                  # a join or alias nothing waits for: gone
            if rewrite:
                block.remove(s)
                changed = True
            continue
        if rewrite:                          # a store: its op stays, its token is its own
            s.kind, s.name, s.expr = "raw", "", ""
            s.text = f"let {fresh(name + '_done')}: Token = {rhs};"
            changed = True
        live |= set(IDENT.findall(rhs))
    return live, changed


def drop_unused_declarations(blocks: list[list[Stmt]], tokens: set[str]) -> bool:
    """Remove `let mut tok: Token = ..;` declarations of tokens nothing reads or assigns."""
    mentioned: dict[str, int] = {}
    declarations = []
    for block in blocks:
        for s, holder in walk(block):
            m = DECLARED.match(s.text) if s.kind == "raw" else None
            if m and m.group(1) in tokens:
                declarations.append((m.group(1), s, holder))
                continue
            names = IDENT.findall(" ".join([s.name, s.expr, s.text, s.header, *s.args]))
            for n in names:
                mentioned[n] = mentioned.get(n, 0) + 1
    changed = False
    for name, s, holder in declarations:
        if not mentioned.get(name):
            holder.remove(s)
            changed = True
    return changed


def mentions(s: Stmt, name: str) -> bool:
    return name in IDENT.findall(s.source_text())


def sink_declarations(block: list[Stmt], tokens: set[str]) -> None:
    """Move a `let mut tok: Token = arr.token();` that only one `if` after it uses into the
    branches of that `if` which use it (recursively): cuTile threads the token through the
    `if` and its DCE drops the `if` result nothing uses after it, while cutile yields every
    variable a branch assigns that was declared outside. Never into a loop (it carries)."""
    for s in list(block):
        if s.kind in ("if", "loop"):
            sink_declarations(s.body, tokens)
            sink_declarations(s.orelse, tokens)
    for d in [s for s in block if s.kind == "raw" and DECLARED.match(s.text)]:
        name = DECLARED.match(d.text).group(1)
        if name not in tokens:
            continue
        users = [s for s in block[block.index(d) + 1:] if mentions(s, name)]
        if len(users) != 1 or users[0].kind != "if" or \
                name in IDENT.findall(" ".join([users[0].header, *users[0].args])):
            continue
        block.remove(d)
        for branch in (users[0].body, users[0].orelse):
            if any(mentions(x, name) for x in branch):
                branch.insert(0, Stmt("raw", text=d.text, pure=False))
                sink_declarations(branch, tokens)
