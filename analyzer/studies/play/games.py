"""Whole games to a target (R2.24; V3's claims; V4 each for himself; V5 partnerships): game
after game played by policies, reduced to tallies of their hands and of the games.

The engine's game kernel (:mod:`analyzer.engine.game_kernel`) plays each game to its end,
so a chunk is a run of games; the driver merges chunks in game order, as for hands.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from ...engine.game_kernel import (
    AFTER_HANDS,
    DIFF_BINS,
    GAME_HANDS,
    GR_CLAIM,
    GR_CLAIM_RIGHT,
    GR_HANDS,
    GR_W,
    GR_WINNER,
    GamesOut,
    run_games,
)
from ...engine.layout import MAX_SEATS, REC_W, ST_ILLEGAL_POLICY
from ... import plots
from ...policies.spec import PolicySpec
from ...rules import RuleSet
from ...run.checks import check_count
from ...run.driver import run_chunks
from ...run.records import check_status, policy_arrays
from ...run.tallies import Tallies
from ...run.task import RunTask, check_run
from ...tables.game_tables import game_tables
from ..files import write_files

MAX_GAMES = 2**53          # game numbers times GAME_HANDS are hand stream ids (signed 64-bit)
GAMES_CHUNK = 256          # games a worker plays at a time
RECORD_ROWS = 4096         # hand records a worker keeps at a time (at least GAME_HANDS)


class GameTotals:
    """The merged chunks of a games run: the hands' tallies and the games' counts."""

    def __init__(self, rules: RuleSet):
        self.hands = Tallies(rules.players)
        self.games = 0
        self.length = np.zeros(GAME_HANDS + 1, np.int64)      # games by hands played
        self.wins = np.zeros(MAX_SEATS + 1, np.int64)         # by side; the last: unfinished
        self.claims = np.zeros(2, np.int64)                   # claims made, of them wrong
        self.chance = np.zeros((MAX_SEATS, AFTER_HANDS, DIFF_BINS, 2), np.int64)

    def merge(self, chunk) -> None:
        """Add one chunk (a GameTotals of its games)."""
        self.hands.add(chunk.hands)
        self.games += chunk.games
        self.length += chunk.length
        self.wins += chunk.wins
        self.claims += chunk.claims
        self.chance += chunk.chance


def games_chunk(task: RunTask, start: int, count: int) -> GameTotals:
    """Play games ``start`` .. ``start + count - 1`` and reduce them to a GameTotals. A
    RunTask's play."""
    rules, specs = task.rules, task.policies
    players = policy_arrays(specs, task.rules_array)
    out = GameTotals(rules)
    records = np.zeros((RECORD_ROWS, REC_W), np.int32)
    rows = np.zeros((count, GR_W), np.int64)
    err = np.zeros(5, np.int64)
    done = 0
    while done < count:
        played = check_status(specs, err, lambda: run_games(
            task.rules_array, np.uint64(task.seed), start + done, count - done, players,
            GamesOut(records, rows[done:], out.chance, err)), illegal=-ST_ILLEGAL_POLICY)
        if played < 0:
            raise RuntimeError(f"game kernel stopped with status {-played} at hand {err[0]}")
        out.hands.add(Tallies.from_records(records[:err[4]], rules))
        done += played
    out.games = count
    out.length += np.bincount(rows[:, GR_HANDS], minlength=GAME_HANDS + 1)[:GAME_HANDS + 1]
    winners = rows[:, GR_WINNER]
    out.wins += np.bincount(np.where(winners < 0, MAX_SEATS, winners), minlength=MAX_SEATS + 1)
    claimed = rows[:, GR_CLAIM] >= 0
    out.claims += [int(claimed.sum()), int((claimed & (rows[:, GR_CLAIM_RIGHT] == 0)).sum())]
    return out


@dataclass
class GamesResult:
    """A finished games run: rules, policies by seat, games and seed, the merged totals;
    ``tables`` gives pandas tables."""

    rules: RuleSet
    policies: list[str]
    games: int
    seed: int
    totals: GameTotals

    @property
    def hands(self) -> int:
        """The hands played in these games."""
        return self.totals.hands.hands

    @property
    def tallies(self) -> Tallies:
        """The tallies of every hand played in the games (as a hands run's)."""
        return self.totals.hands

    @cached_property
    def tables(self) -> dict[str, pd.DataFrame]:
        """``games`` (wins per side, hands per game, claims), ``game_length`` (games by hands)
        and ``win_chance`` (the chance of winning from each score difference after each hand),
        beside the per-hand tables of :func:`analyzer.tables.stats.tables`."""
        return game_tables(self)


def simulate_games(rules: RuleSet, policies: Sequence[str | PolicySpec], games: int, seed: int,
                   threads: int | None = None, progress: Callable[[int], object] | None = None) -> GamesResult:
    """Play ``games`` whole games of ``rules`` to its target (``rules.target``) with
    ``policies`` (one per seat) and return a :class:`GamesResult`. Game ``g`` is first dealt
    by seat ``g % players`` and the deal then goes round the table; the same seed plays the
    same games."""
    check_count(games, "games", MAX_GAMES, "2^53")
    specs = check_run(rules, policies, seed, threads)
    acc = run_chunks(RunTask(games_chunk, rules, seed, specs), games, GAMES_CHUNK, GameTotals(rules),
                     threads, progress)
    return GamesResult(rules, [s.name for s in specs], games, seed, acc)


def write_games(result: GamesResult, out, threads: int | None = None) -> list:
    """Write a games run's tables, its score chart and the chart of the chance of winning the
    game (PNG, SVG) and run.json into ``out``; returns the files written."""
    rules = result.rules
    title = f"{rules.name} bézique to {rules.target}: the chance of winning the game ({result.games:,} games)"
    charts = {"score_distribution": plots.score_chart(result),
              "win_chance": plots.win_chance_chart(result.tables["win_chance"], title)}
    return write_files(out, threads, result.tables, charts, rules=rules.describe(), policies=result.policies,
                       games=result.games, seed=result.seed)
