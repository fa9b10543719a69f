"""Runtime `if` in the rule-based drafter (workbench/port/rules/runtime_if.py, loop_split.py),
without cargo: constant operands of a test fold away, cuTile's loop split is drafted as two
loops, and what cutile cannot express is refused with a diagnostic naming its line.
(tests/test_rules_families.py builds and diffs the branches.py fixture.)"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.port.analyze import analyze
from workbench.port.rules import draft

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "drafter"


def drafted(file: str, kernel: str, args: list[str], consts: dict):
    source = (FIXTURES / file).read_text()
    case = Case(index=0, args=tuple(parse_arg(a) for a in args), consts=consts)
    spec = analyze(source, f"tests/fixtures/drafter/{file}", kernel, [case])
    return draft(spec, source, kernel)


def ifs(kernel_rs: str) -> list[str]:
    return re.findall(r"^\s*if (.*) \{$", kernel_rs, re.M)


def test_constant_operand_of_a_runtime_test_folds_away():
    args = ["f32[64]", "f32[64]", "i32"]
    taken = drafted("const_branch_else.py", "mixed_rows", args, {"TILE": 64, "MODE": 1})
    assert taken.ok, taken.diagnostics
    rust = taken.files["src/kernel.rs"]
    assert len(ifs(rust)) == 1 and "MODE" not in ifs(rust)[0]
    assert "gt_tile(n_t, lit)" in rust             # only `n > 3` is tested at run time
    skipped = drafted("const_branch_else.py", "mixed_rows", args, {"TILE": 64, "MODE": 2})
    assert skipped.ok, skipped.diagnostics
    assert ifs(skipped.files["src/kernel.rs"]) == []
    assert "* lit" not in skipped.files["src/kernel.rs"]


def test_loop_split_into_two_loops():
    d = drafted("branches.py", "causal_sum", ["f32[64,128]", "f32[64,128]", "i32"],
                {"TILE": 128})
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    assert ifs(rust) == []
    assert "let split: i32 = bid + one;" in rust          # `j > bid` splits at bid + 1
    assert "min(n_blocks, split)" in rust and "max(0i32, split)" in rust
    first, second = re.split(r"for j in split_start\.\.n_blocks", rust)
    assert "for j in 0i32..split_stop" in first and "max_tile" not in first.split("for j")[1]
    assert "max_tile(peak, t)" in second            # j > bid: the then branch runs second


def test_runtime_if_yields_what_the_branches_assign():
    d = drafted("branches.py", "clamp_rows", ["f32[64,128]"] * 3 + ["i32", "f32"],
                {"TILE": 128, "SCALE": True})
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    assert "let mut bias_3: Tile<f32, { [1, TILE] }> = x_tile;" in rust
    assert "let cap: f32 = if cond_4 {" in rust
    assert len(ifs(rust)) == 3                      # `SCALE and ..` tests only the runtime part


@pytest.mark.parametrize("kernel, line, words", [
    ("return_in_loop", 12, "`return` under a runtime `if` that does not end the kernel"),
    ("python_constant", 19, "k is a Python constant in both branches"),
    ("tuple_in_branch", 32, "pair gets a tuple in a branch"),
])
def test_refused_runtime_ifs_name_their_line(kernel, line, words):
    d = drafted("branches_refused.py", kernel, ["f32[256]", "f32[256]", "i32"], {"TILE": 64})
    assert not d.ok
    assert [u.line for u in d.diagnostics] == [line], d.diagnostics
    assert words in d.diagnostics[0].message
