"""The section-5 tables of the report, built from Tallies (docs/rules.md section 5).

Each builder takes one Tallies (or a dict label -> Tallies) and returns a pandas
table; shares carry 95 % Wilson intervals, means 95 % normal intervals.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..run.tallies import CATEGORY_NAMES, GAME_BIN, LENGTH_BINS, TARGETS
from .stats import Z95, mean_ci, score_bins, score_shares, wilson_ci

LEVELS = ("double", "treble", "quadruple")


def combinations_table(by_policy: dict) -> pd.DataFrame:
    """Per policy (both seats pooled) and combination category (marriages and sequences split
    into royal or trump and common or plain by the final trump suit): the share of a seat's
    hands in which it declared one at least once (Wilson interval), declarations per hand,
    points per hand and share of the declaration points. Categories no policy declared are
    left out."""
    declared = sum(t.cat_count.sum(0) for t in by_policy.values()) > 0
    rows = []
    for label, t in by_policy.items():
        seat_hands = t.hands * t.n_seats
        total_pts = max(t.cat_points.sum(), 1)
        for g in np.flatnonzero(declared):
            share, lo, hi = wilson_ci(t.cat_hands[:, g].sum(), seat_hands)
            rows.append({"policy": label, "combination": CATEGORY_NAMES[g], "declared_share": float(share),
                         "declared_share_lo": float(lo), "declared_share_hi": float(hi),
                         "per_hand": t.cat_count[:, g].sum() / seat_hands,
                         "points_per_hand": t.cat_points[:, g].sum() / seat_hands,
                         "share_of_points": t.cat_points[:, g].sum() / total_pts})
    return pd.DataFrame(rows)


def double_bezique_table(by_policy: dict, exact_receive: dict) -> pd.DataFrame:
    """Per policy, as shares of a seat's hands: scores a double (treble, quadruple) bézique;
    holds all four cards of a double at some moment; held one but never scored one (a double
    rebuilt and scored later counts as scored), split into the two exclusive reasons, a card
    of it was played or the talon ran out, which add up to it; and received the cards, with
    the exact chance of receiving them (which bounds scoring them from above)."""
    rows = []
    for label, t in by_policy.items():
        n = t.hands * t.n_seats
        row = {"policy": label, "seat_hands": n}
        for k, name in enumerate(LEVELS):
            if (k + 2) not in exact_receive:
                continue
            hits = t.bezique_level[:, k + 2:].sum()
            row[f"scored_{name}"], row[f"scored_{name}_lo"], row[f"scored_{name}_hi"] = map(float, wilson_ci(hits, n))
            recv = t.received[:, k + 2].sum()
            row[f"received_{name}"], row[f"received_{name}_lo"], row[f"received_{name}_hi"] = map(
                float, wilson_ci(recv, n))
            row[f"received_{name}_exact"] = float(exact_receive[k + 2])
        played, talon = t.unscored_played.sum(), t.unscored_talon.sum()
        for key, hits in (("held_double", t.held_double().sum()), ("held_not_scored", played + talon),
                          ("held_not_scored_card_played", played), ("held_not_scored_talon_ran_out", talon)):
            row[key], row[f"{key}_lo"], row[f"{key}_hi"] = map(float, wilson_ci(hits, n))
        rows.append(row)
    return pd.DataFrame(rows)


def bezique_by_trick_table(by_policy: dict, received_exact: dict) -> pd.DataFrame:
    """Per policy, bézique level and number of tricks played (0: at the deal, to the end of
    the first stage): the share of a seat's hands in which it has scored the bézique so far
    and in which it has held all its cards so far, with Wilson intervals, beside the exact
    chance of having received them (``received_exact[level]``, one value per trick: the
    upper bound of both)."""
    rows = []
    for label, t in by_policy.items():
        n = t.hands * t.n_seats
        for level, bound in received_exact.items():
            k = level - 2
            tricks = np.arange(len(bound))
            scored = np.cumsum(t.first_bezique[:, k, :].sum(0)[1:])      # bin j: after trick j + 1
            held = np.cumsum(t.held_bezique[:, k, :].sum(0)[1:])         # bin j: j tricks played
            scored = np.concatenate([[0], scored])[np.minimum(tricks, len(scored))]
            held = held[np.minimum(tricks, len(held) - 1)]
            df = pd.DataFrame({"policy": label, "level": LEVELS[k], "trick": tricks})
            df["scored"], df["scored_lo"], df["scored_hi"] = wilson_ci(scored, n)
            df["held"], df["held_lo"], df["held_hi"] = wilson_ci(held, n)
            df["received_exact"] = np.asarray(bound, dtype=float)
            rows.append(df)
    return pd.concat(rows, ignore_index=True)


def rubicon_rates_table(by_pairing: dict) -> pd.DataFrame:
    """Per pairing: rubicon rate, share drawn (null and void, Law 61), share saved by
    brisques, share whose tie brisques broke, and the winner's mean game score. The shares
    are over all games, draws included; the winner's game score is over the decided games
    (``decided_games``) only."""
    rows = []
    for label, t in by_pairing.items():
        n = t.hands
        r = wilson_ci(t.rubiconed.sum(), n)
        dr = wilson_ci(t.game_draws, n)
        sv = wilson_ci(t.brisques_saved, n)
        bt = wilson_ci(t.brisques_broke_tie, n)
        wp = mean_ci(t.winner_points, t.winner_points_sq, n - t.game_draws)
        rows.append({"pairing": label, "games": n, "decided_games": n - t.game_draws,
                     "rubicon_rate": r[0], "rubicon_rate_lo": r[1], "rubicon_rate_hi": r[2],
                     "drawn": dr[0], "drawn_lo": dr[1], "drawn_hi": dr[2],
                     "saved_by_brisques": sv[0], "saved_by_brisques_lo": sv[1], "saved_by_brisques_hi": sv[2],
                     "tie_broken_by_brisques": bt[0], "tie_broken_lo": bt[1], "tie_broken_hi": bt[2],
                     "winner_game_score": wp[0], "winner_game_score_lo": wp[1], "winner_game_score_hi": wp[2]})
    return pd.DataFrame(rows).astype({c: float for c in rows[0] if c not in ("pairing", "games", "decided_games")})


def game_score_table(by_pairing: dict) -> pd.DataFrame:
    """Distribution of the winner's Rubicon game score (bins of 100, the last open, "≥ X")
    per pairing: games and share of the decided games (a drawn game has no winner), with
    Wilson intervals."""
    frames = []
    for label, t in by_pairing.items():
        df = score_bins(t.game_hist, GAME_BIN).rename(columns={"score": "game_score"})
        df.insert(0, "pairing", label)
        df["games"] = t.game_hist[:len(df)]
        df["share"], df["share_lo"], df["share_hi"] = wilson_ci(df.games, max(t.hands - t.game_draws, 1))
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def loser_total_table(by_pairing: dict, width: int, limit: int) -> pd.DataFrame:
    """Per pairing: the Rubicon game loser's total (R3.9: combinations, carte blanche and
    last trick, no brisques) in bins ``width`` points wide (the last open, "≥ X"), the share
    of the decided games (a drawn game has no loser) in each bin and the share in which he
    stayed under ``limit`` (the rubicon limit, 1000), with Wilson intervals."""
    frames = []
    for label, t in by_pairing.items():
        decided = t.hands - t.game_draws
        df = score_bins(t.loser_hist, width)
        df.insert(0, "pairing", label)
        df["games"] = t.loser_hist[:len(df)]
        df["share"], df["share_lo"], df["share_hi"] = wilson_ci(df.games, decided)
        under = t.loser_hist[:limit // width].sum()
        df["under_limit"], df["under_limit_lo"], df["under_limit_hi"] = map(float, wilson_ci(under, decided))
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def regression(t) -> tuple[float, float, float]:
    """Slope of the final margin (seat 0 - seat 1) on the brisques won by seat 0, with its
    95 % interval (ordinary least squares from the running sums). The brisques of a hand
    are fixed, so one brisque won by seat 0 is one lost by seat 1: the slope is twice the
    slope on the difference of brisques won."""
    n = t.hands
    sxx = t.reg_sxx - t.reg_sx ** 2 / n
    sxy = t.reg_sxy - t.reg_sx * t.reg_sy / n
    syy = t.reg_syy - t.reg_sy ** 2 / n
    if n < 3 or sxx <= 0:
        return math.nan, math.nan, math.nan
    slope = sxy / sxx
    sse = max(syy - slope * sxy, 0.0)
    se = math.sqrt(sse / (n - 2) / sxx)
    return slope, slope - Z95 * se, slope + Z95 * se


def margin_unit(rubicon: bool, players: int = 2) -> str:
    """What the brisque regression slope measures, with its unit."""
    if players == 3:
        return "points of the hand margin (seat 0 - the best other seat) per brisque won by seat 0"
    if players == 4:
        return ("points of the hand margin (seats 0+2 - seats 1+3) per brisque won by the partnership "
                "of seat 0")
    if rubicon:
        return ("game points of the game margin (seat 0 - seat 1) per brisque won by seat 0: an "
                "association, not a value (brisques do not score in Rubicon, R3.8)")
    return "points of the hand margin (seat 0 - seat 1) per brisque won by seat 0"


def brisque_table(by_pairing: dict, rubicon: bool) -> pd.DataFrame:
    """Per pairing: brisque points per hand by seat, the share of hands (Rubicon: games)
    whose winner changes when brisques are counted, and the final margin per brisque won
    by seat 0 (``margin_unit``)."""
    rows = []
    for label, t in by_pairing.items():
        n = t.hands
        row = {"pairing": label, "hands": n}
        for s in range(t.n_seats):
            m, lo, hi = mean_ci(t.brisques[s], t.brisques_sq[s], n)
            row[f"brisque_points_seat{s}"], row[f"brisque_points_seat{s}_lo"], row[f"brisque_points_seat{s}_hi"] = float(m), float(lo), float(hi)
        w = wilson_ci(t.winner_changed, n)
        row["winner_changes"], row["winner_changes_lo"], row["winner_changes_hi"] = map(float, w)
        row["margin_per_brisque"], row["margin_per_brisque_lo"], row["margin_per_brisque_hi"] = regression(t)
        row["margin_unit"] = margin_unit(rubicon, t.n_seats)
        rows.append(row)
    return pd.DataFrame(rows)


def seat_table(by_pairing: dict) -> pd.DataFrame:
    """Seat advantage: each seat's mean hand score (points) as eldest hand and as dealer, and
    the difference with its 95 % interval (the two means are over different hands)."""
    rows = []
    for label, t in by_pairing.items():
        for s in range(t.n_seats):
            dealt = t.dealer_hands[s]
            eldest = t.hands - dealt
            d = mean_ci(t.dealer_score[s], t.dealer_score_sq[s], dealt)
            e = mean_ci(t.score[s] - t.dealer_score[s], t.score_sq[s] - t.dealer_score_sq[s], eldest)
            rows.append({"pairing": label, "seat": s, "as_eldest": float(e[0]), "as_eldest_lo": float(e[1]),
                         "as_eldest_hi": float(e[2]), "as_dealer": float(d[0]), "as_dealer_lo": float(d[1]),
                         "as_dealer_hi": float(d[2]), "eldest_minus_dealer": float(e[0] - d[0]),
                         **dict(zip(("eldest_minus_dealer_lo", "eldest_minus_dealer_hi"),
                                    map(float, difference_ci(e, d)[1:])))})
    return pd.DataFrame(rows)


def difference_ci(a, b):
    """``a - b`` with its 95 % normal interval, from the (mean, lo, hi) of two independent
    means: the half-widths add in quadrature."""
    half = math.hypot(a[2] - a[0], b[2] - b[0])
    diff = float(a[0] - b[0])
    return diff, diff - half, diff + half


def sevens_table(by_policy: dict) -> pd.DataFrame:
    """Seven-of-trumps points per hand by policy (turned up, exchanged or played)."""
    rows = []
    for label, t in by_policy.items():
        n = t.hands * t.n_seats
        m, lo, hi = mean_ci(t.seven.sum(), t.seven_sq.sum(), n)
        rows.append({"policy": label, "seven_points_per_hand": float(m), "lo": float(lo), "hi": float(hi)})
    return pd.DataFrame(rows)


def game_length_table(by_policy: dict) -> pd.DataFrame:
    """Ordinary game (R2.24): hands needed to reach each target, by policy."""
    rows = []
    for label, t in by_policy.items():
        for i, target in enumerate(TARGETS):
            hist = t.game_length[i]
            games = hist.sum()
            if games == 0:
                continue
            k = np.arange(LENGTH_BINS)
            mean, lo, hi = mean_ci((k * hist).sum(), (k * k * hist).sum(), games)
            cum = np.cumsum(hist) / games
            rows.append({"policy": label, "target": target, "games": int(games),
                         "mean_hands": float(mean), "mean_hands_lo": float(lo), "mean_hands_hi": float(hi),
                         "median_hands": int(np.searchsorted(cum, 0.5)),
                         "p90_hands": int(np.searchsorted(cum, 0.9))})
    return pd.DataFrame(rows)


def score_distribution_table(by_policy: dict, width: int) -> pd.DataFrame:
    """Per policy (both seats pooled) and hand-score bin (``width`` points wide, the last one
    open, "≥ X"): the share of a seat's hands in the bin and the share scoring at least the
    bin's lower edge, each with its Wilson interval."""
    frames = []
    for label, t in by_policy.items():
        df = score_shares(t.score_hist.sum(0), width)
        df.insert(0, "policy", label)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)
