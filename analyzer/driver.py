"""The batch driver: chunks of hands played on worker threads, merged in hand order.

The hands are cut into chunks whose size does not depend on the thread count; a worker
plays a chunk and reduces it to integer sums, and the caller merges the chunks strictly
in hand order. A result therefore depends only on the seed and the hands played, never
on ``threads`` -- even for a run that stops early (an SPRT), which stops after the same
chunk whatever the thread count. A bounded window of chunks is in flight at a time, so
memory does not grow with the number of hands and an early stop wastes little work.
"""
from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

CHUNK = 8192        # hands a worker plays at a time (a compare chunk: half as many deals, each twice)

T = TypeVar("T")


def chunk_for(specs, default: int = CHUNK) -> int:
    """Hands per chunk for a run of the policies ``specs``: ``default``, or fewer when a slow
    policy asks for it (PolicySpec.hands_per_chunk), so that its work spreads over the threads
    and progress shows. Depends on the policies only, never on the thread count."""
    asked = [s.hands_per_chunk for s in specs if getattr(s, "hands_per_chunk", None)]
    return min([default, *asked])


def default_threads() -> int:
    """The worker threads of a run that names none: one per core."""
    return os.cpu_count() or 1


def check_threads(threads: int | None) -> int:
    """``threads``, or :func:`default_threads` for None; ValueError below 1."""
    if threads is None:
        return default_threads()
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    return threads


def run_chunks(play: Callable[[int, int], T], total: int, chunk: int, merge: Callable[[T], bool | None],
               threads: int | None = None, progress: Callable[[int], object] | None = None) -> int:
    """Call ``play(start, count)`` for consecutive chunks of ``total`` items (``chunk`` each,
    the last one shorter) on ``threads`` worker threads (None: :func:`default_threads`), and
    pass each result to ``merge`` in order, then its item count to ``progress``. When
    ``merge`` returns True the run stops: chunks not merged yet are dropped. An exception in
    ``play`` stops the run and is raised here. Returns the number of items merged."""
    threads = check_threads(threads)
    starts = iter(range(0, total, chunk))
    window = deque()
    merged = 0
    pool = ThreadPoolExecutor(max_workers=threads)

    def submit_next() -> None:
        start = next(starts, None)
        if start is not None:
            count = min(chunk, total - start)
            window.append((count, pool.submit(play, start, count)))

    try:
        for _ in range(2 * threads):            # two per worker: none idles while one is merged
            submit_next()
        while window:
            count, future = window.popleft()
            stop = merge(future.result())
            merged += count
            if progress:
                progress(count)
            if stop:
                break
            submit_next()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return merged
