"""The exact second stage as a building block of policies (``expert``, ``learned``,
``hints:endgame=exact``).

In a two-handed second stage every card is known (the other hand is every copy neither in
one's hand nor played), so a policy can hand the decision to the exact solver
(engine.endgame) and the cost of its own endgame play can be measured. The solver's table is
the seat's (``SeatData.work`` from ``SW_SOLVER``): the first decision of a second stage solves
it, the later ones find most of their positions already in the table.
"""
from numba import njit

from ..engine.endgame import best_obs
from ..engine.endgame_buffer import POS_W, solver_in
from ..engine.layout import D_FOLLOW, D_LEAD, MAX_LEGAL, OBS_DECISION, OBS_N_SEATS, OBS_STAGE
from ..engine.policy_data import SW_EXACT, SW_SOLVER


@njit(cache=True, _nrt=False)
def is_exact_decision(obs):
    """A two-handed second-stage play: every card is known and the exact solver can decide."""
    dec = obs[OBS_DECISION]
    return obs[OBS_N_SEATS] == 2 and obs[OBS_STAGE] == 2 and (dec == D_LEAD or dec == D_FOLLOW)


@njit(cache=True, _nrt=False)
def exact_endgame_action(rules, obs, legal, n_legal, data):
    """The legal action of best exact value (the first of equals) at an exact decision, with
    the solver and scratch of the seat's data ``data`` (a SeatData)."""
    work = data.work
    pos = work[SW_EXACT + MAX_LEGAL:SW_EXACT + MAX_LEGAL + POS_W]
    return legal[best_obs(rules, obs, legal, n_legal, solver_in(work, SW_SOLVER), pos)]
