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

from analyzer.learning.rollouts import LabelRun
from analyzer.learning.train import _label_task
from analyzer.learning.selfplay import NET, TEACHER, match_chunk, play_chunk
from analyzer.learning.sgd import fit_epoch
from analyzer.learning.train import DEFAULT_HINT_BONUS, EVAL_SEED_OFFSET, value_scale
from analyzer.policies.features import MAX_ACTION_NZ, N_STATE
from analyzer.policies.network import init_weights
from analyzer.policies.registry import resolve_policy
from analyzer.rules import preset
from analyzer.run.output import write_table

ROOT = Path(__file__).resolve().parent.parent


def rollout_samples(ra, rubicon, seed, step, hands, w, teacher, scale):
    """One step of roll-out labels (behaviour: the teacher at step 0, then the network)."""
    keep = 0.5 if rubicon else 1.0
    run = LabelRun(rubicon, np.uint64(seed), step * hands, hands, 0.05, keep, scale, True)
    return _label_task(ra, run, w if step > 0 else None, None, None, teacher)


def dmc_samples(ra, rubicon, seed, step, hands, w, teacher, scale):
    """One step of Monte-Carlo returns of the action taken (epsilon-greedy self-play)."""
    cap = hands * (160 if rubicon else 90)
    xs = np.zeros((cap, N_STATE), np.float32)
    ai = np.zeros((cap, MAX_ACTION_NZ), np.int8)
    av = np.zeros((cap, MAX_ACTION_NZ), np.float32)
    who = np.array([TEACHER, TEACHER] if step == 0 else [NET, NET])
    n, y = play_chunk(ra, rubicon, np.uint64(seed), step * hands, hands, w, who, teacher, 0.1, 1.0, scale,
                      xs, ai, av)
    return xs[:n], np.arange(n), ai[:n], av[:n], y


def run(method: str, game: str, steps: int, hands: int, window: int, eval_every: int, eval_deals: int,
        seed: int) -> list[dict]:
    """Train with ``method`` and return the learning-curve rows."""
    rules = preset(game)
    ra, rubicon, scale = rules.to_array(), rules.is_rubicon, value_scale(rules)
    teacher = resolve_policy(f"hints:tuned-{game}").params.astype(np.float32).astype(np.float64)
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
        t, loss = fit_epoch(w, m, v, t, xs, rd, ai, av, y, order, 256, 1e-3, 0.0)
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
                  f"[{out.mean() - half:+.1f}, {out.mean() + half:+.1f}] against hints:tuned-{game}", flush=True)
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
