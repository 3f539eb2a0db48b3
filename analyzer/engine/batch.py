"""The batch of hands: an entry point with an explicit signature (one logged hand is
:mod:`.single`, compiled only by the commands that play one).

Policies arrive as first-class functions (:data:`policy_data.POLICY_TYPE`) in a
:class:`policy_data.Players`, so these kernels compile once and are cached; a new policy costs
no recompilation.
``nogil=True`` lets the Python driver run batches on several threads.
"""
import numpy as np
from numba import njit, types

from ..rules import R_PLAYERS
from .hand import deal_into
from . import layout as L
from .deals import deal_cards
from .play import play_out
from .policy_data import PLAYERS_TYPE
from .rng import stream_state
from .state import new_state

BATCH_SIG = types.int64(types.int64[::1], types.uint64, types.int64, types.int64, PLAYERS_TYPE,
                        types.int32[:, ::1], types.int64[::1])


@njit(cache=True, _nrt=False)
def seed_policies(rngs, seed, hand):
    """Each seat's policy stream for hand ``hand`` of a run seeded ``seed``."""
    for s in range(L.MAX_SEATS):
        rngs[s, 0] = stream_state(seed, hand, 1 + s)


@njit(cache=True, _nrt=False)
def deal_hand(rules, st, seed, hand, deck, dstate):
    """Deal hand number ``hand`` of a run seeded ``seed`` into ``st`` as every run deals it
    (seat hand % players deals; the policies' streams seeded) and stop at its first decision.
    ``deck`` (int32, MAX_TALON) and ``dstate`` (uint64[1]) are scratch. Returns the dealer."""
    dealer = hand % rules[R_PLAYERS]
    deal_cards(rules, seed, hand, dealer, deck, dstate)
    deal_into(rules, st, deck, dealer)
    seed_policies(st.rngs, seed, hand)
    return dealer


@njit(cache=True, _nrt=False)
def write_record(rules, st, dealer, status, rec):
    """The per-hand record (layout REC_*) of the finished hand ``st``."""
    G, P = st.G, st.P
    n = rules[R_PLAYERS]
    rec[:] = 0
    rec[L.REC_DEALER] = dealer
    rec[L.REC_STATUS] = status
    rec[L.REC_TRICKS] = G[L.G_TRICK]
    rec[L.REC_TRUMP] = G[L.G_TRUMP]
    rec[L.REC_EXCHANGES] = G[L.G_EXCHANGES]
    rec[L.REC_LAST_WINNER] = G[L.G_LAST_WINNER]
    rec[L.REC_TRUMP_HOW] = G[L.G_TRUMP_HOW]
    rec[L.REC_TRUMP_TRICK] = G[L.G_TRUMP_TRICK]
    rec[L.REC_GAME_CLAIM] = G[L.G_GAME_CLAIM]
    won = 0
    left = 0
    for s in range(n):
        won += P[s, L.P_WON]
        for t in range(32):
            left += P[s, L.P_HAND + t] + P[s, L.P_TABLE + t]
        b = L.REC_SEAT + s * L.REC_SEAT_W
        for j in range(L.REC_SEAT_W):
            rec[b + j] = P[s, L.P_REC + j]
    rec[L.REC_CARDS_WON] = won
    rec[L.REC_CARDS_LEFT] = left


@njit(cache=True, _nrt=False)
def policy_error(st, hand, status, err):
    """A hand stopped by a policy's illegal action: ``err`` gets (hand, seat, action,
    decision); returns ``status``."""
    err[0] = hand
    err[1] = st.G[L.G_ERR_SEAT]
    err[2] = st.G[L.G_ERR_ACTION]
    err[3] = st.G[L.G_ERR_DECISION]
    return status


@njit(BATCH_SIG, cache=True, nogil=True)
def run_batch(rules, seed, start, count, players, records, err):
    """Play hands ``start .. start+count-1`` with ``players`` (policy_data.Players), one record
    row each; return a status. On an illegal policy action, ``err`` gets (hand, seat,
    action, decision) and the status is returned at once."""
    st = new_state(False)
    deck = np.zeros(L.MAX_TALON, np.int32)
    dstate = np.zeros(1, np.uint64)
    for i in range(count):
        hand = start + i
        dealer = deal_hand(rules, st, seed, hand, deck, dstate)
        status = play_out(rules, st, players)
        if status != 0:
            return policy_error(st, hand, status, err)
        write_record(rules, st, dealer, status, records[i])
    return 0
