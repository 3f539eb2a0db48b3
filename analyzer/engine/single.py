"""One logged hand, played by policies or replayed from a script of moves: an entry point with
an explicit signature, in a module of its own so that only the commands that play one hand
(trace, replay, analyze) compile it and the replay driver it calls, not every batch run.
"""
from numba import njit, types

from .batch import seed_policies
from .hand import deal_into
from .play import play_out
from .policy_data import PLAYERS_TYPE
from .replay import replay
from .state import STATE_TYPE, new_state
from .variant_moves import set_game_totals

SINGLE_SIG = STATE_TYPE(types.int64[::1], types.int32[::1], types.int64, types.int64[::1], PLAYERS_TYPE,
                        types.uint64, types.int64, types.int32[:, ::1], types.int64)


# 9 arguments: an entry point compiled to SINGLE_SIG, called from Python with the arrays of one hand
@njit(SINGLE_SIG, cache=True, nogil=True)
def run_single(rules, deck, dealer, totals, players, seed, hand, script, nscript):
    """Play one hand from ``deck`` with an event log, the game totals before it ``totals`` (by
    seat), with ``players`` or, when ``nscript`` >= 0, the moves ``script[:nscript]``; return
    its final state (G_STATUS: how it ended)."""
    st = new_state(True)
    deal_into(rules, st, deck, dealer)
    set_game_totals(rules, st, totals)
    seed_policies(st.rngs, seed, hand)
    if nscript >= 0:
        replay(rules, st, script, nscript)
    else:
        play_out(rules, st, players)
    return st
