"""Hands played by the network against a fixed opponent (the learning curve), and the samples of
Deep Monte-Carlo (the alternative method of scripts/train_methods.py).

A DMC *sample* is one first-stage decision with a choice: the deciding seat's state features
(learned_net.state_features of its own observation), the nonzero features of the action it
took and, once the hand is over, the target: the seat's result minus the lead it held when it
decided, in units of ``scale`` (ordinary: points per hand; Rubicon: net game points of the
game, R3.9). The two-handed second stage is played by the exact solver and leaves no samples.
"""
import numpy as np
from numba import njit

from ..engine.batch import deal_hand
from ..engine.hand import to_act
from ..engine.layout import MAX_TALON, OBS_SCORE
from ..engine.policy_data import SeatData, seat_work
from ..engine.rng import below
from ..engine.state import new_state
from ..policies.features import CTX_W, MAX_ACTION_NZ, action_features, state_features
from ..policies.hints import hints_policy
from ..policies.learned_net import best_action
from .steps import act, hand_result, next_choice, result_difference, uniform

NET, TEACHER = 0, 1          # who plays a seat: the network, or hints with the teacher's weights
MAX_SAMPLES_PER_HAND = 512
BOTH_SEATS = 0b11


# 14 arguments: the DMC method's one entry point, compiled once; the sample buffers are
# preallocated by the caller and filled in place
@njit(cache=True, nogil=True)
def play_chunk(rules, rubicon, seed, start, count, w, who, teacher, eps, keep, scale,
               xs_out, xa_idx, xa_val):
    """Play hands ``start`` .. ``start + count - 1`` of the run seeded ``seed``; seat s is
    played by ``who[s]`` (NET: the weights ``w``, TEACHER: hints with ``teacher``), each
    decision taken at random with probability ``eps`` (exploration), and each decision with a
    choice kept as a sample with probability ``keep``. Returns (samples, targets): the targets
    are float32 results in units of ``scale`` (a row per sample of ``xs_out``, ``xa_idx``,
    ``xa_val``; their capacity bounds the samples kept)."""
    st = new_state(False)
    deck = np.zeros(MAX_TALON, np.int32)
    dstate = np.zeros(1, np.uint64)
    data = SeatData(w, seat_work(True))
    idx = np.zeros(MAX_ACTION_NZ, np.int64)
    val = np.zeros(MAX_ACTION_NZ, np.float32)
    ctx = np.zeros(CTX_W, np.int64)
    cap = xs_out.shape[0]
    y = np.zeros(cap, np.float32)
    seats = np.zeros(MAX_SAMPLES_PER_HAND, np.int64)
    lead = np.zeros(MAX_SAMPLES_PER_HAND, np.int64)
    rs = np.zeros(1, np.uint64)
    n = 0
    for i in range(count):
        hand = start + i
        deal_hand(rules, st, seed, hand, deck, dstate)
        rs[0] = st.rngs[0, 0] ^ np.uint64(0x9E3779B97F4A7C15)    # exploration's own stream
        first = n
        while True:
            nleg = next_choice(rules, st, BOTH_SEATS, data)
            if nleg == 0:
                break
            s = to_act(st)
            obs = st.obs[s]
            if eps > 0 and uniform(rs) < eps:
                k = below(rs, nleg)
            elif who[s] == NET:
                k = best_action(w, obs, rules, st.legal, nleg, st.rngs[s], data)
            else:
                a = hints_policy(obs, st.legal, nleg, rules, teacher, st.rngs[s], data)
                k = 0
                while st.legal[k] != a:
                    k += 1
            a = st.legal[k]
            if n < cap and n - first < MAX_SAMPLES_PER_HAND and (keep >= 1 or uniform(rs) < keep):
                state_features(obs, rules, xs_out[n], ctx)
                hint = hints_policy(obs, st.legal, nleg, rules, teacher, st.rngs[s], data)
                nz = action_features(obs, rules, ctx, a, hint, idx, val)
                for j in range(MAX_ACTION_NZ):
                    xa_idx[n, j] = idx[j] if j < nz else -1
                    xa_val[n, j] = val[j] if j < nz else 0.0
                seats[n - first] = s
                lead[n - first] = obs[OBS_SCORE] - obs[OBS_SCORE + 1]
                n += 1
            act(rules, st, a)
        r0 = hand_result(rules, st, rubicon, 0)
        for j in range(first, n):
            r = r0 if seats[j - first] == 0 else -r0
            y[j] = (r - lead[j - first]) / scale
    return n, y[:n].copy()


@njit(cache=True, nogil=True)
def match_chunk(rules, rubicon, seed, start, count, w, opponent, out):
    """Deals ``start`` .. ``start + count - 1`` played twice, the network (weights ``w``, its
    second stage exact) against hints with ``opponent``'s parameters, seats swapped;
    ``out[i]`` gets the deal's mean difference, the network's points minus the opponent's, as
    ``compare`` counts it (Rubicon: net game points)."""
    st = new_state(False)
    deck = np.zeros(MAX_TALON, np.int32)
    dstate = np.zeros(1, np.uint64)
    data = SeatData(w, seat_work(True))
    for i in range(count):
        hand = start + i
        total = 0.0
        for net_seat in range(2):
            deal_hand(rules, st, seed, hand, deck, dstate)
            while True:
                nleg = next_choice(rules, st, 1 << net_seat, data)
                if nleg == 0:
                    break
                s = to_act(st)
                obs = st.obs[s]
                if s == net_seat:
                    a = st.legal[best_action(w, obs, rules, st.legal, nleg, st.rngs[s], data)]
                else:
                    a = hints_policy(obs, st.legal, nleg, rules, opponent, st.rngs[s], data)
                act(rules, st, a)
            total += result_difference(rules, st, rubicon, net_seat)
        out[i] = total / 2.0
    return 0
