"""The layers of the package, top to bottom: a module imports only modules of its own layer or
of a layer below it, and never in a circle (docs/ARCHITECTURE.md, "Layers";
tests/test_import_layers.py holds the code to it). A package stands for every module in it;
``analyzer`` is the package's ``__init__`` alone, the notebook's API."""
from __future__ import annotations

LAYERS: tuple[tuple[str, ...], ...] = (
    ("analyzer.cli",),                             # the command line: parse, call the library, print
    ("analyzer.published",),                       # the published studies of results/, a command each
    ("analyzer",),                                 # the notebook's API (analyzer/__init__.py)
    ("analyzer.studies.report",),                  # the main job's study and report.md
    ("analyzer.studies.hints", "analyzer.studies.value",    # the hints and their tuning; what cards are worth;
     "analyzer.studies.odds", "analyzer.studies.position",   # the odds; what to play in a position;
     "analyzer.studies.strength"),                            # the learned player trained
    ("analyzer.studies.play", "analyzer.studies"),   # hands and games played, players compared
    ("analyzer.field",),                           # the OpenSpiel game and PettingZoo environment (extra `field`)
    ("analyzer.hands",),                           # replay files, one hand's event log, as text or JSON
    ("analyzer.plots",),                           # matplotlib Figures
    ("analyzer.tables",),                          # pandas tables with intervals
    ("analyzer.learning",),                        # training the learned player by self-play
    ("analyzer.run",),                             # chunks on a backend, records, tallies, checkpoints, files
    ("analyzer.policies",),                        # numba policies, their catalog and tuned presets
    ("analyzer.actions", "analyzer.rubicon_score"),         # readable names and game scores over the engine
    ("analyzer.engine",),                          # numba kernels only
    ("analyzer.rules", "analyzer.cards", "analyzer.given_deal", "analyzer.stop", "analyzer.errors",
     "analyzer.words", "analyzer.numbers", "analyzer.layers"),
    # data, notation, a deal given in part, the stop flag, the library's errors, names and numbers for people
)


def layer_of(module: str) -> int | None:
    """The index in LAYERS of ``module`` (a dotted name), or None if no layer holds it."""
    best, found = -1, None
    for i, names in enumerate(LAYERS):
        for name in names:
            hit = module == name or (name != "analyzer" and module.startswith(name + "."))
            if hit and len(name) > best:
                best, found = len(name), i
    return found
