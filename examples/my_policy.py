"""An example user policy: play like `greedy`, but never exchange the seven of trumps.

Run it:  bezique simulate --policy examples/my_policy.py:no_exchange --policy greedy --hands 20000
"""
from numba import njit

from analyzer.engine.layout import A_EXCHANGE, A_STOP, D_MELD, OBS_DECISION
from analyzer.engine.policy_data import POLICY_SIG
from analyzer.policies.builtin import greedy_policy


@njit(POLICY_SIG)
def no_exchange(obs, legal, n_legal, rules, params, rng, data):
    """Greedy, except that the exchange of the seven is never made."""
    if obs[OBS_DECISION] == D_MELD:
        for i in range(n_legal):
            if legal[i] != A_EXCHANGE and legal[i] != A_STOP:
                return legal[i]          # the first declaration offered
        return A_STOP
    return greedy_policy(obs, legal, n_legal, rules, params, rng, data)
