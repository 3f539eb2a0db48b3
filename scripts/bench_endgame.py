"""Time the exact second-stage solver (analyzer.engine.endgame) on real positions.

Positions: hands dealt as every run deals them (seed 11), played at random to the start of
the second stage (8 cards a hand in the ordinary game, 9 in Rubicon). Prints the median and
the 90th percentile of one full solve (solve_state, its table allocation included), of the
search nodes per solve and of solve_cards with one table reused (Python's call overhead
included in both times), after one warm-up solve per variant (numba compilation excluded).

    .venv/bin/python scripts/bench_endgame.py [--positions 500]
"""
import argparse
import time

import numpy as np

from analyzer.engine import layout as L
from analyzer.engine.endgame import Position, solve_cards, solve_state
from analyzer.engine.endgame_buffer import PAR_NODES, new_solver
from analyzer.engine.endgame_reference import random_position
from analyzer.engine.state import new_state
from analyzer.rules import preset

SEED = 11


def positions(arr, count):
    """``count`` states at the start of the second stage."""
    out = []
    hand = 0
    while len(out) < count:
        st = new_state(False)
        if random_position(arr, st, SEED, hand, 0):
            out.append(st)
        hand += 1
    return out


def nodes(arr, st, sv):
    """Search nodes of one solve (through the core, with a reused table)."""
    hands = np.ascontiguousarray(st.P[:2, L.P_HAND:L.P_HAND + 32]).astype(np.int64)
    lead = int(st.G[L.G_LEAD]) if st.G[L.G_TRICK_POS] == 1 else -1
    at = Position(int(st.G[L.G_TRUMP]), hands, int(st.G[L.G_LEADER]), lead,
                  st.P[:2, L.P_SCORE].astype(np.int64), st.P[:2, L.P_BRISQ].astype(np.int64))
    solve_cards(arr, at, sv, np.zeros(1, np.int64))
    return int(sv[PAR_NODES])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=500)
    args = ap.parse_args()
    sv = new_solver(16)
    for name in ("ordinary", "rubicon"):
        arr = preset(name).to_array()
        sts = positions(arr, args.positions)
        solve_state(arr, sts[0], 0)                     # compile / load the cache
        times = []
        for st in sts:
            t0 = time.perf_counter()
            solve_state(arr, st, 0)
            times.append(time.perf_counter() - t0)
        ms = np.array(times) * 1e3
        nn = np.array([nodes(arr, st, sv) for st in sts])
        reuse = []
        for st in sts:
            t0 = time.perf_counter()
            nodes(arr, st, sv)
            reuse.append(time.perf_counter() - t0)
        rs = np.array(reuse) * 1e3
        cards = int(sts[0].P[0, L.P_HAND:L.P_HAND + 32].sum())
        print(f"{name:8s} {len(sts)} positions, {cards} cards a hand: median {np.median(ms):.3f} ms, "
              f"p90 {np.percentile(ms, 90):.3f} ms, max {ms.max():.3f} ms; "
              f"nodes median {int(np.median(nn))}, p90 {int(np.percentile(nn, 90))}; "
              f"solve_cards with a reused table: median {np.median(rs):.3f} ms, "
              f"p90 {np.percentile(rs, 90):.3f} ms")


if __name__ == "__main__":
    main()
