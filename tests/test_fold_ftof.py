"""fold_splat's ftof rule: `ftof` of a float constant is the constant of the new type (a port's
f32 literal converted to f16 / bf16 / tf32 / fp8, which cutile-rs spells no literal of), only
where the conversion is exact, and printed the way tileirdisasm prints that type."""
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse
from workbench.ir.printer import print_module


def _printed_ops(value: str, target: str) -> list[str]:
    text = ("entry @k() {\n"
            f"  %0 = constant <f32: {value}> : tile<8xf32>\n"
            f"  %1 = ftof %0 : tile<8xf32> -> tile<8x{target}>\n  print_tko %1\n  return\n}}\n")
    lines = print_module(normalize(parse(text))).splitlines()
    return [line.split("= ", 1)[-1].strip() for line in lines[1:-1]]


def test_exact_conversion_becomes_the_narrow_constant():
    assert _printed_ops("5.000000e+00", "f16")[0] == "constant <f16: 5.000000e+00> : tile<8xf16>"
    # 0.300048828125 is an f16 value: printed with 6 significant digits, as the reference is
    assert _printed_ops("0.300048828", "f16")[0] == "constant <f16: 3.000490e-01> : tile<8xf16>"
    assert _printed_ops("0.000000e+00", "tf32")[0].startswith("constant <tf32: 0.000000e+00>")
    assert _printed_ops("2.500000e-01", "f8E4M3FN")[0].startswith("constant <f8E4M3FN: 2.5")


def test_inexact_conversion_keeps_the_ftof():
    for target in ("f16", "bf16", "f8E4M3FN"):
        ops = _printed_ops("1.000000e-01", target)       # 0.1 is no value of these types
        assert any(op.startswith("ftof") for op in ops), (target, ops)
