"""Hands per second, after compilation, for a variant, its policies and a thread count; and
cards played per second, the rate that compares games of different sizes (a three-handed
hand plays 63 cards, a two-handed one 64, Rubicon 128).

Example:
    python scripts/bench.py --variant ordinary --policy greedy --policy greedy --threads 1 --hands 400000
    python scripts/bench.py --variant rubicon --rule redeclare=same_or_higher --threads 1
    python scripts/bench.py --variant three_handed --policy hints --threads 1
    python scripts/bench.py --floor --threads 1      # greedy against the minimal hand loop, as a ratio
    python scripts/bench.py --scaling --policy learned --hands 20000   # 1, 2, 4 … threads, Amdahl
    python scripts/bench.py --field        # moves/s through OpenSpiel, PettingZoo and the engine
    python scripts/bench.py --report       # where the main job's time goes, part by part

``--floor`` also times scripts/minimal_hand.py (a minimal numba loop with the card flow of a
two-pack hand and none of its rules beyond the tricks), on one thread, between the repeats of the
policies' runs, and prints each one-thread rate of cards played as a share of its (64 cards a
hand); then the engine alone, on one thread: the minimal loop's own policy (the first legal card,
nothing declared; minimal_hand.floor_policy) at every seat.

``--scaling`` times 1, 2, 4 … threads up to the machine's cores, then measures the serial share
of a chunk (the work that holds the interpreter's lock, scripts/scaling.py) and prints the
speed-up Amdahl's law predicts on 16 and 64 cores.

``--report`` prints where the main job's (``bezique report``'s) time goes: the start-up, each
run of its study alone on one thread, the tables, the charts and the page
(scripts/report_profile.py; ``--variant`` and ``--hands`` as the report takes them, default
100,000).

``--field`` times random hands of both games through the OpenSpiel game, the PettingZoo
environment and the engine's own loop, in moves per second (scripts/field_speed.py; the
``field`` extra).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from analyzer.policies.spec import PolicySpec, resolve_policy
from analyzer.rules import preset
from analyzer.studies.play.simulate import simulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
MINIMAL_CARDS = 64          # the minimal loop's hand: two packs, two players (a Rubicon game plays 128)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                    help="a rule option (repeatable), as bezique simulate --rule")
    ap.add_argument("--policy", action="append", default=None,
                    help="seat 0, then seat 1 … (default greedy at every seat; one: every seat)")
    ap.add_argument("--threads", type=int, action="append", default=None,
                    help="thread counts to measure (repeatable; default 1 and 2)")
    ap.add_argument("--hands", type=int, default=None, help="default 400,000 (--report: 100,000, as the report)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    ap.add_argument("--scaling", action="store_true",
                    help="1, 2, 4 … threads up to the cores, the serial share and Amdahl's prediction")
    ap.add_argument("--floor", action="store_true",
                    help="also time the minimal hand loop (scripts/minimal_hand.py) and print the ratio")
    ap.add_argument("--report", action="store_true",
                    help="where the main job's time goes (bezique report's defaults, or --variant and --hands)")
    ap.add_argument("--field", action="store_true",
                    help="moves per second through OpenSpiel, PettingZoo and the engine (random hands, one core)")
    args = ap.parse_args()
    if args.field:
        from field_speed import field_speed
        field_speed(seed=args.seed)
        return
    from analyzer.cli.options import parse_rule_options
    rules = preset(args.variant, **parse_rule_options(args.rule))
    if args.report:
        from report_profile import report_profile

        from analyzer.studies.report.study import StrongPlay as Strong
        from analyzer.studies.report.study import strong_play
        strong, _why = strong_play(rules, Strong.hands, Strong.deals, Strong.ablation_deals)
        report_profile(rules, args.hands or 100_000, args.seed, strong)
        return
    args.hands = args.hands or 400_000
    names = args.policy or ["greedy"]
    names = names * rules.players if len(names) == 1 else names
    specs = [resolve_policy(n) for n in names]
    t0 = time.perf_counter()
    simulate(rules, specs, 200, args.seed, threads=1)          # compile / load the cache
    print(f"warm-up (compile or cache load): {time.perf_counter() - t0:.1f} s")
    if args.scaling:
        from scaling import scaling
        scaling(rules, specs, args.hands, args.seed, args.repeat, " ".join([args.variant, *args.rule, *names]))
        return
    floor = None
    if args.floor:
        from minimal_hand import minimal_hands
        minimal_hands(args.seed, 100)                              # compile / load the cache
        floor = float("inf")
    runs = [(" vs ".join(names), specs, threads) for threads in args.threads or [1, 2]]
    if args.floor:
        from minimal_hand import floor_policy
        runs.append(("the engine alone (the minimal loop's policy at every seat)",
                     [PolicySpec("floor", floor_policy)] * rules.players, 1))
    base = None
    for title, run_specs, threads in runs:
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            simulate(rules, run_specs, args.hands, args.seed, threads=threads)
            best = min(best, time.perf_counter() - t0)
            if floor is not None:                                  # in turn, so drift hits both
                t0 = time.perf_counter()
                minimal_hands(args.seed, args.hands)
                floor = min(floor, time.perf_counter() - t0)
        rate = args.hands / best
        base = base or rate
        label = " ".join([args.variant] + args.rule)
        share = (f"; {rate * rules.n_cards / threads / (args.hands * MINIMAL_CARDS / floor):.2f}x the minimal "
                 "loop's cards played/s per thread" if floor else "")
        print(f"{label} {title}, {threads} thread(s): {rate:,.0f} hands/s "
              f"({rate / threads:,.0f} per thread, {rate / base:.2f}x); "
              f"{rate * rules.n_cards:,.0f} cards played/s{share}")
    if floor is not None:
        print(f"minimal hand loop (scripts/minimal_hand.py), 1 thread: {args.hands / floor:,.0f} hands/s")


if __name__ == "__main__":
    main()
