"""The specialization the workbench derives for a described call must be the one whose
mangled name cuda-tile produces (facts seen on the H200, FACTS.md)."""
import pytest

from workbench.argspec import parse_arg
from workbench.sources.kernel import load_kernel
from workbench.ir.signature import kernel_signature

from conftest import FIXTURES


def _symbol(args, flag=1):
    kernel = load_kernel(FIXTURES / "branchy.py", "branchy")
    specs = [parse_arg(a) for a in args]
    return kernel_signature(kernel.name, kernel.params, kernel.const_params, specs,
                            {"FLAG": flag}).symbol


@pytest.mark.parametrize("array, fragment", [
    ("f32[4096]", "_A1f32_1i16t1_p16_"),          # aligned, length divisible by 16
    ("f32[4100]", "_A1f32_1t1_p16_"),             # odd length: no i16
    ("f32[4096]:offset=1", "_A1f32_1i16t1_A"),    # one element off an aligned base: no p16
    ("f32[4096]:offset=4", "_A1f32_1i16t1_p16_"), # 16 bytes off: still aligned
    ("f16[4099]", "_A1f16_1t1_p16_"),
])
def test_one_dimensional_specializations(array, fragment):
    assert _symbol([array, "f32[4096]", "i32"]).startswith("branchy_Kt1" + fragment)


def test_transposed_view_moves_the_unit_stride():
    kernel = load_kernel(FIXTURES / "branchy.py", "branchy")
    rows = kernel_signature(kernel.name, kernel.params, kernel.const_params,
                            [parse_arg("f32[64,32]"), parse_arg("f32[64,32]"), parse_arg("i32")],
                            {"FLAG": 0})
    cols = kernel_signature(kernel.name, kernel.params, kernel.const_params,
                            [parse_arg("f32[64,32]:strides=(1,64)"), parse_arg("f32[64,32]"),
                             parse_arg("i32")], {"FLAG": 0})
    assert "2t1" in rows.symbol.split("_A2f32_")[1].split("_A")[0]
    assert "1t1" in cols.symbol.split("_A2f32_")[1].split("_A")[0]


def test_constants_are_part_of_the_signature():
    assert _symbol(["f32[4096]", "f32[4096]", "i32"], flag=1).endswith("_I1")
    assert _symbol(["f32[4096]", "f32[4096]", "i32"], flag=0).endswith("_I0")
