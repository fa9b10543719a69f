"""What every GPU request shares: device faults, input dtypes, timing by CUDA events, and
the ceilings measured on the device (only ever imported inside the worker process)."""
from __future__ import annotations

import statistics
import time

L2_FLUSH_BYTES = 128 * 1024 * 1024   # rotate inputs over at least this much (H200 L2: 50 MB)
MAX_ROTATION = 64

TORCH_DTYPES = {"f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16",
                "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8",
                "u16": "uint16", "u32": "uint32", "u64": "uint64"}


class DeviceFault(Exception):
    """A CUDA error that leaves this process's context unusable (illegal address, ...)."""

    def __init__(self, side: str, message: str):
        super().__init__(message)
        self.side, self.message = side, message


def _is_device_fault(error: Exception) -> bool:
    text = str(error)
    return "CUDA error" in text or "illegal" in text or "CUDA_ERROR" in text


def run_side(side: str, launch, torch) -> dict | None:
    """Run one side's launch to completion: None when it ran, else its failed result."""
    try:
        launch()
        torch.cuda.synchronize()
    except Exception as e:
        # Justified: a launch can fail in any layer (the port's C ABI, cuda.tile's compiler,
        # torch, the driver) and that failure is this side's result, reported with its type
        # and message; a fault that kills the context ends the request.
        if _is_device_fault(e):
            raise DeviceFault(side, f"{type(e).__name__}: {e}")
        return {"ok": False, "reason": f"{type(e).__name__}: {e}"}
    return None


def _time_batches(run, settings: dict, torch, seconds: float | None = None) -> list[float]:
    """Per-launch device time (ms) of each batch: CUDA events around `per_batch` launches.
    Unless the settings name the batches, the warm-up and the batches are fitted to
    TIME_BUDGET_S from one timed call (fit_calls, fit_batches): `seconds`, where the caller
    measured it already (seconds_per_call)."""
    warmup = settings.get("warmup", 10)
    batches, per_batch = settings.get("batches", 30), settings.get("per_batch", 20)
    if "batches" not in settings and "per_batch" not in settings:
        seconds = seconds if seconds is not None else seconds_per_call(lambda: run(0), torch)
        warmup = fit_calls(seconds, warmup)
        batches, per_batch = fit_batches(seconds, batches, per_batch)
    for i in range(warmup):
        run(i)
    torch.cuda.synchronize()
    times = []
    for b in range(batches):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for i in range(per_batch):
            run(b * per_batch + i)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / per_batch)
    return times


TIME_BUDGET_S = 2.0      # what one side's timed batches may take, about (fit_batches)
MIN_BATCHES = 5


def seconds_per_call(run, torch) -> float:
    """Wall time of one call, after one untimed call (which compiles and fills caches)."""
    run()
    torch.cuda.synchronize()
    start = time.perf_counter()
    run()
    torch.cuda.synchronize()
    return time.perf_counter() - start


def fit_calls(seconds_per_call: float, wanted: int, budget: float = TIME_BUDGET_S / 2) -> int:
    """As many of `wanted` calls as fit in `budget`, and at least one."""
    return max(1, min(wanted, int(budget / max(seconds_per_call, 1e-9))))


def fit_batches(seconds_per_call: float, batches: int, per_batch: int) -> tuple[int, int]:
    """Fewer launches for a slow call (a PyTorch operation that loops over tokens in Python
    takes 0.1 s a call: 600 of them were a minute a case): at most TIME_BUDGET_S in all,
    never fewer than MIN_BATCHES batches of one launch, so the median stays a median."""
    allowed = int(TIME_BUDGET_S / max(seconds_per_call, 1e-9))
    if allowed >= batches * per_batch:
        return batches, per_batch
    batches = max(MIN_BATCHES, min(batches, allowed))
    return batches, max(1, allowed // batches)


def cupti_per_call(run, torch, calls: int = 20, seconds: float | None = None) -> float | None:
    """Device time of one call (us): every kernel it launched, summed, from CUPTI through
    torch.profiler (a PyTorch operation may launch several kernels). A slow call is
    profiled fewer times (fit_calls): a token loop in Python launches thousands of kernels a
    call, and the profiler's events for twenty such calls took minutes to read back.
    `seconds`: one call's time, where the caller measured it already. None where this torch
    has no profiler."""
    try:
        from torch.autograd import DeviceType
        from torch.profiler import ProfilerActivity, profile
    except ImportError:
        return None
    calls = fit_calls(seconds if seconds is not None else seconds_per_call(run, torch), calls)
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            run()
        torch.cuda.synchronize()
    # kernel events only (a CPU op's event carries its kernels' time too)
    total = sum(e.device_time for e in prof.events()
                if getattr(e, "device_type", None) == DeviceType.CUDA and e.device_time > 0
                and "memcpy" not in e.name.lower() and "memset" not in e.name.lower())
    return total / calls if total else None


DEVICE_TIME_ROUNDS = 3            # CUPTI rounds per side, alternating between the sides
DEVICE_TIME_CALLS = 10             # calls profiled per round


def time_sides(runs: dict, settings: dict, torch) -> dict:
    """Each side's timing (`runs`: side -> run(i), the i-th call): CUPTI device time per call
    first, for every side, in alternating rounds (each side's median), then each side's
    event-timed batches. Seconds of back-to-back heavy kernels lower the GPU's clock, and a
    side whose device time was read after that carried it (a 4096^3 GEMM read 15% slower
    timed second). A side whose launch fails is {"ok": False, "reason"}; a fault that kills
    the context raises DeviceFault."""
    failed: dict = {}
    device_us = _device_times(runs, failed, torch)
    out = {}
    for side, run in runs.items():
        if side in failed:
            out[side] = failed[side]
            continue
        try:
            times = _time_batches(run, settings, torch)
        except Exception as e:     # the side's result, as a failed launch is in a check
            out[side] = _failed(side, e)
            continue
        median = statistics.median(times)
        out[side] = {"ok": True, "median_us": median * 1e3,
                     "p10_us": _quantile(times, 0.1) * 1e3,
                     "p90_us": _quantile(times, 0.9) * 1e3, "cupti_us": device_us.get(side)}
    return out


def _device_times(runs: dict, failed: dict, torch) -> dict:
    rounds: dict = {side: [] for side in runs}
    for _ in range(DEVICE_TIME_ROUNDS):
        for side, run in runs.items():
            if side in failed:
                continue
            try:
                rounds[side].append(cupti_per_call(lambda: run(0), torch,
                                                   calls=DEVICE_TIME_CALLS))
            except Exception as e:      # noqa: BLE001 - see time_sides
                failed[side] = _failed(side, e)
    return {side: statistics.median(times) for side, times in rounds.items()
            if times and None not in times}


def _failed(side: str, error: Exception) -> dict:
    if _is_device_fault(error):
        raise DeviceFault(side, f"{type(error).__name__}: {error}")
    return {"ok": False, "reason": f"{type(error).__name__}: {error}"[:500]}


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]





def measure_ceilings(torch) -> dict:
    """What this GPU can do, measured now: a large copy (GB/s) and a large bf16 GEMM."""
    n = 256 * 1024 * 1024
    src = torch.empty(n, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy_ms = statistics.median(_time_batches(lambda i: dst.copy_(src),
                                              {"warmup": 3, "batches": 10, "per_batch": 5},
                                              torch))
    size = 8192
    a = torch.randn(size, size, dtype=torch.bfloat16, device="cuda")
    b = torch.randn(size, size, dtype=torch.bfloat16, device="cuda")
    mm_ms = statistics.median(_time_batches(lambda i: a @ b,
                                            {"warmup": 3, "batches": 10, "per_batch": 3},
                                            torch))
    return {"copy_gbps": 2 * n / (copy_ms * 1e-3) / 1e9,
            "bf16_tflops": 2 * size ** 3 / (mm_ms * 1e-3) / 1e12}
