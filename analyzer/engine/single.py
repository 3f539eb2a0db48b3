"""One logged hand, played by policies or replayed from a script of moves: an entry point with
an explicit signature, in a module of its own so that only the commands that play one hand
(trace, replay, analyze) compile it and the replay driver it calls, not every batch run.
"""
from typing import NamedTuple

import numpy as np
from numba import njit, types

from .batch import seed_policies
from .hand import deal_into
from .play import play_out
from .policy_data import PLAYERS_TYPE
from .replay import replay
from .state import STATE_TYPE, new_state
from .variant_moves import set_game_totals


class Deal(NamedTuple):
    """A hand as given: the deck in the engine's deal order (:mod:`.deals`), the dealer, and each
    seat's game total before the hand (the claims of V3 count it)."""

    deck: np.ndarray         # int32[::1]
    dealer: int
    totals: np.ndarray       # int64[MAX_SEATS]


DEAL_TYPE = types.NamedTuple((types.int32[::1], types.int64, types.int64[::1]), Deal)
SINGLE_SIG = STATE_TYPE(types.int64[::1], DEAL_TYPE, PLAYERS_TYPE, types.uint64, types.int64, types.int32[:, ::1],
                        types.int64)


@njit(SINGLE_SIG, cache=True, nogil=True)
def run_single(rules, deal, players, seed, hand, script, nscript):
    """Play one hand of ``deal`` (a :class:`Deal`) with an event log, with ``players`` or, when
    ``nscript`` >= 0, the moves ``script[:nscript]``; ``seed`` and ``hand`` name the policies'
    random streams. Return its final state (G_STATUS: how it ended)."""
    st = new_state(True)
    deal_into(rules, st, deal.deck, deal.dealer)
    set_game_totals(rules, st, deal.totals)
    seed_policies(st.rngs, seed, hand)
    if nscript >= 0:
        replay(rules, st, script, nscript)
    else:
        play_out(rules, st, players)
    return st
