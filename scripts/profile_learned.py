"""Where the learned player's time goes: its decisions of real self-play hands, replayed part by
part in a compiled loop, each part timed on its own.

The parts of a first-stage decision (policies/learned_net.best_action): the state's features
(features.state_features), the state's share of the first layer (network.hidden_state), the
teacher's choice (hints with the model's tuned weights, an input of every action), and every
legal action's features and value (features.action_features, network.action_values); then the
exact second stage (policies/exact_endgame.exact_endgame_action) at the decisions it plays; and the
engine's own work, the rest of a hand's time (learned self-play timed whole, minus the parts).

Example:
    python scripts/profile_learned.py --variant ordinary --hands 300
    python scripts/profile_learned.py --variant rubicon --hands 100
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from analyzer.engine import api
from analyzer.policies.exact_endgame import exact_endgame_action, is_exact_decision
from analyzer.policies.features import CTX_W, MAX_ACTION_NZ, N_STATE, action_features, state_features
from analyzer.policies.learned_net import best_action, teacher_action
from analyzer.policies.network import BLOCK, N_H1, N_H2, action_values, hidden_state
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.studies.play.simulate import simulate

PARTS = ("state features", "state's first layer", "teacher's choice", "actions' features and values",
         "the whole first-stage decision", "exact second stage")


@njit
def _time_parts(part, w, rules, obs, legal, nleg, data, repeat):
    """Run ``part`` (an index of PARTS) on every decision ``obs[i]``, ``legal[i, :nleg[i]]``,
    ``repeat`` times; returns a checksum, so that nothing is optimised away."""
    xs = np.zeros(N_STATE, np.float32)
    ctx = np.zeros(CTX_W, np.int64)
    h0 = np.zeros(N_H1, np.float32)
    idx = np.zeros((BLOCK, MAX_ACTION_NZ), np.int64)
    val = np.zeros((BLOCK, MAX_ACTION_NZ), np.float32)
    nz = np.zeros(BLOCK, np.int64)
    hidden = np.zeros((BLOCK, N_H1 + N_H2), np.float32)
    out = np.zeros(BLOCK, np.float32)
    rng = np.ones(1, np.uint64)
    total = 0.0
    for _r in range(repeat):
        for i in range(obs.shape[0]):
            o, lg, n = obs[i], legal[i], nleg[i]
            if part == 5:
                if is_exact_decision(o):
                    total += exact_endgame_action(rules, o, lg, n, data)
                continue
            if is_exact_decision(o):
                continue
            if part == 0:
                state_features(o, rules, xs, ctx)
                total += xs[0]
            elif part == 1:
                hidden_state(w, 0, N_H1, xs, h0)
                total += h0[0]
            elif part == 2:
                total += teacher_action(w, o, rules, lg, n, rng, data)
            elif part == 3:
                for b0 in range(0, n, BLOCK):
                    nb = min(BLOCK, n - b0)
                    for a in range(nb):
                        nz[a] = action_features(o, rules, ctx, lg[b0 + a], -1, idx[a], val[a])
                    action_values(w, 0, N_H1, N_H2, h0, idx, val, nz, nb, hidden, out)
                    total += out[0]
            else:
                total += best_action(w, o, rules, lg, n, rng, data)
    return total


def decisions(rules, spec, hands: int, seed: int):
    """The decisions with a choice of ``hands`` hands of ``spec`` self-play: (obs, legal, n)."""
    arr = rules.to_array()
    players = [spec, spec]
    from analyzer.run.records import policy_arrays
    pl = policy_arrays(players, arr)
    obs, legal, nleg = [], [], []
    for hand in range(hands):
        st = api.deal(arr, seed, hand)
        api.seed_policies(st.rngs, np.uint64(seed), hand)
        while not api.is_over(st):
            n, _ = api.legal_actions(arr, st)
            if n > 1:
                s = api.to_act(st)
                api.observe(arr, st, s)
                obs.append(st.obs[s].copy())
                legal.append(st.legal.copy())
                nleg.append(n)
                a = pl.policies[s](st.obs[s], st.legal, n, arr, pl.params[s], st.rngs[s], pl.seats[s])
            else:
                a = st.legal[0]
            api.apply(arr, st, a)
    return np.array(obs), np.array(legal), np.array(nleg, np.int64)


def main() -> None:
    """Time each part (module docstring) and print its share of a hand."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="ordinary", choices=["ordinary", "rubicon"])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rules = preset(args.variant)
    arr = rules.to_array()
    spec = resolve_policy("learned")
    obs, legal, nleg = decisions(rules, spec, args.hands, args.seed)
    data = spec.new_seat(arr)
    w = data.weights
    exact = np.array([is_exact_decision(o) for o in obs])
    print(f"{args.variant}: {args.hands} hands of learned self-play, {len(obs):,} decisions with a choice "
          f"({(~exact).sum():,} by the network, {exact.sum():,} by the exact solver; "
          f"{nleg[~exact].mean():.1f} actions on average at the network's)")
    simulate(rules, ["learned", "learned"], 50, args.seed, threads=1)          # compiled before timing
    t0 = time.perf_counter()
    simulate(rules, ["learned", "learned"], args.hands * args.repeat, args.seed, threads=1)
    whole = (time.perf_counter() - t0) / (args.hands * args.repeat)
    per_hand = {}
    for k, name in enumerate(PARTS):
        _time_parts(k, w, arr, obs[:10], legal[:10], nleg[:10], data, 1)     # compile
        # the solver keeps what it solved for the rest of a second stage: one pass, a fresh table
        repeat, seat = (1, spec.new_seat(arr)) if name == "exact second stage" else (args.repeat, data)
        t0 = time.perf_counter()
        _time_parts(k, w, arr, obs, legal, nleg, seat, repeat)
        per_hand[name] = (time.perf_counter() - t0) / (args.hands * repeat)
    print(f"a hand of learned self-play: {whole * 1e6:,.0f} µs ({1 / whole:,.0f} hands/s on one thread)")
    for name in PARTS:
        print(f"  {name:<32} {per_hand[name] * 1e6:9,.0f} µs a hand  {per_hand[name] / whole:6.1%}")
    rest = whole - per_hand["the whole first-stage decision"] - per_hand["exact second stage"]
    print(f"  {'the engine and the rest':<32} {rest * 1e6:9,.0f} µs a hand  {rest / whole:6.1%}")


if __name__ == "__main__":
    main()
