"""A `@triton.jit` kernel translated into an equivalent cuTile Python kernel body.

    result = translate(source, cases)       # source: reader.TritonSource; cases: Triton cases
    result.lines, result.diagnostics, result.params_used

Index arithmetic (program ids, aranges, offsets, masks, pointers) is kept symbolic and
written into the accesses it feeds; data (loads, math, reductions) becomes one cuTile
statement per Triton statement. Constexprs whose value is the same in every case are
folded; an `if` on constants is decided per the cases (cuTile decides the others while it
compiles). A statement that cannot be translated is one diagnostic naming the construct;
the names it assigns are Unknown, so no follow-on errors are reported.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace

from .accesses import Accesses
from .advancing import advances, at_iteration
from .branches import Branches
from .carried import Carried, assigned_names, lazy
from .exprs import Exprs
from .state import TritonState
from .arith import static_op, text_of
from .values import Desc, DType, Fail, Ptr, Run, Static, Term, Unknown, literal

IDENT = re.compile(r"[A-Za-z_]\w*")


@dataclass
class Line:
    indent: int
    text: str
    triton_line: int
    binds: str | None = None       # index arithmetic: dropped if nothing reads the name


@dataclass
class Translation:
    lines: list[Line]
    diagnostics: list[dict]
    notes: list[dict]
    params_used: list[str]
    written: list[str]
    tf32_products: bool = False     # a tl.dot of f32 tiles multiplies in tf32, as Triton's does


class Translator(Accesses, Branches, Carried, Exprs):
    def __init__(self, source, cases):
        self.src, self.cases, self.n = source, cases, max(len(cases), 1)
        self.state = TritonState()           # what the translation builds up (state.py)
        self._bind_params()

    # -- parameters ------------------------------------------------------------------------
    def _bind_params(self) -> None:
        # constexprs first: a descriptor's block is named by the constexpr that equals it
        for p in self.src.constexpr_params:
            vals = tuple(c.consts.get(p.name, p.default if p.has_default else None)
                         for c in self.cases)
            static = Static(vals, p.name)
            if not static.uniform and any(isinstance(v, str) for v in vals):
                self.fail(Fail(self.src.fn, "string tl.constexpr", f"{p.name} is "
                               f"{list(vals)} in the cases: a string constexpr is folded (cuTile "
                               "takes no string constants), so it must be the same in every "
                               "case: give each value a target of its own"))
                self.state.env[p.name] = Unknown(p.name)
                continue
            self.state.env[p.name] = literal(vals[0], self.n) if static.uniform else static
        runtime = self.src.runtime_params
        for i, p in enumerate(runtime):
            specs = [c.args[i] for c in self.cases if i < len(c.args)]
            if not specs:
                self.state.env[p.name] = Run(p.name, kind="param")
            elif any(s.is_none for s in specs):
                self._bind_none(p.name, specs)
            elif specs[0].is_array and getattr(specs[0], "block", None):
                try:
                    self.state.env[p.name] = Desc(p.name, self._block(specs, p.name))
                except Fail as e:
                    self.fail(e)
                    self.state.env[p.name] = Unknown(p.name)
            elif specs[0].is_array:
                self.state.env[p.name] = Ptr(p.name)
            else:
                is_int = specs[0].dtype.startswith(("i", "u"))
                values = tuple(s.value for s in specs)      # `--arg i32` gives no value
                run = Run(p.name, kind="param", is_int=is_int,
                          case_values=None if None in values else values)
                if is_int:
                    run.terms = (Term((run,)),)
                self.state.env[p.name] = run

    def _bind_none(self, name: str, specs) -> None:
        """An argument passed as None is a compile-time None to Triton: `is None` tests
        fold, branches on it are decided, and a use that is left is refused (Constant)."""
        if all(s.is_none for s in specs):
            self.state.env[name] = literal(None, self.n)
            return
        self.fail(Fail(self.src.fn, "None argument", f"{name} is None in some cases and "
                       f"{next(s for s in specs if not s.is_none)} in others: Triton compiles "
                       "a kernel for each, so give each its own target (--launch N)"))
        self.state.env[name] = Unknown(name)

    def _block(self, specs, name: str) -> tuple:
        """The descriptor's block shape as Statics. A block dimension that differs between
        cases is spelled by a tl.constexpr equal to it in every case (the derived kernel is
        one kernel for all the cases); with none, the block cannot be written: refused."""
        out = []
        for d in range(len(specs[0].block)):
            vals = tuple(s.block[d] for s in specs)
            if len(set(vals)) == 1:
                out.append(literal(vals[0], self.n))
                continue
            named = [p.name for p in self.src.constexpr_params
                     if isinstance(self.state.env.get(p.name), Static)
                     and self.state.env[p.name].vals == vals]
            if not named:
                raise Fail(self.src.fn, "tensor descriptor block",
                           f"dimension {d} of {name}'s block is {list(vals)} in the cases and "
                           "no tl.constexpr has that value in every case: give each block "
                           "shape its own target, or pass the block size as a tl.constexpr")
            out.append(Static(vals, named[0]))
        return tuple(out)

    def array_specs(self, param: str, node):
        index = [p.name for p in self.src.runtime_params].index(param)
        specs = [c.args[index] for c in self.cases]
        if not specs or not specs[0].is_array:
            raise Fail(node, "pointer", f"{param} is not given a tensor in the cases")
        return specs

    def param_label(self, term) -> str:
        return "the tensor"

    # -- output ----------------------------------------------------------------------------
    def emit(self, text: str, node) -> None:
        self.state.lines.append(Line(self.state.depth, text, getattr(node, "lineno", 0)))

    def note(self, node, text: str) -> None:
        self.state.notes.append({"line": getattr(node, "lineno", 0), "message": text})

    def fail(self, error: Fail) -> None:
        if not error.construct:          # a use of a name whose assignment already failed
            return
        self.state.diagnostics.append({"line": error.line, "construct": error.construct,
                                 "message": error.message,
                                 "file": error.file or self.state.file or self.src.filename})

    # -- statements ------------------------------------------------------------------------
    def block(self, body) -> None:
        # the statements after each one, to the kernel's end where this block ends the kernel
        # (its top level, a folded `if` in one, an early return's `else`): what an early
        # `return` skips (if_statement)
        outer = self.state.rest if self.state.tail else []
        for i, stmt in enumerate(body):
            if self.state.returned:
                return
            self.state.rest = list(body[i + 1:]) + outer
            try:
                self.statement(stmt)
            except Exception as e:              # noqa: BLE001 (a translator bug: reported)
                self.fail(e if isinstance(e, Fail) else _internal_error(stmt, e))
                for target in assigned_names(stmt):
                    self.state.env[target] = Unknown(target)

    def statement(self, stmt) -> None:
        if isinstance(stmt, ast.Expr):
            if not isinstance(stmt.value, ast.Constant):
                self.expr(stmt.value)
        elif isinstance(stmt, ast.Assign):
            value = self.expr(stmt.value)
            for target in stmt.targets:
                self.assign(target, value, stmt)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            self.assign(stmt.target, self.expr(stmt.value), stmt)
        elif isinstance(stmt, ast.AugAssign):
            name = ast.Name(stmt.target.id, ast.Load()) if isinstance(stmt.target, ast.Name) \
                else stmt.target
            ast.copy_location(name, stmt)
            value = self.binary(stmt.op, self.expr(name), self.expr(stmt.value), stmt)
            self.assign(stmt.target, value, stmt)
        elif isinstance(stmt, ast.For):
            self.for_loop(stmt)
        elif isinstance(stmt, ast.While):
            self.while_loop(stmt)
        elif isinstance(stmt, ast.If):
            self.if_statement(stmt)
        elif isinstance(stmt, ast.Pass):
            pass
        elif isinstance(stmt, ast.Return) and stmt.value is None:
            if not self.state.tail:
                raise Fail(stmt, "early return", "a `return` under a runtime `if` or in a loop "
                           "ends some programs early, and a cuTile kernel has no early return: "
                           "put the rest of the kernel under the negated condition")
            self.state.returned = True          # the rest of the kernel is never run
        else:
            raise Fail(stmt, type(stmt).__name__.lower(), "this statement is not translated")

    def assign(self, target, value, stmt) -> None:
        if isinstance(target, ast.Tuple):
            if not isinstance(value, tuple) or len(value) != len(target.elts):
                raise Fail(stmt, "unpacking", "unpacking a value that is not a tuple")
            for t, v in zip(target.elts, value):
                self.assign(t, v, stmt)
            return
        if not isinstance(target, ast.Name):
            raise Fail(stmt, "assignment", f"assignment to `{ast.unparse(target)}`")
        name = target.id
        if name in self.state.variables:
            self.state.env[name] = self._set_variable(name, value, stmt)
            return
        if isinstance(value, DType) and value.of_value:
            # `d = x.dtype` then `x = x.to(tl.float32)`: d stays x's dtype at this point
            self.emit(f"{name} = {value.text}", stmt)
            value = DType(name)
        elif isinstance(value, Run) and lazy(value) and value.kind != "param":
            # index arithmetic: named for the data that reads it, symbolic for addressing
            self.state.lines.append(Line(self.state.depth, f"{name} = {value.code}", stmt.lineno, name))
            value = replace(value, code=name)
        elif isinstance(value, Run) and not lazy(value):
            self.emit(f"{name} = {value.code}", stmt)
            bound = Run(name, value.shape, is_int=value.is_int, kind=value.kind,
                        upper=value.upper, case_values=value.case_values, dtype=value.dtype)
            if bound.is_int and not bound.is_tile:
                bound.terms = (Term((bound,)),)
            value = bound
        self.state.env[name] = value

    def for_loop(self, stmt: ast.For) -> None:
        it = stmt.iter
        if stmt.orelse or not isinstance(stmt.target, ast.Name) or not isinstance(it, ast.Call):
            raise Fail(stmt, "for", "only `for v in range(...)` loops are translated")
        fname = ast.unparse(it.func)
        if fname not in ("range", "tl.range", "tl.static_range", "triton.language.range"):
            raise Fail(stmt, "for", f"a loop over `{fname}(...)`")
        for kw in it.keywords:
            self.note(stmt, f"{fname}({kw.arg}=...) is a Triton pipelining hint; not translated")
        args = [self.expr(a) for a in it.args]
        start, stop, step = (literal(0, self.n), args[0], literal(1, self.n)) if len(args) == 1 \
            else (args[0], args[1], args[2] if len(args) > 2 else literal(1, self.n))
        var = stmt.target.id
        zero_start = isinstance(start, Static) and start.uniform and start.value == 0
        unit_step = isinstance(step, Static) and step.uniform and step.value == 1
        advancing = advances(self, stmt) if zero_start or unit_step else []    # advancing.py
        followed = {id(a.statement) for a in advancing}
        started = self._check_carried(stmt, followed)
        if isinstance(step, Static) and zero_start and not unit_step:
            tile_var = f"{var}_tile"
            count = self._cdiv(stop, step)
            self.emit(f"for {tile_var} in range({text_of(count)}):", stmt)
            atom = Run(tile_var, kind="loop", is_int=True)
            atom.terms = (Term((atom,)),)
            self.state.env[var] = Run(f"({tile_var} * {step.text})", terms=(Term((atom, step)),),
                                quotients={step.text: tile_var}, is_int=True, kind="loop")
            iteration, trips = atom, count
        else:
            parts = [text_of(a) for a in (start, stop, step)] if len(args) == 3 else \
                [text_of(a) for a in args]
            self.emit(f"for {var} in range({', '.join(parts)}):", stmt)
            atom = Run(var, kind="loop", is_int=True)
            atom.terms = (Term((atom,)),)
            self.state.env[var] = atom
            iteration = atom if zero_start else self.binary(ast.Sub(), atom, start, stmt)
            trips = stop if zero_start else self.binary(ast.Sub(), stop, start, stmt)
        bases = {a.name: self.state.env[a.name] for a in advancing}
        for a in advancing:
            self.state.env[a.name] = at_iteration(self, a, bases[a.name], iteration, stmt)
        self.state.depth += 1
        tail, self.state.tail = self.state.tail, False
        self.block([s for s in stmt.body if id(s) not in followed])
        self.state.tail = tail
        self.state.depth -= 1
        self._widen_started(started, stmt)
        for a in advancing:             # after the loop: advanced once per trip
            self.state.env[a.name] = at_iteration(self, a, bases[a.name], trips, stmt)

    def while_loop(self, stmt: ast.While) -> None:
        """`while test:` on a runtime scalar is cuTile's `while`; what it carries is a variable
        of the derived kernel, as a `for` loop's is."""
        if stmt.orelse:
            raise Fail(stmt, "while", "a `while` with an `else` is not translated")
        started = self._check_carried(stmt, set())
        before = len(self.state.lines)
        test = self.expr(stmt.test)
        if not isinstance(test, Run) or test.is_tile:
            raise Fail(stmt, "while", f"`while {ast.unparse(stmt.test)}`: the test must be a "
                       "runtime scalar (a compile-time one loops forever or never)")
        test_lines = self.state.lines[before:]
        del self.state.lines[before:]
        # a test that writes statements (a spin lock's `tl.atomic_cas`) runs them at every
        # trip: the loop is `while True` that leaves when the test is false
        self.emit("while True:" if test_lines else f"while {test.code}:", stmt)
        self.state.depth += 1
        if test_lines:
            self.state.lines += [replace(line, indent=line.indent + 1) for line in test_lines]
            self.emit(f"if not ({test.code}):", stmt)
            self.emit("    break", stmt)
        tail, self.state.tail = self.state.tail, False
        body_start = len(self.state.lines)
        self.block(stmt.body)
        if len(self.state.lines) == body_start and not test_lines:
            self.emit("pass", stmt)
        self.state.tail = tail
        self.state.depth -= 1
        self._widen_started(started, stmt)

    def _cdiv(self, stop, step):
        if isinstance(stop, Static):
            return static_op(lambda a, b: -(-a // b), f"ct.cdiv({stop.text}, {step.text})",
                             stop, step)
        return Run(f"ct.cdiv({text_of(stop)}, {step.text})", is_int=True)

    def result(self) -> Translation:
        self.state.lines = _unread_dropped(self.state.lines)
        text = "\n".join(line.text for line in self.state.lines)
        used = set(IDENT.findall(text))
        params = [p.name for p in self.src.params
                  if p.name in used and not self._folded(p.name)]
        return Translation(self.state.lines, self.state.diagnostics, self.state.notes, params,
                           sorted(self.state.written), self.state.tf32_products)

    def _folded(self, name: str) -> bool:
        value = self.state.env.get(name)
        p = self.src.param(name)
        return p is not None and p.constexpr and isinstance(value, Static) and value.text != name


def _unread_dropped(lines: list[Line]) -> list[Line]:
    """Drop index-arithmetic lines whose name no other line reads (addressing used them
    symbolically), until none is left."""
    while True:
        reads: dict[str, int] = {}
        for line in lines:
            names = IDENT.findall(line.text.split("=", 1)[1] if line.binds else line.text)
            for name in set(names):
                reads[name] = reads.get(name, 0) + 1
        keep = [ln for ln in lines if not ln.binds or reads.get(ln.binds, 0)]
        if len(keep) == len(lines):
            return lines
        lines = keep


def _internal_error(stmt, error: Exception) -> Fail:
    """An unexpected error of the translator itself, as a diagnostic at the statement."""
    import traceback
    frame = traceback.extract_tb(error.__traceback__)[-1]
    return Fail(stmt, "translator", f"the translator failed on this statement "
                f"({type(error).__name__}: {error}, at {frame.filename.rsplit('/', 1)[-1]}:"
                f"{frame.lineno}): a bug of the translator, not of the kernel; report it with "
                "the kernel")


def translate(source, cases) -> Translation:
    t = Translator(source, cases)
    t.block(source.fn.body)
    return t.result()
