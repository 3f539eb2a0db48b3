"""bezique-analyzer: a Monte Carlo strategy analyzer for bézique.

The Python API mirrors the ``bezique`` commands::

    import analyzer

    rules = analyzer.preset("ordinary")                  # a RuleSet; options as keywords
    result = analyzer.simulate(rules, ["greedy", "random"], hands=50_000, seed=1)
    result.tables["summary"]                              # pandas, one row per seat
    cmp = analyzer.compare(rules, ["hints", "greedy", "random"], hands=10_000, seed=1)
    cmp.pairs, cmp.ranking

Charts are in :mod:`analyzer.plots` (matplotlib Figures). Importing this package loads
neither matplotlib nor the compiled engine: that happens when a run starts.
"""
from .compare import Comparison, ablate, compare
from .exact import odds_table as odds
from .report import Study, study
from .rules import RuleSet, preset
from .simulate import Result, simulate

__all__ = ["Comparison", "Result", "RuleSet", "Study", "ablate", "compare", "odds", "preset", "simulate",
           "study"]
