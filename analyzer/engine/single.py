"""One logged hand played by policies (``trace``): an entry point with an explicit signature, in
a module of its own so that only the commands that play one hand compile it, not every batch
run. A given hand replayed from a script of moves is :mod:`.scripted`, apart, because the
replay's checks of each move are most of the compile (trace does not need them).
"""
from numba import njit, types

from .batch import seed_policies
from .by_address import by_address
from .deals import DEAL_TYPE
from .hand import deal_into
from .play import play_out
from .policy_data import PLAYERS_TYPE
from .state import STATE_TYPE, new_state
from .variant_moves import set_game_totals


SINGLE_SIG = STATE_TYPE(types.int64[::1], DEAL_TYPE, PLAYERS_TYPE, types.uint64, types.int64)
# the hand's loop by address (by_address.py): the batch kernel's, loaded from the cache, not generated again
play_out_at = by_address(play_out, types.int64[::1], STATE_TYPE, PLAYERS_TYPE)


@njit(SINGLE_SIG, cache=True, nogil=True)
def play_single(rules, deal, players, seed, hand):
    """Play one hand of ``deal`` (a :class:`.deals.Deal`) with an event log and ``players``; ``seed``
    and ``hand`` name the policies' random streams. Return its final state (G_STATUS: how it
    ended)."""
    st = new_state(True)
    deal_into(rules, st, deal.deck, deal.dealer)
    set_game_totals(rules, st, deal.totals)
    seed_policies(st.rngs, seed, hand)
    play_out_at(rules, st, players)
    return st
