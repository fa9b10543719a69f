"""Control flow: `for` (signed or `unsigned` bounds, loop-carried values), `loop` (until a
`break`), `if`/`else`, and the terminators `yield`, `continue`, `break`, `return`. A
`continue` or `break` inside an `if` ends the innermost enclosing loop's iteration: the `if`
hands the signal up."""
from __future__ import annotations

import numpy as np

from ..ir.model import Group, Token, split_commas
from .errors import Fault, UnsupportedOp
from .code import Signal, run_code
from .types import parse_type

MAX_TRIPS = 10_000_000


def _iter_values(body) -> tuple[list[str], list[str]]:
    """`iter_values(%a = %x, %b = %y)` -> (["%a", "%b"], ["%x", "%y"])."""
    for i, node in enumerate(body[:-1]):
        if (isinstance(node, Token) and node.text == "iter_values"
                and isinstance(body[i + 1], Group)):
            names, inits = [], []
            for part in split_commas(body[i + 1].items):
                values = [t.text for t in part if isinstance(t, Token) and t.kind == "value"]
                if len(values) != 2:
                    raise Fault("expected `%name = %init` in iter_values", kind=UnsupportedOp)
                names.append(values[0])
                inits.append(values[1])
            return names, inits
    return [], []


def build_for(op, text, c):
    body = op.body
    index_name = body[0].text
    bounds = next(n for n in body if isinstance(n, Group) and n.open.text == "(")
    lb, ub, step = [t.text for t in bounds.items if isinstance(t, Token) and t.kind == "value"]
    index_type = next(parse_type(n.text) for n in body
                      if isinstance(n, Token) and n.kind == "typed" and n.text.startswith("tile<"))
    dtype = index_type.dtype
    uns = any(isinstance(n, Token) and n.text == "unsigned" for n in body)
    names, inits = _iter_values(body)
    code = c.code(op.regions[0].block, (index_name, *names))

    def run(s, v):
        low, high, stride = (int(x) for x in v[:3])
        if uns:
            bits = 8 * dtype.itemsize
            low, high, stride = (x % (1 << bits) for x in (low, high, stride))
        if stride <= 0:
            raise Fault(f"for step {stride} is not positive: undefined behavior")
        carried = tuple(v[3:])
        i = low
        while i < high:
            signal = run_code(s, code, (np.array(i).astype(dtype), *carried))
            if signal is not None:
                if signal.kind == "continue":
                    carried = signal.values
                elif signal.kind in ("break", "return"):
                    return signal
                else:
                    raise Fault(f"`{signal.kind}` ends a for body")
            i += stride
        return carried
    return c.make(op, run, [lb, ub, step] + inits, [code])


def build_loop(op, text, c):
    names, inits = _iter_values(op.body)
    code = c.code(op.regions[0].block, tuple(names))

    def run(s, v):
        carried = tuple(v)
        for _ in range(MAX_TRIPS):
            signal = run_code(s, code, carried)
            if signal is None or signal.kind == "continue":
                carried = signal.values if signal is not None else carried
            elif signal.kind == "break":
                return signal.values
            elif signal.kind == "return":
                return signal
            else:
                raise Fault(f"`{signal.kind}` ends a loop body")
        raise Fault(f"the loop ran {MAX_TRIPS} trips without a break")
    return c.make(op, run, inits, [code])


def build_if(op, text, c):
    condition = text.operands()[:1]
    then = c.code(op.regions[0].block, ())
    other = c.code(op.regions[1].block, ()) if len(op.regions) > 1 else None
    n_results = len(op.result_names())

    def run(s, v):
        flag = np.asarray(v[0])
        if flag.size != 1:
            raise Fault(f"an if condition must be one value, found shape {flag.shape}")
        code = then if bool(flag.reshape(())) else other
        signal = run_code(s, code) if code is not None else None
        if signal is None:
            if n_results:
                raise Fault("the branch taken ended without yielding the if's results")
            return ()
        if signal.kind == "yield":
            return signal.values
        return signal            # continue, break, return: for the enclosing loop
    return c.make(op, run, condition, [then] + ([other] if other else []))


def build_terminator(op, text, c):
    kind = op.name
    return c.make(op, lambda s, v: Signal(kind, tuple(v)), text.operands())
