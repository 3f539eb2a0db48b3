"""Ratings from game results: Elo from a score share and back, the sequential probability
ratio test (SPRT) of chess-engine testing, and a Bradley-Terry ranking."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.optimize import minimize

SPRT_ALPHA = 0.05
SPRT_BETA = 0.05


def elo_from_score(score):
    """Elo difference for an expected score (0 < score < 1): -400 log10(1/score - 1)."""
    score = np.clip(np.asarray(score, dtype=float), 1e-9, 1 - 1e-9)
    return -400.0 * np.log10(1.0 / score - 1.0)


def score_from_elo(elo):
    """Expected score for an Elo difference: 1 / (1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + 10.0 ** (-np.asarray(elo, dtype=float) / 400.0))


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0) for game results, in the
    normal (GSPRT) approximation used by chess engine testing:
    LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var), s the mean score, var its per-game variance."""
    n = wins + draws + losses
    if n == 0:
        return 0.0
    w, d, l = wins / n, draws / n, losses / n
    s = w + d / 2
    var = w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2
    if var <= 0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return float(n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var))


def sprt_bounds(alpha: float = SPRT_ALPHA, beta: float = SPRT_BETA) -> tuple[float, float]:
    """(lower, upper) LLR bounds: accept H0 at or below lower, H1 at or above upper."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def bradley_terry(names: list[str], results: list) -> pd.DataFrame:
    """Fit Bradley-Terry strengths to pairwise game results (``results``: each, like a
    :class:`analyzer.studies.play.compare.PairResult`, with the names
    ``a`` and ``b`` and a ``tally`` of A's wins, draws and losses; draws count half) and
    return the ranking: rank, policy and ``bt_elo``, the strength on the Elo scale, centred
    on the mean."""

    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    pairs = []
    for r in results:
        t = r.tally
        pairs.append((idx[r.a], idx[r.b], t.wins + 0.5 * t.draws, t.losses + 0.5 * t.draws))
    scale = 400 / math.log(10)

    def nll(x):
        theta = np.concatenate([[0.0], x])
        total = 0.0
        for i, j, wi, wj in pairs:
            d = (theta[i] - theta[j]) / scale
            total += wi * np.logaddexp(0, -d) + wj * np.logaddexp(0, d)
        return total

    fit = minimize(nll, np.zeros(k - 1), method="BFGS")
    theta = np.concatenate([[0.0], fit.x])
    df = pd.DataFrame({"policy": names, "bt_elo": theta})
    df["bt_elo"] -= df["bt_elo"].mean()
    df = df.sort_values("bt_elo", ascending=False).reset_index(drop=True)
    df.insert(0, "rank", np.arange(1, k + 1))
    return df
