"""`for v in range(..)` loops (one, two or three arguments; a step other than 1 is
`(a..b).step_by(s)`) and `for v in ct.static_iter(..)` (unrolled, as cuTile unrolls it): loop-carried values become `let mut` + assignment, pure loop-invariant
lets are hoisted before the loop (cuTile's compiler hoists them too), and loads indexed by the
loop variable against a bound cutile cannot relate to the arrays make the entry unchecked."""
from __future__ import annotations

import ast

import cuda.tile as ct

from .tokens import carry_acquire_through
from .while_loop import jumps_in
from .values import IDENT, Const, Fail, Lit, Scalar, Stmt, Tile, Value, assigned_names


MEMORY_FUNCTIONS = {"load", "store", "gather", "scatter", "atomic_add", "atomic_and",
                    "atomic_or", "atomic_xor", "atomic_max", "atomic_min", "atomic_xchg",
                    "atomic_cas", "atomic_store_add", "atomic_store_max", "atomic_store_min",
                    "atomic_store_and", "atomic_store_or", "atomic_store_xor"}


def memory_ops(nodes) -> dict[str, int]:
    """How many memory operations each array name takes among a loop body's AST nodes."""
    counts: dict[str, int] = {}
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in MEMORY_FUNCTIONS and node.args \
                and isinstance(node.args[0], ast.Name):
            counts[node.args[0].id] = counts.get(node.args[0].id, 0) + 1
    return counts


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

    def is_static_iter(self, node) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)) \
            and getattr(self.expr(node.func).kind, "value", None) is ct.static_iter

    def unrolled_loop(self, stmt: ast.For) -> None:
        """`for v in ct.static_iter(ITERABLE)`: cuTile unrolls it at compile time, the body once
        per item with `v` bound to that compile-time value; so does the port."""
        if len(stmt.iter.args) != 1 or stmt.iter.keywords:
            raise Fail(stmt, "ct.static_iter", "ct.static_iter takes one iterable")
        source = stmt.iter.args[0]
        if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) \
                and source.func.id == "range" and "range" not in self.state.env and not source.keywords:
            items = range(*(self.static_int(a, stmt, "a static_iter range bound")
                            for a in source.args))
        else:
            items = self.static_value(source, "ct.static_iter")
        try:
            items = list(items)
        except TypeError:
            raise Fail(stmt, "ct.static_iter", f"`{ast.unparse(stmt.iter.args[0])}` is not "
                       "iterable") from None
        if any(True for _ in jumps_in(stmt.body)):
            raise Fail(stmt, "ct.static_iter", "a `break` or `continue` in an unrolled loop is "
                       "not drafted")
        for item in items:
            value = ast.parse(repr(item), mode="eval").body      # a literal, as cuTile binds it
            ast.copy_location(value, stmt)
            ast.fix_missing_locations(value)
            self.assign_target(stmt.target, value, stmt)
            self.block(stmt.body)

    def range_bounds(self, stmt: ast.For):
        it = stmt.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and it.func.id == "range" and "range" not in self.state.env
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

    def runs_no_trip(self, stmt: ast.For) -> bool:
        """`for v in range(a, b)` with a >= b known when the kernel is drafted."""
        it = stmt.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and
                it.func.id == "range" and 1 <= len(it.args) <= 3 and not it.keywords):
            return False
        try:
            bounds = [self.static_value(a, "range bound") for a in it.args]
        except Exception:          # noqa: BLE001 (not known now: a loop like any other)
            return False
        if not all(type(b) is int for b in bounds):
            return False
        start, stop = (0, bounds[0]) if len(bounds) == 1 else bounds[:2]
        step = bounds[2] if len(bounds) == 3 else 1
        return step > 0 and stop <= start

    def for_loop(self, stmt: ast.For):
        if stmt.orelse:
            raise Fail(stmt, "for-else", "a for loop with an else clause")
        if self.is_static_iter(stmt.iter):
            return self.unrolled_loop(stmt)
        if not isinstance(stmt.target, ast.Name):
            raise Fail(stmt, "for", "the loop variable must be one name")
        if self.runs_no_trip(stmt):
            # cuTile Python writes `for 0 to 0`; cutile 0.5.0 writes an invalid bounded
            # `assume` for an empty constant range (the IR diff drops such a loop)
            self.state.notes.append(f"line {stmt.lineno}: the loop runs no trip here and is "
                                    "left out")
            return
        start, stop_value, step = self.range_bounds(stmt)
        carried = self.loop_carried(stmt)
        self.check_jumps(stmt.body, carried)    # while_loop.py
        done = self.break_flag(stmt, step)      # while_loop.py: `break` in a `for`
        var = self.fresh(stmt.target.id)
        carry_acquire_through(self, self.folded_nodes([stmt]))
        body: list[Stmt] = []
        self.enter_region(body)
        if done:
            self.emit(self.skip_when_done(done))
        saved = self.state.env.get(stmt.target.id)
        self.state.env[stmt.target.id] = Value(Scalar(self.types.of_name("int32")), var, origin="loop")
        self.state.loop_stack.append({"carried": carried, "var": var, "bound": stop_value,
                                "loads": [], "memory_ops": memory_ops(self.folded_nodes(stmt.body)),
                                "regions": len(self.state.regions),
                                "split": self.split_candidate(stmt, step),
                                "node": stmt, "pre": [], "entry_tokens": {}, "done": done})
        try:
            self.block(stmt.body)
        finally:
            frame = self.state.loop_stack.pop()
            self.leave_region()
        if saved is not None:
            self.state.env[stmt.target.id] = saved
        else:
            self.state.env.pop(stmt.target.id, None)
        if frame["loads"] and getattr(stop_value, "origin", None) != "num_tiles":
            self.state.unchecked = True
            self.state.notes.append(
                f"line {stmt.lineno}: loads indexed by `{stmt.target.id}` run to a bound "
                "cutile cannot relate to the arrays, so the entry is unsafe with "
                "unchecked_accesses = true; the launcher must keep every index in range")
        kept = self.hoist_invariants(body, {var} | {self.state.env[n].expr for n in carried})
        for s in frame["pre"]:          # tokens as the loop starts (a parallel store's)
            self.emit(s)
        stop_expr = stop_value if isinstance(stop_value, str) else stop_value.expr
        if frame.get("split_stmt") is not None:
            frame["outer_vars"] = {self.state.env[n].expr for n in carried} | \
                set(self.state.token_vars.values()) | set(self.state.stored_vars.values())
            self.emit_split_loops(frame, lambda v, a, b: f"for {v} in {a}..{b}", var, start,
                                  stop_expr, kept)
            return
        header = f"for {var} in {start}..{stop_expr}" if step is None else \
            f"for {var} in ({start}..{stop_expr}).step_by({step} as usize)"
        self.emit(Stmt("loop", header=header, body=kept, loop_var=var, pure=False))

    def loop_carried(self, stmt) -> set[str]:
        """The names a loop (`for` or `while`) carries, each made a `let mut` of its own."""
        self.state.loops += 1
        for n in sorted(assigned_names(stmt.body)):
            if n in self.state.env and isinstance(self.state.env[n].kind, (Lit, Const)) \
                    and self.live_across(n, stmt):
                self.materialize_carried(n, stmt)
        carried = {n for n in assigned_names(stmt.body) if n in self.state.env
                   and isinstance(self.state.env[n].kind, (Tile, Scalar))
                   and self.live_across(n, stmt)}
        for n in sorted(carried):
            value = self.state.env[n]
            shared = any(v is value for _, v in self.state.cache.values())
            if value.stmt is None or value.stmt.kind != "let" or shared \
                    or value.expr in {p.name for p in self.spec.params}:
                # a parameter, a value other names share (a cached `ct.bid(0)`): the loop
                # carries a copy of it (no op), so the shared value keeps its meaning
                value = self.state.env[n] = self.let(n, value.kind, value.expr, pure=False)
            value.stmt.mutable = True
            value.stmt.pure = False
            value.origin = None         # no longer what it was made from (`ct.bid(0)`, ..)
        return carried

    def note_loop_load(self, index: list[Value], line: int) -> None:
        """A load at `index` that moves with a loop, in that loop's frame: indexed by the
        innermost `for` loop's variable, or by a value a `while` loop (which has no loop
        variable) carries or computes, which cutile cannot bound (a checked entry would get
        residual device asserts where cuTile has none)."""
        for depth, frame in enumerate(self.state.loop_stack):
            if frame["var"] is None:
                carried = {self.state.env[n].expr for n in frame["carried"] if n in self.state.env}
                inside = [s for block in self.state.blocks[frame["regions"]:] for s in block]
                if any(v.expr in carried or any(v.stmt is s for s in inside) for v in index):
                    frame["loads"].append(line)
            elif depth == len(self.state.loop_stack) - 1 and any(v.origin == "loop" for v in index):
                frame["loads"].append(line)

    def folded_nodes(self, stmts):
        """The AST nodes of `stmts` as cuTile compiles them: an `if` decided at compile time
        keeps only the branch it takes (the other is never lowered)."""
        for s in stmts:
            if isinstance(s, ast.If):
                test = self.folded_test(s.test)
                if isinstance(test, bool):
                    yield from self.folded_nodes(s.body if test else s.orelse)
                    continue
                yield s
                yield from ast.walk(s.test)
                yield from self.folded_nodes(s.body)
                yield from self.folded_nodes(s.orelse)
            elif isinstance(s, (ast.For, ast.While)):
                yield s
                for part in (s.target, s.iter) if isinstance(s, ast.For) else (s.test,):
                    yield from ast.walk(part)
                yield from self.folded_nodes(s.body)
                yield from self.folded_nodes(s.orelse)
            else:
                yield from ast.walk(s)

    def materialize_carried(self, name: str, stmt: ast.For) -> None:
        """A Python constant the loop reassigns and reads again (`n = 0` .. `n += 1`): cuTile
        types the loop variable strictly (body_phi.propagate(.., allow_loose_typing=False)),
        so the loop carries it as a 0-d tile of the constant's default dtype (int32, float32,
        bool), made from the constant before the loop."""
        kind = self.state.env[name].kind
        value = kind.value if isinstance(kind, Lit) else 0
        if not isinstance(value, (bool, int, float)):
            return
        dtype = "bool_" if isinstance(value, bool) else \
            "int32" if isinstance(value, int) else "float32"
        tile = self.as_tile(self.state.env[name], self.types.of_name(dtype), (), stmt)
        self.state.env[name] = self.let(name, tile.kind, tile.expr, pure=False)

    def carried_constant(self, name: str, value: Value, stmt) -> Value:
        """A constant assigned to a loop-carried tile: that tile type's typed constant."""
        old = self.state.env[name].kind
        return self.as_tile(value, old.dtype, old.shape, stmt) if isinstance(old, Tile) \
            else value

    def live_across(self, name: str, stmt: ast.For) -> bool:
        """Whether the loop carries `name`: read in the body before it is assigned there, read
        after the loop, or carried by an enclosing loop (cuTile carries only live values)."""
        if any(name in frame["carried"] for frame in self.state.loop_stack):
            return True
        if self.read_before_write(stmt.body, name)[0] or (
                isinstance(stmt, ast.While) and next(reads_of(stmt.test, name, 0), None)):
            return True
        end = getattr(stmt, "end_lineno", stmt.lineno)
        for event in name_events(self.current_function().body, name):
            line, kind = event
            if line > end:
                return kind == "read"       # read again before any reassignment: live
        return False

    def read_before_write(self, stmts, name: str) -> tuple[bool, bool]:
        """(whether some path through `stmts` reads `name` before assigning it, whether every
        path assigns it); branches decided at compile time count only as taken."""
        for s in stmts:
            if isinstance(s, ast.If):
                test = self.folded_test(s.test)
                if isinstance(test, bool):
                    read, written = self.read_before_write(s.body if test else s.orelse, name)
                else:
                    if next(reads_of(s.test, name, 0), None):
                        return True, False
                    (r1, w1), (r2, w2) = (self.read_before_write(b, name)
                                          for b in (s.body, s.orelse))
                    read, written = r1 or r2, w1 and w2
            elif isinstance(s, (ast.For, ast.While)):
                head = s.iter if isinstance(s, ast.For) else s.test
                read = bool(next(reads_of(head, name, 0), None)) or \
                    self.read_before_write(s.body, name)[0]
                written = False                 # the body may not run
            else:
                events = [kind for _, kind in name_events([s], name)]
                read, written = events[:1] == ["read"], "write" in events
            if read:
                return True, False
            if written:
                return False, True
        return False, False

    def current_function(self) -> ast.FunctionDef:
        return self.state.inline_stack[-1]["node"] if self.state.inline_stack else self.fn

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
