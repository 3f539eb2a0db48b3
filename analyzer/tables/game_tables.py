"""Tables of a games run (:mod:`analyzer.studies.play.games`): who won, how long games last, how often
claims are made (V3), and the chance of winning from each score difference after each hand."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.layout import AFTER_HANDS, DIFF_BINS, DIFF_STEP
from .stats import format_hand_tables, mean_ci, tables, wilson_ci


def side_names(result) -> list[str]:
    """Each side's name: "seat 0 (greedy)", or "seats 0+2 (hints + hints)" with partners."""
    p = result.policies
    if result.rules.players == 4:
        return [f"seats {k}+{k + 2} ({p[k]} + {p[k + 2]})" for k in range(2)]
    return [f"seat {s} ({p[s]})" for s in range(result.rules.players)]


def games_table(result) -> pd.DataFrame:
    """One row per side: games won with their 95 % interval, beside the games' mean length
    and the claims of the game (V3): made, and wrong."""
    t = result.totals
    n = t.games
    lengths = np.arange(len(t.length))
    mean, lo, hi = mean_ci(int((t.length * lengths).sum()), int((t.length * lengths ** 2).sum()), n)
    rows = []
    for k, name in enumerate(side_names(result)):
        w, wlo, whi = wilson_ci(int(t.wins[k]), n)
        rows.append({"side": name, "games": n, "won": int(t.wins[k]), "win_share": w,
                     "win_share_lo": wlo, "win_share_hi": whi, "unfinished": int(t.wins[-1]),
                     "mean_hands": mean, "mean_hands_lo": lo, "mean_hands_hi": hi,
                     "claims": int(t.claims[0]), "wrong_claims": int(t.claims[1])})
    return pd.DataFrame(rows)


def length_table(result) -> pd.DataFrame:
    """Games by the hands they lasted: count and share."""
    counts = result.totals.length
    last = int(np.max(np.nonzero(counts)[0], initial=1))
    hands = np.arange(1, last + 1)
    return pd.DataFrame({"hands": hands, "games": counts[1:last + 1],
                         "share": counts[1:last + 1] / max(result.totals.games, 1)})


def win_chance_table(result) -> pd.DataFrame:
    """The chance that a side goes on to win the game, by the hands played so far and its
    score difference to the best other side (bins of DIFF_STEP points), with 95 % Wilson
    intervals; the sides pooled (each situation counted once per side)."""
    chance = result.totals.chance.sum(axis=0)            # [after, bin, (seen, won)]
    rows = []
    for a in range(AFTER_HANDS):
        for b in range(DIFF_BINS):
            seen, won = int(chance[a, b, 0]), int(chance[a, b, 1])
            if seen == 0:
                continue
            share, lo, hi = wilson_ci(won, seen)
            rows.append({"after_hand": f"{a + 1}" if a < AFTER_HANDS - 1 else f"{AFTER_HANDS}+",
                         "difference": (b - DIFF_BINS // 2) * DIFF_STEP, "situations": seen,
                         "won": won, "chance": share, "chance_lo": lo, "chance_hi": hi})
    return pd.DataFrame(rows)


def game_tables(result) -> dict[str, pd.DataFrame]:
    """Every table of a games run: ``games``, ``game_length``, ``win_chance``, and the
    per-hand tables of its hands (:func:`analyzer.tables.stats.tables`)."""
    out = {"games": games_table(result), "game_length": length_table(result),
           "win_chance": win_chance_table(result)}
    out.update(tables(result))
    return out


def format_games(df: pd.DataFrame) -> str:
    """The games table as text."""
    r0 = df.iloc[0]
    lines = [f"{r0.games:,} games, {r0.mean_hands:.2f} hands per game [{r0.mean_hands_lo:.2f}, "
             f"{r0.mean_hands_hi:.2f}]" + (f", {r0.unfinished:,} unfinished" if r0.unfinished else "")]
    if r0.claims:
        lines.append(f"claims of the game: {r0.claims:,} ({r0.claims / r0.games:.4f} per game), "
                     f"wrong: {r0.wrong_claims:,}")
    for _, r in df.iterrows():
        lines.append(f"{r.side:<36} games won {r.win_share:.4f} [{r.win_share_lo:.4f}, {r.win_share_hi:.4f}]")
    return "\n".join(lines)


def format_games_run(result) -> str:
    """A games run (:class:`~analyzer.studies.play.games.GamesResult`) as text: what was played, the
    games table, then the tables of the hands of these games."""
    rules, tables = result.rules, result.tables
    return "\n".join([f"{rules.name} bézique, {result.games:,} games to {rules.target}, seed {result.seed}: "
                      + " vs ".join(result.policies), format_games(tables["games"]),
                      f"\nthe {result.tallies.hands:,} hands of these games",
                      format_hand_tables(tables, rules.seven_scores)])
