"""Tallies -> pandas tables with confidence intervals (docs/rules.md section 5).

Shares get Wilson intervals, means of hands normal intervals, all at 95 %.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..cards import COMBO_NAMES
from ..numbers import difference, points, share
from ..run.tallies import score_bin
from ..words import combination_name

Z95 = 1.959963984540054
# the normal quantile of the Wilson interval, as statsmodels' proportion_confint takes it
# (scipy's norm.isf(0.025): one unit in the last place above Z95), so the bounds are its own
WILSON_Z = 1.9599639845400545


def interval_text(row, key: str, fmt: str = "{:+.1f}", scale: float = 1.0) -> str:
    """``row[key]`` with its interval (the columns ``key`` and ``_lo``, ``_hi``), each formatted by ``fmt``
    after multiplying by ``scale``: "+12.3 [+10.1, +14.5]"."""
    return (f"{fmt.format(scale * row[key])} [{fmt.format(scale * row[key + '_lo'])}, "
            f"{fmt.format(scale * row[key + '_hi'])}]")


def mean_ci(total, total_sq, n):
    """Mean and 95 % normal interval from a sum, a sum of squares and a count."""
    total = np.asarray(total, dtype=float)
    n = np.asarray(n, dtype=float)
    mean = total / n
    var = np.maximum(np.asarray(total_sq, dtype=float) / n - mean ** 2, 0.0) * n / np.maximum(n - 1, 1)
    half = Z95 * np.sqrt(var / n)
    return mean, mean - half, mean + half


def sample_ci(values, axis: int = 0):
    """Mean and 95 % normal interval of the samples ``values`` along ``axis`` (the standard error
    from the samples' own spread, ddof 1), in the samples' own precision."""
    values = np.asarray(values)
    mean = values.mean(axis=axis)
    half = Z95 * values.std(axis=axis, ddof=1) / np.sqrt(values.shape[axis])
    return mean, mean - half, mean + half


def wilson_ci(successes, n):
    """Share and 95 % Wilson interval. The bounds are exactly 0 when nothing happened and
    exactly 1 when everything did (the formula leaves rounding residue such as 2e-22).

    The formula is statsmodels' ``proportion_confint(method="wilson")`` step for step (a test
    holds them equal to the last bit): importing statsmodels pulls in scipy.stats, half a second
    of every command's start for four lines of arithmetic."""

    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    share = successes / n
    z2 = WILSON_Z ** 2
    denom = 1 + z2 / n
    center = (share + z2 / (2 * n)) / denom
    half = WILSON_Z * np.sqrt(share * (1.0 - share) / n + z2 / (4.0 * n ** 2)) / denom
    lo = np.where(successes <= 0, 0.0, np.clip(center - half, 0, 1))
    hi = np.where(successes >= n, 1.0, np.clip(center + half, 0, 1))
    if lo.ndim == 0:
        lo, hi = lo[()], hi[()]
    return successes / n, lo, hi


def summary_table(result) -> pd.DataFrame:
    """One row per seat: the policy, mean hand score, win share, brisques, double bézique
    rate and seven-of-trumps points, each with its 95 % interval."""
    t = result.tallies
    n = t.hands
    rows = []
    for s in range(t.n_seats):
        m, lo, hi = mean_ci(t.score[s], t.score_sq[s], n)
        w, wlo, whi = wilson_ci(t.wins[s], n)
        b, blo, bhi = mean_ci(t.brisques[s], t.brisques_sq[s], n)
        d, dlo, dhi = wilson_ci(t.double_bezique[s], n)
        v, vlo, vhi = mean_ci(t.seven[s], t.seven_sq[s], n)
        rows.append({
            "seat": s, "policy": result.policies[s], "hands": n,
            "mean_score": m, "mean_score_lo": lo, "mean_score_hi": hi,
            "win_share": w, "win_share_lo": wlo, "win_share_hi": whi,
            "brisque_points": b, "brisque_points_lo": blo, "brisque_points_hi": bhi,
            "double_bezique_rate": d, "double_bezique_lo": dlo, "double_bezique_hi": dhi,
            "seven_points": v, "seven_points_lo": vlo, "seven_points_hi": vhi,
            "last_trick_share": t.last_trick[s] / n,
            "mean_score_as_dealer": t.dealer_score[s] / max(t.dealer_hands[s], 1),
        })
    return pd.DataFrame(rows)


TABLE_ONLY = "of table cards alone"


def declarations_table(result) -> pd.DataFrame:
    """Declarations per hand by combination (rows) and seat (columns); in Rubicon a last row,
    TABLE_ONLY, counts those (of any combination) made of table cards alone (R3.6 (a))."""
    t = result.tallies
    data = {f"seat {s} ({result.policies[s]})": t.declarations[s] / t.hands for s in range(t.n_seats)}
    df = pd.DataFrame(data, index=pd.Index(COMBO_NAMES, name="combination"))
    df = df[(df > 0).any(axis=1)] if len(df) else df
    if result.rules.is_rubicon:
        df.loc[TABLE_ONLY] = [t.table_declarations[s] / t.hands for s in range(t.n_seats)]
    return df


def score_bins(counts, width: int) -> pd.DataFrame:
    """Hand-score bins ``width`` points wide up to the last non-empty one of ``counts`` (hands
    by bin): the lower edge ``score`` and a label ``bin``, "120–129"; the last bin holds every
    score from its lower edge up and is labelled "≥ X"."""
    rows = int(np.max(np.nonzero(counts)[0], initial=0)) + 1
    lower = np.arange(rows) * width
    labels = [f"{x}–{x + width - 1}" for x in lower[:-1]] + [f"≥ {lower[-1]}"]
    return pd.DataFrame({"score": lower, "bin": labels})


def score_shares(hist, width: int) -> pd.DataFrame:
    """Hands by score bin (``hist``: counts by bin ``width`` points wide, :func:`score_bins`)
    with the share of hands in each bin and the share scoring at least its lower edge, each
    with its Wilson interval."""
    n = hist.sum()
    df = score_bins(hist, width)
    counts = hist[:len(df)]
    at_least = n - np.concatenate([[0], np.cumsum(counts)[:-1]])
    df["hands"] = counts
    df["share"], df["share_lo"], df["share_hi"] = wilson_ci(counts, n)
    df["at_least"], df["at_least_lo"], df["at_least_hi"] = wilson_ci(at_least, n)
    return df


def score_histogram(result) -> pd.DataFrame:
    """Hands by score bin (``tallies.score_bin`` points wide; the last bin open) and seat."""
    t = result.tallies
    df = score_bins(t.score_hist.sum(0), score_bin(result.rules))
    for s in range(t.n_seats):
        df[f"seat {s} ({result.policies[s]})"] = t.score_hist[s, :len(df)]
    return df


def rubicon_table(result) -> pd.DataFrame:
    """Rubicon games (R3.9), one row per seat: games won, net game points, how often the
    seat was rubiconed, carte blanche, and béziques by multiplicity; shared figures
    (rubicon rate, drawn games, brisques saving a rubicon or breaking a tie, the winner's
    score) repeat on every row.

    A drawn game (null and void, Law 61) is neither won nor lost: every share is over all
    games, draws included (``game_win_share`` = games won / games, so the two seats' shares
    and ``drawn_share`` add up to 1), a draw nets 0 game points, and the winner's game score
    is the mean over the decided games (``decided_games``) only."""
    t = result.tallies
    n = t.hands
    decided = n - t.game_draws
    r, rlo, rhi = wilson_ci(t.rubiconed.sum(), n)
    dr, drlo, drhi = wilson_ci(t.game_draws, n)
    sv, svlo, svhi = wilson_ci(t.brisques_saved, n)
    bt, btlo, bthi = wilson_ci(t.brisques_broke_tie, n)
    wp, wplo, wphi = mean_ci(t.winner_points, t.winner_points_sq, decided)
    rows = []
    for s in range(t.n_seats):
        g, glo, ghi = wilson_ci(t.game_wins[s], n)
        m, mlo, mhi = mean_ci(t.game_net[s], t.game_net_sq[s], n)
        c, clo, chi = wilson_ci(t.carte_blanche[s], n)
        row = {"seat": s, "policy": result.policies[s], "games": n,
               "game_win_share": g, "game_win_share_lo": glo, "game_win_share_hi": ghi,
               "net_game_points": m, "net_game_points_lo": mlo, "net_game_points_hi": mhi,
               "rubiconed_share": t.rubiconed[s] / n,
               "carte_blanche_rate": c, "carte_blanche_lo": clo, "carte_blanche_hi": chi}
        for lvl, name in enumerate(("single", "double", "treble", "quadruple"), start=1):
            row[f"bezique_{name}_or_more"] = t.bezique_level[s, lvl:].sum() / n
        row.update({"rubicon_rate": r, "rubicon_rate_lo": rlo, "rubicon_rate_hi": rhi,
                    "drawn_games": t.game_draws, "drawn_share": dr, "drawn_share_lo": drlo,
                    "drawn_share_hi": drhi, "decided_games": decided,
                    "brisques_saved_share": sv, "brisques_saved_lo": svlo, "brisques_saved_hi": svhi,
                    "brisques_broke_tie_share": bt, "brisques_broke_tie_lo": btlo,
                    "brisques_broke_tie_hi": bthi,
                    "winner_game_score": wp, "winner_game_score_lo": wplo, "winner_game_score_hi": wphi})
        rows.append(row)
    return pd.DataFrame(rows)


def trumps_table(result) -> pd.DataFrame:
    """How trumps were fixed (turn-up, first marriage, a sequence, never) and the mean
    trick (counted from 1) at which they were fixed."""
    t = result.tallies
    how = ["turn-up", "marriage", "sequence", "never"]
    share, lo, hi = wilson_ci(t.trump_how, t.hands)
    tricks = np.arange(len(t.trump_trick)) + 1
    fixed = max(t.trump_trick.sum(), 1)
    mean_trick = float((tricks * t.trump_trick).sum() / fixed)
    df = pd.DataFrame({"fixed_by": how, "hands": t.trump_how, "share": share, "share_lo": lo,
                       "share_hi": hi})
    df["mean_trick_when_fixed"] = mean_trick
    return df[df.hands > 0].reset_index(drop=True)


def tables(result) -> dict:
    """All tables of a run, by name."""
    out = {"summary": summary_table(result), "declarations": declarations_table(result),
           "score_histogram": score_histogram(result)}
    if result.rules.is_rubicon:
        out["rubicon"] = rubicon_table(result)
        out["trumps"] = trumps_table(result)
    if result.rules.players == 4:
        out["partnerships"] = partnerships_table(result)
    return out


def partnerships_table(result) -> pd.DataFrame:
    """Four-handed (V5): one row per partnership (seats 0+2, 1+3): its policies, its pooled
    hand score and the share of hands it won, with 95 % intervals."""
    t = result.tallies
    rows = []
    for k in range(2):
        m, lo, hi = mean_ci(t.side_score[k], t.side_score_sq[k], t.hands)
        w, wlo, whi = wilson_ci(t.side_wins[k], t.hands)
        rows.append({"side": f"seats {k}+{k + 2}", "policies": f"{result.policies[k]} + {result.policies[k + 2]}",
                     "hands": t.hands, "mean_score": m, "mean_score_lo": lo, "mean_score_hi": hi,
                     "win_share": w, "win_share_lo": wlo, "win_share_hi": whi})
    return pd.DataFrame(rows)


def format_rubicon(df: pd.DataFrame, trumps: pd.DataFrame) -> str:
    """The Rubicon table as text (shares in per cent, numbers.py's formats)."""
    r0 = df.iloc[0]
    lines = [f"rubicon games: rubicon rate {share(r0.rubicon_rate, r0.rubicon_rate_lo, r0.rubicon_rate_hi)}",
             f"  brisques saved the rubicon {share(r0.brisques_saved_share, r0.brisques_saved_lo, r0.brisques_saved_hi)}"
             f", broke a tie {share(r0.brisques_broke_tie_share, r0.brisques_broke_tie_lo, r0.brisques_broke_tie_hi)}",
             f"  drawn (null and void) {share(r0.drawn_share, r0.drawn_share_lo, r0.drawn_share_hi)}"
             f"  winner's game score {points(r0.winner_game_score, r0.winner_game_score_lo, r0.winner_game_score_hi)}"
             f" (over {r0.decided_games:,} decided games)"]
    for _, r in df.iterrows():
        lines.append(
            f"seat {r.seat} {r.policy:<10} games won {share(r.game_win_share, r.game_win_share_lo, r.game_win_share_hi)}"
            f"  net game points {difference(r.net_game_points, r.net_game_points_lo, r.net_game_points_hi)}\n"
            f"  rubiconed {share(r.rubiconed_share)}  carte blanche "
            f"{share(r.carte_blanche_rate, r.carte_blanche_lo, r.carte_blanche_hi)}\n"
            f"  bézique scored: single or more {share(r.bezique_single_or_more)}  double or more "
            f"{share(r.bezique_double_or_more)}  treble or more {share(r.bezique_treble_or_more)}  quadruple "
            f"{share(r.bezique_quadruple_or_more)}")
    lines.append("trumps fixed by: " + ", ".join(
        f"{r.fixed_by.replace('_', ' ')} {share(r.share)}" for _, r in trumps.iterrows())
        + f"; mean trick when fixed {points(trumps.mean_trick_when_fixed.iloc[0])}")
    return "\n".join(lines)


def format_partnerships(df: pd.DataFrame) -> str:
    """The partnerships table (V5) as text."""
    return "\n".join(
        f"{r.side} {r.policies:<20} pooled hand score {points(r.mean_score, r.mean_score_lo, r.mean_score_hi)}"
        f"  hands won {share(r.win_share, r.win_share_lo, r.win_share_hi)}"
        for _, r in df.iterrows())


def format_summary(df: pd.DataFrame, sevens: bool = True) -> str:
    """The summary table as text, each figure with its interval in brackets (shares in per cent)."""
    lines = []
    for _, r in df.iterrows():
        lines.append(
            f"seat {r.seat} {r.policy:<10} hands {r.hands:,}\n"
            f"  mean hand score      {points(r.mean_score, r.mean_score_lo, r.mean_score_hi)}\n"
            f"  hands won            {share(r.win_share, r.win_share_lo, r.win_share_hi)}\n"
            f"  brisque points       {points(r.brisque_points, r.brisque_points_lo, r.brisque_points_hi)}\n"
            f"  double bézique       {share(r.double_bezique_rate, r.double_bezique_lo, r.double_bezique_hi)}\n"
            + (f"  seven of trumps      {points(r.seven_points, r.seven_points_lo, r.seven_points_hi)} points\n"
               if sevens else "")
            + f"  last trick won       {share(r.last_trick_share)}")
    return "\n".join(lines)


def format_hand_tables(tables: dict, sevens: bool = True) -> str:
    """The per-hand tables of a run (:func:`tables`) as text: the summary (``sevens``: with the
    seven of trumps' points), the partnerships and Rubicon tables when there are any, and the
    declarations per hand."""
    parts = [format_summary(tables["summary"], sevens=sevens)]
    if "partnerships" in tables:
        parts.append(format_partnerships(tables["partnerships"]))
    if "rubicon" in tables:
        parts += ["", format_rubicon(tables["rubicon"], tables["trumps"])]
    declared = tables["declarations"].rename(index=combination_name)
    declared.index.name = "combination"
    parts += ["\ndeclarations per hand", declared.to_string(float_format=lambda x: points(x))]
    return "\n".join(parts)


def format_run(result) -> str:
    """A simulation's :class:`~analyzer.studies.play.simulate.Result` as text: a line saying what was
    played, then its tables (:func:`format_hand_tables`)."""
    rules = result.rules
    head = f"{rules.name} bézique, {result.hands:,} hands, seed {result.seed}: " + " vs ".join(result.policies)
    return head + "\n" + format_hand_tables(result.tables, rules.seven_scores)
