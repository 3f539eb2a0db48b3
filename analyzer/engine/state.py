"""Moving cards between hand, table and tricks, keeping every observation in step.

The engine's truth is P (counts per seat) and T (table slots with each copy's history:
see layout's T_* and :mod:`copies`). Each seat's observation array mirrors
what that seat may see, updated incrementally so a decision costs no copying.
"""
import numpy as np
from numba import njit

from .layout import (
    OBS_HAND,
    OBS_PLAYED,
    OBS_TABLE,
    P_HAND,
    P_HAND_MASK,
    P_INST_USED,
    P_NTABLE,
    P_TABLE,
    P_TABLE_MASK,
    T_CARD,
    T_IM,
    T_INST,
    T_W,
)


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
    """Change seat ``s``'s hidden hand count of ``card`` by ``delta``."""
    P[s, P_HAND + card] += delta
    _sync_mask(P, s, P_HAND_MASK, P_HAND, card)
    obs[s, OBS_HAND + card] += delta


@njit(cache=True, _nrt=False)
def _add_table_count(P, obs, n, s, card, delta):
    P[s, P_TABLE + card] += delta
    _sync_mask(P, s, P_TABLE_MASK, P_TABLE, card)
    for v in range(n):
        obs[v, OBS_TABLE + 32 * rel_seat(s, v, n) + card] += delta


@njit(cache=True, _nrt=False)
def table_add(P, T, obs, n, s, card):
    """Put ``card`` face up in a new table slot of seat ``s``; return the slot."""
    k = P[s, P_NTABLE]
    for j in range(T_W):
        T[s, k, j] = 0
    T[s, k, T_CARD] = card
    P[s, P_NTABLE] = k + 1
    _add_table_count(P, obs, n, s, card, 1)
    return k


@njit(cache=True, _nrt=False)
def table_remove(P, T, obs, n, s, slot):
    """Take the card in ``slot`` off seat ``s``'s table (last slot fills the gap). Every
    declared instance it belonged to no longer lies whole on the table (R3.6)."""
    card = T[s, slot, T_CARD]
    last = P[s, P_NTABLE] - 1
    broken = T[s, slot, T_INST]
    if broken != 0:
        P[s, P_INST_USED] &= ~broken
        for j in range(last + 1):
            if T[s, j, T_INST] & broken:
                T[s, j, T_INST] &= ~broken
                for cls in range(3):
                    inst = T[s, j, T_IM + cls]
                    if inst > 0 and (broken >> (inst - 1)) & 1:
                        T[s, j, T_IM + cls] = 0
    for j in range(T_W):
        T[s, slot, j] = T[s, last, j]
    P[s, P_NTABLE] = last
    _add_table_count(P, obs, n, s, card, -1)
    return card


@njit(cache=True, _nrt=False)
def mark_played(obs, n, card):
    """Every seat sees ``card`` played to a trick."""
    for v in range(n):
        obs[v, OBS_PLAYED + card] += 1


@njit(cache=True, _nrt=False)
def take_table_back(P, T, obs, n):
    """R2.19: at the second stage every seat takes its table cards into hand."""
    for s in range(n):
        while P[s, P_NTABLE] > 0:
            card = table_remove(P, T, obs, n, s, P[s, P_NTABLE] - 1)
            add_hand(P, obs, s, card, 1)
