"""Threads against a local Dask cluster of 1 and 2 worker processes, on the same run: hands per
second, the cluster's start-up, and the overhead per chunk (the time beyond the threaded run's
with as many threads, divided by the chunks played). Also checks that every backend gives the
same tallies.

Example:
    python scripts/bench_backends.py --hands 2000000 --policy hints --policy greedy
    python scripts/bench_backends.py --variant rubicon --hands 1000000
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from analyzer.run.backends import connect_dask, use_backend
from analyzer.run.driver import chunk_for
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.studies.play.simulate import simulate


def best_of(repeat: int, run) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - t0)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--policy", action="append", default=None, help="seat 0, then seat 1 (default greedy greedy)")
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=2, help="best of this many runs")
    args = ap.parse_args()
    rules = preset(args.variant)
    specs = [resolve_policy(n) for n in args.policy or ["greedy", "greedy"]]
    chunks = -(-args.hands // chunk_for(specs))
    simulate(rules, specs, 200, args.seed, threads=1)          # compile / load the cache
    print(f"{args.variant}, {' vs '.join(s.name for s in specs)}, {args.hands:,} hands in {chunks:,} chunks")
    threaded = {}
    for n in (1, 2):
        t, res = best_of(args.repeat, lambda: simulate(rules, specs, args.hands, args.seed, threads=n))
        threaded[n] = (t, res.tallies.buffer)
        print(f"  threads x{n}:      {args.hands / t:>10,.0f} hands/s")
    for n in (1, 2):
        t0 = time.perf_counter()
        backend = connect_dask(workers=n)
        with use_backend(backend):
            simulate(rules, specs, 2 * n * chunk_for(specs), args.seed)       # every worker loads the kernels
            start = time.perf_counter() - t0
            t, res = best_of(args.repeat, lambda: simulate(rules, specs, args.hands, args.seed))
        backend.shutdown()
        same = np.array_equal(res.tallies.buffer, threaded[n][1])
        per_chunk = (t - threaded[n][0]) / chunks * n * 1000
        print(f"  dask {n} worker{'s' if n > 1 else ' '}:  {args.hands / t:>10,.0f} hands/s; start-up {start:.1f} s; "
              f"overhead {per_chunk:+.2f} ms per chunk per worker; same tallies as threads: {same}")


if __name__ == "__main__":
    main()
