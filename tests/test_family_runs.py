"""How a family run on the GPU spends its time and counts its bytes, checked without a GPU:
each step of a case is logged as it happens (a run cut short still says where it was), a slow
call is timed in fewer launches within the budget, and GB/s counts what a case moves (an
in-place tensor twice, a chain's operator tensors but not its intermediates)."""
import json
import time

from workbench.tilegym_catalog import family_rules


def test_a_family_run_logs_each_step_of_a_case_for_a_run_cut_short(tmp_path):
    from workbench.check.family import case_log
    log_file = tmp_path / "progress.jsonl"
    request = {"progress": str(log_file)}
    log = case_log(request, 3, "tilegym.softmax.tma")             # its start, at once
    log("side", {"side": "rust"})
    log("check", {"sides": {"rust": {"ok": True}}})
    case_log({}, 4, "tilegym.softmax.tma")("check")               # no file asked for
    lines = [json.loads(line) for line in log_file.read_text().splitlines()]
    assert [(l["kind"], l["case"], l["entry"]) for l in lines] == \
        [("start", 3, "tilegym.softmax.tma"), ("side", 3, "tilegym.softmax.tma"),
         ("check", 3, "tilegym.softmax.tma")]
    assert lines[1]["side"] == "rust" and lines[2]["sides"]["rust"]["ok"]
    assert all(l["seconds"] >= 0 for l in lines)


def test_a_slow_call_is_timed_in_fewer_launches_within_the_budget():
    from workbench.check.gpu import MIN_BATCHES, TIME_BUDGET_S, fit_batches
    assert fit_batches(5e-6, 30, 20) == (30, 20)                 # a kernel: as asked
    batches, per_batch = fit_batches(0.08, 30, 20)               # a token loop in Python
    assert batches * per_batch * 0.08 <= TIME_BUDGET_S and batches >= MIN_BATCHES
    assert fit_batches(10.0, 30, 20) == (MIN_BATCHES, 1)         # never below a median of 5


class _WallClockTorch:
    """Just enough of torch.cuda for the timing loop: events read the wall clock."""
    class cuda:
        @staticmethod
        def synchronize():
            pass

        class Event:
            def __init__(self, enable_timing=True):
                self.at = None

            def record(self):
                self.at = time.perf_counter()

            def synchronize(self):
                pass

            def elapsed_time(self, other):
                return (other.at - self.at) * 1e3


def test_a_slow_call_is_warmed_and_timed_within_the_budget_not_ten_plus_thirty_times():
    from workbench.check.gpu import MIN_BATCHES, TIME_BUDGET_S, _time_batches, fit_calls
    calls = []
    slow = lambda i: (calls.append(i), time.sleep(0.25))          # noqa: E731
    times = _time_batches(slow, {}, _WallClockTorch)
    assert MIN_BATCHES <= len(times) <= TIME_BUDGET_S / 0.25 and all(t >= 240 for t in times)
    # 2 calls to size it, a warm-up fitted to half the budget, then one launch per batch
    warmed = len(calls) - 2 - len(times)
    assert 1 <= warmed <= fit_calls(0.25, 10) == 4
    fast_calls = []
    _time_batches(lambda i: fast_calls.append(i), {}, _WallClockTorch)
    assert len(fast_calls) == 2 + 10 + 30 * 20                      # a kernel: as asked
    sized = []                                  # a call time the caller measured already
    times = _time_batches(lambda i: (sized.append(i), time.sleep(0.25)), {}, _WallClockTorch,
                          seconds=0.25)
    assert len(sized) == fit_calls(0.25, 10) + len(times)           # no calls to size it


class _Sized:
    """What the byte count reads of a torch tensor."""
    def __init__(self, elements: int, itemsize: int):
        self.elements, self.itemsize = elements, itemsize

    def numel(self) -> int:
        return self.elements

    def element_size(self) -> int:
        return self.itemsize


def test_a_case_moves_an_in_place_tensor_twice_and_every_other_tensor_once():
    """rope rotates q and k in place: each is read and written back, so GB/s (and the share
    of the copy ceiling, which counts a read and a write) counts them twice; cos and sin,
    only read, once. The large case once read 50% of copy for a kernel moving 96%."""
    from workbench.check.family import traffic
    problem = family_rules("tilegym.rope").problem(4)
    tensors = {n: _Sized(t.numel(), t.spec.itemsize) for n, t in problem.tensors.items()}
    size = {n: t.numel() * t.spec.itemsize for n, t in problem.tensors.items()}
    assert traffic(problem, tensors) == 2 * (size["q"] + size["k"]) + size["cos"] + size["sin"]
    softmax = family_rules("tilegym.softmax").problem(0)
    plain = {n: _Sized(t.numel(), t.spec.itemsize) for n, t in softmax.tensors.items()}
    assert traffic(softmax, plain) == sum(t.numel() * t.spec.itemsize
                                          for t in softmax.tensors.values())


def test_a_chain_moves_its_operator_tensors_not_the_intermediates_between_its_launches():
    """moe_align_block's four launches pass tokens_cnts from one to the next (a `temp`): it
    is not the operator's traffic; sorted_ids is filled, then written in place (twice)."""
    from workbench.check.family import traffic
    problem = family_rules("tilegym.moe_align_block").problem(3)
    tensors = {n: _Sized(t.numel(), t.spec.itemsize) for n, t in problem.tensors.items()}
    size = {n: t.numel() * t.spec.itemsize for n, t in problem.tensors.items()}
    roles = {n: t.role for n, t in problem.tensors.items()}
    assert roles["tokens_cnts"] == "temp" and roles["sorted_ids"] == "inout"
    expected = sum(size[n] * {"inout": 2, "temp": 0}.get(roles[n], 1) for n in size)
    assert traffic(problem, tensors) == expected
    assert expected == sum(size.values()) - size["tokens_cnts"] + size["sorted_ids"]
