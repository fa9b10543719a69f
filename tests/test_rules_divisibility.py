"""The divisibility facts the drafter states as cuTile Python derives them
(workbench/port/rules/divisibility.py): where the `assume_div_by` goes (a loop body's top, a
scattered value where it is made, a `for` loop's scattered result after it), what it is never
stated on (a value an argument starts, an exact scalar constant), and a drafted fixture built
and diffed: the facts match the reference's, proved by the port's own arithmetic."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.port.analyze import analyze
from workbench.port.rules import draft
from workbench.port.rules.divisibility import Evaluator, Fact, state_divisibility
from workbench.port.rules.values import Stmt

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "drafter" / "divisibility.py"
VALUE_FACT = re.compile(r"assume_div_by::<_, (\d+)>\((?!\w+_ptrs)")   # not a pointer's


def drafted(kernel: str, args: list[str], consts: dict) -> str:
    source = FIXTURE.read_text()
    case = Case(index=0, args=tuple(parse_arg(a) for a in args), consts=consts)
    spec = analyze(source, "tests/fixtures/drafter/divisibility.py", kernel, [case])
    d = draft(spec, source, kernel)
    assert d.ok, d.diagnostics
    return d.files["src/kernel.rs"]


def test_a_padded_running_sum_is_stated_at_the_loop_top_after_the_add_and_after_the_loop():
    rust = drafted("padded_offsets", ["i32[8]", "i32[8]", "i32[1]"], {"STEPS": 8, "BLOCK": 64})
    loop = rust[rust.index("for i in"):]
    top = loop.splitlines()[1].strip()
    assert top == "running = unsafe { assume_div_by::<_, 64>(running) };", loop
    assert re.search(r"let running_next: Tile<i32, \{ \[1\] \}> = "
                     r"unsafe \{ assume_div_by::<_, 64>\(running \+ \w+\) \};", loop)
    after = rust[rust.index("running = running_next;"):]
    tail = after[after.index("\n        }\n"):].splitlines()[2].strip()
    assert tail == "running = unsafe { assume_div_by::<_, 64>(running) };", after
    assert VALUE_FACT.findall(rust) == ["64", "64", "64"]


def test_a_counter_stepping_by_a_constant_is_stated_at_the_loop_top_only():
    rust = drafted("strided_starts", ["i32[8]"], {"STEPS": 8, "STRIDE": 24})
    loop = rust[rust.index("for i in"):]
    assert loop.splitlines()[1].strip() == "k = unsafe { assume_div_by::<_, 8>(k) };", loop
    assert VALUE_FACT.findall(rust) == ["8"]      # k + 24 is carried on, never scattered


def test_an_ifs_result_takes_the_gcd_over_its_branches_and_is_stated_after_the_if():
    rust = drafted("branch_offsets", ["i32[8]"], {"STEPS": 8})
    assert VALUE_FACT.findall(rust) == ["16", "16"]           # gcd(0, 32, 48) = 16
    after_if = rust[rust.index("running = running_next_2;"):].splitlines()
    assert after_if[2].strip() == "running = unsafe { assume_div_by::<_, 16>(running) };"


def test_the_power_of_two_part_of_the_divisor_capped_at_1024():
    rust = drafted("padded_offsets", ["i32[8]", "i32[8]", "i32[1]"], {"STEPS": 8, "BLOCK": 96})
    assert VALUE_FACT.findall(rust) == ["32", "32", "32"]
    rust = drafted("padded_offsets", ["i32[8]", "i32[8]", "i32[1]"], {"STEPS": 8, "BLOCK": 4096})
    assert VALUE_FACT.findall(rust) == ["1024", "1024", "1024"]
    rust = drafted("padded_offsets", ["i32[8]", "i32[8]", "i32[1]"], {"STEPS": 8, "BLOCK": 3})
    assert VALUE_FACT.findall(rust) == []


def test_a_carried_value_an_argument_starts_gets_no_fact():
    rust = drafted("offsets_from_start", ["i32[8]", "i32[8]", "i32"], {"STEPS": 8, "BLOCK": 64})
    assert VALUE_FACT.findall(rust) == [], rust


def test_the_rules_of_cutiles_dataflow_analysis():
    ev = Evaluator({"B": 48})
    env = {"x": Fact(12), "y": Fact(8), "z": Fact(1)}
    tile = "Tile<i32, { [4] }>"
    assert ev.of("x + y", tile, env) == Fact(4)          # add: gcd
    assert ev.of("x * y", tile, env) == Fact(96)         # mul: product
    assert ev.of("x - B", tile, env) == Fact(12)         # a constant: |value|
    assert ev.of("divi(x, y, rounding::Zero)", tile, env) == Fact(1)   # a quotient: nothing
    assert ev.of("x.reshape(shape![4])", tile, env) == Fact(12)
    assert ev.of("x * y", "Tile<f32, { [4] }>", env) == Fact(1)   # floats: nothing
    assert ev.of("trunci(x * y)", "Tile<i8, { [4] }>", env) == Fact(32)   # mod 2^8
    assert ev.of("constant(16i32, shape![4])", tile, env) == Fact(16)
    assert ev.of("constant(16i32, shape![])", "Tile<i32, { [] }>", env).assumed() == 1


def test_an_exact_scalar_constant_is_never_wrapped():
    keep = Stmt("let", name="c", ty="i32", expr="16i32")
    out = Stmt("raw", text="t = unsafe {\n    store_ptr_tko(p, c, ordering::Weak)\n};")
    blocks = [[keep, out]]
    state_divisibility(blocks, {})
    assert keep.expr == "16i32"


BUILT = {
    "padded_offsets": (["i32[8]", "i32[8]", "i32[1]"], ["STEPS=8", "BLOCK=64"], "div_by<64>"),
    "strided_starts": (["i32[8]"], ["STEPS=8", "STRIDE=24"], "div_by<8>"),
    "branch_offsets": (["i32[8]"], ["STEPS=8"], "div_by<16>"),   # an if's two branches
}


@pytest.mark.parametrize("kernel", list(BUILT))
def test_the_drafted_fixture_builds_and_its_facts_are_proved_by_its_arithmetic(kernel, cli,
                                                                              tmp_path):
    args, consts, fact = BUILT[kernel]
    command = ["port", f"tests/fixtures/drafter/divisibility.py:{kernel}", "--out",
               str(tmp_path / "port")]
    command += [x for a in args for x in ("--arg", a)]
    command += [x for c in consts for x in ("--const", c)]
    result = cli(*command, timeout=900)
    assert "build          #1 BUILT" in result.stdout, result.stdout + result.stderr
    assert "final verdict: PASS_WITH_NOTES" in result.stdout, result.stdout + result.stderr
    run = re.search(r"^run (\S+)", result.stdout, re.M).group(1)
    report = json.loads((REPO / run / "05-ir_diff.json").read_text())
    details = [f["detail"] for case in report["cases"] for f in case["findings"]
               if f["kind"] == "div_by" and f["detail"].startswith("value %")
               and fact in f["detail"]]
    assert details and all("proved by the port's own arithmetic" in d for d in details), details
