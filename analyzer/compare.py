"""Fair comparison of policies: the same deals, each twice with the seats swapped.

For a pair (A, B), deal ``i`` is played once with A in seat 0 and once with A in
seat 1 (common random numbers: the deal depends only on the seed and ``i``). The
per-deal difference averages both plays, which removes the luck of the cards.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from .engine.layout import (
    REC_LAST_WINNER,
    REC_SEAT,
    REC_SEAT_W,
    RS_BRISQ,
    RS_SCORE,
)
from .driver import CHUNK, run_chunks
from .game import rubicon_results
from .policies.registry import PolicySpec, resolve_policy
from .rules import RuleSet
from .simulate import play_records
from .stats import mean_ci, wilson_ci

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


@dataclass
class PairTally:
    """Integer sums over deals for one pair (A against B). A deal's difference is the mean of
    its two plays, a multiple of 1/2: the sums keep twice it, so they merge exactly."""

    deals: int = 0
    twice_diff: int = 0      # sum of (A - B) over both plays of each deal
    twice_diff_sq: int = 0   # sum of its squares
    wins: int = 0      # games (= plays) A won
    draws: int = 0
    losses: int = 0

    def add(self, o: "PairTally") -> None:
        """Add another chunk."""
        self.deals += o.deals
        self.twice_diff += o.twice_diff
        self.twice_diff_sq += o.twice_diff_sq
        self.wins += o.wins
        self.draws += o.draws
        self.losses += o.losses

    def mean_diff(self) -> tuple[float, float, float]:
        """A's mean advantage per deal with its 95 % normal interval."""
        m, lo, hi = mean_ci(self.twice_diff / 2, self.twice_diff_sq / 4, self.deals)
        return float(m), float(lo), float(hi)


def _points(rules: RuleSet, rec: np.ndarray):
    """Per play: (points of seat 0, points of seat 1, winner or -1 for a draw)."""
    cols = [REC_SEAT + s * REC_SEAT_W for s in (0, 1)]
    score = np.stack([rec[:, c + RS_SCORE] for c in cols], axis=1).astype(np.int64)
    if rules.is_rubicon:       # Rubicon: one deal is one game (R3.9)
        brisq = np.stack([rec[:, c + RS_BRISQ] for c in cols], axis=1).astype(np.int64) * 10
        g = rubicon_results(score, brisq, rec[:, REC_LAST_WINNER])
        net = np.where(g["winner"] == 0, g["points"], -g["points"])
        return net, -net, g["winner"]
    winner = np.where(score[:, 0] > score[:, 1], 0, np.where(score[:, 1] > score[:, 0], 1, -1))
    return score[:, 0], score[:, 1], winner


def _pair_chunk(rules, rules_arr, seed, start, count, a, b) -> PairTally:
    r1 = play_records(rules_arr, seed, start, count, [a, b])   # A in seat 0
    r2 = play_records(rules_arr, seed, start, count, [b, a])   # A in seat 1, same deals
    a1, b1, w1 = _points(rules, r1)
    b2, a2, w2 = _points(rules, r2)
    twice = (a1 - b1) + (a2 - b2)
    t = PairTally(deals=count, twice_diff=int(twice.sum()), twice_diff_sq=int((twice ** 2).sum()))
    t.wins = int((w1 == 0).sum() + (w2 == 1).sum())
    t.losses = int((w1 == 1).sum() + (w2 == 0).sum())
    t.draws = 2 * count - t.wins - t.losses
    return t


@dataclass
class PairResult:
    """One pair's comparison with its confidence intervals."""

    a: str
    b: str
    tally: PairTally
    sprt: dict | None = field(default=None)

    def row(self) -> dict:
        """The pair as a table row."""
        t = self.tally
        n = t.deals
        mean, mean_lo, mean_hi = t.mean_diff()
        games = t.wins + t.draws + t.losses
        points = t.wins + 0.5 * t.draws
        s, lo, hi = wilson_ci(points, games)
        row = {"policy_a": self.a, "policy_b": self.b, "deals": n, "games": games,
               "mean_diff": mean, "mean_diff_lo": mean_lo, "mean_diff_hi": mean_hi,
               "wins_a": t.wins, "draws": t.draws, "wins_b": t.losses,
               "score_a": float(s), "score_a_lo": float(lo), "score_a_hi": float(hi),
               "elo_a": float(elo_from_score(s)), "elo_a_lo": float(elo_from_score(lo)),
               "elo_a_hi": float(elo_from_score(hi))}
        if self.sprt:
            row.update(self.sprt)
        return row


def compare_pair(rules: RuleSet, a: PolicySpec, b: PolicySpec, hands: int, seed: int,
                 threads: int | None = None, sprt: tuple[float, float] | None = None,
                 progress=None) -> PairResult:
    """Compare A with B on ``hands`` deals (each played twice, seats swapped); ``threads``
    defaults to one per core, ``progress`` is called with the deals just finished.

    With ``sprt=(elo0, elo1)`` the run stops as soon as the SPRT, checked after each chunk
    of deals in deal order, accepts H0 or H1; ``hands`` is then the maximum.
    """
    rules_arr = rules.to_array()
    total = PairTally()
    lower, upper = sprt_bounds()
    verdict = None
    llr = 0.0

    def play(start: int, count: int) -> PairTally:
        return _pair_chunk(rules, rules_arr, seed, start, count, a, b)

    def merge(t: PairTally) -> bool:
        nonlocal llr, verdict
        total.add(t)
        if sprt:
            llr = sprt_llr(total.wins, total.draws, total.losses, *sprt)
            verdict = "H1" if llr >= upper else "H0" if llr <= lower else None
        return verdict is not None

    run_chunks(play, hands, CHUNK // 2, merge, threads, progress)
    info = None
    if sprt:
        info = {"sprt_elo0": sprt[0], "sprt_elo1": sprt[1], "sprt_llr": llr,
                "sprt_lower": lower, "sprt_upper": upper,
                "sprt_result": {"H1": "accept H1 (elo >= elo1)", "H0": "accept H0 (elo <= elo0)"}.get(
                    verdict, "undecided")}
    return PairResult(a.name, b.name, total, info)


def bradley_terry(names: list[str], results: list[PairResult]) -> pd.DataFrame:
    """Fit Bradley-Terry strengths to the pairwise game results (draws count half),
    on the Elo scale with the first policy at 0; return a ranking table."""
    from scipy.optimize import minimize

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


def compare(rules: RuleSet, policies, hands: int, seed: int, threads: int | None = None,
            sprt=None, progress=None) -> dict:
    """Compare every pair of ``policies``; return {"pairs": DataFrame, "ranking": DataFrame|None}."""
    specs = [p if isinstance(p, PolicySpec) else resolve_policy(p) for p in policies]
    results = [compare_pair(rules, a, b, hands, seed, threads, sprt, progress)
               for a, b in combinations(specs, 2)]
    pairs = pd.DataFrame([r.row() for r in results])
    ranking = bradley_terry([s.name for s in specs], results) if len(specs) >= 3 else None
    return {"pairs": pairs, "ranking": ranking, "results": results}


def ablation(rules: RuleSet, hands: int, seed: int, threads: int | None = None, progress=None) -> pd.DataFrame:
    """The value of each hint: the full ``hints`` policy against ``hints`` without that hint,
    on the same deals with seats swapped. One row per hint; ``mean_diff`` is the full
    policy's advantage (points per hand; Rubicon: net game points per game)."""
    from .policies.hints import HINT_NAMES, HINT_TEXT

    full = resolve_policy("hints")
    rows = []
    for i, hid in enumerate(HINT_NAMES):
        r = compare_pair(rules, full, resolve_policy(f"hints:no={hid}"), hands, seed, threads,
                         progress=progress).row()
        rows.append({"hint": hid, "advice": HINT_TEXT[i], **{k: v for k, v in r.items()
                                                             if k not in ("policy_a", "policy_b")}})
    return pd.DataFrame(rows)
