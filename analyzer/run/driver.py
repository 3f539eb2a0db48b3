"""The batch driver: chunks of hands played on a backend, merged in hand order.

A run is a :class:`RunTask`: the rules, seed and policies its chunks share, and the function
that plays one. Its rules and policies are checked once, where the run enters the library
(:func:`check_run`); the driver and the chunks take them as checked. The hands are cut into
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

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from ..policies.registry import PolicyError, PolicySpec, check_rules, resolve_policy
from ..rules import RuleSet
from .backends import check_threads, open_backend
from .checkpoint import active_checkpoints

CHUNK = 8192        # hands a worker plays at a time (a compare chunk: half as many deals, each twice)
SAVE_EVERY = 1.0    # seconds between two saves of a run's merged state, when checkpoints are kept
MAX_HANDS = 2**63 - 1      # hand numbers are signed 64-bit in the engine
MAX_SEED = 2**64 - 1       # the seed is an unsigned 64-bit word


class SimulationError(RuntimeError):
    """A run that cannot go on (for example a policy returned an illegal action: raised where
    the hands are played, :mod:`analyzer.run.records` and :mod:`analyzer.hands.handlog`)."""


class Accumulator(Protocol):
    """What merges a run's chunk results, in hand order (picklable, to be checkpointed)."""

    def merge(self, result) -> bool | None:
        """Add one chunk's result; True stops the run."""


@dataclass(frozen=True, eq=False)
class RunTask:
    """One run as each of its chunks sees it, sent with every chunk to the backend (it pickles:
    the policies travel by name, see ``PolicySpec.__reduce__``). ``play(task, start, count)``
    is the module-level function that plays items ``start`` .. ``start + count - 1`` and
    reduces them; ``rules`` (checked where the run entered, :func:`check_run`) come with
    ``rules_array``, the kernels' view of them; ``policies`` are PolicySpecs, as the play takes
    them (by seat; a pair; candidates, then their opponent); ``keep_records`` (a simulation
    keeps its records) and ``deal_chunks`` (a tuning's chunks of deals per candidate) are
    the options of one play. Calling the task plays one chunk."""

    play: Callable
    rules: RuleSet
    seed: int
    policies: tuple[PolicySpec, ...] = ()
    keep_records: bool = False
    deal_chunks: int = 0
    rules_array: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "policies", tuple(self.policies))
        object.__setattr__(self, "rules_array", self.rules.to_array())

    def __call__(self, start: int, count: int):
        """Play items ``start`` .. ``start + count - 1``: a backend runs this."""
        return self.play(self, start, count)


def check_run(rules: RuleSet, policies, seed: int, threads: int | None = None,
              by_seat: bool = True) -> tuple[PolicySpec, ...]:
    """What a run needs beside its size, checked once where it enters the library (simulate,
    simulate_games, compare, ablate, tune, the report's study), in this order: the seed
    (ValueError), the PolicySpecs of ``policies`` (names or specs; with ``by_seat``, one per
    seat), each able to play ``rules`` (PolicyError naming the problem otherwise), and the
    thread count. Returns the PolicySpecs."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be from 0 to 2^64-1, got {seed}")
    specs = tuple(p if isinstance(p, PolicySpec) else resolve_policy(p) for p in policies)
    if by_seat and len(specs) != rules.players:
        raise PolicyError(f"{rules.players} seats need {rules.players} policies, got {len(specs)}")
    check_rules(specs, rules)
    check_threads(threads)
    return specs


def chunk_for(specs, default: int = CHUNK) -> int:
    """Hands per chunk for a run of the policies ``specs``: ``default``, or fewer when a slow
    policy asks for it (PolicySpec.hands_per_chunk), so that its work spreads over the workers
    and progress shows. Depends on the policies only, never on the backend."""
    asked = [s.hands_per_chunk for s in specs if getattr(s, "hands_per_chunk", None)]
    return min([default, *asked])


def run_chunks(task: Callable[[int, int], object], total: int, chunk: int, acc: Accumulator,
               threads: int | None = None, progress: Callable[[int], object] | None = None) -> Accumulator:
    """Call ``task(start, count)`` (a :class:`RunTask`) for consecutive chunks of ``total`` items (``chunk``
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
    last_save = time.monotonic()

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
            if key and time.monotonic() - last_save >= SAVE_EVERY:
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
