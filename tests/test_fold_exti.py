"""fold_splat's exti rule: `exti` of an integer constant is the wider constant it equals (a
port's i64 splat of an i32 generic, which cutile 0.4 cannot write as a constant), and only
where the value provably stays the same."""
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse
from workbench.ir.printer import print_module


def _printed_ops(body: str) -> list[str]:
    text = "entry @k() {\n" + body + "  return\n}\n"
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
