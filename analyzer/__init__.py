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
    tuned = analyzer.tune(rules, opponent="hints", budget=2_000_000, seed=1)   # CMA-ES over the hint weights (H1..H13)
    analyzer.analyze("hand.json", at=10).actions         # every legal action valued (expert search)
    with analyzer.dask_backend(workers=2):               # runs inside go to a Dask cluster
        analyzer.simulate(rules, ["hints", "greedy"], hands=10**6, seed=1)

Charts are in :mod:`analyzer.plots` (matplotlib Figures). Importing this package loads
neither matplotlib nor the compiled engine: each name below loads its module on first use.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .given_deal import GivenDeal, given_deal, parse_given
from .rules import RuleSet, preset
from .run.backends import dask_backend

if TYPE_CHECKING:
    from .hands.view import load_record, parse_view_text, view_of
    from .run.checkpoint import keep_checkpoints
    from .studies.position.analysis import Analysis
    from .studies.position.review import review_file as review
    from .studies.play.compare import Comparison, compare
    from .studies.hints.worth import ablate
    from .studies.odds.given_odds import odds
    from .studies.play.games import GamesResult, simulate_games
    from .studies.report.study import Study, study
    from .studies.play.simulate import Result, simulate
    from .studies.hints.tune import tune

# name -> (module, its name there): the modules bring pandas, scipy, the engine and the policies
_LATER = {"keep_checkpoints": ("run.checkpoint", "keep_checkpoints"),
          "Comparison": ("studies.play.compare", "Comparison"), "ablate": ("studies.hints.worth", "ablate"),
          "compare": ("studies.play.compare", "compare"), "odds": ("studies.odds.given_odds", "odds"),
          "GamesResult": ("studies.play.games", "GamesResult"), "simulate_games": ("studies.play.games", "simulate_games"),
          "Study": ("studies.report.study", "Study"), "study": ("studies.report.study", "study"),
          "Result": ("studies.play.simulate", "Result"), "simulate": ("studies.play.simulate", "simulate"),
          "tune": ("studies.hints.tune", "tune"), "load_record": ("hands.view", "load_record"),
          "review": ("studies.position.review", "review_file"),
          "parse_view_text": ("hands.view", "parse_view_text"), "view_of": ("hands.view", "view_of")}


def __getattr__(name: str):
    # keeps import analyzer light: each name's module loads on first use, so that `bezique`
    # answers a bad argument before pandas or numba load
    if name in _LATER:
        module, attr = _LATER[name]
        value = getattr(importlib.import_module(f".{module}", __name__), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def analyze(replay, at: int | None = None, samples: int = 400, seed: int = 1,
            rollout: str | None = None, skip: int = 0) -> "Analysis":
    """Value every legal action of the seat to act in a position (``bezique analyze``):
    ``replay`` a replay file's path or a parsed HandSpec, ``at`` the moves played (default
    all), ``rollout`` the policy that plays each sample out (default the analysis's,
    ``learned``), ``skip`` the declaration windows passed first as the record passed them.
    Returns an :class:`analyzer.studies.position.analysis.Analysis` (``.actions`` best first)."""
    # keeps import analyzer light: the analysis loads the engine and the expert policy
    from .hands.replay_file import HandSpec
    from .studies.position.analysis import DEFAULT_ROLLOUT, analyze_file, analyze_position
    rollout = rollout or DEFAULT_ROLLOUT
    if isinstance(replay, HandSpec):
        return analyze_position(replay, at, samples, seed, rollout, skip)
    return analyze_file(replay, at, samples, seed, rollout, skip)


__all__ = ["Comparison", "GamesResult", "GivenDeal", "Result", "RuleSet", "Study", "ablate", "analyze", "compare",
           "dask_backend", "given_deal", "keep_checkpoints", "load_record", "odds", "parse_given",
           "parse_view_text", "preset", "review", "simulate", "simulate_games", "study", "tune", "view_of"]
