"""Rubicon before and after R3.6 by the Portland Club's laws: self-play of each policy under
``redeclare=replace`` (the earlier reading) and ``redeclare=portland`` (the preset), on the same
deals, and how the tuned Rubicon hints fare against hand-set hints under each.

Writes results/portland/: ``before_after.csv`` (one row per policy and reading: mean totals,
rubicon rate, drawn games, declarations per game by combination, the share made of table cards
alone), ``tuned.csv`` (hints:tuned-rubicon against hints, net game points per deal, seats
swapped) and the markdown table between the ``portland`` markers of results/README.md.

Example:
    python scripts/portland_study.py                       # 100,000 games; expert 1,000
    python scripts/portland_study.py --games 20000 --expert-games 200
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer import compare, preset, simulate
from analyzer.cards import COMBO_NAMES
from analyzer.tables.stats import interval_text
from analyzer.run.output import write_table
from analyzer.tables.stats import TABLE_ONLY, wilson_ci

ROOT = Path(__file__).resolve().parent.parent
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


def _ci(row, key, fmt="{:.1f}", scale=1.0) -> str:
    return interval_text(row, key, fmt, scale)


def markdown(rows: pd.DataFrame, tuned: pd.DataFrame, command: str) -> str:
    """The table of results/README.md: each figure replace -> portland, per policy."""
    head = "| | " + " | ".join(f"`{p}`" for p in POLICIES) + " |"
    lines = [f"Made by `{command}`: self-play, the same deals under both readings; intervals 95 %. "
             "Draws are counted by R3.9 as now read (Law 61); before it was revised, those games "
             "went to the winner of the last trick.", "", head, "|---" * (len(POLICIES) + 1) + "|"]

    def line(label, cell):
        cells = []
        for p in POLICIES:
            a, b = (rows[(rows.policy == p) & (rows.redeclare == r)].iloc[0] for r in READINGS)
            cells.append(f"{cell(a)} → {cell(b)}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    line("games per reading", lambda r: f"{int(r.games):,}")
    line("mean total per seat (without brisques)", lambda r: _ci(r, "mean_total", "{:.0f}"))
    line("rubicon rate", lambda r: _ci(r, "rubicon_rate", "{:.2f}", 100) + " %")
    line("drawn games per 100,000", lambda r: f"{r.draws_per_100k:.1f}")
    line("winner's mean game score", lambda r: f"{r.winner_game_score:.0f}")
    line("declarations per seat and game", lambda r: f"{r.declarations_per_game:.2f}")
    line("share made of table cards alone", lambda r: _ci(r, "table_only_share", "{:.1f}", 100) + " %")
    for c in COMBO_NAMES:
        if rows[f"per_game_{c}"].max() >= 0.005:
            line(f"{c} per seat and game", lambda r, c=c: f"{r[f'per_game_{c}']:.2f}")
    lines += ["", "`hints:tuned-rubicon` (the preset in the package, tuned under `portland`) against hand-set "
              "`hints`, net game points per deal, seats swapped:", ""]
    for _, t in tuned.iterrows():
        lines.append(f"- `redeclare={t.redeclare}`: {_ci(t, 'mean_diff', '{:+.1f}')} ({int(t.deals):,} deals, "
                     f"seed {int(t.seed)})")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100_000, help="games of self-play per policy and reading")
    ap.add_argument("--expert-games", type=int, default=1_000)
    ap.add_argument("--tuned-deals", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--markdown-only", action="store_true",
                    help="only rewrite the README table from results/portland's tables")
    args = ap.parse_args()
    out = ROOT / "results" / "portland"
    command = (f"python scripts/portland_study.py --games {args.games} --expert-games {args.expert_games} "
               f"--tuned-deals {args.tuned_deals} --seed {args.seed}")
    if args.markdown_only:
        publish(pd.read_csv(out / "before_after.csv", index_col=0), pd.read_csv(out / "tuned.csv", index_col=0),
                command)
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
    publish(rows, tuned, command)


def publish(rows: pd.DataFrame, tuned: pd.DataFrame, command: str) -> None:
    """Write the table between the markers of results/README.md and print it."""
    text = markdown(rows, tuned, command)
    readme = ROOT / "results" / "README.md"
    body = readme.read_text()
    begin, end = f"<!-- {MARK}: made by scripts/portland_study.py -->", f"<!-- /{MARK} -->"
    if begin in body:
        head, rest = body.split(begin, 1)
        body = head + begin + "\n" + text + "\n" + end + rest.split(end, 1)[1]
        readme.write_text(body)
    print(text)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
