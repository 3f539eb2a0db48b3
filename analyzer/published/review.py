"""What the review says of the project's own players, and whether its parts add up (issue 57):
writes results/review/ and the baselines the review compares a seat's play with.

- ``baselines.csv``: per game, player (``learned``, ``hints:tuned-GAME``, ``greedy``, each in
  self-play on the first deals of the seed) and kind of position (the decision and the stage):
  the decisions reviewed and what the move played lost against the search's choice, per decision,
  with its 95 % interval (both seats of every hand reviewed at the review's default settings);
  also each player over all its decisions. The review ranks the players as head-to-head play does
  when greedy loses more than the tuned hints and they more than learned, each interval apart.
  The same figures are shipped in the package (analyzer/studies/position/baselines.json): a
  review says where a seat's play stands against them, on positions of the same kinds.
- ``luck.csv``: ``--luck-hands`` hands of learned self-play in the ordinary game, both seats
  reviewed: each hand's result and its parts (the deal, what came between the seat's decisions,
  what the play cost, what is left). The parts add up to the result hand by hand. In a finished
  two-handed hand what is left is nothing (the last decisions are exact), so the check that the
  values mean what they say is another: at each first-stage decision valued by samples, the result
  less the value of the move played averages zero (``calibration``: per hand and seat, the mean
  over its decisions; then over the hands, with its 95 % interval). The samples are played out by
  the learned player at both seats, as the hands were played, so a bias there would be the search's
  (the hidden cards drawn as if at random, where the other seat's play tells more).

Example:
    bezique study review                               # ~40 min on 2 cores
    bezique study review --scale 0.1 --no-readme       # a quick look
"""
from __future__ import annotations

import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from ..hands.hand_json import replay_json
from ..hands.handlog import play_spec
from ..hands.replay_file import dealt_spec, parse_replay
from ..numbers import difference, points
from ..rules import preset
from ..run.output import atomic_write, write_table
from ..studies.position.review import BASELINES, REVIEW_SAMPLES, review_record
from ..tables.stats import mean_ci
from .common import RESULTS, ci, scaled_command, scaler, study_parser, table, write_section

SEED = 20261257
PLAYERS = ("learned", "hints:tuned-{game}", "greedy")
HANDS = {"ordinary": 24, "rubicon": 12}          # hands per player (both seats reviewed)
LUCK_HANDS = 500
LUCK_SAMPLES = 64                                  # the luck check's samples per decision (its figures are means)
MARK = "review"


def record(game: str, player: str, seed: int, hand: int):
    """Hand number ``hand`` of seed ``seed`` played by ``player`` at both seats, as a full record."""
    rules = preset(game)
    out = play_spec(dealt_spec(rules, seed, hand), [player, player], seed=seed, hand=hand)
    return parse_replay(replay_json(out))


def review_job(job: tuple) -> list[dict]:
    """One hand's review of both seats: a row per decision (job: game, player, hand, seed, samples)."""
    game, player, hand, seed, samples = job
    spec = record(game, player, seed, hand)
    rows = []
    for seat in (0, 1):
        r = review_record(spec, seat, samples, seed)
        rows += [{"game": game, "player": player, "hand": hand, "seat": seat, "kind": d.kind, "loss": d.cost,
                  "value": d.played_value, "sampled": not d.exact and d.stage == 1, "result": r.result,
                  "deal": r.deal, "between": r.between, "cost": r.cost, "left": r.left}
                 for d in r.decisions]
    return rows


def run_jobs(jobs: list, threads: int | None, desc: str) -> pd.DataFrame:
    """Every job's rows, the jobs spread over processes (a review is one thread's work)."""
    rows = []
    with ProcessPoolExecutor(max_workers=threads or 2) as pool, tqdm(total=len(jobs), desc=desc,
                                                                     file=sys.stderr) as bar:
        for out in pool.map(review_job, jobs):
            rows += out
            bar.update(1)
    return pd.DataFrame(rows)


def baselines(rows: pd.DataFrame) -> pd.DataFrame:
    """Per game, player and kind (and ``all``): decisions and the loss per decision with its 95 %
    interval."""
    out = []
    for (game, player), g in rows.groupby(["game", "player"], sort=False):
        for kind, k in [("all", g), *g.groupby("kind")]:
            v = k.loss.to_numpy(dtype=float)
            mean, lo, hi = (float(x) for x in mean_ci(v.sum(), (v * v).sum(), len(v)))
            out.append({"game": game, "player": player, "kind": kind, "decisions": len(k), "loss": mean,
                        "loss_lo": lo, "loss_hi": hi})
    return pd.DataFrame(out)


PARTS = {"result": "the result", "deal": "what the deal gave", "between": "what came between the decisions",
         "cost": "what the play cost", "left": "what is left"}


def luck(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per reviewed hand and seat: its result and parts, and ``calibration``: the mean
    over its first-stage decisions valued by samples of the result less the value of the move
    played (NaN where it has none)."""
    sampled = rows[rows.sampled]
    calib = (sampled.result - sampled.value).groupby([sampled.hand, sampled.seat]).mean().rename("calibration")
    per = rows.drop_duplicates(["hand", "seat"]).set_index(["hand", "seat"])[list(PARTS)]
    return per.join(calib).reset_index()


def luck_summary(df: pd.DataFrame) -> list[dict]:
    """Each part's mean over the hands with its 95 % interval, the largest gap between a hand's
    parts and its result, and the calibration's mean."""
    out = []
    for key, words in [*PARTS.items(), ("calibration", "the result less the value of the move played "
                                                      "(first-stage decisions valued by samples)")]:
        v = df[key].dropna().to_numpy(dtype=float)
        mean, lo, hi = (float(x) for x in mean_ci(v.sum(), (v * v).sum(), len(v)))
        out.append({"part": key, "words": words, "mean": mean, "mean_lo": lo, "mean_hi": hi})
    gap = float((df.deal + df.between - df.cost + df.left - df.result).abs().max())
    out.append({"part": "gap", "words": "the parts less the result, the largest over the hands",
                "mean": gap, "mean_lo": gap, "mean_hi": gap})
    return out


def markdown(base: pd.DataFrame, summary: list, hands: int, made_by: str) -> str:
    """The study's page section."""
    lines = [f"Made by `{made_by}` (seed {SEED}; {REVIEW_SAMPLES} samples a decision for the players, "
             f"{LUCK_SAMPLES} for the {hands:,} hands of the luck check). Losses are what the move played lost "
             "against the search's choice, per decision with a choice, 95 % intervals.", "",
             "**Each player's loss per decision** (both seats of each hand reviewed):", ""]
    lines += table(base[base.kind == "all"], [("game", lambda r: r.game), ("player", lambda r: r.player),
                                              ("decisions", lambda r: f"{r.decisions:,}"),
                                              ("lost per decision", lambda r: ci(r, "loss"))])
    lines += ["", f"**The luck check** ({hands:,} hands of `learned` self-play, ordinary, both seats reviewed): "
              "each part's mean over the hands, in points. The parts add up to the result hand by hand; the "
              "values mean what they say where the result less the value of the move played averages zero.", ""]
    lines += table(summary, [("part", lambda r: r["words"]),
                             ("mean over the hands", lambda r: difference(r["mean"], r["mean_lo"], r["mean_hi"])
                              if r["part"] != "gap" else points(r["mean"]))])
    return "\n".join(lines)


def main(argv=None) -> int:
    """Run the study (see the module docstring)."""
    ap = study_parser("review", __doc__, SEED, str(RESULTS / "review"))
    ap.add_argument("--luck-hands", type=int, default=LUCK_HANDS)
    args = ap.parse_args(argv)
    scale, out = scaler(args.scale), Path(args.out)
    jobs = [(g, p.format(game=g), h, args.seed, REVIEW_SAMPLES) for g in args.games for p in PLAYERS
            for h in range(scale(HANDS[g]))]
    base = baselines(run_jobs(jobs, args.threads, "players"))
    write_table(base, out, "baselines")
    lk = luck(run_jobs([("ordinary", "learned", h, args.seed + 1, LUCK_SAMPLES)
                        for h in range(scale(args.luck_hands))], args.threads, "luck"))
    write_table(lk, out, "luck")
    summary = luck_summary(lk)
    if not args.no_readme:
        shipped = {f"{r.game}|{r.player}|{r.kind}": [r.decisions, r.loss, r.loss_lo, r.loss_hi]
                   for r in base.itertuples()}
        atomic_write(BASELINES, lambda p: Path(p).write_text(json.dumps(shipped, indent=1) + "\n"))
    text = markdown(base, summary, len(lk) // 2, scaled_command("review", args.scale))
    if not args.no_readme:
        write_section(out, MARK, text, "The review's baselines and its luck check",
                      title="The review: the players' losses, and luck apart from skill")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
