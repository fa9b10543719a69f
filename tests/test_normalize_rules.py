"""The normalization rules the TileGym ports rely on, each on a small module of its own."""
import re

from workbench.ir.normalize import normalize
from workbench.ir.parse import parse
from workbench.ir.printer import print_module

LOOP = """entry @k(%arg0: tile<i32>, %arg1: tile<ptr<f16>>) {
  %0 = make_token : token
  %1 = constant <i32: 0> : tile<i32>
  %2 = constant <i32: 1> : tile<i32>
  %3 = for %r0 in (%1 to %arg0, step %2) : tile<i32> iter_values(%r1 = %0) -> (token) {
    %4 = constant <f16: 0xFC00> : tile<f16>
    %5 = reshape %4 : tile<f16> -> tile<1xf16>
    %6 = broadcast %5 : tile<1xf16> -> tile<8xf16>
    %7 = reshape %r0 : tile<i32> -> tile<1xi32>
    %8 = reshape %arg1 : tile<ptr<f16>> -> tile<1xptr<f16>>
    %9 = broadcast %8 : tile<1xptr<f16>> -> tile<8xptr<f16>>
    %10, %11 = load_ptr_tko weak %9, %6 token=%r1 : tile<8xptr<f16>>, tile<8xf16> -> tile<8xf16>, token
    continue %11 : token
  }
  return
}
"""


def _body_of_loop(text: str, disabled=()) -> list[str]:
    module = normalize(parse(text), disabled)
    loop = next(op for op in module.walk() if op.name == "for")
    return [op.name for op in loop.regions[0].block.ops]


def test_hoist_invariant_moves_pure_ops_that_use_nothing_the_loop_defines():
    assert _body_of_loop(LOOP) == ["load_ptr_tko", "continue"]
    assert _body_of_loop(LOOP, ["hoist_invariant"])[:3] == ["constant", "reshape", "broadcast"]


def test_fold_splat_writes_a_broadcast_scalar_constant_as_the_splat():
    text = """entry @k() {
  %0 = constant <i32: 1000> : tile<i32>
  %1 = reshape %0 : tile<i32> -> tile<1xi32>
  %2 = broadcast %1 : tile<1xi32> -> tile<1024xi32>
  %3 = iota : tile<1024xi32>
  %4 = addi %2, %3 : tile<1024xi32>
  %5 = constant <i32: 768> : tile<i32>
  %6 = itof %5 signed : tile<i32> -> tile<f32>
  print_tko %4, %6
  return
}
"""
    folded = print_module(normalize(parse(text)))
    assert "constant <i32: 1000> : tile<1024xi32>" in folded
    assert "constant <f32: 7.680000e+02> : tile<f32>" in folded
    assert "broadcast" not in folded and "itof" not in folded
    kept = print_module(normalize(parse(text), ["fold_splat"]))
    assert "broadcast" in kept and "itof" in kept


def test_per_op_hints_are_resolved_for_the_target():
    text = """entry @k(%arg0: tile<8xptr<f32>>) {
  %0 = make_token : token
  %1, %2 = load_ptr_tko weak %arg0 token=%0 optimization_hints = <default = {latency = 1}> : tile<8xptr<f32>> -> tile<8xf32>, token
  return
}
"""
    assert "sm_90 = {latency = 1}" in print_module(normalize(parse(text)))


def test_commutative_operands_put_a_constant_last_wherever_it_is_defined():
    """cutile defines a const generic's constant at the entry's top, cuTile Python where the
    source reads it: `M + TILE_M` is addi(M, 4) on both sides once normalized."""
    late = """entry @k(%arg0: tile<i32>) {
  %0 = assume bounded<0, ?>, %arg0 : tile<i32>
  %1 = constant <i32: 4> : tile<i32>
  %2 = addi %0, %1 : tile<i32>
  print_tko %2
  return
}
"""
    early = """entry @k(%arg0: tile<i32>) {
  %1 = constant <i32: 4> : tile<i32>
  %0 = assume bounded<0, ?>, %arg0 : tile<i32>
  %2 = addi %1, %0 : tile<i32>
  print_tko %2
  return
}
"""
    for text in (late, early):
        module = normalize(parse(text))
        defs = {r.name: op.name for op in module.walk() for r in op.results}
        addi = next(op for op in module.walk() if op.name == "addi")
        assert [defs[t.text] for t in addi.operands()] == ["assume", "constant"]


def test_three_sibling_loops_reusing_names_keep_their_own_induction_variables():
    """cuTile Python names every loop's variable %loopIdx; a third loop's body must still
    read its own (it once read the second's, and hoist_invariant then moved its body out)."""
    loop = """  %{n} = for %loopIdx in (%c0 to %arg0, step %c1) : tile<i32> iter_values(%iterArg0 = %t) -> (token) {{
    %v{n} = reshape %loopIdx : tile<i32> -> tile<1xi32>
    print_tko %v{n}
    continue %iterArg0 : token
  }}
"""
    text = ("entry @k(%arg0: tile<i32>) {\n  %t = make_token : token\n"
            "  %c0 = constant <i32: 0> : tile<i32>\n  %c1 = constant <i32: 1> : tile<i32>\n"
            + "".join(loop.format(n=n) for n in range(3)) + "  return\n}\n")
    module = normalize(parse(text))
    loops = [op for op in module.walk() if op.name == "for"]
    assert len(loops) == 3
    for op in loops:
        body = [o.name for o in op.regions[0].block.ops]
        assert body[0] == "reshape", body
        iv = op.definitions()[0].text
        assert iv in [t.text for t in op.regions[0].block.ops[0].operands()]


def test_commutative_operands_order_an_assumed_value_where_its_root_is():
    """One side states a fact (div_by) of a scalar argument that the other does not; with
    the same constant defined early on one side only, `muli` still reads the same."""
    plain = """entry @k(%arg0: tile<i32>) {
  %0 = constant <i32: 8> : tile<i32>
  %1 = muli %arg0, %0 : tile<i32>
  return
}
"""
    hinted = """entry @k(%arg0: tile<i32>) {
  %0 = constant <i32: 8> : tile<i32>
  %1 = assume div_by<4>, %arg0 : tile<i32>
  %2 = muli %0, %1 : tile<i32>
  return
}
"""
    assert "%1 = muli %arg0, %0" in print_module(normalize(parse(plain)))
    # the assumed value sorts as %arg0 does: before the constant
    assert "%2 = muli %1, %0" in print_module(normalize(parse(hinted)))


def test_hoist_branch_constants_moves_a_branch_constant_before_its_if_and_nothing_else():
    """cutile defines a const generic's loop bound at the entry's top; cuTile Python in the
    branch that uses it. A constant is the same value anywhere; the branch's other ops stay."""
    text = """entry @k(%arg0: tile<i1>, %arg1: tile<i32>) {
  if %arg0 {
    %1 = constant <i32: 4> : tile<i32>
    %2 = addi %arg1, %1 : tile<i32>
    print_tko %2
    yield
  }
  return
}
"""
    module = normalize(parse(text))
    top = [op.name for op in module.entries[0].block.ops]
    assert top == ["constant", "if", "return"], top
    branch = next(op for op in module.walk() if op.name == "if")
    assert [op.name for op in branch.regions[0].block.ops] == ["addi", "print_tko", "yield"]
    kept = normalize(parse(text), ["hoist_branch_constants"])
    branch = next(op for op in kept.walk() if op.name == "if")
    assert branch.regions[0].block.ops[0].name == "constant"


PASSTHROUGH = """entry @k(%arg0: tile<i32>, %arg1: tile<i1>, %arg2: tile<8xf32>) {
  %1 = constant <i32: 0> : tile<i32>
  %2 = constant <i32: 1> : tile<i32>
  %3:2 = for %r0 in (%1 to %arg0, step %2) : tile<i32> iter_values(%r1 = %arg2, %r2 = %arg2) -> (tile<8xf32>, tile<8xf32>) {
    %4:3 = if %arg1 -> (tile<8xf32>, tile<8xf32>, tile<8xf32>) {
      %5 = addf %r2, %r2 : tile<8xf32>
      yield %r1, %5, %r2 : tile<8xf32>, tile<8xf32>, tile<8xf32>
    } else {
      yield %r1, %r2, %r2 : tile<8xf32>, tile<8xf32>, tile<8xf32>
    }
    %6 = addf %4#0, %4#1 : tile<8xf32>
    %7 = mulf %6, %4#2 : tile<8xf32>
    continue %7, %4#1 : tile<8xf32>, tile<8xf32>
  }
  return
}
"""


def test_passthrough_if_results_are_the_values_they_pass():
    text = print_module(normalize(parse(PASSTHROUGH), ["canonical_names", "commutative_operands"]))
    assert "%4 = if %arg1 -> (tile<8xf32>) {" in text           # only the changed one stays
    assert "yield %5 : tile<8xf32>" in text and "yield %r2 : tile<8xf32>" in text
    assert "%6 = addf %r1, %4 " in text and "%7 = mulf %6, %r2 " in text
    assert "continue %7, %4 " in text
    kept = print_module(normalize(parse(PASSTHROUGH), ["canonical_names",
                                                       "passthrough_if_results"]))
    assert "%4:3 = if" in kept


def test_an_if_result_a_branch_changes_is_kept():
    text = PASSTHROUGH.replace("yield %r1, %r2, %r2 : tile<8xf32>, tile<8xf32>, tile<8xf32>",
                               "yield %5, %r2, %r1 : tile<8xf32>, tile<8xf32>, tile<8xf32>")
    text = text.replace("    } else {\n", "    } else {\n      %5 = mulf %r1, %r1 : tile<8xf32>\n")
    assert "%4:3 = if" in print_module(normalize(parse(text), ["canonical_names"]))


BREAKING = """entry @k(%arg0: tile<i32>, %arg1: tile<i1>, %arg2: tile<i1>, %arg3: tile<8xf32>) {
  %1 = constant <i32: 1> : tile<i32>
  %2:2 = loop iter_values(%r0 = %arg0, %r1 = %arg3) : tile<i32>, tile<8xf32> -> tile<i32>, tile<8xf32> {
    %3:2 = if %arg1 -> (tile<i32>, tile<8xf32>) {
      break %r0, %r1 : tile<i32>, tile<8xf32>
    } else {
      yield %r0, %r1 : tile<i32>, tile<8xf32>
    }
    %4:2 = if %arg2 -> (tile<i32>, tile<8xf32>) {
      continue %3#0, %3#1 : tile<i32>, tile<8xf32>
    } else {
      yield %3#0, %3#1 : tile<i32>, tile<8xf32>
    }
    %5 = addi %4#0, %1 : tile<i32>
    continue %5, %4#1 : tile<i32>, tile<8xf32>
  }
  return
}
"""


def test_a_branch_that_breaks_or_continues_yields_no_if_result():
    """cutile's `if` around a `break` yields every carried value from its other branch; cuTile
    Python's yields nothing: the same program once the pass-through results go (and an `if`
    passing another's results resolves to the values before both)."""
    text = print_module(normalize(parse(BREAKING), ["canonical_names"]))
    assert " = if " not in text and "yield" not in text, text
    assert "continue %r0, %r1 " in text and "addi %r0, " in text, text
    changed = BREAKING.replace("      yield %r0, %r1 : tile<i32>, tile<8xf32>",
                               "      %9 = negi %r0 : tile<i32>\n"
                               "      yield %9, %r1 : tile<i32>, tile<8xf32>")
    kept = print_module(normalize(parse(changed), ["canonical_names"]))
    assert re.search(r"%\w+ = if %arg1 -> \(tile<i32>\)", kept), kept


EARLY_RETURN = """entry @k(%arg0: tile<i1>, %arg1: tile<i1>, %arg2: tile<8xf32>) {
  %0 = make_token : token
  %1 = if %arg0 -> (token) {
    %2 = print_tko %arg2 token = %0 : tile<8xf32> -> token
    return
  } else {
    yield %0 : token
  }
  if %arg1 {
    return
  } else {
  }
  %3 = addf %arg2, %arg2 : tile<8xf32>
  %4 = print_tko %3 token = %1 : tile<8xf32> -> token
  return
}
"""

SUNK = """entry @k(%arg0: tile<i1>, %arg1: tile<i1>, %arg2: tile<8xf32>) {
  %0 = make_token : token
  if %arg0 {
    %2 = print_tko %arg2 token = %0 : tile<8xf32> -> token
  } else {
    if %arg1 {
    } else {
      %3 = addf %arg2, %arg2 : tile<8xf32>
      %4 = print_tko %3 token = %0 : tile<8xf32> -> token
    }
  }
  return
}
"""


def test_sink_after_return_reads_an_early_return_as_an_if_else():
    def text(source, disabled=()):
        return print_module(normalize(parse(source), ["canonical_names", *disabled]))
    assert text(EARLY_RETURN) == text(SUNK)
    assert text(EARLY_RETURN, ["sink_after_return"]) != text(SUNK, ["sink_after_return"])


def test_ops_after_an_if_that_does_not_return_stay_after_it():
    source = EARLY_RETURN.replace("    return\n  } else {\n    yield %0", "  } else {\n    yield %0")
    source = source.replace("-> (token) {\n    %2 = print_tko %arg2 token = %0 : tile<8xf32> -> token\n  }",
                            "-> (token) {\n    %2 = print_tko %arg2 token = %0 : tile<8xf32> -> token\n    yield %2 : token\n  }")
    normalized = normalize(parse(source), ["canonical_names"])
    assert [op.name for op in normalized.entries[0].block.ops][-2:] == ["if", "return"]
    first_if = next(op for op in normalized.entries[0].block.ops if op.name == "if")
    assert first_if.results                  # both branches reach what follows: kept


CSE = """entry @k(%arg0: tile<8xi32>, %arg1: tile<8xi32>, %arg2: tile<i1>) {
  %0 = exti %arg0 signed : tile<8xi32> -> tile<8xi64>
  %1 = exti %arg0 signed : tile<8xi32> -> tile<8xi64>
  %2 = exti %arg1 signed : tile<8xi32> -> tile<8xi64>
  %3 = addi %0, %2 : tile<8xi64>
  %4 = addi %1, %2 : tile<8xi64>
  %5 = if %arg2 -> (tile<8xi64>) {
    %6 = exti %arg0 signed : tile<8xi32> -> tile<8xi64>
    %7 = muli %6, %3 : tile<8xi64>
    yield %7 : tile<8xi64>
  } else {
    %8 = muli %4, %4 : tile<8xi64>
    yield %8 : tile<8xi64>
  }
  print_tko %5, %4
  return
}
"""


def test_repeated_pure_ops_of_the_same_operands_are_one_value():
    """Three `exti %arg0` (one inside a branch) are one value, and so the two `addi` of it:
    what is left is one exti per operand, one addi, the branch's muli."""
    ops = [op for op in normalize(parse(CSE)).walk() if op.name != "entry"]
    names = [op.name for op in ops]
    assert names.count("exti") == 2 and names.count("addi") == 1 and names.count("muli") == 2
    kept = normalize(parse(CSE), disabled=["cse_invariant"])
    assert [op.name for op in kept.walk()].count("exti") == 4


INLINE_STARTS = """entry @k(%arg0: tile<i32>) {
  %0, %1, %2 = get_tile_block_id : tile<i32>
  %3 = assume bounded<0, ?>, %0 : tile<i32>
  %4 = constant <i32: 192> : tile<i32>
  %5 = muli %3, %4 : tile<i32>
  %6 = reshape %5 : tile<i32> -> tile<1xi32>
  %7 = broadcast %6 : tile<1xi32> -> tile<8xi32>
  %8 = iota : tile<8xi32>
  %9 = addi %8, %7 : tile<8xi32>
  %10 = assume bounded<0, ?>, %0 : tile<i32>
  %11 = muli %10, %4 : tile<i32>
  %12 = reshape %11 : tile<i32> -> tile<1xi32>
  %13 = broadcast %12 : tile<1xi32> -> tile<8xi32>
  %14 = iota : tile<8xi32>
  %15 = addi %13, %14 : tile<8xi32>
  print_tko %9, %15
  return
}
"""


def test_a_block_start_written_inline_twice_is_one_value_whatever_the_operand_order():
    """`pid * C + iota` written twice: a port reads the block id (and assumes its bound) at
    each, cuTile Python adds `bcast + iota` where the port adds `iota + bcast`. The same
    values, so one chain; with the rule off, two."""
    names = [op.name for op in normalize(parse(INLINE_STARTS)).walk()]
    assert [names.count(n) for n in ("muli", "iota", "broadcast", "addi")] == [1, 1, 1, 1]
    kept = [op.name for op in normalize(parse(INLINE_STARTS), ["cse_invariant"]).walk()]
    assert kept.count("muli") == 2 and kept.count("addi") == 2


INDIRECT_LOOP = """entry @k(%arg0: tile<i32>, %arg1: tile<ptr<f32>>, %arg2: tile<i32>) {
  %0 = make_token : token
  %1 = constant <i32: 0> : tile<i32>
  %2 = constant <i32: 1> : tile<i32>
  %3 = make_tensor_view %arg1, shape = [%arg2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %4 = make_partition_view %3 : partition_view<tile=(8), tensor_view<?xf32, strides=[1]>>
  %5 = constant <f32: 0.0> : tile<8xf32>
  %6 = for %r0 in (%1 to %arg0, step %2) : tile<i32> iter_values(%r1 = %5) -> (tile<8xf32>) {
    %7, %8 = load_view_tko {ordering} %4[%1] token = %0 : partition_view<tile=(8), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<8xf32>, token
    %9 = addf %r1, %7 : tile<8xf32>{store}
    continue %9 : tile<8xf32>
  }
  return
}
"""
STORE_IN_LOOP = """
    %10 = store_view_tko weak %9, %4[%2] token = %0 : tile<8xf32>, partition_view<tile=(8), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token"""


def test_a_weak_load_of_nothing_the_loop_defines_is_read_once_when_the_loop_writes_nothing():
    """cuTile Python reads such a load once, before the loop; a port where its source line
    is. Not moved: a load in a loop that stores, an acquiring load, or with the rule off."""
    plain = INDIRECT_LOOP.replace("{ordering}", "weak").replace("{store}", "")
    assert _body_of_loop(plain) == ["addf", "continue"]
    assert _body_of_loop(plain, ["hoist_invariant"])[0] == "load_view_tko"
    storing = INDIRECT_LOOP.replace("{ordering}", "weak").replace("{store}", STORE_IN_LOOP)
    assert _body_of_loop(storing)[0] == "load_view_tko"
    acquiring = INDIRECT_LOOP.replace("{ordering}", "acquire").replace("{store}", "")
    assert _body_of_loop(acquiring)[0] == "load_view_tko"


FREE_LOAD = """entry @k(%arg0: tile<ptr<i64>>, %arg1: tile<i32>) {
  %0 = constant <i32: 0> : tile<i32>
  %1 = make_tensor_view %arg0, shape = [%arg1, 5], strides = [5, 1] : tile<i32> -> tensor_view<?x5xi64, strides=[5,1]>
  %2 = make_partition_view %1 : partition_view<tile=(1x8), tensor_view<?x5xi64, strides=[5,1]>>
  %3, %4 = load_view_tko weak %2[%0, %0]{token} : partition_view<tile=(1x8), tensor_view<?x5xi64, strides=[5,1]>>, tile<i32> -> tile<1x8xi64>, token
  %5 = addi %3, %3 : tile<1x8xi64>
  return
}
"""


def test_a_free_view_load_compares_equal_to_one_on_a_fresh_token():
    free = FREE_LOAD.replace("{token}", "")
    fresh = FREE_LOAD.replace("{token}", " token = %9").replace(
        "  %0 = constant", "  %9 = make_token : token\n  %0 = constant")
    first_load = ("  %6, %7 = load_view_tko weak %2[%0, %0] token = %9 : partition_view<tile="
                  "(1x8), tensor_view<?x5xi64, strides=[5,1]>>, tile<i32> -> tile<1x8xi64>, token\n")
    ordered = fresh.replace("  %3, %4", first_load + "  %3, %4").replace(
        "[%0, %0] token = %9 : partition_view<tile=(1x8), tensor_view<?x5xi64, strides=[5,1]>>, "
        "tile<i32> -> tile<1x8xi64>, token\n  %5", "[%0, %0] token = %7 : partition_view<tile="
        "(1x8), tensor_view<?x5xi64, strides=[5,1]>>, tile<i32> -> tile<1x8xi64>, token\n  %5")
    assert "token = %7" in ordered
    text = lambda t, d=(): print_module(normalize(parse(t), d))    # noqa: E731
    assert text(free) == text(fresh)
    assert text(free, ["fresh_token_loads"]) != text(fresh, ["fresh_token_loads"])
    assert "token = " in text(free)
    # a load ordered after another load is not free: dropping its token changes the program
    assert text(ordered) != text(ordered.replace(" token = %7", ""))


def test_kept_if_results_after_a_passed_through_one_keep_their_own_values():
    """The `if`'s first result passes %r1 through and the other two are its own: the kept
    ones are renumbered (#1 -> #0, #2 -> #1) and each use names its own value, not the one
    the first passes (following #1 -> #0 -> %r1 was the bug)."""
    text = """entry @k(%arg0: tile<i32>, %arg1: tile<i1>, %arg2: tile<8xf32>) {
  %1 = constant <i32: 0> : tile<i32>
  %2 = constant <i32: 1> : tile<i32>
  %3:2 = for %r0 in (%1 to %arg0, step %2) : tile<i32> iter_values(%r1 = %arg2, %r2 = %arg2) -> (tile<8xf32>, tile<8xf32>) {
    %4:3 = if %arg1 -> (tile<8xf32>, tile<8xf32>, tile<8xf32>) {
      %5 = addf %r2, %r2 : tile<8xf32>
      %6 = mulf %r2, %r2 : tile<8xf32>
      yield %r1, %5, %6 : tile<8xf32>, tile<8xf32>, tile<8xf32>
    } else {
      yield %r1, %r2, %r1 : tile<8xf32>, tile<8xf32>, tile<8xf32>
    }
    continue %4#1, %4#2 : tile<8xf32>, tile<8xf32>
  }
  return
}
"""
    kept = normalize(parse(text), ["canonical_names", "commutative_operands"])
    branch = next(op for op in kept.walk() if op.name == "if")
    name = branch.results[0].name
    assert branch.results[0].count == 2, print_module(kept)
    assert f"continue {name}#0, {name}#1 " in print_module(kept), print_module(kept)


def test_a_loop_over_constant_bounds_that_runs_no_trip_is_its_initial_values():
    """cuTile Python writes `for 0 to 0` where a constant makes the range empty; a Rust port
    leaves the loop out. Gone too are the invariants only the loop read."""
    text = """entry @k(%arg0: tile<8xf32>) {
  %1 = constant <i32: 0> : tile<i32>
  %2 = constant <i32: 1> : tile<i32>
  %3 = constant <f32: 2.000000e+00> : tile<f32>
  %4 = broadcast %3 : tile<f32> -> tile<8xf32>
  %5 = for %r0 in (%1 to %1, step %2) : tile<i32> iter_values(%r1 = %arg0) -> (tile<8xf32>) {
    %6 = mulf %r1, %4 : tile<8xf32>
    continue %6 : tile<8xf32>
  }
  %7 = addf %5, %arg0 : tile<8xf32>
  %8 = make_token : token
  %9 = print_tko %7 token = %8 : tile<8xf32> -> token
  return
}
"""
    out = print_module(normalize(parse(text), ["canonical_names", "commutative_operands"]))
    assert " for " not in out and "broadcast" not in out, out
    assert "addf %arg0, %arg0" in out, out
    once = text.replace("(%1 to %1,", "(%1 to %2,")
    assert " for " in print_module(normalize(parse(once), ["canonical_names"]))


SAME_TYPE_CAST = """entry @k(%arg0: tile<128x1xi64>) {
  %0 = bitcast %arg0 : tile<128x1xi64> -> tile<128x1xi64>
  %1 = addi %0, %0 : tile<128x1xi64>
  %2 = bitcast %1 : tile<128x1xi64> -> tile<128x1xf64>
  %3 = addf %2, %2 : tile<128x1xf64>
  return
}
"""


def test_a_bitcast_to_its_own_type_is_its_operand():
    """A port's i64 -> u64 (one signless Tile IR type) is no op; a bitcast that changes the
    type stays."""
    ops = [op for op in normalize(parse(SAME_TYPE_CAST)).walk() if op.name != "entry"]
    text = print_module(normalize(parse(SAME_TYPE_CAST)))
    assert [op.name for op in ops].count("bitcast") == 1 and "addi %arg0, %arg0" in text, text
    kept = normalize(parse(SAME_TYPE_CAST), disabled=["identity_casts"])
    assert [op.name for op in kept.walk()].count("bitcast") == 2


SELF_JOIN = """entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<f32>) {
  %0 = make_token : token
  %1, %2 = atomic_rmw_tko acq_rel device %arg0, addf, %arg1 token=%0 : tile<ptr<f32>>, tile<f32> -> tile<f32>, token
  %3 = join_tokens %2, %2 : token
  %4 = join_tokens %3, %2 : token
  %5, %6 = load_ptr_tko weak %arg0 token=%4 : tile<ptr<f32>> -> tile<f32>, token
  %7 = join_tokens %0, %2 : token
  %8 = store_ptr_tko weak %arg0, %5 token=%7 : tile<ptr<f32>>, tile<f32> -> token
  return
}
"""


def test_a_join_of_one_token_with_itself_is_that_token():
    """A port joins an array's token with an acquire that is the same value (a chain of
    them too); cuTile Python writes the token itself. A join of two tokens stays."""
    ops = list(normalize(parse(SELF_JOIN)).walk())
    assert [op.name for op in ops].count("join_tokens") == 1
    load = next(op for op in ops if op.name == "load_ptr_tko")
    atomic = next(op for op in ops if op.name == "atomic_rmw_tko")
    assert [t.text for t in load.operands()][-1] == atomic.results[1].name
    kept = [op.name for op in normalize(parse(SELF_JOIN), ["self_joins"]).walk()]
    assert kept.count("join_tokens") == 3
