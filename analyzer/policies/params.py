"""The policies' settings by name: which hint is which (``HINT_*``), the search's roll-out
policies (``ROLLOUT_*``) and each built-in policy's defaults.

A policy kernel is called with one record of ``PARAMS_DTYPE`` (engine/policy_data.py lists its
fields, each with its meaning): the hints read ``params.hint[HINT_COUNT_CARDS]``, the search
``params.samples``. The hints keep their rulebook names H1..H13 on the command line
(``hints:no=H4``); in code a hint is its ``HINT_*`` index into the ``hint`` weights.
"""
from __future__ import annotations

import numpy as np

from ..engine.policy_data import N_HINTS, new_params

# the hints, by what they advise (docs/policies.md): H1..H8 the rulebook's, H9..H13 found by strong play
(HINT_DECLARE_BEST,      # H1: declare the best combination after each trick won; win tricks to declare
 HINT_MAKE_BRISQUES,     # H2: make your aces and tens, never give brisques away
 HINT_KEEP_ACES,         # H3: do not throw away aces while four aces is still likely
 HINT_COUNT_CARDS,       # H4: stop keeping cards of combinations that became impossible
 HINT_KEEP_BEZIQUE,      # H5: keep bezique and sequence cards while completing them is likely
 HINT_BEZIQUE_LAST,      # H6: spades or diamonds trumps: declare the others before bezique
 HINT_PLAY_FOR_RUBICON,  # H7: Rubicon: play to reach the limit; when hopeless, score little
 HINT_LEAD_WINNERS,      # H8: second stage: lead sure winners, take tricks that hold a brisque
 HINT_TABLE_FIRST,       # H9: lead the cards on your table before those in your hand
 HINT_KEEP_COURT,        # H10: keep kings, queens and knaves; lead a plain ace or ten instead
 HINT_WIN_LAST_TRICK,    # H11: win the first stage's last trick
 HINT_KEEP_TRUMP_COURT,  # H12: do not spend a trump court card to win a trick
 HINT_DRAW_TRUMPS,       # H13: second stage: lead a sure trump first while the other holds trumps
 ) = range(N_HINTS)
HINT_NAMES = tuple(f"H{i + 1}" for i in range(N_HINTS))    # the command-line names, by index
RULEBOOK_HINTS = 8       # H1..H8 are the rulebook's; ``hints`` plays them, the found ones off

ROLLOUT_GREEDY, ROLLOUT_RANDOM, ROLLOUT_HINTS, ROLLOUT_LEARNED = 0, 1, 2, 3    # ``rollout``'s values
ROLLOUT_NAMES = ("greedy", "random", "hints", "learned")                      # ... by name
DEFAULT_SAMPLES = 32
DEFAULT_PRUNE_Z = 2.0
DEFAULT_BLOCK = 8        # samples between two looks at the actions' differences


def hint_index(name: str) -> int:
    """The index in the ``hint`` weights of the hint named ``name`` (``H3`` or ``h3``;
    ValueError if none)."""
    return HINT_NAMES.index(name.upper())


def hint_defaults() -> np.void:
    """The ``hints`` policy's settings: every rulebook hint (H1..H8) on with weight 1, the found
    ones off, and the tuning constants."""
    p = new_params()
    p["hint"][:RULEBOOK_HINTS] = 1.0
    p["defer_talon"] = 10.0
    p["rubicon_rate"] = 20.0
    p["rubicon_gap"] = 300.0
    return p


def search_defaults() -> np.void:
    """The default search (``expert``): DEFAULT_SAMPLES samples, greedy roll-outs, exact second
    stage and last window; the hints' fields as ``hint_defaults`` (here, not in expert.py, so
    that naming the search's defaults compiles nothing). The search needs its seat's public
    record to sample worlds: its spec asks for it (``PolicySpec.sees``)."""
    p = hint_defaults()
    p["samples"] = DEFAULT_SAMPLES
    p["rollout"] = ROLLOUT_GREEDY
    p["exact"] = True
    p["prune_z"] = DEFAULT_PRUNE_Z
    p["block"] = DEFAULT_BLOCK
    p["tail"] = True
    return p

