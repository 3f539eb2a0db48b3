"""Why the search lost to the policy it searched with, and the search that now beats it.

Writes results/search/:
- ``variance.csv``: at sampled first-stage decisions of learned self-play, every legal action
  searched with ``--samples`` samples (roll-outs by the tuned hints, no pruning): the gap between
  the two best actions, the spread of their paired difference and of one action's value, the
  samples a gap of two standard errors needs, and how often 32 samples pick the best of all
  ``--samples``;
- ``diagnosis.csv``: each suspect measured against ``hints:tuned-GAME`` on the same deals, seats
  swapped: more samples (variance), the other hand shown (``cheat-sees-hand``: what inference
  from the opponent's play could at best recover) and the last window solved exactly or rolled
  out (greedy roll-outs are the default ``expert``, a rung of the ladder; learned roll-outs are
  among the configurations below);
- ``configs.csv``: searches with the learned network as prior, against ``learned``: their
  advantage and speed (hands per second with the search in one seat, one thread);
- the markdown between the ``search`` markers of its page (results/search/README.md).

Example:
    bezique study search                            # the committed figures
    bezique study search --scale 0.05 --no-readme --out /tmp/search   # a quick look
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..engine import api
from ..engine import layout as L
from ..engine.rng import stream_state
from ..policies.expert import search
from ..policies.spec import resolve_policy
from ..rules import preset
from ..run.output import write_table
from .common import (
    RESULTS,
    ci,
    publish,
    read_tables,
    scaled_command,
    scaler,
    study_parser,
    table,
    timed_pair,
    with_other_games,
)

MARK = "search"
# (game, setting against hints:tuned-GAME, what it tests, deals); greedy roll-outs are the
# default expert, which the ladder measures (ladder.py)
DIAGNOSIS = [
    ("ordinary", "expert:plain,rollout=tuned-ordinary", "the search as it was: 32 samples, tuned roll-outs", 300),
    ("ordinary", "expert:plain,rollout=tuned-ordinary,samples=128", "variance: 4x the samples", 300),
    ("ordinary", "expert:plain,rollout=tuned-ordinary,tail=0", "the last window rolled out, not solved", 300),
    ("ordinary", "cheat-sees-hand:plain,guard=0,prior=3,rollout=tuned-ordinary,samples=32,switch=2,late=12", "inference: the other hand shown", 300),
    ("rubicon", "expert:plain,rollout=tuned-rubicon", "the search as it was: 32 samples, tuned roll-outs", 100),
    ("rubicon", "expert:plain,rollout=tuned-rubicon,samples=128", "variance: 4x the samples", 60),
    ("rubicon", "cheat-sees-hand:plain,guard=0,prior=3,rollout=tuned-rubicon,samples=32,switch=2,late=12", "inference: the other hand shown", 100),
]
# (game, search against learned, deals): the best (ladder.BEST_SEARCH), the last
# window alone, and searches of every decision
CONFIGS = [
    ("ordinary", "expert:plain,prior=3,rollout=tuned-ordinary,samples=48,switch=2,late=12", 1_000),
    ("ordinary", "expert:plain,prior=3,rollout=tuned-ordinary,samples=48,late=2", 1_000),
    ("ordinary", "expert:plain,prior=3,rollout=tuned-ordinary,samples=64,switch=2", 300),
    ("ordinary", "expert:plain,prior=3,rollout=learned,samples=16", 150),
    ("rubicon", "expert:plain,prior=3,rollout=tuned-rubicon,samples=32,switch=2,late=12", 600),
    ("rubicon", "expert:plain,prior=3,rollout=tuned-rubicon,samples=32,late=2", 600),
    ("rubicon", "expert:plain,prior=3,rollout=tuned-rubicon,samples=64,switch=2", 150),
]


def variance(game: str, hands: int, samples: int, seed: int, bar) -> dict:
    """Search every action of about one first-stage decision in seven of learned self-play with
    ``samples`` samples (tuned roll-outs, no pruning); the spread that decides a close call."""
    rules = preset(game)
    arr = rules.to_array()
    net = resolve_policy("learned")
    ex = resolve_policy(f"expert:plain,rollout=tuned-{game}")
    stream = np.array([stream_state(np.uint64(seed), 0, 99)], np.uint64)
    ex_params, ex_data, net_data = ex.params_for(arr), ex.new_seat(arr), net.new_seat(arr)
    pick = np.random.default_rng(seed)
    gap, sd_pair, sd_raw, agree = [], [], [], []
    for hand in range(hands):
        st = api.deal(arr, seed, hand)
        api.seed_policies(st.rngs, np.uint64(seed), hand)
        st.G[L.G_FULL_OBS] |= 0b11
        while not api.is_over(st):
            n, _ = api.legal_actions(arr, st)
            if n == 1:
                api.apply(arr, st, st.legal[0])
                continue
            s = api.to_act(st)
            api.observe(arr, st, s)
            obs = st.obs[s]
            if obs[L.OBS_STAGE] == 1 and obs[L.OBS_TALON_LEFT] > 2 and pick.random() < 0.15:
                _b, vals = search(arr, obs.copy(), st.legal[:n].copy(), n, ex_params, stream, (samples, 0.0),
                                  ex_data)
                m = vals.mean(0)
                a1, a2 = np.argsort(-m)[:2]
                gap.append(m[a1] - m[a2])
                sd_pair.append((vals[:, a1] - vals[:, a2]).std(ddof=1))
                sd_raw.append(vals[:, a1].std(ddof=1))
                agree.append(np.argmax(vals[:32].mean(0)) == a1)
            api.apply(arr, st, net.function(obs, st.legal, n, arr, net.params, st.rngs[s], net_data))
        bar.update(1)
    gap, sd_pair, sd_raw = np.array(gap), np.array(sd_pair), np.array(sd_raw)
    need = (2 * sd_pair / np.maximum(gap, 1e-9)) ** 2
    unit = 2.0 if game == "rubicon" else 1.0          # search values: the winner's score; compare's: twice it
    return {"game": game, "hands": hands, "decisions": len(gap), "samples": samples,
            "median_gap": unit * float(np.median(gap)), "median_sd_paired": unit * float(np.median(sd_pair)),
            "median_sd_one_action": unit * float(np.median(sd_raw)),
            "median_samples_needed": float(np.median(need)), "share_needing_over_32": float((need > 32).mean()),
            "share_needing_over_128": float((need > 128).mean()), "share_32_pick_best": float(np.mean(agree))}


def versus(game, a, b, deals, seed, bar) -> dict:
    """``a`` against ``b`` on ``deals`` deals, seats swapped, one thread; with its speed."""
    r = timed_pair(preset(game), a, b, deals, seed, 1, bar)
    dt = r["seconds"]
    return {"game": game, "policy": a, "against": b, "deals": deals, "seed": seed,
            **{k: r[k] for k in ("mean_diff", "mean_diff_lo", "mean_diff_hi")},
            "seconds": round(dt, 1), "hands_per_second": round(2 * deals / dt, 1)}


def markdown(var: pd.DataFrame, diag: pd.DataFrame, conf: pd.DataFrame, command: str) -> str:
    """The study's tables for its page."""
    lines = [f"Made by `{command}`; 95 % intervals; every comparison plays each deal twice with the seats "
             "swapped; ordinary figures in points per hand, Rubicon in net game points per game.", "",
             "How close the calls are (tuned roll-outs at decisions of learned self-play):", ""]
    lines += table(var, [("game", lambda r: r.game), ("decisions", lambda r: f"{int(r.decisions):,}"),
                         ("samples", lambda r: f"{int(r.samples)}"),
                         ("median gap, best two actions", lambda r: f"{r.median_gap:.1f}"),
                         ("median spread of their paired difference", lambda r: f"{r.median_sd_paired:.0f}"),
                         ("of one action's value", lambda r: f"{r.median_sd_one_action:.0f}"),
                         ("samples for gap = 2 SE (median)", lambda r: f"{r.median_samples_needed:,.0f}"),
                         ("needing > 32", lambda r: f"{r.share_needing_over_32:.0%}"),
                         ("32 samples pick the best", lambda r: f"{r.share_32_pick_best:.0%}")])
    speed = ("hands/s (one seat, one thread)", lambda r: f"{r.hands_per_second}")
    lines += ["", "Each suspect against the tuned hints:", ""]
    lines += table(diag, [("game", lambda r: r.game), ("setting", lambda r: f"`{r.policy}`"),
                          ("what it tests", lambda r: r.what), ("deals", lambda r: f"{int(r.deals):,}"),
                          ("against the tuned hints", ci), speed])
    lines += ["", "Searches with the learned network as prior, against `learned`:", ""]
    lines += table(conf, [("game", lambda r: r.game), ("search", lambda r: f"`{r.policy}`"),
                          ("deals", lambda r: f"{int(r.deals):,}"), ("against learned", ci), speed])
    return "\n".join(lines)


def main(argv=None) -> int:
    """Run the study (see the module docstring)."""
    ap = study_parser("search", __doc__, 20261203, str(RESULTS / "search"),
                      tables="only rebuild the markdown from the tables in --out",
                      games_help="the games to measure (one process per game keeps each on its own core)")
    ap.add_argument("--samples", type=int, default=128, help="samples per decision of the variance study")
    args = ap.parse_args(argv)
    out = Path(args.out)
    if not args.tables:
        measure(args, out)
    var, diag, conf = read_tables(out, "variance", "diagnosis", "configs")
    return publish(args, MARK, markdown(var, diag, conf, scaled_command("search", args.scale)),
                   "Search that improves on its policy")


def measure(args, out: Path) -> None:
    """Play the study's games and write its tables into ``out`` (rows of other games kept)."""
    scaled = scaler(args.scale)
    var_hands = {g: scaled(h) for g, h in (("ordinary", 40), ("rubicon", 12)) if g in args.games}
    diagnosis = [d for d in DIAGNOSIS if d[0] in args.games]
    configs = [c for c in CONFIGS if c[0] in args.games]
    total = (sum(var_hands.values()) + sum(2 * scaled(d) for *_x, d in diagnosis)
             + sum(2 * scaled(d) for *_x, d in configs))
    with tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr) as bar:
        var = pd.DataFrame([variance(g, h, args.samples, args.seed, bar) for g, h in var_hands.items()])
        diag = pd.DataFrame([{**versus(g, p, f"hints:tuned-{g}", scaled(d), args.seed, bar), "what": what}
                             for g, p, what, d in diagnosis])
        conf = pd.DataFrame([versus(g, p, "learned", scaled(d), args.seed, bar) for g, p, d in configs])
    for name, df in (("variance", var), ("diagnosis", diag), ("configs", conf)):
        df = with_other_games(df, out / f"{name}.csv", args.games)     # the other game's rows of an earlier run stay
        write_table(df.sort_values("game", kind="stable").reset_index(drop=True), out, name)


if __name__ == "__main__":
    raise SystemExit(main())
