"""fold_splat's integer rules: `exti` of an integer constant is the wider constant it equals (a
port's i64 splat of an i32 generic, which cutile 0.4 cannot write as a constant), and
`maxi`/`mini` of two integer constants the constant they pick (cuTile Python starts a loop it
splits at `max(0, 0)`; a port's `max(0i32, 0i32)` is folded by cutile); each only where the
value provably stays the same."""
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse
from workbench.ir.printer import print_module


def _printed_ops(body: str) -> list[str]:
    text = "entry @k(%a: tile<i32>) {\n" + body + "  return\n}\n"
    lines = print_module(normalize(parse(text))).splitlines()
    return [line.split("= ", 1)[-1].strip() for line in lines[1:-1]]


def test_exti_of_an_integer_constant_becomes_the_wide_constant():
    ops = _printed_ops("  %0 = constant <i32: 16> : tile<8xi32>\n"
                       "  %1 = exti %0 signed : tile<8xi32> -> tile<8xi64>\n  print_tko %1\n")
    assert ops[0].startswith("constant") and "i64" in ops[0] and "16" in ops[0], ops
    assert not any(op.startswith("exti") for op in ops)


def test_exti_keeps_what_would_change_the_value():
    unsigned_negative = _printed_ops("  %0 = constant <i32: -1> : tile<i32>\n"
                                     "  %1 = exti %0 unsigned : tile<i32> -> tile<i64>\n  print_tko %1\n")
    assert any(op.startswith("exti") for op in unsigned_negative)
    boolean = _printed_ops("  %0 = constant <i1: true> : tile<i1>\n"
                           "  %1 = exti %0 signed : tile<i1> -> tile<i32>\n  print_tko %1\n")
    assert any(op.startswith("exti") for op in boolean)


def test_max_and_min_of_two_constants_become_the_constant():
    ops = _printed_ops("  %0 = constant <i32: 3> : tile<i32>\n"
                       "  %1 = constant <i32: -5> : tile<i32>\n"
                       "  %2 = maxi %0, %1 signed : tile<i32>\n"
                       "  %3 = mini %0, %1 signed : tile<i32>\n  print_tko %2, %3\n")
    assert not any(op.startswith(("maxi", "mini")) for op in ops), ops
    assert any(op.startswith("constant <i32: -5>") for op in ops), ops


def test_max_with_a_runtime_value_or_unsigned_negative_stays():
    runtime = _printed_ops("  %0 = constant <i32: 0> : tile<i32>\n"
                           "  %1 = maxi %a, %0 signed : tile<i32>\n  print_tko %1\n")
    assert any(op.startswith("maxi") for op in runtime), runtime
    unsigned = _printed_ops("  %0 = constant <i32: -1> : tile<i32>\n"
                            "  %1 = constant <i32: 2> : tile<i32>\n"
                            "  %2 = maxi %0, %1 unsigned : tile<i32>\n  print_tko %2\n")
    assert any(op.startswith("maxi") for op in unsigned), unsigned
