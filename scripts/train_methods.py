"""Two ways to learn the network, measured side by side (docs/learned.md, "Why this method").

- ``rollouts`` (what ``bezique train`` does): at each first-stage decision every legal action is
  tried from the true state and played out by the teacher (hints:tuned-GAME); the network is
  fitted to the actions' advantages.
- ``dmc``: Deep Monte-Carlo as in DouZero (Zha et al. 2021): the network plays both seats
  (epsilon-greedy), and Q(s, a) of the action taken is fitted to the hand's final result.

Both use the same network, features, teacher's-choice input, optimiser and seed; each step
plays fresh hands and fits a window of recent samples. After every ``--eval-every`` steps the
network plays the teacher on held-out deals (seats swapped). Prints and writes
results/learned/methods.csv: per method and step, hands, samples, seconds and the result
against the teacher with its 95 % interval.

Example:
    python scripts/train_methods.py --game ordinary --steps 12        # ~6 min on one core
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from numba import njit

from analyzer.engine.batch import deal_hand
from analyzer.engine.hand import apply_once, to_act
from analyzer.engine.layout import MAX_TALON, OBS_SCORE
from analyzer.engine.policy_data import SeatData, seat_work
from analyzer.engine.rng import below, uniform
from analyzer.engine.state import new_state
from analyzer.learning.rollouts import LabelRun, Samples
from analyzer.learning.selfplay import BOTH_SEATS, match_chunk
from analyzer.learning.sgd import fit_epoch
from analyzer.learning.steps import hand_result, next_choice
from analyzer.learning.train import (
    DEFAULT_HINT_BONUS,
    EVAL_SEED_OFFSET,
    label_task,
    talon_at_deal,
    teacher_name,
    value_scale,
)
from analyzer.policies.features import CTX_W, MAX_ACTION_NZ, N_STATE, action_features, state_features
from analyzer.policies.hints import hints_policy
from analyzer.policies.learned_net import best_action
from analyzer.policies.network import init_weights, stored_teacher
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.run.output import write_table

ROOT = Path(__file__).resolve().parent.parent
NET, TEACHER = 0, 1          # who plays a seat in DMC: the network, or hints with the teacher's weights
MAX_SAMPLES_PER_HAND = 512


# Compiled at each run, not cached: numba's cache of a kernel is checked against its own file only, and
# the package drops the caches of its own kernels when the engine changes (analyzer/engine/__init__.py),
# not those of a script, which would go on running the engine's old code.
@njit(nogil=True)
def play_chunk(rules, run, w, who, teacher, out):
    """DMC's samples: play hands ``run.start`` .. ``run.start + run.count - 1`` of the run seeded
    ``run.seed`` (a LabelRun; its ``teacher_input`` is not read: the features always name the
    teacher's choice); seat s is played by ``who[s]`` (NET: the weights ``w``, TEACHER: hints with
    ``teacher``), each decision taken at random with probability ``run.eps`` (exploration), and
    each first-stage decision with a choice kept as a sample with probability ``run.keep``.

    A sample is the deciding seat's state features, the nonzero features of the action it took
    and, once the hand is over, the target: the seat's result minus the lead it held when it
    decided, in units of ``run.scale`` (ordinary: points per hand; Rubicon: net game points of
    the game, R3.9). The two-handed second stage is played by the exact solver and leaves none.
    Fills ``out`` (a Samples, one row per decision: ``row_dec`` is the row itself; its capacity
    bounds the samples kept) and returns how many."""
    st = new_state(False)
    deck = np.zeros(MAX_TALON, np.int32)
    dstate = np.zeros(1, np.uint64)
    data = SeatData(w, seat_work(True))
    idx = np.zeros(MAX_ACTION_NZ, np.int64)
    val = np.zeros(MAX_ACTION_NZ, np.float32)
    ctx = np.zeros(CTX_W, np.int64)
    cap = out.dec_xs.shape[0]
    seats = np.zeros(MAX_SAMPLES_PER_HAND, np.int64)
    lead = np.zeros(MAX_SAMPLES_PER_HAND, np.int64)
    rs = np.zeros(1, np.uint64)
    eps, keep = run.eps, run.keep
    n = 0
    for i in range(run.count):
        hand = run.start + i
        deal_hand(rules, st, run.seed, hand, deck, dstate)
        rs[0] = st.rngs[0, 0] ^ np.uint64(0x9E3779B97F4A7C15)    # exploration's own stream
        first = n
        while True:
            nleg = next_choice(rules, st, BOTH_SEATS, data)
            if nleg == 0:
                break
            s = to_act(st)
            obs = st.obs[s]
            if eps > 0 and uniform(rs) < eps:
                k = below(rs, nleg)
            elif who[s] == NET:
                k = best_action(w, obs, rules, st.legal, nleg, st.rngs[s], data)
            else:
                a = hints_policy(obs, st.legal, nleg, rules, teacher, st.rngs[s], data)
                k = 0
                while st.legal[k] != a:
                    k += 1
            a = st.legal[k]
            if n < cap and n - first < MAX_SAMPLES_PER_HAND and (keep >= 1 or uniform(rs) < keep):
                state_features(obs, rules, out.dec_xs[n], ctx)
                hint = hints_policy(obs, st.legal, nleg, rules, teacher, st.rngs[s], data)
                nz = action_features(obs, rules, ctx, a, hint, idx, val)
                for j in range(MAX_ACTION_NZ):
                    out.row_ai[n, j] = idx[j] if j < nz else -1
                    out.row_av[n, j] = val[j] if j < nz else 0.0
                out.row_dec[n] = n
                seats[n - first] = s
                lead[n - first] = obs[OBS_SCORE] - obs[OBS_SCORE + 1]
                n += 1
            apply_once(rules, st, a)
        r0 = hand_result(rules, st, run.rubicon, 0)
        for j in range(first, n):
            r = r0 if seats[j - first] == 0 else -r0
            out.row_y[j] = (r - lead[j - first]) / run.scale
    return n


def rollout_samples(ra, rubicon, seed, step, hands, w, teacher, scale):
    """One step of roll-out labels (behaviour: the teacher at step 0, then the network)."""
    keep = 0.5 if rubicon else 1.0
    run = LabelRun(rubicon, np.uint64(seed), step * hands, hands, 0.05, keep, scale, True)
    return label_task(ra, run, w if step > 0 else None, None, None, teacher)


def dmc_samples(ra, rubicon, seed, step, hands, w, teacher, scale):
    """One step of Monte-Carlo returns of the action taken (epsilon-greedy self-play)."""
    cap = hands * (160 if rubicon else 90)
    out = Samples(np.zeros((cap, N_STATE), np.float32), np.zeros(cap, np.int64),
                  np.zeros((cap, MAX_ACTION_NZ), np.int8), np.zeros((cap, MAX_ACTION_NZ), np.float32),
                  np.zeros(cap, np.float32))
    who = np.array([TEACHER, TEACHER] if step == 0 else [NET, NET])
    run = LabelRun(rubicon, np.uint64(seed), step * hands, hands, 0.1, 1.0, scale, True)
    n = play_chunk(ra, run, w, who, teacher, out)
    return tuple(a[:n] for a in out)


def run(method: str, game: str, steps: int, hands: int, window: int, eval_every: int, eval_deals: int,
        seed: int) -> list[dict]:
    """Train with ``method`` and return the learning-curve rows."""
    rules = preset(game)
    ra, rubicon, scale = rules.to_array(), rules.is_rubicon, value_scale(rules)
    teacher = stored_teacher(resolve_policy(teacher_name(game)).params)
    w = init_weights(np.random.default_rng([seed, 0]), teacher, DEFAULT_HINT_BONUS[game] / scale)
    m, v, t = np.zeros_like(w), np.zeros_like(w), 0
    make = rollout_samples if method == "rollouts" else dmc_samples
    parts, rows, seconds, samples = [], [], 0.0, 0
    out = np.zeros(eval_deals)
    for step in range(steps):
        t0 = time.monotonic()
        part = make(ra, rubicon, seed, step, hands, w, teacher, scale)
        parts = (parts + [part])[-window:]
        offsets = np.cumsum([0] + [p[0].shape[0] for p in parts[:-1]])
        xs = np.concatenate([p[0] for p in parts])
        rd = np.concatenate([p[1] + o for p, o in zip(parts, offsets)])
        ai, av, y = (np.concatenate([p[k] for p in parts]) for k in (2, 3, 4))
        order = np.random.default_rng([seed, step, 1]).permutation(y.size)[:3_000_000]
        t, loss = fit_epoch((w, m, v), t, Samples(xs, rd, ai, av, y), order, 256, 1e-3, talon_at_deal(rules))
        seconds += time.monotonic() - t0
        samples += part[4].size
        row = {"method": method, "game": game, "step": step + 1, "hands": (step + 1) * hands, "samples": samples,
               "seconds": round(seconds, 1), "loss": float(loss)}
        if (step + 1) % eval_every == 0 or step + 1 == steps:
            match_chunk(ra, rubicon, np.uint64(seed + EVAL_SEED_OFFSET), 0, eval_deals, w, teacher, out)
            half = 1.96 * out.std(ddof=1) / np.sqrt(eval_deals)
            row.update(vs_teacher=float(out.mean()), vs_teacher_lo=float(out.mean() - half),
                       vs_teacher_hi=float(out.mean() + half))
            print(f"{method} step {step + 1}: {samples:,} samples, {seconds:.0f} s: {out.mean():+.1f} "
                  f"[{out.mean() - half:+.1f}, {out.mean() + half:+.1f}] against {teacher_name(game)}", flush=True)
        rows.append(row)
    return rows


def main(argv=None) -> int:
    """Run both methods (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="ordinary", choices=["ordinary", "rubicon"])
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--rollout-hands", type=int, default=1000, help="hands per step of the roll-out method")
    ap.add_argument("--dmc-hands", type=int, default=3000, help="hands per step of DMC (cheaper per hand)")
    ap.add_argument("--eval-every", type=int, default=4)
    ap.add_argument("--eval-deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(ROOT / "results" / "learned"))
    args = ap.parse_args(argv)
    rows = []
    for method, hands, window in (("rollouts", args.rollout_hands, 40), ("dmc", args.dmc_hands, 3)):
        rows += run(method, args.game, args.steps, hands, window, args.eval_every, args.eval_deals, args.seed)
    write_table(pd.DataFrame(rows), args.out, f"methods-{args.game}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
