"""`for v in range(..)` loops (one, two or three arguments; a step other than 1 is
`(a..b).step_by(s)`): loop-carried values become `let mut` + assignment, pure loop-invariant
lets are hoisted before the loop (cuTile's compiler hoists them too), and loads indexed by the
loop variable against a bound cutile cannot relate to the arrays make the entry unchecked."""
from __future__ import annotations

import ast
import copy

from .values import IDENT, Fail, Scalar, Stmt, Tile, Value, assigned_names


MEMORY_FUNCTIONS = {"load", "store", "gather", "scatter", "atomic_add", "atomic_and",
                    "atomic_or", "atomic_xor", "atomic_max", "atomic_min", "atomic_xchg",
                    "atomic_cas"}


def memory_ops(body, taken=lambda test: None) -> dict[str, int]:
    """How many memory operations each array name takes in a loop body: as written, but only
    the taken arm of an `if` whose test `taken` decides (True / False; None: a runtime `if`),
    since cuTile folds a constant `if` away before it orders memory."""
    counts: dict[str, int] = {}
    for node in ast.walk(ast.Module(body=fold_static_ifs(body, taken), type_ignores=[])):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in MEMORY_FUNCTIONS and node.args \
                and isinstance(node.args[0], ast.Name):
            counts[node.args[0].id] = counts.get(node.args[0].id, 0) + 1
    return counts


def fold_static_ifs(stmts, taken) -> list:
    """`stmts` with every `if` that `taken` decides replaced by its taken arm (nested too)."""
    out = []
    for s in stmts:
        if isinstance(s, ast.If):
            branch = taken(s.test)
            if branch is not None:
                out += fold_static_ifs(s.body if branch else s.orelse, taken)
                continue
        if isinstance(s, (ast.For, ast.While, ast.If)):
            s = copy.copy(s)
            s.body, s.orelse = fold_static_ifs(s.body, taken), fold_static_ifs(s.orelse, taken)
        out.append(s)
    return out


def name_events(stmts, name: str):
    """(line, "read" | "write") of `name`, statement by statement in execution order (a
    statement's reads before its writes; loop and branch bodies in place)."""
    for s in stmts:
        if isinstance(s, (ast.For, ast.While)):
            yield from reads_of(s.iter if isinstance(s, ast.For) else s.test, name, s.lineno)
            yield from name_events(s.body, name)
        elif isinstance(s, ast.If):
            yield from reads_of(s.test, name, s.lineno)
            yield from name_events(s.body, name)
            yield from name_events(s.orelse, name)
        else:
            value = getattr(s, "value", None)
            if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) \
                    and s.target.id == name:
                yield s.lineno, "read"
            if value is not None:
                yield from reads_of(value, name, s.lineno)
            if name in assigned_names([s]):
                yield s.lineno, "write"


def reads_of(node, name: str, line: int):
    if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
           for n in ast.walk(node)):
        yield line, "read"


class Loops:
    """Mixed into the Translator."""

    def range_bounds(self, stmt: ast.For):
        it = stmt.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and it.func.id == "range" and "range" not in self.env
                and 1 <= len(it.args) <= 3 and not it.keywords):
            raise Fail(stmt, "for", "only `for v in range(..)` loops are ported")
        bounds = [self.scalar_i32(a) for a in it.args]
        text = lambda b: b if isinstance(b, str) else b.expr    # noqa: E731
        if len(bounds) == 1:
            return "0i32", bounds[0], None
        step = None
        if len(bounds) == 3:
            lit = it.args[2]
            try:
                step_value = self.static_value(lit, "range step")
            except Fail:
                step_value = None
            if step_value is not None and step_value <= 0:
                raise Fail(stmt, "for", "a range step must be positive")
            step = None if step_value == 1 else text(bounds[2])
        return text(bounds[0]), bounds[1], step

    def for_loop(self, stmt: ast.For):
        if stmt.orelse:
            raise Fail(stmt, "for-else", "a for loop with an else clause")
        if not isinstance(stmt.target, ast.Name):
            raise Fail(stmt, "for", "the loop variable must be one name")
        start, stop_value, step = self.range_bounds(stmt)
        self.loops += 1
        carried = {n for n in assigned_names(stmt.body) if n in self.env
                   and isinstance(self.env[n].kind, (Tile, Scalar))
                   and self.live_across(n, stmt)}
        for n in sorted(carried):
            value = self.env[n]
            if value.stmt is None or value.stmt.kind != "let" \
                    or value.expr in {p.name for p in self.spec.params}:
                raise Fail(stmt, "loop-carried value", f"{n} is reassigned in the loop but is "
                                                       "not a local value")
            value.stmt.mutable = True
            value.stmt.pure = False
        var = self.fresh(stmt.target.id)
        body: list[Stmt] = []
        self.enter_region(body)
        saved = self.env.get(stmt.target.id)
        self.env[stmt.target.id] = Value(Scalar(self.types.of_name("int32")), var, origin="loop")
        self.loop_stack.append({"carried": carried, "var": var, "bound": stop_value,
                                "loads": [], "memory_ops": memory_ops(stmt.body, self.static_test),
                                "regions": len(self.regions),
                                "split": self.split_candidate(stmt, step)})
        try:
            self.block(stmt.body)
        finally:
            frame = self.loop_stack.pop()
            self.leave_region()
        if saved is not None:
            self.env[stmt.target.id] = saved
        else:
            self.env.pop(stmt.target.id, None)
        if frame["loads"] and getattr(stop_value, "origin", None) != "num_tiles":
            self.unchecked = True
            self.notes.append(
                f"line {stmt.lineno}: loads indexed by `{stmt.target.id}` run to a bound "
                "cutile cannot relate to the arrays, so the entry is unsafe with "
                "unchecked_accesses = true; the launcher must keep every index in range")
        kept = self.hoist_invariants(body, {var} | {self.env[n].expr for n in carried})
        stop_expr = stop_value if isinstance(stop_value, str) else stop_value.expr
        if frame.get("split_stmt") is not None:
            frame["outer_vars"] = {self.env[n].expr for n in carried} | \
                set(self.token_vars.values()) | set(self.stored_vars.values())
            self.emit_split_loops(frame, lambda v, a, b: f"for {v} in {a}..{b}", var, start,
                                  stop_expr, kept)
            return
        header = f"for {var} in {start}..{stop_expr}" if step is None else \
            f"for {var} in ({start}..{stop_expr}).step_by({step} as usize)"
        self.emit(Stmt("loop", header=header, body=kept, loop_var=var, pure=False))

    def live_across(self, name: str, stmt: ast.For) -> bool:
        """Whether the loop carries `name`: read in the body before it is assigned there, read
        after the loop, or carried by an enclosing loop (cuTile carries only live values)."""
        if any(name in frame["carried"] for frame in self.loop_stack):
            return True
        for s in stmt.body:
            reads = {n.id for n in ast.walk(s) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Load)}
            if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
                reads.add(s.target.id)
            if name in reads:
                return True
            if name in assigned_names([s]) and not isinstance(s, (ast.If, ast.For)):
                break
        end = getattr(stmt, "end_lineno", stmt.lineno)
        for event in name_events(self.current_function().body, name):
            line, kind = event
            if line > end:
                return kind == "read"       # read again before any reassignment: live
        return False

    def current_function(self) -> ast.FunctionDef:
        return self.inline_stack[-1]["node"] if self.inline_stack else self.fn

    def hoist_invariants(self, body: list[Stmt], variant: set[str]) -> list[Stmt]:
        """Emit the body's pure loop-invariant lets before the loop; return the rest."""
        hoisted, kept = [], []
        for s in body:
            uses = set(IDENT.findall(s.source_text()))
            if s.kind in ("let", "raw") and s.pure and not (uses & variant):
                hoisted.append(s)
            else:
                kept.append(s)
                variant |= s.defines()
        for s in hoisted:
            self.emit(s)
        return kept
