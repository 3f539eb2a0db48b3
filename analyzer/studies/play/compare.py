"""Fair comparison of policies: the same deals, each twice with the seats swapped.

For a pair (A, B), deal ``i`` is played once with A in seat 0 and once with A in
seat 1 (common random numbers: the deal depends only on the seed and ``i``). The
per-deal difference averages both plays, which removes the luck of the cards.
The engine and the policies load when a comparison starts, not at import.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product

import numpy as np
import pandas as pd

from ...given_deal import dealing
from ...numbers import difference, share
from ... import plots
from ...policies.spec import PolicySpec
from ...rubicon_score import rubicon_results
from ...rules import RuleSet
from ...run.driver import CHUNK, chunk_for, run_chunks
from ...run.records import as_structured, play_records
from ...run.task import RunTask, check_run
from ...tables.stats import mean_ci, wilson_ci
from ..files import write_files
from .ratings import bradley_terry, elo_from_score, sprt_bounds, sprt_llr

Progress = Callable[[int], object]
LOOK_CHUNK = 1024   # deals between two looks of a run that may stop early (a finer look stops closer to its bound)
SETTLED = 0.025     # a difference is settled once its 95 % interval lies within ±2.5 % of it and leaves out 0


@dataclass
class PairTally:
    """Integer sums over deals for one pair (A against B). A deal's difference is the mean of
    its plays (:func:`seatings`), a fraction: the sums keep it times ``scale``, so they merge
    exactly."""

    deals: int = 0
    twice_diff: int = 0      # sum over deals of scale * the deal's difference (A - B)
    twice_diff_sq: int = 0   # sum of its squares
    wins: int = 0      # games (= plays) A won
    draws: int = 0
    losses: int = 0
    scale: int = 2     # two plays a deal (two seats); 2 for partners, 12 for three players
    def add(self, o: "PairTally") -> None:
        """Add another chunk (of the same comparison: its scale is taken)."""
        self.scale = o.scale
        self.deals += o.deals
        self.twice_diff += o.twice_diff
        self.twice_diff_sq += o.twice_diff_sq
        self.wins += o.wins
        self.draws += o.draws
        self.losses += o.losses

    def mean_diff(self) -> tuple[float, float, float]:
        """A's mean advantage per deal with its 95 % normal interval."""
        m, lo, hi = mean_ci(self.twice_diff / self.scale, self.twice_diff_sq / self.scale ** 2, self.deals)
        return float(m), float(lo), float(hi)

    def settled(self, within: float) -> bool:
        """Whether A's mean advantage is known to within ``within`` of itself: its 95 % interval
        leaves out 0 and is no wider either side than ``within`` times the advantage."""
        m, lo, hi = self.mean_diff()
        return (lo > 0 or hi < 0) and (hi - lo) / 2 <= within * abs(m)


def points_unit(rules: RuleSet) -> str:
    """What a comparison's differences count: hand points, or in Rubicon net game points."""
    return "net game points per game" if rules.is_rubicon else "points per hand"


def seat_points(rules: RuleSet, rec: np.ndarray) -> np.ndarray:
    """Per play, the points of each seat [plays, seats]: hand scores, or in Rubicon (two
    seats) the net game points of the game the deal is (R3.9; a drawn game, Law 61, is 0 to
    each, so the play counts as a draw)."""
    r = as_structured(rec)
    score = r["seats"]["score"][:, :rules.players].astype(np.int64)
    if rules.is_rubicon:       # Rubicon: one deal is one game (R3.9)
        brisq = r["seats"]["brisques"][:, :2].astype(np.int64) * rules.brisque_points
        g = rubicon_results(score, brisq, rules=rules)
        net = np.select([g["winner"] == 0, g["winner"] == 1], [g["points"], -g["points"]], 0)
        return np.stack([net, -net], axis=1)
    return score


def seatings(players: int) -> list[tuple[int, ...]]:
    """Every seating of A (0) and B (1) the comparison plays each deal with: the seats
    swapped with two players; with partners (four players) A's partnership against B's,
    then swapped; with three players every seating of one against two and two against one."""
    if players == 2:
        return [(0, 1), (1, 0)]
    if players == 4:
        return [(0, 1, 0, 1), (1, 0, 1, 0)]
    return [s for s in product((0, 1), repeat=players) if 0 < sum(s) < players]


def pair_chunk(task: RunTask, start: int, count: int) -> PairTally:
    """Deals ``start`` .. ``start + count - 1`` played by the pair ``task.policies`` (A, B),
    reduced to a PairTally (:func:`play_pair`). A RunTask's play."""
    a, b = task.policies
    return play_pair(task, a, b, start, count)


def play_pair(task: RunTask, a: PolicySpec, b: PolicySpec, start: int, count: int) -> PairTally:
    """Deals ``start`` .. ``start + count - 1`` of ``task`` (its rules and seed) played by A and B
    once in each of :func:`seatings`, reduced to a PairTally (:func:`deal_differences`)."""
    return deal_differences(task, a, b, start, count)[1]


def deal_differences(task: RunTask, a: PolicySpec, b: PolicySpec, start: int, count: int):
    """Deals ``start`` .. ``start + count - 1`` of ``task`` played by A and B once in each of
    :func:`seatings`: each deal's difference times the tally's scale (int64 [count]), and the
    PairTally of them. A play's difference is A's mean points per seat minus B's (with
    partners: A's partnership's points minus B's); a deal's, the mean over its plays. A play is
    won by the policy of the seat (or partnership) with the most points."""
    rules = task.rules
    ways = seatings(rules.players)
    partners = rules.players == 4
    factor = 2 if rules.players == 3 else 1    # a mean over one or two seats: halves
    scaled = np.zeros(count, np.int64)         # sum over plays of factor * the play's difference
    wins = losses = 0
    for seating in ways:
        pts = seat_points(rules, play_records(task.rules_array, task.seed, start, count, [(a, b)[k] for k in seating]))
        is_a = np.array(seating) == 0
        sum_a, sum_b = pts[:, is_a].sum(1), pts[:, ~is_a].sum(1)
        if partners:                           # the partnerships' pooled points
            scaled += sum_a - sum_b
            top_a, top_b = sum_a, sum_b
        else:
            scaled += factor // int(is_a.sum()) * sum_a - factor // int((~is_a).sum()) * sum_b
            top_a, top_b = pts[:, is_a].max(1), pts[:, ~is_a].max(1)
        wins += int((top_a > top_b).sum())
        losses += int((top_b > top_a).sum())
    t = pair_tally(scaled, factor * len(ways))
    t.wins, t.losses = wins, losses
    t.draws = len(ways) * count - wins - losses
    return scaled, t


def pair_tally(scaled: np.ndarray, scale: int) -> PairTally:
    """The sums of a PairTally over deals whose differences times ``scale`` are ``scaled``."""
    return PairTally(deals=len(scaled), twice_diff=int(scaled.sum()), twice_diff_sq=int((scaled ** 2).sum()),
                     scale=scale)


@dataclass
class PairTotals:
    """The merged chunks of a comparison, and what stops it early, checked after each chunk in
    deal order: the SPRT's state when one runs (``sprt=(elo0, elo1)``), or ``settle``, the
    precision at which the difference is settled (:meth:`PairTally.settled`; verdict "settled")."""

    sprt: tuple[float, float] | None
    lower: float
    upper: float
    total: PairTally = field(default_factory=PairTally)
    llr: float = 0.0
    verdict: str | None = None
    settle: float | None = None

    def merge(self, t: PairTally) -> bool:
        """Add one chunk; True once the SPRT has decided or the difference is settled."""
        self.total.add(t)
        if self.sprt:
            self.llr = sprt_llr(self.total.wins, self.total.draws, self.total.losses, *self.sprt)
            self.verdict = "H1" if self.llr >= self.upper else "H0" if self.llr <= self.lower else None
        elif self.settle and self.total.settled(self.settle):
            self.verdict = "settled"
        return self.verdict is not None


@dataclass
class PairResult:
    """One pair's comparison with its confidence intervals."""

    a: str
    b: str
    tally: PairTally
    sprt: dict | None = field(default=None)

    def row(self) -> dict:
        """The pair as a table row: ``policy_a``, ``policy_b``, ``deals``, ``games``; A's mean
        advantage per deal ``mean_diff``, A's share of the games ``score_a`` (wins + half the
        draws) and its Elo difference ``elo_a``, each with ``_lo`` and ``_hi`` (95 %);
        ``wins_a``, ``draws``, ``wins_b``; and the SPRT's figures when it ran."""
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
                 progress: Progress | None = None, settle: float | None = None) -> PairResult:
    """Compare A with B on ``hands`` deals (each played twice, seats swapped); ``threads``
    defaults to one per core, ``progress`` is called with the deals just finished. The rules,
    policies and seed are taken as checked where the run entered (:func:`compare`,
    :func:`ablate`, tune).

    With ``sprt=(elo0, elo1)`` the run stops as soon as the SPRT, checked after each chunk
    of deals in deal order, accepts H0 or H1; with ``settle`` (a fraction, :data:`SETTLED`) it
    stops as soon as A's mean advantage is known to within that fraction of itself
    (:meth:`PairTally.settled`); ``hands`` is then the maximum, and the deals not played are
    passed to ``progress`` at the end, so that a bar ends full. The row then says
    ``settled_within`` and whether the difference ``settled``.
    """
    lower, upper = sprt_bounds()
    chunk = chunk_for([a, b], CHUNK) // len(seatings(rules.players)) or 1
    if sprt or settle:
        chunk = min(chunk, LOOK_CHUNK)
    acc = run_chunks(RunTask(pair_chunk, rules, seed, (a, b)), hands, chunk,
                     PairTotals(sprt, lower, upper, settle=settle), threads, progress)
    total, llr, verdict = acc.total, acc.llr, acc.verdict
    if progress and total.deals < hands:
        progress(hands - total.deals)
    info = None
    if settle and not sprt:
        info = {"settled_within": settle, "settled": verdict == "settled"}
    if sprt:
        info = {"sprt_elo0": sprt[0], "sprt_elo1": sprt[1], "sprt_llr": llr,
                "sprt_lower": lower, "sprt_upper": upper,
                "sprt_result": {"H1": "accept H1 (elo >= elo1)", "H0": "accept H0 (elo <= elo0)"}.get(
                    verdict, "undecided")}
    return PairResult(a.name, b.name, total, info)


@dataclass
class Comparison:
    """Every pair of the policies compared: ``pairs`` (one row per pair, as
    :meth:`PairResult.row`), ``ranking`` (Bradley-Terry, three or more policies, else None)
    ``results`` (the PairResults, with their tallies) and ``policies`` (the names compared)."""

    pairs: pd.DataFrame
    ranking: pd.DataFrame | None
    results: list[PairResult]
    policies: list[str] = field(default_factory=list)


def compare(rules: RuleSet, policies: Sequence[str | PolicySpec], hands: int, seed: int,
            threads: int | None = None, sprt: tuple[float, float] | None = None,
            progress: Progress | None = None, hold: str | None = None, seat: int = 0,
            turn_up: str | None = None) -> Comparison:
    """Compare every pair of ``policies`` (names or PolicySpecs) on the same ``hands`` deals,
    each played twice with the seats swapped, and return a :class:`Comparison`. With
    ``sprt=(elo0, elo1)`` each pair stops as soon as its SPRT decides; ``progress`` is
    called with the deals just finished. ``hold``, ``seat``, ``turn_up``: deals given in part,
    as :func:`analyzer.studies.play.simulate.simulate` takes them."""
    specs = check_run(rules, policies, seed, threads, by_seat=False)
    with dealing(rules, hold, seat, turn_up):
        return compare_checked(rules, specs, hands, seed, threads, sprt, progress)


def compare_checked(rules: RuleSet, specs: Sequence[PolicySpec], hands: int, seed: int,
                    threads: int | None = None, sprt: tuple[float, float] | None = None,
                    progress: Progress | None = None, settle: float | None = None) -> Comparison:
    """:func:`compare` of PolicySpecs checked where the run entered (compare, the report's
    study); ``settle``: each pair stops once its difference is settled (:func:`compare_pair`)."""
    results = [compare_pair(rules, a, b, hands, seed, threads, sprt, progress, settle)
               for a, b in combinations(specs, 2)]
    pairs = pd.DataFrame([r.row() for r in results])
    ranking = bradley_terry([s.name for s in specs], results) if len(specs) >= 3 else None
    return Comparison(pairs, ranking, results, [s.name for s in specs])


def format_comparison(res: Comparison, rules: RuleSet, seed: int) -> str:
    """A :class:`Comparison` as text: a line per pair (mean difference, score share, Elo, and
    the SPRT's verdict when it ran), then the ranking when there is one."""
    lines = [f"{rules.name} bézique, seed {seed}: mean difference A - B in {points_unit(rules)}"]
    for _, r in res.pairs.iterrows():
        line = (f"{r.policy_a} vs {r.policy_b}: {difference(r.mean_diff, r.mean_diff_lo, r.mean_diff_hi)}"
                f" over {r.deals:,} deals; {r.policy_a} takes {share(r.score_a, r.score_a_lo, r.score_a_hi)} of the "
                f"{'games' if rules.is_rubicon else 'hands'}; Elo {difference(r.elo_a, r.elo_a_lo, r.elo_a_hi)}")
        if "sprt_result" in res.pairs:
            line += f"; SPRT {r.sprt_result} (LLR {r.sprt_llr:.2f})"
        lines.append(line)
    if res.ranking is not None:
        lines += ["\nranking (Bradley-Terry, Elo scale)",
                  res.ranking.to_string(index=False, float_format=lambda x: difference(x))]
    return "\n".join(lines)


def write_comparison(res: Comparison, rules: RuleSet, out, hands: int, seed: int, threads: int | None = None,
                     sprt: str | None = None) -> list:
    """Write a comparison's tables (pairs.csv, ranking.csv), its heatmap (PNG) and run.json into
    ``out``; returns the files written."""
    names = res.policies
    title = f"{rules.name} bézique, {hands:,} deals per pair (x2 seats), seed {seed}"
    heatmap = plots.pairs_heatmap(res.pairs, names, "mean_diff", f"mean of row minus column, {points_unit(rules)}",
                                  title)
    tables = {"pairs": res.pairs, **({} if res.ranking is None else {"ranking": res.ranking})}
    return write_files(out, threads, tables, {"heatmap": (heatmap, ("png",))}, parquet=False, rules=rules.describe(),
                       policies=names, hands=hands, seed=seed, sprt=sprt)
