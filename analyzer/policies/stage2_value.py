"""A value network for the start of a two-handed ordinary second stage: what the exact solver
would find, estimated in a few microseconds instead of tens.

At the first lead of the second stage (R2.19) every card is known; the solver's value of the
play left (endgame.solve_cards) is the score already made plus the points still to come: the
brisques of the eight tricks and the last trick (R2.20-R2.22). The network estimates the points
still to come, for the leader, from the two hands alone, the suits turned so that trumps are
suit 0: 128 inputs (for the leader's hand, then the follower's, one for each card type held
and one for each held twice), two hidden layers of rectified units, one output in units of
``SCALE`` points. The search's roll-outs end there with it (``expert:leaf=net``).

It is trained (analyzer/learning/stage2_training.py) on the positions of learned self-play, labelled
by the solver, and applies only where it was trained: the ordinary game's rules (two packs, a
trump, brisques and the last trick worth 10); elsewhere the roll-out keeps the exact solve.
"""
from pathlib import Path

import numpy as np
from numba import njit

from ..engine.codes import card_rank, card_suit
from ..engine.layout import G_LEADER, G_NSEATS, G_TRICK_POS, G_TRUMP, P_BRISQ, P_HAND, P_SCORE
from ..rules import R_BRISQUE_POINTS, R_BRISQUES_SCORED, R_LAST_TRICK, R_PACKS

V_IN = 128
V_H1 = 128
V_H2 = 64
O_W1 = 0                          # [V_IN, V_H1]
O_B1 = O_W1 + V_IN * V_H1
O_W2 = O_B1 + V_H1                # [V_H1, V_H2]
O_B2 = O_W2 + V_H1 * V_H2
O_W3 = O_B2 + V_H2                # [V_H2]
O_B3 = O_W3 + V_H2
V_WEIGHTS = O_B3 + 1
SCALE = 40.0                      # points per unit of the output
H_W = V_H1 + V_H2                 # float32 scratch: the two hidden layers
MODEL = Path(__file__).resolve().parent / "learned" / "ordinary_stage2_value.npz"


def load_value_model(path: Path = MODEL) -> tuple[np.ndarray, dict]:
    """The shipped value network: (float32[V_WEIGHTS], what its training recorded)."""
    with np.load(path, allow_pickle=False) as z:
        w = np.ascontiguousarray(z["weights"], dtype=np.float32)
        info = {k: z[k].item() for k in z.files if k != "weights"}
    if w.shape != (V_WEIGHTS,):
        raise ValueError(f"{path}: {w.shape[0]} weights, this version's network has {V_WEIGHTS}")
    return w, info


@njit(cache=True, _nrt=False)
def value_applies(rules, st):
    """Whether ``st`` is a position the network was trained for: the first lead of a
    two-handed second stage of the ordinary game's scoring (two packs, a trump, brisques and
    the last trick worth 10)."""
    return (st.G[G_NSEATS] == 2 and st.G[G_TRICK_POS] == 0 and st.G[G_TRUMP] >= 0
            and rules[R_PACKS] == 2 and rules[R_BRISQUES_SCORED] != 0
            and rules[R_BRISQUE_POINTS] == 10 and rules[R_LAST_TRICK] == 10)


@njit(cache=True, _nrt=False)
def input_index(seat_rel, card, trump, twice):
    """The input of ``card`` in the hand of the leader (``seat_rel`` 0) or the follower (1),
    held once or (``twice``) twice, its suit turned so that trumps are suit 0."""
    return seat_rel * 64 + 32 * twice + ((card_suit(card) - trump) & 3) * 8 + card_rank(card)


@njit(cache=True, _nrt=False)
def points_to_come(w, st, h):
    """The network's estimate of the points the leader of ``st`` still makes over the other seat
    in the second stage (brisques and the last trick); ``h`` float32[H_W] scratch."""
    trump = st.G[G_TRUMP]
    leader = st.G[G_LEADER]
    h1 = h[:V_H1]
    h2 = h[V_H1:V_H1 + V_H2]
    for j in range(V_H1):
        h1[j] = w[O_B1 + j]
    for rel in range(2):
        seat = leader if rel == 0 else 1 - leader
        for t in range(32):
            c = st.P[seat, P_HAND + t]
            if c >= 1:
                row = O_W1 + input_index(rel, t, trump, 0) * V_H1
                for j in range(V_H1):
                    h1[j] += w[row + j]
            if c >= 2:
                row = O_W1 + input_index(rel, t, trump, 1) * V_H1
                for j in range(V_H1):
                    h1[j] += w[row + j]
    for k in range(V_H2):
        h2[k] = w[O_B2 + k]
    for j in range(V_H1):
        a = h1[j]
        if a > 0.0:
            row = O_W2 + j * V_H2
            for k in range(V_H2):
                h2[k] += a * w[row + k]
    out = w[O_B3]
    for k in range(V_H2):
        if h2[k] > 0.0:
            out += h2[k] * w[O_W3 + k]
    return SCALE * np.float64(out)


@njit(cache=True, _nrt=False)
def estimated_value(rules, st, seat, w, h):
    """The estimate for ``seat`` of the hand's final margin (what endgame.state_value gives
    exactly): the score made so far, the brisques won so far at their worth, and
    :func:`points_to_come`."""
    leader = st.G[G_LEADER]
    other = 1 - leader
    made = (np.float64(st.P[leader, P_SCORE] - st.P[other, P_SCORE])
            + rules[R_BRISQUE_POINTS] * np.float64(st.P[leader, P_BRISQ] - st.P[other, P_BRISQ]))
    v = made + points_to_come(w, st, h)
    return v if seat == leader else -v
