"""The measurements of ``scripts/bench.py --scaling``: hands per second at 1, 2, 4 … threads up
to the machine's cores, and the serial share of a chunk, from which Amdahl's law predicts the
speed-up of a machine with more cores.

The serial share is the part of a chunk's work that holds the interpreter's lock (the GIL),
measured on one thread: a chunk's call (records played, reduced to tallies) less the time spent
in the kernels that release the lock (``nogil``), plus the chunk's merge into the run's totals
less the same. Those parts cannot run on two threads at once; everything else can.
"""
from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager

import analyzer.run.records as records
import analyzer.run.tallies as tallies
from analyzer.run.task import RunTask
from analyzer.studies.play import simulate as sim

# the kernels a chunk calls that release the GIL, by the module that calls them
NOGIL_KERNELS = ((records, "run_batch"), (tallies, "tally_hands"), (tallies, "compact_hands"),
                 (tallies, "chain_games"))


@contextmanager
def timed_chunks():
    """Time, per thread, every chunk's call, every merge and the nogil kernels inside them:
    yields a dict filled with seconds ("call", "merge", and "kernels" per thread id)."""
    t = {"call": 0.0, "merge": 0.0, "call_kernels": 0.0, "merge_kernels": 0.0}
    main = threading.get_ident()
    saved = [(m, n, getattr(m, n)) for m, n in NOGIL_KERNELS]
    call, merge = RunTask.__call__, sim.SimulationTotals.merge

    def kernel(f):
        def timed(*a, **k):
            t0 = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                t["merge_kernels" if threading.get_ident() == main else "call_kernels"] += time.perf_counter() - t0
        return timed

    def wrap(f, key):
        def timed(*a, **k):
            t0 = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                t[key] += time.perf_counter() - t0
        return timed

    for m, n, f in saved:
        setattr(m, n, kernel(f))
    RunTask.__call__ = wrap(call, "call")
    sim.SimulationTotals.merge = wrap(merge, "merge")
    try:
        yield t
    finally:
        for m, n, f in saved:
            setattr(m, n, f)
        RunTask.__call__, sim.SimulationTotals.merge = call, merge


def serial_share(rules, specs, hands: int, seed: int) -> float:
    """The share of a chunk's work that holds the GIL (module docstring), on one thread."""
    with timed_chunks() as t:
        sim.simulate(rules, specs, hands, seed, threads=1)
    held = (t["call"] - t["call_kernels"]) + (t["merge"] - t["merge_kernels"])
    return held / (t["call"] + t["merge"])


def amdahl(share: float, cores: int) -> float:
    """The speed-up on ``cores`` of a work whose serial share is ``share``."""
    return 1.0 / (share + (1.0 - share) / cores)


def thread_counts(cores: int | None = None) -> list[int]:
    """1, 2, 4 … up to the machine's cores (the cores themselves last if not a power of two)."""
    cores = cores or os.cpu_count() or 1
    counts = [1]
    while counts[-1] * 2 <= cores:
        counts.append(counts[-1] * 2)
    return counts + ([cores] if counts[-1] != cores else [])


def scaling(rules, specs, hands: int, seed: int, repeat: int, label: str) -> None:
    """Print hands per second at each thread count, the speed-up, the serial share and the
    predictions for 16 and 64 cores."""
    base = None
    for threads in thread_counts():
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            sim.simulate(rules, specs, hands, seed, threads=threads)
            best = min(best, time.perf_counter() - t0)
        rate = hands / best
        base = base or rate
        print(f"{label}, {threads:>2} thread(s): {rate:>11,.0f} hands/s  speed-up {rate / base:5.2f}x")
    share = serial_share(rules, specs, hands, seed)
    print(f"{label}: serial share of a chunk {100 * share:.2f} % -> Amdahl's law predicts "
          f"{amdahl(share, 16):.1f}x on 16 cores, {amdahl(share, 64):.1f}x on 64")
