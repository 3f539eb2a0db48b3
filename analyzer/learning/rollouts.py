"""Labels by roll-outs: at a sampled first-stage decision of a hand, every legal action is
tried from the true state and the hand played out by a fixed roll-out policy; the action's
label is its result minus the mean over the actions (its advantage).

The true state is used only to play the hand on, never as an input: the network sees the
deciding seat's observation alone, so it learns the expectation of each action's advantage
over the hands that look the same to that seat (its Q under the roll-out policy). The actions
of one decision share the deal, the talon order and the other hand (common random numbers),
so the differences between them carry far less noise than one hand's result.
"""
import numpy as np
from numba import njit

from ..engine.batch import deal_hand
from ..engine.hand import to_act
from ..engine.layout import G_STAGE, MAX_LEGAL, MAX_TALON
from ..engine.rng import below
from ..engine.state import copy_into, new_state
from ..policies.hints import hints_policy
from ..policies.learned_net import (
    MAX_ACTION_NZ,
    SCRATCH,
    action_features,
    best_action,
    state_features,
)
from .selfplay import BOTH_SEATS
from .steps import act, hand_result, legal, next_choice, uniform


# 9 arguments: the state, its seat, the two players' settings and the network's scratch arrays
@njit(cache=True, nogil=True)
def roll_out(rules, rubicon, st, seat, net, w, teacher, scratch, idx):
    """Play ``st`` to the end, the first stage by the network (``net``: weights ``w``) or by
    hints with ``teacher``'s weights, the second stage by hints; ``seat``'s result."""
    while True:
        nleg = next_choice(rules, st, 0)
        if nleg == 0:
            return hand_result(rules, st, rubicon, seat)
        s = to_act(st)
        obs = st.obs[s]
        if net and st.G[G_STAGE] == 1:
            a = st.legal[best_action(w, obs, rules, st.legal, nleg, scratch, idx, st.rngs[s])]
        else:
            a = hints_policy(obs, st.legal, nleg, rules, teacher, st.rngs[s])
        act(rules, st, a)


# 18 arguments: the training's entry point for labelled samples, compiled once; the sample
# arrays are preallocated by the caller and filled in place
@njit(cache=True, nogil=True)
def label_chunk(rules, rubicon, seed, start, count, w, behave_net, roll_net, w_roll, teacher,
                eps, keep, scale, dec_xs, row_dec, row_ai, row_av, row_y):
    """Play hands ``start`` .. ``start + count - 1`` of the run seeded ``seed`` (both seats by
    the network ``w`` when ``behave_net``, else by hints with ``teacher``; a random action with
    probability ``eps``) and label each first-stage decision with a choice, with probability
    ``keep``: its state features in ``dec_xs``, a row per legal action (``row_dec``: the
    decision, ``row_ai``/``row_av``: the action's features, ``row_y``: its advantage in units
    of ``scale`` under roll-outs by ``w_roll`` when ``roll_net``, else by hints). Returns
    (decisions, rows); the arrays' capacity bounds them."""
    st = new_state(False)
    work = new_state(False)
    deck = np.zeros(MAX_TALON, np.int32)
    dstate = np.zeros(1, np.uint64)
    scratch = np.zeros(SCRATCH, np.float32)
    idx = np.zeros(MAX_ACTION_NZ, np.int64)
    val = np.zeros(MAX_ACTION_NZ, np.float32)
    acts = np.zeros(MAX_LEGAL, np.int32)
    values = np.zeros(MAX_LEGAL, np.float64)
    rs = np.zeros(1, np.uint64)
    cap_d = dec_xs.shape[0]
    cap_r = row_y.shape[0]
    nd = 0
    nr = 0
    for i in range(count):
        hand = start + i
        deal_hand(rules, st, seed, hand, deck, dstate)
        rs[0] = st.rngs[0, 0] ^ np.uint64(0x9E3779B97F4A7C15)    # the sampling's own stream
        while True:
            nleg = next_choice(rules, st, BOTH_SEATS)
            if nleg == 0:
                break
            s = to_act(st)
            obs = st.obs[s]
            if uniform(rs) < keep and nd < cap_d and nr + nleg <= cap_r:
                for k in range(nleg):
                    acts[k] = st.legal[k]
                state_features(obs, rules, dec_xs[nd])
                hint = hints_policy(obs, st.legal, nleg, rules, teacher, st.rngs[s])
                mean = 0.0
                for k in range(nleg):
                    copy_into(work, st)
                    legal(rules, work)         # apply expects its decision's legal set
                    act(rules, work, acts[k])
                    values[k] = roll_out(rules, rubicon, work, s, roll_net, w_roll, teacher,
                                         scratch, idx)
                    mean += values[k]
                mean /= nleg
                for k in range(nleg):
                    nz = action_features(obs, rules, acts[k], hint, idx, val)
                    for j in range(MAX_ACTION_NZ):
                        row_ai[nr, j] = idx[j] if j < nz else -1
                        row_av[nr, j] = val[j] if j < nz else 0.0
                    row_dec[nr] = nd
                    row_y[nr] = (values[k] - mean) / scale
                    nr += 1
                nd += 1
            if eps > 0 and uniform(rs) < eps:
                a = st.legal[below(rs, nleg)]
            elif behave_net:
                a = st.legal[best_action(w, obs, rules, st.legal, nleg, scratch, idx, st.rngs[s])]
            else:
                a = hints_policy(obs, st.legal, nleg, rules, teacher, st.rngs[s])
            act(rules, st, a)
    return nd, nr
