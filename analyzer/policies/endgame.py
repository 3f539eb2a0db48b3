"""The exact second stage as a building block of policies (``expert``, ``hints:endgame=exact``).

In a two-handed second stage every card is known (the other hand is every copy neither in
one's hand nor played), so a policy can hand the decision to the exact solver
(engine.endgame) and the cost of its own endgame play can be measured.
"""
import numpy as np
from numba import njit, types

from ..engine.endgame import solve_obs
from ..engine.layout import D_FOLLOW, D_LEAD, OBS_DECISION, OBS_N_SEATS, OBS_STAGE


@njit(cache=True, _nrt=False)
def is_exact_decision(obs):
    """A two-handed second-stage play: every card is known and the exact solver can decide."""
    dec = obs[OBS_DECISION]
    return obs[OBS_N_SEATS] == 2 and obs[OBS_STAGE] == 2 and (dec == D_LEAD or dec == D_FOLLOW)


# an explicit signature: compiled on its own (it allocates), so policies compiled without
# the runtime (_nrt=False) can call it
@njit(types.int64(types.int64[::1], types.int32[::1], types.int32[::1], types.int64), cache=True)
def exact_endgame_action(rules, obs, legal, n_legal):
    """The legal action of best exact value (the first of equals) at an exact decision."""
    values = np.zeros(n_legal, np.int64)
    return legal[solve_obs(rules, obs, legal, n_legal, values)]
