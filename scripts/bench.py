"""Hands per second, after compilation, for a variant, its policies and a thread count; and
cards played per second, the rate that compares games of different sizes (a three-handed
hand plays 63 cards, a two-handed one 64, Rubicon 128).

Example:
    python scripts/bench.py --variant ordinary --policy greedy --policy greedy --threads 1 --hands 400000
    python scripts/bench.py --variant rubicon --rule redeclare=same_or_higher --threads 1
    python scripts/bench.py --variant three_handed --policy hints --threads 1
"""
from __future__ import annotations

import argparse
import time

from analyzer.policies.registry import resolve_policy
from analyzer.rules import preset
from analyzer.studies.simulate import simulate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                    help="a rule option (repeatable), as bezique simulate --rule")
    ap.add_argument("--policy", action="append", default=None,
                    help="seat 0, then seat 1 … (default greedy at every seat; one: every seat)")
    ap.add_argument("--threads", type=int, action="append", default=None,
                    help="thread counts to measure (repeatable; default 1 and 2)")
    ap.add_argument("--hands", type=int, default=400_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = ap.parse_args()
    from analyzer.cli_options import parse_rule_options
    rules = preset(args.variant, **parse_rule_options(args.rule))
    names = args.policy or ["greedy"]
    names = names * rules.players if len(names) == 1 else names
    specs = [resolve_policy(n) for n in names]
    t0 = time.perf_counter()
    simulate(rules, specs, 200, args.seed, threads=1)          # compile / load the cache
    print(f"warm-up (compile or cache load): {time.perf_counter() - t0:.1f} s")
    base = None
    for threads in args.threads or [1, 2]:
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            simulate(rules, specs, args.hands, args.seed, threads=threads)
            best = min(best, time.perf_counter() - t0)
        rate = args.hands / best
        base = base or rate
        label = " ".join([args.variant] + args.rule)
        print(f"{label} {' vs '.join(names)}, {threads} thread(s): {rate:,.0f} hands/s "
              f"({rate / threads:,.0f} per thread, {rate / base:.2f}x); "
              f"{rate * rules.n_cards:,.0f} cards played/s")


if __name__ == "__main__":
    main()
