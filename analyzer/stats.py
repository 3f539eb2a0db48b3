"""Tallies -> pandas tables with confidence intervals (RULES.md section 5).

Shares get Wilson intervals, means of hands normal intervals, all at 95 %.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from .cards import COMBO_NAMES

Z95 = 1.959963984540054


def mean_ci(total, total_sq, n):
    """Mean and 95 % normal interval from a sum, a sum of squares and a count."""
    total = np.asarray(total, dtype=float)
    n = np.asarray(n, dtype=float)
    mean = total / n
    var = np.maximum(np.asarray(total_sq, dtype=float) / n - mean ** 2, 0.0) * n / np.maximum(n - 1, 1)
    half = Z95 * np.sqrt(var / n)
    return mean, mean - half, mean + half


def wilson_ci(successes, n):
    """Share and 95 % Wilson interval."""
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    lo, hi = proportion_confint(successes, n, alpha=0.05, method="wilson")
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


def declarations_table(result) -> pd.DataFrame:
    """Declarations per hand by combination (rows) and seat (columns)."""
    t = result.tallies
    data = {f"seat {s} ({result.policies[s]})": t.declarations[s] / t.hands for s in range(t.n_seats)}
    df = pd.DataFrame(data, index=pd.Index(COMBO_NAMES, name="combination"))
    return df[(df > 0).any(axis=1)] if len(df) else df


def score_histogram(result) -> pd.DataFrame:
    """Hands by score bin (10 points wide) and seat."""
    from .simulate import SCORE_BIN
    t = result.tallies
    bins = np.arange(t.score_hist.shape[1]) * SCORE_BIN
    df = pd.DataFrame({f"seat {s} ({result.policies[s]})": t.score_hist[s] for s in range(t.n_seats)})
    df.insert(0, "score", bins)
    last = int(np.max(np.nonzero(t.score_hist.sum(0))[0], initial=0))
    return df.iloc[:last + 1]


def tables(result) -> dict:
    """All tables of a run, by name."""
    return {"summary": summary_table(result), "declarations": declarations_table(result),
            "score_histogram": score_histogram(result)}


def format_summary(df: pd.DataFrame) -> str:
    """The summary table as fixed-width text with intervals in brackets."""
    lines = []
    for _, r in df.iterrows():
        lines.append(
            f"seat {r.seat} {r.policy:<10} hands {r.hands:,}\n"
            f"  mean hand score      {r.mean_score:8.1f}  [{r.mean_score_lo:.1f}, {r.mean_score_hi:.1f}]\n"
            f"  share of hands won   {r.win_share:8.4f}  [{r.win_share_lo:.4f}, {r.win_share_hi:.4f}]\n"
            f"  brisque points       {r.brisque_points:8.1f}  [{r.brisque_points_lo:.1f}, {r.brisque_points_hi:.1f}]\n"
            f"  double bezique rate  {r.double_bezique_rate:8.4f}  [{r.double_bezique_lo:.4f}, {r.double_bezique_hi:.4f}]\n"
            f"  seven-of-trumps pts  {r.seven_points:8.2f}  [{r.seven_points_lo:.2f}, {r.seven_points_hi:.2f}]\n"
            f"  last trick share     {r.last_trick_share:8.4f}")
    return "\n".join(lines)
