"""The state of one hand as one value (HandState), and moving cards between hand, table and
tricks, keeping every observation in step.

The engine's truth is G (the hand's scalars: phase, seat to act, trick in progress …), P
(counts per seat) and T (table slots with each copy's history: see layout's T_* and
:mod:`copies`). Each seat's observation array mirrors what that seat may see, updated
incrementally so a decision costs no copying.
"""
from typing import NamedTuple

import numpy as np
from numba import njit, types

from . import layout as L



class HandState(NamedTuple):
    """One hand, stopped between two decisions: every array the engine reads or writes.

    ``G`` the hand's scalars (layout G_*), ``P`` per-seat counts (P_*), ``T`` table slots
    (T_*), ``obs`` each seat's observation (OBS_*), ``talon`` the cards still to draw (from
    G_TALON_POS), ``rngs`` each seat's policy random stream, ``ev`` the event log (one row:
    no log). ``legal`` and ``work`` are scratch: :func:`copy_into` leaves them alone.
    """

    G: np.ndarray
    P: np.ndarray
    T: np.ndarray
    obs: np.ndarray
    talon: np.ndarray
    rngs: np.ndarray
    ev: np.ndarray
    legal: np.ndarray
    work: np.ndarray


STATE_TYPE = types.NamedTuple(
    (types.int64[::1], types.int32[:, ::1], types.int32[:, :, ::1], types.int32[:, ::1],
     types.int32[::1], types.uint64[:, ::1], types.int32[:, ::1], types.int32[::1],
     types.int64[::1]), HandState)
"""The numba type of a HandState (for explicit kernel signatures)."""


@njit(cache=True)
def new_state(log_events):
    """A zeroed HandState; with ``log_events`` it keeps an event log of MAX_EVENTS rows."""
    return HandState(np.zeros(L.G_SIZE, np.int64), np.zeros((L.MAX_SEATS, L.P_W), np.int32),
                     np.zeros((L.MAX_SEATS, L.MAX_TABLE, L.T_W), np.int32),
                     np.zeros((L.MAX_SEATS, L.OBS_SIZE), np.int32), np.zeros(L.MAX_TALON, np.int32),
                     np.zeros((L.MAX_SEATS, 1), np.uint64),
                     np.zeros((L.MAX_EVENTS if log_events else 1, L.E_W), np.int32),
                     np.zeros(L.MAX_LEGAL, np.int32), np.zeros(L.WORK_SIZE, np.int64))


@njit(cache=True, _nrt=False, inline="always")
def _copy1(dst, src):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True, _nrt=False, inline="always")
def _copy2(dst, src):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True, _nrt=False)
def copy_into(dst, src):
    """Make ``dst`` the same hand as ``src``, without allocating: the seats in play, and of the
    observations the part kept up to date (a public record is filled afresh when asked for,
    observe.observe_public). The event log is copied when both keep one of the same size; a
    copy with a log of another size starts it empty."""
    n = src.G[L.G_NSEATS]
    _copy1(dst.G, src.G)
    for s in range(n):
        _copy1(dst.P[s], src.P[s])
        _copy2(dst.T[s], src.T[s])
        for j in range(L.OBS_CORE):
            dst.obs[s, j] = src.obs[s, j]
        dst.rngs[s, 0] = src.rngs[s, 0]
    _copy1(dst.talon, src.talon)
    if dst.ev.shape[0] == src.ev.shape[0]:
        if dst.ev.shape[0] > 1:
            _copy2(dst.ev, src.ev)
    else:
        dst.G[L.G_NEV] = 0


@njit(cache=True, _nrt=False)
def rel_seat(seat, viewer, n):
    """Position of ``seat`` counted from ``viewer`` (0 = the viewer).

    Both seats lie in 0..n-1, so a conditional add replaces the modulo (an integer
    division on every observation update)."""
    d = seat - viewer
    return d + n if d < 0 else d


@njit(cache=True, _nrt=False, inline="always")
def card_mask(P, s, slot):
    """Seat ``s``'s P_HAND_MASK or P_TABLE_MASK as a non-negative int64 (bit t: card t)."""
    return np.int64(P[s, slot]) & 0xFFFFFFFF


@njit(cache=True, _nrt=False, inline="always")
def _sync_mask(P, s, slot, counts, card):
    bit = np.int64(1) << card
    m = card_mask(P, s, slot) & ~bit
    if P[s, counts + card] > 0:
        m |= bit
    P[s, slot] = m          # stored as int32: bit 31 becomes the sign, card_mask undoes it


@njit(cache=True, _nrt=False)
def add_hand(P, obs, s, card, delta):
    """Change seat ``s``'s hidden hand count of ``card`` by ``delta`` (the copies known to be
    there never exceed those held)."""
    P[s, L.P_HAND + card] += delta
    if P[s, L.P_KNOWN + card] > P[s, L.P_HAND + card]:
        P[s, L.P_KNOWN + card] = P[s, L.P_HAND + card]
    _sync_mask(P, s, L.P_HAND_MASK, L.P_HAND, card)
    obs[s, L.OBS_HAND + card] += delta


@njit(cache=True, _nrt=False)
def _add_table_count(P, obs, n, s, card, delta):
    P[s, L.P_TABLE + card] += delta
    _sync_mask(P, s, L.P_TABLE_MASK, L.P_TABLE, card)
    for v in range(n):
        obs[v, L.OBS_TABLE + 32 * rel_seat(s, v, n) + card] += delta


@njit(cache=True, _nrt=False)
def table_add(P, T, obs, n, s, card):
    """Put ``card`` face up in a new table slot of seat ``s``; return the slot."""
    k = P[s, L.P_NTABLE]
    for j in range(L.T_W):
        T[s, k, j] = 0
    T[s, k, L.T_CARD] = card
    P[s, L.P_NTABLE] = k + 1
    _add_table_count(P, obs, n, s, card, 1)
    return k


@njit(cache=True, _nrt=False)
def table_remove(P, T, obs, n, s, slot):
    """Take the card in ``slot`` off seat ``s``'s table (last slot fills the gap). Every
    declared instance it belonged to no longer lies whole on the table (R3.6)."""
    card = T[s, slot, L.T_CARD]
    last = P[s, L.P_NTABLE] - 1
    broken = T[s, slot, L.T_INST]
    if broken != 0:
        P[s, L.P_INST_USED] &= ~broken
        for j in range(last + 1):
            if T[s, j, L.T_INST] & broken:
                T[s, j, L.T_INST] &= ~broken
                for cls in range(3):
                    inst = T[s, j, L.T_IM + cls]
                    if inst > 0 and (broken >> (inst - 1)) & 1:
                        T[s, j, L.T_IM + cls] = 0
    for j in range(L.T_W):
        T[s, slot, j] = T[s, last, j]
        T[s, last, j] = 0              # a free slot is empty (a state is the same however made)
    P[s, L.P_NTABLE] = last
    _add_table_count(P, obs, n, s, card, -1)
    return card


@njit(cache=True, _nrt=False)
def mark_played(obs, n, card):
    """Every seat sees ``card`` played to a trick."""
    for v in range(n):
        obs[v, L.OBS_PLAYED + card] += 1


@njit(cache=True, _nrt=False)
def take_table_back(P, T, obs, n):
    """R2.19: at the second stage every seat takes its table cards into hand."""
    for s in range(n):
        while P[s, L.P_NTABLE] > 0:
            card = table_remove(P, T, obs, n, s, P[s, L.P_NTABLE] - 1)
            add_hand(P, obs, s, card, 1)
            P[s, L.P_KNOWN + card] += 1          # everyone saw it on the table


@njit(cache=True, _nrt=False, inline="always")
def record_event(ev, G, kind, seat, a, b, c, d):
    """Append an event to the log ``ev`` (no-op when the log has one row: batch runs)."""
    k = G[L.G_NEV]
    if k < L.MAX_EVENTS and ev.shape[0] > 1:
        ev[k, 0] = kind
        ev[k, 1] = seat
        ev[k, 2] = a
        ev[k, 3] = b
        ev[k, 4] = c
        ev[k, 5] = d
        G[L.G_NEV] = k + 1
