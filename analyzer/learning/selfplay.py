"""Hands played by the network against a fixed opponent: the learning curve's matches (the
training's evaluation, train.py)."""
import numpy as np
from numba import njit

from ..engine.batch import deal_hand
from ..engine.hand import apply_once, to_act
from ..engine.layout import MAX_TALON
from ..engine.policy_data import SeatData, seat_work
from ..engine.state import new_state
from ..policies.hints import hints_policy
from ..policies.learned_net import best_action
from .steps import next_choice, result_difference

BOTH_SEATS = 0b11            # the seats whose second stage next_choice solves exactly: both


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
                apply_once(rules, st, a)
            total += result_difference(rules, st, rubicon, net_seat)
        out[i] = total / 2.0
    return 0
