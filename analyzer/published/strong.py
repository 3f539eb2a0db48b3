"""Strong play by name, a stronger learned player and independent evidence (issue 33): writes
results/strong/ and the ``strong`` section of its page (results/strong/README.md).

- ``names.csv``: ``expert`` (the strongest search, by name) and a cheaper setting against
  ``learned``; the plain search rolling out with ``learned``, with its anchor (it keeps learned's
  choice unless another action is clearly better) and without; the search rolling out with the
  tuned hints against them;
- ``players.csv``: every player at the top against the tuned hints and against ``learned``:
  the learned player of round 1, players trained apart from it (another seed; in the ordinary
  game a network that never sees the tuned teacher's choice) and the best response to
  ``learned`` (the exploitability probe: what a player trained against the frozen ``learned``
  gains over it);
- ``statistics.csv``: each of them in self-play, the statistics side by side (totals, double
  and treble bézique, rubicon rates, the worth of a brisque), and on its page which
  agree across the independent players (the game's) and which do not (the players').

Every comparison plays each deal twice with the seats swapped, on deals of a seed no training,
tuning or choice of settings played (20261211); intervals are 95 %.

Example:
    bezique study strong                          # the committed figures (about 40 minutes a game on one core)
    bezique study strong --scale 0.05 --no-readme --out /tmp/strong
    bezique study strong --games rubicon      # one game again; the other's rows are kept
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..policies.learned import shipped_model
from ..rules import preset
from ..run.backends import thread_count
from ..run.output import write_table
from .common import (
    RESULTS,
    ROOT,
    ci,
    publish,
    read_tables,
    scaled_command,
    scaler,
    study_parser,
    table,
    timed_pair,
    unit,
    weights_policy,
    with_other_games,
)
from .ladder import statistics

MARK = "strong"
TRAIN = RESULTS / "train"
STUDY_SEED = 20261211      # deals no training, tuning or choice of settings played
# (game, label, policy A, policy B, deals): the names, a cheaper setting, and the anchor's worth
# (the plain search with learned roll-outs, with its anchor and without: unanchored it lost to
# learned before), and the anchor on another policy (the tuned hints' roll-outs)
NAMES = [(game, label, a.format(game=game), b.format(game=game), deals)
         for game, scale in (("ordinary", 1.0), ("rubicon", 0.3)) for label, a, b, deals in (
             ("expert (the strongest search)", "expert", "learned", int(2_000 * scale)),
             ("expert:samples=16 (a cheaper search)", "expert:samples=16", "learned", int(1_000 * scale)),
             # the plain search searches every decision: a few seconds a Rubicon game
             ("plain search rolling out with learned, anchored", "expert:plain,rollout=learned", "learned",
              150 if game == "ordinary" else 50),
             ("the same without the anchor", "expert:plain,rollout=learned,guard=0", "learned",
              150 if game == "ordinary" else 50),
             ("expert rolling out with the tuned hints, anchored", "expert:rollout=tuned-{game}", "hints:tuned-{game}",
              int(1_000 * scale)))]
# the players at the top besides the shipped learned player: (label, run directory under results/train)
RUNS = {"ordinary": [("learned, round 1", "ordinary"), ("independent, round 1", "ordinary-independent"),
                     ("independent, round 2", "ordinary-independent-round2"),
                     ("best response to learned", "ordinary-br")],
        "rubicon": [("learned, round 1", "rubicon"), ("independent, round 1", "rubicon-independent"),
                    ("independent, round 2", "rubicon-independent-round2")]}
# the player whose agreement with learned is evidence about the game: trained apart from it
# (another seed; in the ordinary game never the tuned teacher's choice) and as strong (its round
# 1 is not at the top: it loses 45 points a hand to learned, and is shown but not counted)
INDEPENDENT = ("independent, round 2",)
NEAR = 0.05          # "the game's, to within 5 %": every difference's interval inside ±5 % of learned's value


def models(game: str) -> list[tuple[str, str]]:
    """(label, policy) of each player at the top of ``game`` whose model is on disk: ``learned``
    (the shipped model) first, then the other runs of RUNS that are not the shipped model itself."""
    out = [("learned", "learned")]
    for label, run in RUNS[game]:
        path = TRAIN / run / "model.npz"
        if path.is_file() and path.read_bytes() != shipped_model(game).read_bytes():
            out.append((label, weights_policy(path)))
    return out


def pair(game, label, a, b, deals, seed, threads, bar) -> dict:
    """compare_pair's row for A against B, labelled, with the seconds it took."""
    r = timed_pair(preset(game), a, b, deals, seed, threads, bar)
    return {"game": game, "player": label, **r, "seconds": round(r["seconds"], 1), "threads": thread_count(threads)}


def seconds_label(names: pd.DataFrame) -> str:
    """The seconds column's heading: with the threads the comparisons ran on, when the table says."""
    threads = names["threads"].dropna().unique() if "threads" in names else []
    return f"seconds ({int(threads[0])} threads)" if len(threads) == 1 else "seconds"


def _statistics_cells(r) -> list[str]:
    """One self-play row's figures: totals, bézique rates, Rubicon's figures, brisques."""
    rub = r.game == "rubicon"
    return [ci(r, "mean_total", "{:.0f}"), ci(r, "double_bezique_rate", "{:.2f}", 100),
            *((ci(r, "treble_bezique_rate", "{:.3f}", 100), ci(r, "rubicon_rate", "{:.1f}", 100),
               ci(r, "winner_game_score", "{:.0f}")) if rub else ("–", "–", "–")),
            ci(r, "margin_per_brisque", "{:.1f}")]


def markdown(names: pd.DataFrame, players: pd.DataFrame, stats: pd.DataFrame, command: str) -> str:
    """The study's tables for its page."""
    lines = [f"Made by `{command}` (seed {int(names.seed.iloc[0])}: deals no "
             "training, tuning or choice of settings played), each deal played twice with the seats swapped; "
             "95 % intervals.", "", "**The names**: `expert` is the strongest search by name; a search that rolls "
             "out with `learned` keeps its choice unless it finds one clearly better.", ""]
    lines += table(names, [("game", lambda r: r.game), ("player", lambda r: r.player),
                           ("policy", lambda r: f"`{r.policy_a}`"), ("against", lambda r: f"`{r.policy_b}`"),
                           ("deals", lambda r: f"{int(r.deals):,}"),
                           ("advantage", lambda r: f"{ci(r)} {unit(r.game)}"),
                           (seconds_label(names), lambda r: f"{r.seconds:.0f}")])
    lines += ["", "**The players at the top**, against the tuned hints and against `learned`:", ""]
    lines += table(players, [("game", lambda r: r.game), ("player", lambda r: r.player),
                             ("against", lambda r: f"`{r.policy_b}`"), ("deals", lambda r: f"{int(r.deals):,}"),
                             ("advantage", lambda r: f"{ci(r)} {unit(r.game)}")])
    if len(stats):
        lines += ["", "**Their statistics side by side** (self-play, both seats the same player):", ""]
        lines += table(stats, [("game", lambda r: r.game), ("player", lambda r: r.player),
                               ("hands", lambda r: f"{int(r.hands):,}"),
                               *((h, (lambda i: lambda r: _statistics_cells(r)[i])(i)) for i, h in enumerate(
                                   ("mean total per seat", "double bézique %", "treble bézique %", "rubicon rate %",
                                    "winner's game score", "margin per brisque")))])
    agree = agreement(stats)
    if len(agree):
        lines += ["", "**What agrees across independent players** and what does not: each statistic of "
                  "`learned` beside the players trained apart from it "
                  f"({', '.join(INDEPENDENT)}: another seed, as strong): {SAME_ALL} where the difference's "
                  "95 % interval (half-widths added in quadrature) holds 0, the same within 5 % where "
                  f"that interval lies inside ±5 % of `learned`'s value, else {DIFFERS_ALL}. The tuned hints "
                  "beside them show how far strength moves it.", ""]
        lines += table(agree, [(h, (lambda k: lambda r: r[k])(k)) for h, k in (
            ("game", "game"), ("statistic", "statistic"), ("learned", "learned"),
            ("independent players", "independent"), ("hints:tuned", "hints"),
            ("largest difference", "largest_difference"), ("whose", "whose"))])
    return "\n".join(lines)


STATISTICS = (("mean_total", "mean total per seat", "{:.0f}", 1), ("double_bezique_rate", "double bézique %", "{:.2f}", 100),
              ("treble_bezique_rate", "treble bézique %", "{:.3f}", 100), ("rubicon_rate", "rubicon rate %", "{:.1f}", 100),
              ("winner_game_score", "winner's game score", "{:.0f}", 1),
              ("margin_per_brisque", "margin per brisque", "{:.1f}", 1))


SAME_ALL = "the same for every strong player"
DIFFERS_ALL = "differs between strong players"


def whose(diffs: list, near: float) -> str:
    """:data:`SAME_ALL` when every difference's interval (lo, hi) holds 0, the same "within 5 %"
    when each lies inside ±``near``, else :data:`DIFFERS_ALL`."""
    if all(lo <= 0 <= hi for _a, _d, lo, hi in diffs):
        return SAME_ALL
    if all(-near <= lo and hi <= near for _a, _d, lo, hi in diffs):
        return f"{SAME_ALL}, within {NEAR * 100:.0f} %"
    return DIFFERS_ALL


def agreement(stats: pd.DataFrame) -> pd.DataFrame:
    """Per game and statistic: ``learned``'s value, the independent players' (INDEPENDENT), the
    tuned hints', the largest difference from ``learned`` with its interval, and whose it is
    (:func:`whose`, over every independent player's difference from ``learned``)."""
    rows = []
    for game in stats.game.unique():
        g = stats[stats.game == game].set_index("player")
        others = [p for p in INDEPENDENT if p in g.index]
        if "learned" not in g.index or not others:
            continue
        hints = f"hints:tuned-{game}"
        for key, label, fmt, scale in STATISTICS:
            if key not in g.columns or pd.isna(g.loc["learned", key]):
                continue
            ref = g.loc["learned"]
            diffs = []
            for p in others:
                d = g.loc[p, key] - ref[key]
                half = np.hypot(g.loc[p, key + "_hi"] - g.loc[p, key], ref[key + "_hi"] - ref[key])
                diffs.append((abs(d), d, d - half, d + half))
            _a, d, lo, hi = max(diffs)
            near = NEAR * abs(ref[key])
            rows.append({"game": game, "statistic": label, "learned": ci(ref, key, fmt, scale),
                         "independent": "; ".join(f"{ci(g.loc[p], key, fmt, scale)} ({p})" for p in others),
                         "hints": ci(g.loc[hints], key, fmt, scale) if hints in g.index else "–",
                         "largest_difference": f"{fmt.format(scale * d)} [{fmt.format(scale * lo)}, {fmt.format(scale * hi)}]",
                         "whose": whose(diffs, near)})
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    """Run the study (see the module docstring)."""
    ap = study_parser("strong", __doc__, STUDY_SEED, str(RESULTS / "strong"),
                      tables="only write the markdown from the tables in --out")
    args = ap.parse_args(argv)
    out = Path(args.out).resolve()
    os.chdir(ROOT)           # the models are named relative to the repository (learned:weights=results/...)
    if not args.tables:
        measure(args, out)
    names, players, stats = read_tables(out, "names", "players", "statistics")
    return publish(args, MARK, markdown(names, players, stats, scaled_command("strong", args.scale)),
                   "Strong play by name, a stronger learned player, and independent evidence")


def measure(args, out: Path) -> None:
    """Play every comparison and the self-play statistics; write their tables into ``out``."""
    scaled = scaler(args.scale)
    vs = {"ordinary": (20_000, 5_000), "rubicon": (5_000, 2_000)}     # deals: against the tuned hints, learned
    self_play = {"ordinary": 100_000, "rubicon": 20_000}
    expert_hands = {"ordinary": 2_000, "rubicon": 400}
    names = [n for n in NAMES if n[0] in args.games]
    jobs = []
    for game in args.games:
        for label, p in models(game):
            jobs.append((game, label, p, f"hints:tuned-{game}", scaled(vs[game][0])))
            if p != "learned":
                jobs.append((game, label, p, "learned", scaled(vs[game][1])))
    stat_hands = {g: {label: scaled(self_play[g]) for label, _p in models(g)} for g in args.games}
    for g in args.games:
        stat_hands[g].update({"expert": scaled(expert_hands[g]), f"hints:tuned-{g}": scaled(self_play[g])})
    total = sum(2 * scaled(n) for *_x, n in names) + sum(2 * n for *_x, n in jobs)
    total += sum(sum(h.values()) for h in stat_hands.values())
    with tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr) as bar:
        name_rows = [pair(g, label, a, b, scaled(n), args.seed, args.threads, bar) for g, label, a, b, n in names]
        player_rows = [pair(g, label, a, b, n, args.seed, args.threads, bar) for g, label, a, b, n in jobs]
        stats = []
        for game in args.games:
            players = models(game) + [("expert", "expert"), (f"hints:tuned-{game}", f"hints:tuned-{game}")]
            stats += statistics(game, players, stat_hands[game], args.seed, args.threads, bar)
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in (("names", name_rows), ("players", player_rows), ("statistics", stats)):
        df = pd.DataFrame(rows)
        df["seed"] = args.seed
        old = out / f"{name}.csv"
        if old.is_file():                 # the other games' rows of an earlier run stay
            df = with_other_games(df, old, args.games)
            df = df.sort_values("game", key=lambda g: g.map({"ordinary": 0, "rubicon": 1}),
                                kind="stable").reset_index(drop=True)
        write_table(df, out, name)


if __name__ == "__main__":
    raise SystemExit(main())
