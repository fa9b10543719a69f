"""Values a Triton loop carries from one iteration to the next: each becomes a variable of
the derived kernel (a number it starts as is written before the loop); a pointer or an
offset advanced in the loop is refused unless advancing.py follows it."""
from __future__ import annotations

import ast

from .arith import shape_text, text_of
from .values import BlockPtr, Fail, Ptr, Run, Static, Term


class Carried:
    """Mixed into the Translator."""

    def _set_variable(self, name: str, value, stmt) -> Run:
        """`name = value` for a variable of the derived kernel (a value a loop carries):
        always written, whatever the value is, and read back as the variable."""
        if not isinstance(value, (Run, Static)):
            raise Fail(stmt, "loop-carried value", f"`{name}` is a value the loop carries, "
                       "and this assigns it something that is not a tile or a scalar")
        is_int = value.is_int if isinstance(value, Run) else \
            isinstance(value.value, int) and not isinstance(value.value, bool)
        text = text_of(value)
        if isinstance(value, Static) and name in self.state.typed:
            # a number on one path of a runtime `if` and a tile on the other: typed as
            # Triton types a literal (int32, fp32, int1), so both paths agree on one type
            dtype = "ct.bool_" if isinstance(value.value, bool) else \
                "ct.int32" if is_int else "ct.float32"
            text = f"ct.full((), {text}, dtype={dtype})"
        self.emit(f"{name} = {text}", stmt)
        bound = Run(name, getattr(value, "shape", None), is_int=is_int,
                    dtype=value.dtype if isinstance(value, Run) else None)
        if is_int and not bound.is_tile:
            bound.terms = (Term((bound,)),)
        return bound

    def _check_carried(self, stmt: ast.For | ast.While, followed: set[int]) -> dict[str, tuple]:
        """A value the loop carries from one iteration to the next must be a variable of the
        derived kernel. A number it starts as (`s = 0.0`, then `s += tl.sum(x)`) becomes one
        here, written before the loop (returned: name -> (that line, the number)); a pointer
        or an offset is refused: it would be read as its value before the loop in every
        iteration. Advances advancing.py follows (`followed`) are the exception."""
        body = [s for s in stmt.body if id(s) not in followed]
        # a while loop's test runs first in each iteration
        first = [(stmt.test, _reads(stmt.test), set())] if isinstance(stmt, ast.While) else []
        started = {}
        for name, node in _carried(first + _steps(body)):
            current = self.state.env.get(name)
            if name in self.state.variables or name in started:
                continue
            if isinstance(current, (Ptr, BlockPtr)) or (isinstance(current, Run) and lazy(current)):
                raise Fail(node, "loop-carried pointer", f"`{name}` is advanced inside the loop: "
                           "write its offsets from the loop variable instead")
            if isinstance(current, Static) and (self.src.param(name) is not None or
                                                not isinstance(current.value, (int, float))):
                raise Fail(node, "loop-carried value", f"`{name}` starts as a compile-time value "
                           "and the loop changes it: only a number the kernel assigns can "
                           "become a variable of the loop; compute it from the loop variable")
            if isinstance(current, Static):
                self.state.variables.add(name)
                self.state.env[name] = self._set_variable(name, current, stmt)
                started[name] = (self.state.lines[-1], current)
        return started

    def _widen_started(self, started: dict[str, tuple], stmt: ast.For) -> None:
        """A variable that starts as a number and that the loop makes a tile (`acc = 0.0`,
        then `acc += tl.load(..)`) starts as a tile of that number: a loop carries one type.
        Triton's compiler refuses this (its interpreter runs it); noted."""
        for name, (line, start) in started.items():
            value = self.state.env.get(name)
            if not (isinstance(value, Run) and value.is_tile):
                continue
            dtype = "ct.bool_" if isinstance(start.value, bool) else \
                "ct.int32" if value.is_int else "ct.float32"
            shape = shape_text(value.shape)
            line.text = f"{name} = ct.full({shape}, {start.text}, dtype={dtype})"
            self.note(stmt, f"`{name}` starts as the number {start.text} and the loop makes it "
                            f"a tile: it starts as a {shape} tile of it. Triton's compiler "
                            "refuses a loop-carried value whose type changes (its interpreter "
                            "runs it): start it with tl.full or tl.zeros")


def lazy(value: Run) -> bool:
    return (value.terms is not None or value.bounds is not None) and value.kind != "bid" \
        or value.kind == "param"


def _carried(steps: list) -> list[tuple[str, ast.AST]]:
    """(name, the statement that changes it) for each name the loop body reads in a statement
    at or before one that assigns it: its value flows into the next iteration. `steps` are
    _steps' (an `if`'s statements count one by one: `if i < n: off = ...; load(p + off)`
    carries nothing)."""
    out = []
    for k, (s, _, assigned) in enumerate(steps):
        for name in sorted(assigned):
            if any(name in steps[j][1] for j in range(k + 1)):
                out.append((name, s))
    return out


def _steps(body: list) -> list[tuple[ast.AST, set, set]]:
    """(statement, names it reads, names it assigns) in the order they run, an `if` opened
    into its test and its branches' statements."""
    out = []
    for s in body:
        if isinstance(s, ast.If):
            out.append((s, _reads(s.test), set()))
            out += _steps(s.body) + _steps(s.orelse)
            continue
        out.append((s, _reads(s), set(assigned_names(s))))
    return out


def _reads(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} \
        | {n.target.id for n in ast.walk(node) if isinstance(n, ast.AugAssign)
           and isinstance(n.target, ast.Name)}


def assigned_names(stmt) -> list[str]:
    return [n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)]
