"""Simulation: hands played by policies, reduced to tallies (a :class:`Result`).

The chunks of hands run on worker threads or a Dask cluster through
:mod:`analyzer.run.driver`; each is played by the nogil kernel (:mod:`analyzer.run.records`) and
reduced to integer sums at once, so memory does not grow with the number of hands and the
result depends only on the seed and the hand indices, never on the backend.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from ...given_deal import dealing
from ... import plots
from ...policies.spec import PolicySpec
from ...rules import RuleSet, preset
from ...run.checks import check_count
from ...run.driver import chunk_for, run_chunks
from ...run.records import play_records
from ...run.tallies import GameChainer, Tallies, compact_for_games
from ...run.task import RunTask, check_run
from ...tables.stats import tables
from ..files import write_files


@dataclass
class Result:
    """A finished run: the rules, the policies by seat, the hands and seed played, their
    integer tallies and (if kept) the per-hand records; ``tables`` gives pandas tables."""

    rules: RuleSet
    policies: list[str]
    hands: int
    seed: int
    tallies: Tallies
    records: np.ndarray | None = None

    @cached_property
    def tables(self) -> dict[str, pd.DataFrame]:
        """The run's tables by name, computed on first use (:func:`analyzer.tables.stats.tables`):
        ``summary``, ``declarations``, ``score_histogram``; Rubicon adds ``rubicon`` and
        ``trumps``."""
        return tables(self)


def simulate(rules: RuleSet, policies: Sequence[str | PolicySpec], hands: int, seed: int,
             threads: int | None = None, progress: Callable[[int], object] | None = None,
             keep_records: bool = False, hold: str | None = None, seat: int = 0,
             turn_up: str | None = None) -> Result:
    """Play ``hands`` hands of ``rules`` with ``policies`` (names such as ``"greedy"`` or
    ``"hints:no=H4"``, or PolicySpecs; one per seat) and return a :class:`Result`. Hand ``i``
    is dealt by seat ``i % players``; the same seed plays the same deals.

    ``threads`` defaults to one per core. ``progress`` is an optional callable taking the
    number of hands just finished. ``keep_records`` keeps the per-hand records (for tests
    and small runs). ``hold`` (cards, "QS JD AH"), ``seat`` and ``turn_up`` (a card) deal every
    hand with those cards as named and the rest fairly (analyzer/given_deal.py; DealError if the
    rules cannot deal them).
    """
    check_count(hands)
    specs = check_run(rules, policies, seed, threads)
    with dealing(rules, hold, seat, turn_up):
        return play_hands(RunTask(simulate_chunk, rules, seed, specs, keep_records), hands, threads, progress)


def play_hands(task: RunTask, hands: int, threads: int | None = None,
               progress: Callable[[int], object] | None = None) -> Result:
    """The :class:`Result` of ``hands`` hands of the simulation ``task`` (a RunTask of
    :func:`simulate_chunk`, checked where it entered: :func:`simulate`, the report's study)."""
    rules = task.rules
    acc = run_chunks(task, hands, chunk_for(task.policies),
                     SimulationTotals(rules.players, task.keep_records, chains_games(rules), rules.sides),
                     threads, progress)
    records = np.concatenate(acc.kept) if task.keep_records else None
    return Result(rules, [s.name for s in task.policies], hands, task.seed, acc.total, records)


def chains_games(rules: RuleSet) -> bool:
    """Whether a simulation chains its hands into games: where games span hands (R2.24)."""
    return rules.brisques == "scored"


def simulate_chunk(task: RunTask, start: int, count: int):
    """Play hands ``start`` .. ``start + count - 1`` and reduce them: (their Tallies, the
    records if kept, their compact game rows if games are chained). A RunTask's play."""
    rules = task.rules
    rec = play_records(task.rules_array, task.seed, start, count, task.policies)
    return (Tallies.from_records(rec, rules), rec if task.keep_records else None,
            compact_for_games(rec, rules) if chains_games(rules) else None)


class SimulationTotals:
    """The merged chunks of a simulation: tallies, games chained across chunks (R2.24) and
    the records if kept."""

    def __init__(self, players: int, keep_records: bool, games: bool, sides: int = 2):
        self.total = Tallies(players)
        self.chain = GameChainer(sides) if games else None
        self.kept = [] if keep_records else None

    def merge(self, chunk) -> None:
        """Add one chunk (in hand order: games span chunks)."""
        tally, rec, compact = chunk
        self.total.add(tally)
        if self.chain is not None:
            self.chain.feed(compact, self.total)
        if self.kept is not None:
            self.kept.append(rec)


def write_simulation(result: Result, out, threads: int | None = None) -> list:
    """Write a simulation's tables (CSV, Parquet), its score chart (PNG, SVG) and run.json into
    ``out``; returns the files written."""
    return write_files(out, threads, result.tables, {"score_distribution": plots.score_chart(result)},
                       rules=result.rules.describe(), policies=result.policies, hands=result.hands, seed=result.seed)


WARM_POLICIES = ("learned", "hints", "greedy", "random")     # the main job's players


def warm(policies=WARM_POLICIES):
    """Compile the kernels that playing hands with ``policies`` needs (or load them from
    numba's cache), in the ordinary game and Rubicon: yields (variant, policy, seconds) as each
    is ready."""
    for variant in ("ordinary", "rubicon"):
        rules = preset(variant)
        for name in policies:
            start = time.perf_counter()
            simulate(rules, [name] * rules.players, 2, 1, threads=1)
            yield variant, name, time.perf_counter() - start
