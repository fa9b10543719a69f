"""The one timing helper the benchmarks share."""
import statistics
import time


def median_time(fn, repeat: int = 7) -> tuple[float, object]:
    """Median wall time of `repeat` calls of fn() after one untimed call, and the last
    call's result."""
    fn()                                    # warm-up: caches, lazy imports, first allocations
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result
