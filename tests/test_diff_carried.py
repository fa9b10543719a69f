"""A loop's carried values in another order are the same loop (cuTile Python orders them by
first assignment in the body, cutile by declaration: the looped softmax's m and d); a
carried value that really differs still fails."""
from pathlib import Path

import pytest

from workbench.argspec import parse_arg
from workbench.diff import diff_modules
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse
from workbench.ir.stages import file_python_ir

FIXTURE = Path(__file__).parent / "fixtures" / "two_carried.py"


@pytest.fixture(scope="module")
def text():
    args = [parse_arg(a) for a in ("f32[4,256]", "f32[4,256]", "i32=4")]
    return file_python_ir(str(FIXTURE), "two_carried", args, {}).text


def diff_texts(left, right):
    return diff_modules(normalize(parse(left)), normalize(parse(right)))


def _swap(text, a, b):
    return text.replace(a, "\0").replace(b, a).replace("\0", b)


def carried_swapped(text):
    """The layout cutile writes: (m, d) instead of (d, m), everywhere the loop names them."""
    head = "iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %cst_f32)"
    assert head in text and "continue %6, %1 :" in text
    text = text.replace(head, "iter_values(%iterArg0 = %cst_f32, %iterArg1 = %cst_0_f32)")
    text = text.replace("continue %6, %1 :", "continue %1, %6 :")
    text = _swap(text, "%iterArg0,", "%iterArg1,")     # fma, maxf and subf read them
    return _swap(text, "%for#0", "%for#1")


def test_the_reference_carries_d_then_m(text):
    assert "iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %cst_f32)" in text
    assert "fma %iterArg0," in text and "maxf %iterArg1," in text


def test_carried_values_in_another_order_pass(text):
    swapped = carried_swapped(text)
    assert swapped != text and "fma %iterArg1," in swapped and "maxf %iterArg0," in swapped
    report = diff_texts(text, swapped)
    assert report.verdict == "PASS", report.to_text()
    assert diff_texts(swapped, text).verdict == "PASS"


def test_only_the_continue_swapped_fails(text):
    """The body reads d and m in their places but the loop hands them back crosswise."""
    report = diff_texts(text, text.replace("continue %6, %1 :", "continue %1, %6 :"))
    assert report.verdict == "FAIL"
    assert any(f.category == "critical" for f in report.findings), report.to_text()


def test_only_the_inits_swapped_fails(text):
    """m starts at 0 and d at -inf: a different loop, in any order."""
    head = "iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %cst_f32)"
    report = diff_texts(text, text.replace(
        head, "iter_values(%iterArg0 = %cst_f32, %iterArg1 = %cst_0_f32)"))
    assert report.verdict == "FAIL", report.to_text()


def test_swapped_results_after_the_loop_fail(text):
    """The second loop divides by m and subtracts d: the results read crosswise."""
    report = diff_texts(text, _swap(text, "%for#0", "%for#1"))
    assert report.verdict == "FAIL"
    assert any(f.kind == "dataflow" for f in report.findings), report.to_text()


def test_a_carried_value_that_differs_fails_in_the_swapped_order(text):
    """The port's order, but d accumulates without the rescale by exp(m - new_m)."""
    swapped = carried_swapped(text)
    wrong = swapped.replace("fma %iterArg1, %3, %reduce_25", "fma %iterArg1, %2, %reduce_25")
    assert wrong != swapped
    report = diff_texts(text, wrong)
    assert report.verdict == "FAIL", report.to_text()
