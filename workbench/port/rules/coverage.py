"""What the drafter does with every public function of cuda.tile and every Tile method: a table
generated from the rule table, never written by hand.

    python -m workbench.port.rules.coverage            # writes bench/drafter_coverage.md
    python -m workbench.port.rules.coverage --check    # exits 1 when the file is stale

Status per name: `translated` (a rule), `refused` (a known refusal, with the reason: what
cutile-rs lacks), `not in a kernel` (host-side API, decorators, compile-time helpers), or
`no rule` (anything else: the drafter reports "has no translation rule").
"""
from __future__ import annotations

import inspect
import sys
from pathlib import Path

import cuda.tile as ct

from .attributes import ARRAY_ATTRIBUTES, ARRAY_METHODS
from .table import DUNDER, REFUSALS, RULES, TILE_METHODS
from .tiled_view import ACCESS_METHODS, VIEW_ATTRIBUTES

OUTPUT = Path(__file__).resolve().parents[3] / "bench" / "drafter_coverage.md"
# not called inside a kernel body (or handled as syntax, not as a call)
NOT_IN_KERNEL = {
    "kernel": "the decorator (its hints become the entry's optimization_hints)",
    "function": "the decorator of helpers (inlined at each call)",
    "launch": "host-side launch", "compiler_timeout": "host-side compiler option",
    "foreign_pointer_dtype": "host-side dtype constructor",
    "ensure_constant": "compile-time check",
}
# functions the translator handles as syntax, not through a rule
SYNTAX_FUNCTIONS = {"static_iter": "as `for v in ct.static_iter(..)`: unrolled (rules/loops.py)"}
# Tile methods whose Python spelling is syntax the translator handles directly
SYNTAX_METHODS = {"__getitem__": "t[:, None] (expand_dims sugar)", "dtype": "attribute",
                  "shape": "attribute (a tuple of constants)", "ndim": "attribute"}
# coverage before this work (the drafter as of commit 92125bc): functions it translated
BEFORE = {"bid", "load", "store", "astype", "exp", "log", "tanh", "rsqrt", "sum", "max", "min",
          "maximum", "minimum", "where", "full", "zeros", "arange", "mma", "transpose",
          "reshape", "num_tiles", "cdiv"}


def public_functions() -> list[str]:
    return sorted(n for n in dir(ct) if not n.startswith("_")
                  and (inspect.isfunction(getattr(ct, n)) or inspect.isbuiltin(getattr(ct, n))))


SKIPPED = {"__init__", "__module__", "__doc__", "__dict__", "__weakref__", "__qualname__",
           "__firstlineno__", "__static_attributes__", "__hash__"}


def tile_methods() -> list[str]:
    """Tile's own public names and dunders (what a kernel can call or apply to a tile)."""
    own = vars(ct.Tile)
    return sorted(n for n in own if n not in SKIPPED and (not n.startswith("_") or
                                                          (n.startswith("__") and n.endswith("__"))))


def function_status(name: str) -> tuple[str, str]:
    if name in SYNTAX_FUNCTIONS:
        return "translated", SYNTAX_FUNCTIONS[name]
    if name in RULES:
        return "translated", f"rules/ops_{RULES[name].family}.py"
    if name in REFUSALS:
        return "refused", REFUSALS[name].reason
    if name in NOT_IN_KERNEL:
        return "not in a kernel", NOT_IN_KERNEL[name]
    return "no rule", ""


def method_status(name: str) -> tuple[str, str]:
    if name in TILE_METHODS:
        return "translated", f"as ct.{TILE_METHODS[name].name}"
    if name in DUNDER:
        op, reflected = DUNDER[name]
        return "translated", f"the operator {op.__name__}{' (reflected)' if reflected else ''}"
    if name in SYNTAX_METHODS:
        return "translated", SYNTAX_METHODS[name]
    for key in (f"Tile.{name}", name):
        if key in REFUSALS:
            return "refused", REFUSALS[key].reason
    return "no rule", ""


def view_rows() -> list[tuple[str, str, str]]:
    """Array's and TiledView's own public names: (Owner.name, status, how)."""
    rows = []
    for name in (n for n in vars(ct.Array) if not n.startswith("_")):
        status = "translated" if name in ARRAY_METHODS or name in ARRAY_ATTRIBUTES else "no rule"
        how = {"slice": "rules/ops_slice.py", "tiled_view": "rules/tiled_view.py (rewritten "
               "into the accesses below)"}.get(name, "attribute" if status == "translated" else "")
        rows.append((f"Array.{name}", status, how))
    for name in (n for n in vars(ct.TiledView) if not n.startswith("_")):
        status = "translated" if name in ACCESS_METHODS or name in VIEW_ATTRIBUTES else "no rule"
        how = "rules/tiled_view.py" if status == "translated" else ""
        rows.append((f"TiledView.{name}", status, how))
    return rows


BEFORE_METHODS = 15      # operator syntax only: + - * / either way, six comparisons, unary -


def render() -> str:
    functions = [(n, *function_status(n)) for n in public_functions()]
    methods = [(n, *method_status(n)) for n in tile_methods()]
    count = lambda rows, s: sum(1 for r in rows if r[1] == s)      # noqa: E731
    kernel_functions = [r for r in functions if r[1] != "not in a kernel"]
    before = sum(1 for n, *_ in kernel_functions if n in BEFORE)
    lines = [
        "# cuda.tile coverage of the offline drafter",
        "",
        "Generated by `python -m workbench.port.rules.coverage` from the rule table "
        "(workbench/port/rules/table.py); a test checks it is current.",
        "",
        f"- functions usable in a kernel: {len(kernel_functions)}; translated "
        f"{count(kernel_functions, 'translated')} (before this drafter: {before}), refused with "
        f"a reason {count(kernel_functions, 'refused')}, no rule "
        f"{count(kernel_functions, 'no rule')}",
        f"- Tile methods and operators: {len(methods)}; translated {count(methods, 'translated')} "
        f"(before: {BEFORE_METHODS}, as operator syntax only), refused "
        f"{count(methods, 'refused')}, no rule {count(methods, 'no rule')}",
        "",
        "## Functions", "", "| cuda.tile | status | where / why |", "| --- | --- | --- |"]
    lines += [f"| `{n}` | {s} | {w} |" for n, s, w in functions]
    lines += ["", "## Tile methods", "", "| Tile | status | how |", "| --- | --- | --- |"]
    lines += [f"| `{n}` | {s} | {w} |" for n, s, w in methods]
    lines += ["", "## Array and TiledView", "", "| name | status | how |", "| --- | --- | --- |"]
    lines += [f"| `{n}` | {s} | {w} |" for n, s, w in view_rows()]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = OUTPUT.read_text() if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is stale: run python -m workbench.port.rules.coverage", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
