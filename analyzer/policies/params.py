"""The policy parameter vector: which slot is what, for every policy.

A policy kernel is called with one float64 vector of ``POLICY_PARAMS`` slots (its settings: the
hint weights of ``hints``, the budget of ``expert``'s search). The engine fixes the vector's size
and reads one slot itself, ``PARAM_FULL_OBS`` (engine/layout.py); every other slot belongs to a
policy and is named here, and only here. A policy that builds on another (``expert`` rolls out
with ``hints``) keeps the other's slots, so the slots of all policies are disjoint. To add a
policy: give its slots a free range below, add them to ``SLOTS`` and read them by name.
"""
from __future__ import annotations

import numpy as np

from ..engine.layout import PARAM_FULL_OBS, POLICY_PARAMS

# --- hints (policies/hints.py), also the roll-out policy of expert ---------------------------
H1, H2, H3, H4, H5, H6, H7, H8 = range(8)      # the weight of each of the rulebook's hints
# the hints found where strong play parts from the tuned hints (docs/policies.md), in the
# slots left free: a vector that predates them (a stored network's) holds 0 there, i.e. off
H9, H10, H11, H12, H13 = 12, 13, 14, 15, 30
HINT_SLOTS = (H1, H2, H3, H4, H5, H6, H7, H8, H9, H10, H11, H12, H13)   # the weights, in name order
N_HINTS = len(HINT_SLOTS)
RULEBOOK_HINTS = 8       # H1..H8 are the rulebook's; ``hints`` plays them, the found ones off
HINT_NAMES = tuple(f"H{i + 1}" for i in range(N_HINTS))
P_DEFER_TALON = 8        # H6: hold the bézique back while more cards than this are left to draw
P_RUBICON_RATE = 9       # H7: points a player can still hope to score per card left in the talon
P_RUBICON_GAP = 10       # H7: how far behind the opponent before giving up
P_ENDGAME = 11           # > 0: a two-handed second stage is played by the exact solver
# 12-15: H9..H12 (above)

# --- expert (policies/expert.py) --------------------------------------------------------------
E_SAMPLES = 16           # sampled deals of the unseen cards per decision
E_ROLLOUT = 17           # the roll-out policy: ROLLOUT_* below (greedy, random, hints, learned)
E_ENDGAME = 18           # > 0: roll-outs solve a two-handed second stage exactly
E_EXACT = 19             # > 0: the search's own second-stage decisions are solved exactly
E_PRUNE_Z = 20           # drop an action this many standard errors below the best (0: never)
E_BLOCK = 21             # N > 0: samples between two looks at the actions (pruning)
E_LEAF = 22              # > 0: roll-outs end at the ordinary second stage with its value network
E_TAIL = 23              # > 0: a decision of the first stage's last window searches each world to the second stage
E_PRIOR = 24             # K > 0: the learned network ranks the actions; only its K best are searched
E_SWITCH_Z = 25          # ... and its choice stands unless beaten by this many standard errors
E_GATE = 26              # > 0: a decision whose best network value leads by this much is not searched
E_LATE = 27              # N > 0: only decisions with at most N cards left to draw are searched (the
#                          anchor plays the others); the anchor: the prior's choice, or with E_GUARD the roll-out's
E_GUARD = 28             # > 0: without a prior, the roll-out policy's own choice is the anchor: it stands
#                          unless another action is E_SWITCH_Z standard errors better (never weaker than it)
ROLLOUT_GREEDY, ROLLOUT_RANDOM, ROLLOUT_HINTS, ROLLOUT_LEARNED = 0, 1, 2, 3    # E_ROLLOUT's values
ROLLOUT_NAMES = ("greedy", "random", "hints", "learned")                      # ... by name
DEFAULT_SAMPLES = 32
DEFAULT_PRUNE_Z = 2.0
DEFAULT_BLOCK = 8        # samples between two looks at the actions' differences

E_INFER = 29             # T > 0: worlds weighted by the other seat's lead under the learned policy,
#                          a softmax of temperature T points (policies/inference.py)
# 30: H13 (above; the learned player keeps its weights in its seat's data, not here);
# 31: PARAM_FULL_OBS (the engine's)

# every named slot: (slot, policy, what it holds)
SLOTS = {
    **{name: (i, "hints", f"weight of hint {name}") for i, name in zip(HINT_SLOTS, HINT_NAMES)},
    "P_DEFER_TALON": (P_DEFER_TALON, "hints", "H6: cards left to draw above which the bézique waits"),
    "P_RUBICON_RATE": (P_RUBICON_RATE, "hints", "H7: points hoped for per card left in the talon"),
    "P_RUBICON_GAP": (P_RUBICON_GAP, "hints", "H7: the deficit past which a player gives up"),
    "P_ENDGAME": (P_ENDGAME, "hints", "> 0: exact second stage"),
    "E_SAMPLES": (E_SAMPLES, "expert", "samples per decision"),
    "E_ROLLOUT": (E_ROLLOUT, "expert", "roll-out policy"),
    "E_ENDGAME": (E_ENDGAME, "expert", "> 0: roll-outs solve the second stage exactly"),
    "E_EXACT": (E_EXACT, "expert", "> 0: exact second-stage decisions"),
    "E_PRUNE_Z": (E_PRUNE_Z, "expert", "pruning threshold in standard errors"),
    "E_BLOCK": (E_BLOCK, "expert", "samples between two looks at the actions"),
    "E_LEAF": (E_LEAF, "expert", "> 0: roll-outs end at the second stage with the value network"),
    "E_TAIL": (E_TAIL, "expert", "> 0: the last window's worlds searched to the second stage"),
    "E_PRIOR": (E_PRIOR, "expert", "actions the learned network lets the search try (0: all)"),
    "E_SWITCH_Z": (E_SWITCH_Z, "expert", "standard errors by which the search must beat the network's choice"),
    "E_GATE": (E_GATE, "expert", "network lead above which a decision is not searched (0: always search)"),
    "E_LATE": (E_LATE, "expert", "cards left to draw above which a decision is not searched (0: always search)"),
    "E_GUARD": (E_GUARD, "expert", "> 0: the roll-out policy's choice stands unless clearly beaten (no prior)"),
    "E_INFER": (E_INFER, "expert", "> 0: worlds weighted by the other seat's lead (softmax temperature, points)"),
    "PARAM_FULL_OBS": (PARAM_FULL_OBS, "engine", "> 0: the policy is given its seat's public record "
                       "(2: and the other hands, 3: and the talon's order: the ceilings)"),
}


def hint_slot(name: str) -> int:
    """The parameter slot of the hint named ``name`` (``H3`` or ``h3``; ValueError if none)."""
    return HINT_SLOTS[HINT_NAMES.index(name.upper())]


def new_params() -> np.ndarray:
    """A parameter vector with every slot 0."""
    return np.zeros(POLICY_PARAMS)


def hint_defaults() -> np.ndarray:
    """The ``hints`` policy's vector: every rulebook hint (H1..H8) on with weight 1, the found
    ones off, and the tuning constants."""
    p = new_params()
    p[list(HINT_SLOTS[:RULEBOOK_HINTS])] = 1.0
    p[P_DEFER_TALON] = 10.0
    p[P_RUBICON_RATE] = 20.0
    p[P_RUBICON_GAP] = 300.0
    return p


def search_defaults() -> np.ndarray:
    """The default search (``expert``): DEFAULT_SAMPLES samples, greedy roll-outs, exact second
    stage and last window, the public record; the hints' slots as ``hint_defaults`` (here, not
    in expert.py, so that naming the search's defaults compiles nothing)."""
    p = hint_defaults()
    p[E_SAMPLES] = DEFAULT_SAMPLES
    p[E_ROLLOUT] = ROLLOUT_GREEDY
    p[E_ENDGAME] = 0
    p[E_EXACT] = 1
    p[E_PRUNE_Z] = DEFAULT_PRUNE_Z
    p[E_BLOCK] = DEFAULT_BLOCK
    p[E_TAIL] = 1
    p[PARAM_FULL_OBS] = 1                  # the search needs the public record to sample
    return p
