"""Train the second stage's value network (analyzer/policies/stage2_value.py) and write the
shipped model, analyzer/policies/learned/ordinary_stage2_value.npz.

Positions: the start of the second stage of ordinary hands of learned self-play (the shipped
ordinary model at both seats), deals 0 .. N-1 of each training seed; each labelled with the
exact solver's points still to come for the leader (endgame.state_value minus the score and
brisques made). A held-out seed measures the fit. Training: mean squared error, Adam, batches
of 512, the rate lowered by 15 % an epoch (numpy on the CPU; about a minute for 600,000
positions on this 2-core machine, the positions about a minute a seed).

    python -m analyzer.learning.stage2_training                    # the shipped model
    python -m analyzer.learning.stage2_training --positions 20000 --epochs 2 --out /tmp/v.npz
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from ..cards import card_id, rank_of, suit_of
from ..engine.batch import deal_hand
from ..engine.endgame import state_value
from ..engine.endgame_buffer import POS_W, SOLVER_BITS, new_solver
from ..engine.hand import apply_once, to_act
from ..engine.layout import G_LEADER, G_PHASE, G_STAGE, G_TRUMP, MAX_TALON, P_BRISQ, P_HAND, P_SCORE, PH_PLAY
from ..engine.play import next_move
from ..engine.policy_data import SeatData, seat_work
from ..engine.state import new_state
from ..policies.learned import load_model, shipped_model
from ..policies.learned_net import best_action
from ..policies.stage2_value import MODEL, SCALE, V_H1, V_H2, V_IN, V_WEIGHTS
from ..rules import R_BRISQUE_POINTS, preset

TRAIN_SEEDS = (1, 2, 3)
HELD_OUT_SEED = 4


@njit(cache=True)
def collect(rules, seed, count, w, hands, trump, value):
    """Deals 0 .. ``count``-1 of ``seed`` in learned self-play to the second stage's first lead:
    the leader's and the follower's hands, the trump and the exact points still to come for the
    leader. Returns how many hands reached it."""
    st = new_state(False)
    deck = np.zeros(MAX_TALON, np.int32)
    dstate = np.zeros(1, np.uint64)
    data = SeatData(w, seat_work(True))
    sv = new_solver(SOLVER_BITS)
    pos = np.zeros(POS_W, np.int64)
    k = 0
    for i in range(count):
        deal_hand(rules, st, seed, i, deck, dstate)
        while True:
            if st.G[G_STAGE] == 2 and st.G[G_PHASE] == PH_PLAY:
                ld = st.G[G_LEADER]
                for t in range(32):
                    hands[k, 0, t] = st.P[ld, P_HAND + t]
                    hands[k, 1, t] = st.P[1 - ld, P_HAND + t]
                trump[k] = st.G[G_TRUMP]
                made = ((st.P[ld, P_SCORE] - st.P[1 - ld, P_SCORE])
                        + rules[R_BRISQUE_POINTS] * (st.P[ld, P_BRISQ] - st.P[1 - ld, P_BRISQ]))
                value[k] = state_value(rules, st, ld, sv, pos) - made
                k += 1
                break
            nleg, _plays = next_move(rules, st)
            if nleg == 0:
                break
            s = to_act(st)
            a = st.legal[0] if nleg == 1 else st.legal[best_action(w, st.obs[s], rules, st.legal, nleg,
                                                                    st.rngs[s], data)]
            apply_once(rules, st, a)
    return k


def positions(seed: int, count: int):
    """(hands int8[n, 2, 32], trump int8[n], points to come float32[n]) of ``count`` deals."""
    w, _info = load_model(shipped_model("ordinary"), "ordinary")
    hands = np.zeros((count, 2, 32), np.int8)
    trump = np.zeros(count, np.int8)
    value = np.zeros(count, np.int32)
    k = collect(preset("ordinary").to_array(), np.uint64(seed), count, w, hands, trump, value)
    return hands[:k], trump[:k], value[:k].astype(np.float32)


def features(hands: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """The network's inputs (stage2_value.input_index, in numpy): float32[n, V_IN]."""
    t = np.arange(32)
    idx = card_id((suit_of(t)[None, :] - trump[:, None].astype(np.int64)) % 4, rank_of(t)[None, :])
    x = np.zeros((len(hands), V_IN), np.float32)
    rows = np.arange(len(hands))[:, None]
    for rel in range(2):
        x[rows, rel * 64 + idx] = hands[:, rel, :] >= 1
        x[rows, rel * 64 + 32 + idx] = hands[:, rel, :] >= 2
    return x


def forward(layers, x):
    """Every layer's output, the input first."""
    acts = [x]
    for i, (w, b) in enumerate(layers):
        z = acts[-1] @ w + b
        acts.append(np.maximum(z, 0) if i < len(layers) - 1 else z)
    return acts


def train(x, y, x_val, y_val, epochs, rate, seed):
    """Fit the network to ``y`` (points) by Adam; prints the held-out error each epoch."""
    rng = np.random.default_rng(seed)
    sizes = (V_IN, V_H1, V_H2, 1)
    layers = [(rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32), np.zeros(b, np.float32))
              for a, b in zip(sizes[:-1], sizes[1:])]
    params = [p for layer in layers for p in layer]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        for i in range(0, len(x) - 511, 512):
            batch = order[i:i + 512]
            acts = forward(layers, x[batch])
            g = 2 * (acts[-1] - y[batch, None] / SCALE) / len(batch)
            grads = []
            for li in range(len(layers) - 1, -1, -1):
                grads[:0] = [acts[li].T @ g, g.sum(0)]
                if li > 0:
                    g = (g @ layers[li][0].T) * (acts[li] > 0)
            step += 1
            for p, gp, mp, vp in zip(params, grads, m, v):
                mp *= 0.9
                mp += 0.1 * gp
                vp *= 0.999
                vp += 0.001 * gp * gp
                p -= rate * (mp / (1 - 0.9 ** step)) / (np.sqrt(vp / (1 - 0.999 ** step)) + 1e-8)
        err = forward(layers, x_val)[-1][:, 0] * SCALE - y_val
        print(f"epoch {epoch + 1}: held-out RMSE {np.sqrt(np.mean(err ** 2)):.2f} points, "
              f"mean absolute error {np.mean(np.abs(err)):.2f}", flush=True)
        rate *= 0.85
    return np.concatenate([layers[0][0].ravel(), layers[0][1], layers[1][0].ravel(), layers[1][1],
                           layers[2][0].ravel(), layers[2][1]]).astype(np.float32), err


def main(argv=None) -> None:
    """Collect the positions, train, and write the model (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m analyzer.learning.stage2_training", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=200_000, help="deals per training seed")
    ap.add_argument("--held-out", type=int, default=20_000, help="deals of the held-out seed")
    ap.add_argument("--epochs", type=int, default=16)
    ap.add_argument("--rate", type=float, default=0.002)
    ap.add_argument("--out", default=str(MODEL))
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    parts = [positions(s, args.positions) for s in TRAIN_SEEDS]
    hands, trump, y = (np.concatenate([p[i] for p in parts]) for i in range(3))
    h_val, t_val, y_val = positions(HELD_OUT_SEED, args.held_out)
    print(f"{len(y):,} training positions, {len(y_val):,} held out, in {time.perf_counter() - t0:.0f} s; "
          f"points to come: mean {y.mean():.1f}, standard deviation {y.std():.1f}")
    t1 = time.perf_counter()
    w, err = train(features(hands, trump), y, features(h_val, t_val), y_val, args.epochs, args.rate, seed=0)
    assert w.shape == (V_WEIGHTS,)
    rmse = float(np.sqrt(np.mean(err ** 2)))
    np.savez(args.out, weights=w, positions=len(y), seeds=",".join(map(str, TRAIN_SEEDS)),
             held_out_seed=HELD_OUT_SEED, held_out_rmse=rmse, held_out_mae=float(np.mean(np.abs(err))),
             held_out_sd=float(y_val.std()), epochs=args.epochs,
             seconds=round(time.perf_counter() - t0))
    print(f"trained in {time.perf_counter() - t1:.0f} s; wrote {args.out} (held-out RMSE {rmse:.2f} points "
          f"against a standard deviation of {y_val.std():.1f})")


if __name__ == "__main__":
    main()
