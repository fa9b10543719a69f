"""cuTile Python's loop splitting (its loop_split pass), done to the drafted loop: a `for` with
step 1 whose body holds exactly one runtime `if` testing the loop variable against a
loop-invariant value (`j >= x`, `j < x`, `x <= j`, ..) becomes two loops, the first up to the
split point running the branch the test takes there, the second from it running the other:

    split = x (+ 1 for > and <=);  stop1 = min(stop, split);  start2 = max(start, split)
    for j in start..stop1 { .. one branch .. }   for j in start2..stop { .. the other .. }

Both loops carry every value the original loop carries (a `x = x;` keeps one a branch does not
assign in the loop's results, as cuTile's clones keep all of them)."""
from __future__ import annotations

import ast
import re

from .values import Fail, Scalar, Stmt, assigned_names

SPLIT_CMP = {ast.GtE: "ge", ast.Gt: "gt", ast.LtE: "le", ast.Lt: "lt"}
FLIP = {"ge": "le", "gt": "lt", "le": "ge", "lt": "gt"}
ADJUST = {"ge": False, "gt": True, "le": True, "lt": False}     # split at x + 1
FIRST_KEEPS_THEN = {"ge": False, "gt": False, "le": True, "lt": True}
ASSIGNED = re.compile(r"^\s*([A-Za-z_]\w*)\s*=[^=]", re.M)


class LoopSplit:
    """Mixed into the Translator."""

    def split_candidate(self, stmt: ast.For, step):
        """(the `if` node, its comparison, the invariant operand) when cuTile splits the loop."""
        if step is not None:
            return None
        variant = assigned_names(stmt.body) | {stmt.target.id}
        found = [c for c in self.splittable_ifs(stmt.body, stmt.target.id, variant)]
        return found[0] if len(found) == 1 else None

    def splittable_ifs(self, stmts, var: str, variant: set[str]):
        for s in stmts:
            if not isinstance(s, ast.If):
                continue
            test = self.folded_test(s.test)
            if isinstance(test, bool):          # folded: its branch joins the loop body
                yield from self.splittable_ifs(s.body if test else s.orelse, var, variant)
                continue
            split = self.comparison_with(test, var, variant)
            if split is not None:
                yield (s,) + split

    def folded_test(self, node):
        """The test with its compile-time operands folded away: a bool or an AST node."""
        if isinstance(node, ast.BoolOp):
            is_and = isinstance(node.op, ast.And)
            if len(node.values) < 2:
                return self.folded_test(node.values[0])
            first = self.folded_test(node.values[0])
            if not isinstance(first, bool):
                return node
            if first is not is_and:
                return first
            rest = node.values[1:]
            return self.folded_test(rest[0] if len(rest) == 1 else
                                    ast.BoolOp(op=node.op, values=rest))
        try:
            return bool(self.static_value(node, "if"))
        except Fail:
            return node

    def comparison_with(self, test, var: str, variant: set[str]):
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1
                and type(test.ops[0]) in SPLIT_CMP):
            return None
        cmp = SPLIT_CMP[type(test.ops[0])]
        left, right = test.left, test.comparators[0]
        if isinstance(right, ast.Name) and right.id == var:
            left, right, cmp = right, left, FLIP[cmp]
        if not (isinstance(left, ast.Name) and left.id == var) or not self.invariant(right, variant):
            return None
        return cmp, right

    def invariant(self, node, variant: set[str]) -> bool:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id in variant:
                return False
            if not isinstance(n, (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator,
                                  ast.unaryop, ast.Load)):
                return False
        return True

    def emit_split_loops(self, frame: dict, header, var: str, start: str, stop: str,
                         kept: list[Stmt]) -> None:
        """The two loops in place of one (`header(var, start, stop)` writes a loop header)."""
        if_stmt, (_, cmp, bound_node) = frame["split_stmt"], frame["split"]
        branches = (if_stmt.body, if_stmt.orelse)
        first, second = branches if FIRST_KEEPS_THEN[cmp] else branches[::-1]
        static = self.static_halves(frame["node"], bound_node, cmp)
        if static is None:
            halves = [(lo, hi, branch) for (lo, hi), branch in
                      zip(self.split_bounds(start, stop, bound_node, cmp), (first, second))]
        else:   # an empty half is not written (cutile cannot write an empty constant range)
            halves = [(f"{lo}i32", f"{hi}i32", branch)
                      for (lo, hi), branch in zip(static, (first, second)) if lo < hi]
        carried = mutated(kept) & frame["outer_vars"]
        for lo, hi, branch in halves:
            body = []
            for s in kept:
                body += branch if s is if_stmt else [s]
            jump = next((i for i, s in enumerate(body) if s.kind == "raw"
                         and s.text in ("continue;", "break;")), len(body))
            body, end = body[:jump], body[jump:jump + 1]   # nothing runs after a jump
            body += [Stmt("assign", name=n, expr=n, pure=False)
                     for n in sorted(carried - mutated(body))] + end
            self.emit(Stmt("loop", header=header(var, lo, hi), body=body, loop_var=var,
                           pure=False))

    def split_bounds(self, start: str, stop: str, bound_node, cmp: str):
        """The two halves' bounds as cuTile Python computes them at run time."""
        bound = self.i32_text(self.expr(bound_node), bound_node, "the split point")
        if ADJUST[cmp]:
            # cuTile's 1 is a constant it has made at the kernel's top already (the strides')
            one = self.cached(("prologue", 1), lambda: self.let_prologue(
                "one", self.int_scalar(), "1i32")).expr
            bound = self.let("split", self.int_scalar(), f"{bound} + {one}").expr
        stop1 = self.let("split_stop", self.int_scalar(), f"min({stop}, {bound})").expr
        start2 = self.let("split_start", self.int_scalar(), f"max({start}, {bound})").expr
        return (start, stop1), (start2, stop)

    def static_halves(self, loop: ast.For, bound_node, cmp: str):
        """The two halves' bounds when the range and the split point are compile-time
        integers (`for i_k in range(2)` split at `i_k >= 0`), else None."""
        try:
            bounds = [self.static_value(a, "range bound") for a in loop.iter.args]
            split = self.static_value(bound_node, "the split point")
        except Exception:          # noqa: BLE001 (not known now: computed at run time)
            return None
        if len(bounds) > 2 or not all(type(b) is int for b in bounds + [split]):
            return None
        start, stop = (0, bounds[0]) if len(bounds) == 1 else bounds
        split += ADJUST[cmp]
        return (start, min(stop, split)), (max(start, split), stop)

    def int_scalar(self):
        return Scalar(self.types.of_name("int32"))


def mutated(stmts: list[Stmt]) -> set[str]:
    """The Rust variables a statement list assigns (cutile's loop-carried candidates)."""
    out: set[str] = set()
    for s in stmts:
        if s.kind == "assign":
            out.add(s.name)
        elif s.kind == "raw":
            out |= set(ASSIGNED.findall(s.text))
        elif s.kind in ("loop", "if"):
            out |= mutated(s.body) | mutated(s.orelse)
    return out
