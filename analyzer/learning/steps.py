"""The state machine's steps for the training's kernels, each compiled once, and what they share:
carrying a hand to its next real decision (``engine.play.next_move``, as every loop does) and a
hand's result.

``legal_actions`` is inlined wherever it is called (the batch kernel's speed depends on it), and
the training's kernels call it from many places: through the wrapper here it is compiled once,
which keeps the training's compile time short; they apply actions with ``hand.apply_once``, the
one compiled copy of ``apply`` that the replay and the endgame's minimax share.
"""
import numpy as np
from numba import njit

from ..engine.game_score import game_value
from ..engine.hand import apply_once, legal_actions, to_act
from ..engine.play import next_move
from ..engine.layout import P_BRISQ, P_SCORE
from ..policies.exact_endgame import exact_endgame_action, is_exact_decision
from ..rules import R_BRISQUE_POINTS


@njit(cache=True, _nrt=False)
def legal(rules, st):
    """The legal actions into ``st.legal``: (how many, the bit set of plays) (hand.legal_actions)."""
    return legal_actions(rules, st)


@njit(cache=True, _nrt=False)
def next_choice(rules, st, exact_seats, data):
    """Carry the hand on to its next decision with a choice: a forced move is made, and a
    two-handed second-stage decision of a seat in the bit set ``exact_seats`` is solved
    exactly (with the solver of ``data``, a SeatData). Returns the number of legal actions of
    that decision (its seat's observation filled, ``st.legal`` holding them), or 0 when the
    hand is over."""
    while True:
        nleg, _plays = next_move(rules, st)
        if nleg <= 1:
            if nleg == 0:
                return 0
            apply_once(rules, st, st.legal[0])
            continue
        s = to_act(st)
        if (exact_seats >> s) & 1 and is_exact_decision(st.obs[s]):
            apply_once(rules, st, exact_endgame_action(rules, st.obs[s], st.legal, nleg, data))
            continue
        return nleg


@njit(cache=True)
def hand_result(rules, st, rubicon, seat):
    """Seat ``seat``'s result of the finished hand: its points minus the other's, or in Rubicon
    its signed net game points (R3.9)."""
    s0 = np.int64(st.P[0, P_SCORE])
    s1 = np.int64(st.P[1, P_SCORE])
    if rubicon:
        bp = rules[R_BRISQUE_POINTS]
        v = game_value(rules, s0, s1, st.P[0, P_BRISQ] * bp, st.P[1, P_BRISQ] * bp)
    else:
        v = s0 - s1
    return v if seat == 0 else -v


@njit(cache=True)
def result_difference(rules, st, rubicon, seat):
    """Seat ``seat``'s points minus the other seat's, as ``compare`` counts a play: hand points,
    or in Rubicon each side's game score (the winner's +P, the loser's -P: twice
    :func:`hand_result`)."""
    v = hand_result(rules, st, rubicon, seat)
    return 2 * v if rubicon else v
