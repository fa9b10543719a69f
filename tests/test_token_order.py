"""What a memory op waits for (workbench/diff/token_order.py): a token difference is noise
when both sides wait for the same memory ops, critical when the port drops an ordering (a
coarser order), perf when it adds one (a finer order); the finding says which."""
from workbench.diff import diff_modules
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse

INPLACE = """entry @k(%arg0: tile<8xptr<f32>>, %arg1: tile<8xf32>, %arg2: tile<8xptr<f32>>) {
  %0 = make_token : token
  %1 = store_ptr_tko weak %arg0, %arg1 token = STORE_TOKEN : tile<8xptr<f32>>, tile<8xf32> -> token
  JOIN
  %2, %3 = load_ptr_tko weak %arg0 token = LOAD_TOKEN : tile<8xptr<f32>> -> tile<8xf32>, token
  %4 = store_ptr_tko weak %arg2, %2 token = %0 : tile<8xptr<f32>>, tile<8xf32> -> token
  return
}
"""


def module(load_token: str, join: str = "", store_token: str = "%0"):
    text = INPLACE.replace("LOAD_TOKEN", load_token).replace("JOIN", join)
    return normalize(parse(text.replace("STORE_TOKEN", store_token)))


def token_findings(port):
    report = diff_modules(module("%1"), port)
    return report, [f for f in report.findings if f.kind in ("token", "token_order")]


def test_a_load_that_no_longer_waits_for_the_store_is_a_coarser_order():
    report, found = token_findings(module("%0"))
    assert report.verdict == "FAIL"
    assert [(f.category, f.kind) for f in found] == [("critical", "token_order")]
    assert "coarser" in found[0].detail and "no longer waits for `store_ptr_tko`" in found[0].detail


def test_a_load_that_waits_for_more_is_a_finer_order():
    reference = module("%0")
    report = diff_modules(reference, module("%1"))
    found = [f for f in report.findings if f.kind == "token_order"]
    assert [f.category for f in found] == ["perf"] and "finer" in found[0].detail


def test_the_same_ops_through_another_token_are_noise():
    joined = module("%5", join="  %5 = join_tokens %0, %1 : token")
    report, found = token_findings(joined)
    assert [(f.category, f.noise_id) for f in found] == [("noise", "token_same_order")]


LOOP = """entry @k(%arg0: tile<8xptr<f32>>, %arg1: tile<8xf32>, %arg2: tile<i32>) {
  %0 = make_token : token
  %1 = constant <i32: 0> : tile<i32>
  %2 = constant <i32: 1> : tile<i32>
  %3 = for %r0 in (%1 to %arg2, step %2) : tile<i32> iter_values(%r1 = %0) -> (token) {
    %4 = store_ptr_tko weak %arg0, %arg1 token = STORE_TOKEN : tile<8xptr<f32>>, tile<8xf32> -> token
    continue %4 : token
  }
  return
}
"""


def test_a_store_that_no_longer_waits_for_the_previous_iteration_is_a_coarser_order():
    chained = normalize(parse(LOOP.replace("STORE_TOKEN", "%r1")))
    parallel = normalize(parse(LOOP.replace("STORE_TOKEN", "%0")))
    found = [f for f in diff_modules(chained, parallel).findings if f.kind == "token_order"]
    assert [f.category for f in found] == ["critical"], found
    assert "no longer waits for `store_ptr_tko`" in found[0].detail
    found = [f for f in diff_modules(parallel, chained).findings if f.kind == "token_order"]
    assert [f.category for f in found] == ["perf"], found
