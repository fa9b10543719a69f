"""Scale through dask.distributed, the project's distributed engine: tasks on a LocalCluster
of worker processes, results as they finish. No scheduling of our own.

    for item, result in map_on_cluster(run_entry_json, targets, "runs/corpus", jobs=2): ...

A task whose worker died comes back as the error's text instead of a result.
"""
from __future__ import annotations

import logging
from typing import Callable, Iterator


def map_on_cluster(fn: Callable, items: list, arg, jobs: int) -> Iterator[tuple[object, object]]:
    """(item, fn(item, arg)) for each item, in the order they finish."""
    from dask.distributed import Client, LocalCluster, as_completed

    with LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                      dashboard_address=None, memory_limit=0,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        futures = {client.submit(fn, item, arg, pure=False): item for item in items}
        for future in as_completed(futures):
            item = futures[future]
            try:
                yield item, future.result()
            except Exception as e:          # noqa: BLE001 - a lost task is that item's error
                yield item, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
