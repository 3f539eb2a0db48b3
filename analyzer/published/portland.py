"""Rubicon before and after R3.6 by the Portland Club's laws: self-play of each policy under
``redeclare=replace`` (the earlier reading) and ``redeclare=portland`` (the preset), on the same
deals, and how the tuned Rubicon hints fare against hand-set hints under each.

Writes results/portland/: ``before_after.csv`` (one row per policy and reading: mean totals,
rubicon rate, drawn games, declarations per game by combination, the share made of table cards
alone), ``tuned.csv`` (hints:tuned-rubicon against hints, net game points per deal, seats
swapped) and the markdown table between the ``portland`` markers of its page (results/portland/README.md).

Example:
    bezique study portland                       # 100,000 games; expert 1,000
    bezique study portland --games 20000 --expert-games 200
"""
from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

from ..cards import COMBO_NAMES
from ..rules import preset
from ..run.output import write_table
from ..studies.play.compare import compare
from ..studies.play.simulate import simulate
from ..tables.stats import TABLE_ONLY, wilson_ci
from .common import RESULTS, ci, command, parser, table, write_section

READINGS = ("replace", "portland")
POLICIES = ("hints", "hints:tuned-rubicon", "expert:plain")
MARK = "portland"


def self_play(policy: str, reading: str, games: int, seed: int, threads) -> dict:
    """One row: ``policy`` against itself under ``redeclare=reading``."""
    rules = preset("rubicon", redeclare=reading)
    res = simulate(rules, [policy, policy], games, seed, threads=threads)
    t = res.tallies
    summary, rub, decl = res.tables["summary"], res.tables["rubicon"], res.tables["declarations"]
    n_decl = int(t.declarations.sum())
    table, tlo, thi = wilson_ci(int(t.table_declarations.sum()), max(n_decl, 1))
    row = {"policy": policy, "redeclare": reading, "games": games, "seed": seed,
           "mean_total": float(summary.mean_score.mean()),
           "mean_total_lo": float(summary.mean_score_lo.mean()),
           "mean_total_hi": float(summary.mean_score_hi.mean()),
           "rubicon_rate": float(rub.rubicon_rate[0]), "rubicon_rate_lo": float(rub.rubicon_rate_lo[0]),
           "rubicon_rate_hi": float(rub.rubicon_rate_hi[0]),
           "drawn_games": int(t.game_draws), "draws_per_100k": 1e5 * int(t.game_draws) / games,
           "declarations_per_game": n_decl / games / 2,
           "table_only_share": float(table), "table_only_share_lo": float(tlo),
           "table_only_share_hi": float(thi),
           "winner_game_score": float(rub.winner_game_score[0])}
    per_seat = decl.drop(index=TABLE_ONLY, errors="ignore").mean(axis=1)
    for c in COMBO_NAMES:
        row[f"per_game_{c}"] = float(per_seat.get(c, 0.0))
    return row


def tuned_against_hints(reading: str, deals: int, seed: int, threads) -> dict:
    """hints:tuned-rubicon against hints on ``deals`` deals, seats swapped, under ``reading``."""
    cmp = compare(preset("rubicon", redeclare=reading), ["hints:tuned-rubicon", "hints"], deals, seed,
                  threads=threads)
    r = cmp.pairs.iloc[0]
    return {"redeclare": reading, "deals": deals, "seed": seed, "mean_diff": float(r.mean_diff),
            "mean_diff_lo": float(r.mean_diff_lo), "mean_diff_hi": float(r.mean_diff_hi)}


def markdown(rows: pd.DataFrame, tuned: pd.DataFrame, command: str) -> str:
    """The table of its page: each figure replace -> portland, per policy."""
    figures = [("games per reading", lambda r: f"{int(r.games):,}"),
               ("mean total per seat (without brisques)", lambda r: ci(r, "mean_total", "{:.0f}")),
               ("rubicon rate", lambda r: ci(r, "rubicon_rate", "{:.2f}", 100) + " %"),
               ("drawn games per 100,000", lambda r: f"{r.draws_per_100k:.1f}"),
               ("winner's mean game score", lambda r: f"{r.winner_game_score:.0f}"),
               ("declarations per seat and game", lambda r: f"{r.declarations_per_game:.2f}"),
               ("share made of table cards alone", lambda r: ci(r, "table_only_share", "{:.1f}", 100) + " %")]
    figures += [(f"{c} per seat and game", lambda r, c=c: f"{r[f'per_game_{c}']:.2f}")
                for c in COMBO_NAMES if rows[f"per_game_{c}"].max() >= 0.005]

    def change(policy, cell) -> str:
        a, b = (rows[(rows.policy == policy) & (rows.redeclare == r)].iloc[0] for r in READINGS)
        return f"{cell(a)} → {cell(b)}"

    lines = [f"Made by `{command}`: self-play, the same deals under both readings; intervals 95 %. "
             "Draws are counted by R3.9 as now read (Law 61); before it was revised, those games "
             "went to the winner of the last trick.", ""]
    lines += table(figures, [("", lambda f: f[0]),
                             *((f"`{p}`", (lambda p: lambda f: change(p, f[1]))(p)) for p in POLICIES)])
    lines += ["", "`hints:tuned-rubicon` (the preset in the package, tuned under `portland`) against hand-set "
              "`hints`, net game points per deal, seats swapped:", ""]
    for _, t in tuned.iterrows():
        lines.append(f"- `redeclare={t.redeclare}`: {ci(t)} ({int(t.deals):,} deals, seed {int(t.seed)})")
    return "\n".join(lines)


def main(argv=None) -> None:
    """Play each policy under both readings and write the tables (see the module docstring)."""
    np.seterr(all="ignore")
    ap = parser("portland", __doc__, seed=1, threads=True)
    ap.add_argument("--games", type=int, default=100_000, help="games of self-play per policy and reading")
    ap.add_argument("--expert-games", type=int, default=1_000)
    ap.add_argument("--tuned-deals", type=int, default=50_000)
    ap.add_argument("--markdown-only", action="store_true",
                    help="only rewrite the page's table from results/portland's tables")
    args = ap.parse_args(argv)
    out = RESULTS / "portland"
    made_by = command("portland", "--games", str(args.games), "--expert-games", str(args.expert_games),
                      "--tuned-deals", str(args.tuned_deals), "--seed", str(args.seed))
    if args.markdown_only:
        publish(pd.read_csv(out / "before_after.csv", index_col=0), pd.read_csv(out / "tuned.csv", index_col=0),
                made_by)
        return
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for policy in POLICIES:
        for reading in READINGS:
            t0 = time.perf_counter()
            games = args.expert_games if policy == "expert:plain" else args.games
            rows.append(self_play(policy, reading, games, args.seed, args.threads))
            print(f"{policy} {reading}: {games:,} games in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    rows = pd.DataFrame(rows)
    tuned = pd.DataFrame([tuned_against_hints(r, args.tuned_deals, args.seed + 1, args.threads) for r in READINGS])
    write_table(rows, out, "before_after")
    write_table(tuned, out, "tuned")
    publish(rows, tuned, made_by)


def publish(rows: pd.DataFrame, tuned: pd.DataFrame, command: str) -> None:
    """Write the table between its markers of results/portland's page and print it."""
    text = markdown(rows, tuned, command)
    write_section(RESULTS / "portland", MARK, text, "Rubicon by the Portland Club's laws (before → after)")
    print(text)


if __name__ == "__main__":
    raise SystemExit(main())
