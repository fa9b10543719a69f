"""fold_splat's min/max rule: `maxi`/`mini` of two integer constants is the constant they pick
(cuTile Python starts a loop it splits at `max(0, 0)`; a port's `max(0i32, 0i32)` is folded
by cutile), and nothing else is folded."""
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse
from workbench.ir.printer import print_module


def _printed_ops(body: str) -> list[str]:
    text = "entry @k(%a: tile<i32>) {\n" + body + "  return\n}\n"
    lines = print_module(normalize(parse(text))).splitlines()
    return [line.split("= ", 1)[-1].strip() for line in lines[1:-1]]


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
