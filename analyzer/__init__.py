"""bezique-analyzer: a Monte Carlo strategy analyzer for bézique.

The Python API mirrors the ``bezique`` commands::

    import analyzer

    rules = analyzer.preset("ordinary")                  # a RuleSet; options as keywords
    result = analyzer.simulate(rules, ["greedy", "random"], hands=50_000, seed=1)
    result.tables["summary"]                              # pandas, one row per seat
    cmp = analyzer.compare(rules, ["hints", "greedy", "random"], hands=10_000, seed=1)
    cmp.pairs, cmp.ranking
    games = analyzer.simulate_games(analyzer.preset("three_handed"), ["hints"] * 3, games=2_000, seed=1)
    games.tables["win_chance"]                            # whole games to the target (R2.24, V3-V5)
    tuned = analyzer.tune(rules, opponent="hints", budget=2_000_000, seed=1)   # CMA-ES over H1..H8
    analyzer.analyze("hand.json", at=10).actions         # every legal action valued (expert search)
    with analyzer.dask_backend(workers=2):               # runs inside go to a Dask cluster
        analyzer.simulate(rules, ["hints", "greedy"], hands=10**6, seed=1)

Charts are in :mod:`analyzer.plots` (matplotlib Figures). Importing this package loads
neither matplotlib nor the compiled engine: that happens when a run starts.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .backends import dask_backend
from .checkpoint import keep_checkpoints
from .compare import Comparison, ablate, compare
from .rules import RuleSet, preset
from .games import GamesResult, simulate_games
from .simulate import Result, simulate

if TYPE_CHECKING:
    from .analysis import Analysis
    from .exact import odds_table as odds
    from .report import Study, study
    from .tune_hints import tune

_LATER = {"odds": ("exact", "odds_table"), "Study": ("report", "Study"), "study": ("report", "study"),
          "tune": ("tune_hints", "tune")}


def __getattr__(name: str):
    # the names whose modules bring pandas, scipy or the engine load on first use, so that
    # `bezique` answers a bad argument before those imports
    if name in _LATER:
        module, attr = _LATER[name]
        value = getattr(importlib.import_module(f".{module}", __name__), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")



def analyze(replay, at: int | None = None, samples: int = 400, seed: int = 1,
            rollout: str = "greedy") -> "Analysis":
    """Value every legal action of the seat to act in a position (``bezique analyze``):
    ``replay`` a replay file's path or a parsed HandSpec, ``at`` the moves played (default
    all). Returns an :class:`analyzer.analysis.Analysis` (``.actions`` best first)."""
    from .analysis import analyze_file, analyze_position
    from .replay_file import HandSpec
    if isinstance(replay, HandSpec):
        return analyze_position(replay, at, samples, seed, rollout)
    return analyze_file(replay, at, samples, seed, rollout)


__all__ = ["Comparison", "GamesResult", "Result", "RuleSet", "Study", "ablate", "analyze", "compare",
           "dask_backend", "keep_checkpoints", "odds", "preset", "simulate", "simulate_games", "study", "tune"]
