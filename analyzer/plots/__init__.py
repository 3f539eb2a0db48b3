"""Charts from the tables, as matplotlib Figures.

Every chart function returns a :class:`matplotlib.figure.Figure` built without pyplot, so
no backend is chosen here (a notebook keeps its own, and shows the figure); write one
with :func:`save_chart` (several at once, side by side on the cores: :func:`save_charts`); :func:`rules_title` names the rule set for a title. Modules:
:mod:`.figure` (making and saving figures, shared marks, percentage axes, legends of what
was drawn), :mod:`.scores` (score distributions), :mod:`.rates` (rates and odds with their
intervals), :mod:`.pairs` (head to head and the hint ablation), :mod:`.learning` (the
learned player's learning curve), :mod:`.band` (the headline figures over the strong players).

Importing this package loads no matplotlib: each name below loads its module on first use, so a
command that may draw nothing (``trace``, ``compare`` without ``--out``) starts without it.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .band import band_chart
    from .figure import rules_title, save_chart, save_charts
    from .learning import learning_curve_chart
    from .pairs import ablation_chart, pairs_heatmap, pairwise_chart
    from .rates import (bezique_by_trick_chart, brisque_chart, combinations_chart, game_length_chart, odds_chart,
                        rubicon_rate_chart, win_chance_chart)
    from .scores import (game_score_chart, loser_total_chart, score_at_least_chart, score_chart,
                         score_distribution_chart)

# name -> its module in this package (each loads matplotlib)
_WHERE = {"band_chart": "band", "rules_title": "figure", "save_chart": "figure", "save_charts": "figure",
          "learning_curve_chart": "learning", "ablation_chart": "pairs", "pairs_heatmap": "pairs",
          "pairwise_chart": "pairs", "bezique_by_trick_chart": "rates", "brisque_chart": "rates",
          "combinations_chart": "rates", "game_length_chart": "rates", "odds_chart": "rates",
          "rubicon_rate_chart": "rates", "win_chance_chart": "rates", "game_score_chart": "scores",
          "loser_total_chart": "scores", "score_at_least_chart": "scores", "score_chart": "scores",
          "score_distribution_chart": "scores"}

__all__ = [
    "ablation_chart", "band_chart", "bezique_by_trick_chart", "brisque_chart", "combinations_chart",
    "game_length_chart", "game_score_chart", "learning_curve_chart", "loser_total_chart", "odds_chart",
    "pairs_heatmap", "pairwise_chart", "rubicon_rate_chart", "rules_title", "save_chart", "save_charts",
    "score_at_least_chart", "score_chart", "score_distribution_chart", "win_chance_chart",
]


def __getattr__(name: str):
    # keeps the package light: matplotlib loads with the first chart a command draws
    if name in _WHERE:
        value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
