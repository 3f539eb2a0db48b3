"""One logged hand replayed from a script of moves, each move checked (``replay``, and the
positions of ``analyze`` and ``review``): an entry point with an explicit signature, in a module
of its own so that ``trace`` (:mod:`.single`) does not compile the replay's checks.
"""
import numpy as np
from numba import njit, types

from . import layout as L
from .by_address import by_address
from .deals import DEAL_TYPE
from .hand import deal_into
from .replay import replay
from .state import STATE_TYPE, new_state
from .variant_moves import set_game_totals

SCRIPTED_SIG = STATE_TYPE(types.int64[::1], DEAL_TYPE, types.int32[:, ::1], types.int64)
# the replay's checks by address (by_address.py): not generated a second time in replay_single
replay_at = by_address(replay, types.int64[::1], STATE_TYPE, types.int32[:, ::1], types.int64)


@njit(SCRIPTED_SIG, cache=True, nogil=True)
def replay_single(rules, deal, script, nscript):
    """Replay the moves ``script[:nscript]`` on ``deal`` (a :class:`.deals.Deal`) with an
    event log; return the final state (G_STATUS: how it ended, ST_ILLEGAL_SCRIPT at a move the
    rules refuse)."""
    st = new_state(True)
    deal_into(rules, st, deal.deck, deal.dealer)
    set_game_totals(rules, st, deal.totals)
    replay_at(rules, st, script, nscript)
    return st


def replay_moves(rules, deal, moves, hold: bool = False):
    """The state after the moves ``moves`` (rows of L.S_W ints, as a replay file's) on ``deal``
    under the rules array ``rules``; ``hold``: stop at the next decision after them, even a
    declaration window (where ``analyze`` and ``review`` look), else play on to the end of what
    the moves decide. Return the final state."""
    script = np.array(moves, dtype=np.int32).reshape(-1, L.S_W)
    if hold:
        stop = np.zeros((1, L.S_W), np.int32)
        stop[0, 0] = L.S_HOLD
        script = np.vstack([script, stop])
    n = len(script)
    if n == 0:
        script = np.zeros((1, L.S_W), np.int32)
    return replay_single(rules, deal, np.ascontiguousarray(script), n)
