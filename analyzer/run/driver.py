"""The batch driver: chunks of hands played on a backend, merged in hand order.

A run is a :class:`analyzer.run.task.RunTask`: the rules, seed and policies its chunks share,
and the function that plays one. Its rules and policies are checked once, where the run
enters the library (:func:`analyzer.run.task.check_run`); the driver and the chunks take them
as checked. The hands are cut into
chunks whose size does not depend on the backend or its size; a worker plays a chunk
(``task(start, count)``) and reduces it to integer sums, and an
accumulator merges the chunks strictly in hand order. A result therefore depends only on
the seed and the hands played, never on the threads or workers -- even for a run that stops
early (an SPRT), which stops after the same chunk whatever the backend. A bounded window of
chunks is in flight at a time, so memory does not grow with the number of hands and an
early stop wastes little work.

Inside :func:`analyzer.run.checkpoint.keep_checkpoints` the merged state of a run is saved
now and then (and when the run stops), and a rerun of the same run starts from it.
"""
from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from ..errors import BeziqueError
from .backends import open_backend
from .checkpoint import active_checkpoints

CHUNK = 8192        # hands a worker plays at a time (a compare chunk: half as many deals, each twice)
SAVE_EVERY = 1.0    # seconds between two saves of a run's merged state, when checkpoints are kept
                    # (the environment's BEZIQUE_SAVE_EVERY, if a number, instead)


def seconds_from_env(name: str, default: float) -> float:
    """The seconds the environment variable ``name`` sets where it is a number (below 0: 0),
    else ``default``; returns the seconds."""
    try:
        return max(float(os.environ[name]), 0.0)
    except (KeyError, ValueError):
        return default


def save_every() -> float:
    """Seconds between two saves of a run's checkpoint: BEZIQUE_SAVE_EVERY where it is a number
    (0: after every chunk), else SAVE_EVERY; returns the seconds."""
    return seconds_from_env("BEZIQUE_SAVE_EVERY", SAVE_EVERY)


class SimulationError(BeziqueError, RuntimeError):
    """A run that cannot go on (for example a policy returned an illegal action: raised where
    the hands are played, :mod:`analyzer.run.records` and :mod:`analyzer.hands.handlog`)."""


class Accumulator(Protocol):
    """What merges a run's chunk results, in hand order (picklable, to be checkpointed)."""

    def merge(self, result) -> bool | None:
        """Add one chunk's result; True stops the run."""


def chunk_for(specs, default: int = CHUNK) -> int:
    """Hands per chunk for a run of the policies ``specs``: ``default``, or fewer when a slow
    policy asks for it (PolicySpec.hands_per_chunk), so that its work spreads over the workers
    and progress shows. Depends on the policies only, never on the backend."""
    asked = [s.hands_per_chunk for s in specs if getattr(s, "hands_per_chunk", None)]
    return min([default, *asked])


def run_chunks(task: Callable[[int, int], object], total: int, chunk: int, acc: Accumulator,
               threads: int | None = None, progress: Callable[[int], object] | None = None) -> Accumulator:
    """Call ``task(start, count)`` (a :class:`analyzer.run.task.RunTask`) for consecutive chunks of ``total`` items (``chunk``
    each, the last one shorter) on the active backend (a Dask cluster, else ``threads`` worker
    threads; None: one per core), pass each result to ``acc.merge`` in order, then its item
    count to ``progress``. When ``merge`` returns True the run stops: chunks not merged yet
    are dropped. An exception in ``task`` stops the run and is raised here.

    ``task`` must pickle (Dask sends it; a RunTask's play goes by reference). Returns the
    accumulator holding every merged chunk: ``acc``, or the one a checkpoint saved (then
    only the missing chunks are played, and ``progress`` first gets the items already done).
    """
    store = active_checkpoints()
    key = store.key(task, total, chunk) if store else None
    merged, finished = 0, False
    if key:
        saved = store.load(key)
        if saved:
            merged, finished, acc = saved
            if progress and merged:
                progress(merged)
    if finished or merged >= total:
        return acc
    backend = open_backend(threads)
    starts = iter(range(merged, total, chunk))
    window = deque()
    failed = False
    consistent = True                 # False while a merge is half done: such a state is never saved
    last_save, every = time.monotonic(), save_every()

    def submit_next() -> None:
        start = next(starts, None)
        if start is not None:
            count = min(chunk, total - start)
            window.append((count, backend.submit(task, start, count)))

    try:
        for _ in range(2 * backend.slots):          # two per worker: none idles while one is merged
            submit_next()
        while window:
            count, future = window.popleft()
            result = backend.wait(future)
            consistent = False
            stop = acc.merge(result)
            merged += count
            consistent = True
            if progress:
                progress(count)
            if stop:
                finished = True
                break
            if key and time.monotonic() - last_save >= every:
                store.save(key, merged, False, acc)
                last_save = time.monotonic()
            submit_next()
        else:
            finished = True
    except BaseException:
        failed = True
        raise
    finally:
        for _, future in window:         # after an early stop, an error or an interrupt
            future.cancel()
        backend.close(wait=not failed)   # an error or an interrupt: no waiting for chunks in play
        if key and consistent:
            store.save(key, merged, finished, acc)
    return acc
