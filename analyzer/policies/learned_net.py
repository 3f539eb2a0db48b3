"""The learned player's decision: the features of the decision (:mod:`.features`), the network's
value of every legal action (:mod:`.network`), the teacher's choice as an input, and the best.

The decision works in the seat's working memory (``SeatData.work``, the policy scratch region
from ``SW_SCRATCH``: its regions ``F_*`` as float32, ``I_*`` as int64 and the teacher's settings
record through views), so it allocates nothing and runs inside any kernel, the
runtime-free search loop included. It leaves every action's value at :func:`action_q`, where the
search's prior reads them.
"""
import numpy as np
from numba import njit

from ..engine.layout import MAX_LEGAL, OBS_STAGE, OBS_TALON_LEFT
from ..engine.policy_data import PARAMS_DTYPE, SCRATCH_WORDS, SW_SCRATCH
from .features import CTX_W, MAX_ACTION_NZ, N_STATE, action_features, state_features
from .hints import hints_policy
from .network import (
    BLOCK, LATE_MAX_H1, LATE_MAX_H2, O_HINT_BONUS, action_values, hidden_state, net_of, plays_late, read_teacher,
)

# the float32 regions (in floats from the scratch's start), sized for the larger of the two networks
F_XS = 0
F_H0 = F_XS + N_STATE + 6                    # (8-float aligned)
F_HIDDEN = F_H0 + LATE_MAX_H1                # [BLOCK, h1 + h2]: each action's hidden layers
F_VAL = F_HIDDEN + BLOCK * (LATE_MAX_H1 + LATE_MAX_H2)     # [BLOCK, MAX_ACTION_NZ]
F_OUT = F_VAL + BLOCK * MAX_ACTION_NZ        # [BLOCK]
F_Q = F_OUT + BLOCK                          # [MAX_LEGAL]: every legal action's value
F_END = F_Q + MAX_LEGAL
# the int64 and float64 regions (in words, after the floats)
I_IDX = (F_END + 1) // 2                     # [BLOCK, MAX_ACTION_NZ]
I_NZ = I_IDX + BLOCK * MAX_ACTION_NZ         # [BLOCK]
I_CTX = I_NZ + BLOCK                         # [CTX_W]
I_TEACHER = I_CTX + CTX_W                 # a settings record (PARAMS_DTYPE): the teacher's
PARAMS_WORDS = PARAMS_DTYPE.itemsize // np.dtype(np.int64).itemsize   # the record in int64 words
SCRATCH_USED = I_TEACHER + PARAMS_WORDS
assert SCRATCH_USED <= SCRATCH_WORDS, "the decision's scratch outgrows policy_data.SCRATCH_WORDS"


@njit(cache=True, _nrt=False, inline="always")
def _floats(data):
    return data.work[SW_SCRATCH:SW_SCRATCH + I_IDX].view(np.float32)


@njit(cache=True, _nrt=False, inline="always")
def action_q(data):
    """The values :func:`best_action` left for each legal action (float32[MAX_LEGAL]; the
    teacher's choice with its bonus)."""
    return _floats(data)[F_Q:F_Q + MAX_LEGAL]


@njit(cache=True, _nrt=False)
def teacher_action(w, obs, rules, legal, n_legal, rng, data):
    """The teacher's choice: hints with the settings stored after the network."""
    params = data.work[SW_SCRATCH + I_TEACHER:SW_SCRATCH + I_TEACHER + PARAMS_WORDS].view(PARAMS_DTYPE)[0]
    read_teacher(w, params)
    return hints_policy(obs, legal, n_legal, rules, params, rng, data)


@njit(cache=True, _nrt=False)
def best_action(w, obs, rules, legal, n_legal, rng, data):
    """The index in ``legal`` of the action of highest Q under the model ``w`` (the first of
    equals; its late network at the first stage's last decisions, if it has one), every
    action's Q left at :func:`action_q` (the teacher's choice with its bonus); ``rng`` is the
    seat's stream (for the teacher's call), ``data`` the seat's SeatData whose scratch the
    decision works in."""
    o, n1, n2 = net_of(w, obs[OBS_STAGE] == 1 and plays_late(w, obs[OBS_TALON_LEFT]))
    f = _floats(data)
    xs = f[F_XS:F_XS + N_STATE]
    h0 = f[F_H0:F_H0 + n1]
    hidden = f[F_HIDDEN:F_HIDDEN + BLOCK * (n1 + n2)].reshape((BLOCK, n1 + n2))
    val = f[F_VAL:F_VAL + BLOCK * MAX_ACTION_NZ].reshape((BLOCK, MAX_ACTION_NZ))
    out = f[F_OUT:F_OUT + BLOCK]
    q = f[F_Q:F_Q + MAX_LEGAL]
    ints = data.work[SW_SCRATCH:SW_SCRATCH + I_TEACHER]
    idx = ints[I_IDX:I_IDX + BLOCK * MAX_ACTION_NZ].reshape((BLOCK, MAX_ACTION_NZ))
    nz = ints[I_NZ:I_NZ + BLOCK]
    ctx = ints[I_CTX:I_CTX + CTX_W]
    state_features(obs, rules, xs, ctx)
    hidden_state(w, o, n1, xs, h0)
    hint = teacher_action(w, obs, rules, legal, n_legal, rng, data)
    best = 0
    best_q = -1e30
    for b0 in range(0, n_legal, BLOCK):
        nb = min(BLOCK, n_legal - b0)
        for a in range(nb):
            nz[a] = action_features(obs, rules, ctx, legal[b0 + a], hint, idx[a], val[a])
        action_values(w, o, n1, n2, h0, idx, val, nz, nb, hidden, out)
        for a in range(nb):
            i = b0 + a
            qa = out[a]
            if legal[i] == hint:
                qa += w[O_HINT_BONUS]
            q[i] = qa
            if qa > best_q:
                best_q = qa
                best = i
    return best
