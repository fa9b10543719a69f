"""A divisibility the port states where its own Tile IR computes it anyway (a running sum of
multiples of the block size, as cuTile Python derives and states it) is proved, not an
unchecked promise; one the arithmetic does not give stays a critical finding."""
from workbench.diff import diff_modules
from workbench.diff.align import assume_facts
from workbench.diff.divisibility import proved_divisors
from workbench.diff.facts import FactContext, MachineEvidence
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse

LOOP = """entry @k(%arg0: tile<i32>, %arg1: tile<ptr<i32>>) {{
  %start = {start}
  %c16 = constant <i32: 16> : tile<1xi32>
  %c48 = constant <i32: 48> : tile<1xi32>
  %c1 = constant <i32: 1> : tile<i32>
  %c9 = constant <i32: 9> : tile<i32>
  %n = reshape %arg0 : tile<i32> -> tile<1xi32>
  %for:2 = for %i in (%c1 to %c9, step %c1) : tile<i32> iter_values(%sum = %start, %other = %n) -> (tile<1xi32>, tile<1xi32>) {{
    {assume}
    %q = divi %n, %c16 signed rounding<negative_inf> : tile<1xi32>
    %step = muli %q, {multiplier} : tile<1xi32>
    %next = addi %s, %step : tile<1xi32>
    %more = addi %other, %c16 : tile<1xi32>
    continue %next, %more : tile<1xi32>, tile<1xi32>
  }}
  %p = reshape %arg1 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %out = store_ptr_tko weak %p, %for#0 : tile<1xptr<i32>>, tile<1xi32> -> token
  return
}}
"""
ZERO = "constant <i32: 0> : tile<1xi32>"
NO_ASSUME = "%s = reshape %sum : tile<1xi32> -> tile<1xi32>"
ASSUMED = "%s = assume div_by<16>, %sum : tile<1xi32>"


def _loop(start=ZERO, multiplier="%c16", assume=NO_ASSUME) -> str:
    return LOOP.format(start=start, multiplier=multiplier, assume=assume)


def test_a_running_sum_of_multiples_from_zero_is_a_multiple_through_the_loop():
    proved = proved_divisors(parse(_loop()).entries)
    assert proved["%sum"] == proved["%next"] == proved["%for#0"] == 16
    assert proved["%step"] == 16 and proved["%c48"] == 16        # 48 = 3 x 16: the 16 part
    assert "%other" not in proved and "%for#1" not in proved      # starts from an argument
    assert "%q" not in proved                                     # a quotient: nothing known


def test_what_breaks_the_induction_breaks_the_proof():
    from_argument = proved_divisors(parse(_loop(start="reshape %arg0 : tile<i32> -> tile<1xi32>")).entries)
    assert "%sum" not in from_argument and "%for#0" not in from_argument
    odd_steps = proved_divisors(parse(_loop(multiplier="%n")).entries)
    assert "%sum" not in odd_steps and "%next" not in odd_steps
    eight = proved_divisors(parse(_loop(multiplier="%c16", start="constant <i32: 8> : tile<1xi32>")).entries)
    assert eight["%sum"] == 8 and eight["%for#0"] == 8


def test_an_assume_is_what_is_proved_never_part_of_the_proof():
    stated = proved_divisors(parse(_loop(multiplier="%n", assume=ASSUMED)).entries)
    assert "%s" not in stated and "%sum" not in stated


def _diff(port_text: str):
    """The reference states the running sum's div_by<16>; so does the port, fixed by its code."""
    reference, port = normalize(parse(_loop(assume=ASSUMED))), normalize(parse(port_text))
    fixed = {root: preds for e in port.entries for root, preds in assume_facts(e).values()}
    context = FactContext(port_fixed=fixed,
                          evidence=lambda: MachineEvidence(True, False, "a vs b", ["x"]))
    return diff_modules(reference, port, context=context)


def test_a_port_stating_what_its_arithmetic_gives_passes_with_a_note():
    report = _diff(_loop(assume=ASSUMED))
    assert report.verdict == "PASS_WITH_NOTES", report.to_text()
    assert "proved by the port's own arithmetic" in report.to_text()


def test_a_port_stating_what_its_arithmetic_does_not_give_is_an_unchecked_promise():
    text = _loop(assume=ASSUMED, start="reshape %arg0 : tile<i32> -> tile<1xi32>")
    report = _diff(text)
    critical = [f for f in report.findings if f.category == "critical"]
    assert report.verdict == "FAIL" and critical, report.to_text()
    assert "unchecked promise" in critical[0].detail


def test_long_chains_and_shared_operands_stay_cheap():
    """Each value is derived once per induction round: 40 levels of `x = x + x` inside a loop
    (2^40 paths) and a chain of 3000 additions after it are proved in well under a second."""
    body = "\n".join(f"    %d{i + 1} = addi %d{i}, %d{i} : tile<i32>" for i in range(40))
    chain = "\n".join(f"  %e{i + 1} = addi %e{i}, %c16 : tile<i32>" for i in range(3000))
    text = f"""entry @k(%arg0: tile<i32>) {{
  %c16 = constant <i32: 16> : tile<i32>
  %c1 = constant <i32: 1> : tile<i32>
  %for:2 = for %i in (%c1 to %c16, step %c1) : tile<i32> iter_values(%d0 = %c16, %z = %c1) -> (tile<i32>, tile<i32>) {{
{body}
    continue %d40, %z : tile<i32>, tile<i32>
  }}
  %e0 = addi %for#0, %c16 : tile<i32>
{chain}
  return
}}
"""
    import time
    start = time.perf_counter()
    proved = proved_divisors(parse(text).entries)
    assert time.perf_counter() - start < 1.0
    assert proved["%d0"] == 16 and proved["%for#0"] == 16 and proved["%e3000"] == 16


def test_one_pointer_reshaped_or_offset_by_zero_is_its_base_and_a_tile_of_them_is_not():
    from workbench.diff.subjects import zero_offset_aliases
    text = """entry @k(%arg0: tile<ptr<i32>>, %arg1: tile<4xptr<i32>>) {
  %z = constant <i64: 0> : tile<1xi64>
  %p = reshape %arg0 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %q = offset %p, %z : tile<1xptr<i32>>, tile<1xi64> -> tile<1xptr<i32>>
  %r = reshape %arg1 : tile<4xptr<i32>> -> tile<2x2xptr<i32>>
  return
}
"""
    aliases = zero_offset_aliases(parse(text).entries, {})
    assert aliases["%p"] == aliases["%q"] == "%arg0"
    assert "%r" not in aliases


def test_an_ifs_result_and_a_selects_are_the_gcd_of_their_two_branches():
    text = """entry @k(%arg0: tile<i1>, %arg1: tile<i32>) {
  %c32 = constant <i32: 32> : tile<i32>
  %c48 = constant <i32: 48> : tile<i32>
  %if = if %arg0 -> (tile<i32>) {
    yield %c32 : tile<i32>
  } else {
    yield %c48 : tile<i32>
  }
  %s = select %arg0, %c32, %c48 : tile<i1>, tile<i32>
  %t = select %arg0, %c32, %arg1 : tile<i1>, tile<i32>
  return
}
"""
    proved = proved_divisors(parse(text).entries)
    assert proved["%if"] == proved["%s"] == 16
    assert "%t" not in proved                                     # one branch is an argument
