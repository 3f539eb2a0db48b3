"""The published studies of results/: one module a study (its tables, charts and the section of
its page it keeps, results/NAME/README.md and report.html), each one command, ``bezique study NAME`` or
``python -m analyzer.published.NAME``; what they share is in :mod:`.common`. This file
names them without importing them, so that the command line starts light."""
from __future__ import annotations

import importlib

from ..errors import BeziqueError

# name -> what it regenerates, in the order of docs/studies.md
STUDIES = {
    "reports": "results/ordinary, results/rubicon: the report of both games (learned the headline)",
    "ladder": "results/ladder: every player against the tuned hints, up to the ceilings",
    "search": "results/search: why the search lost to its policy, and the search that beats it",
    "strong": "results/strong: strong play by name, the players at the top, what is the game's",
    "learned": "results/learned: the learned player against every player, in self-play, on other rules",
    "generations": "results/learned: the learned player's generations and the name that means the best",
    "strongest": "results/strongest: the strongest player's (expert's) figures beside the fast players' band",
    "expert": "results/expert: the search player as it was, against the heuristics",
    "variants": "results/variants: the rulebook's games side by side",
    "tune": "results/tune: the tuned hints of both games, stored as the package's presets",
    "portland": "results/portland: Rubicon before and after the Portland Club's laws",
    "deal_value": "results/deal_value: what a dealt card is worth under strong play",
    "review": "results/review: what the review says of the project's players, and its luck check",
    "external": "results/external: OpenSpiel's IS-MCTS, a player written elsewhere, against the project's players",
    "site": "results/index.html and every study's report.html, from the committed pages (plays nothing)",
}


class StudyError(BeziqueError, KeyError):
    """A study name that is not one of :data:`STUDIES`."""

    def __str__(self) -> str:
        return self.args[0]


def run_study(name: str, argv) -> int:
    """Run the study ``name`` (a key of :data:`STUDIES`) with the command line ``argv`` (its
    options, as a list of strings); return its exit status."""
    if name not in STUDIES:
        raise StudyError(f"unknown study {name!r}; the studies: {', '.join(STUDIES)}")
    return importlib.import_module(f"{__name__}.{name}").main(list(argv)) or 0
