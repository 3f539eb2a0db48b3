"""Legal plays and trick resolution (R2.4, R2.5, R2.20; V4 for three seats)."""
import numpy as np
from numba import njit

from .bits import trailing_zeros
from .codes import R2_4, R2_7, R2_19, R2_20
from .layout import (
    A_PLAY_TABLE,
    P_HAND,
    P_HAND_MASK,
    P_TABLE,
    P_TABLE_MASK,
    X_MUST_FOLLOW,
    X_MUST_OVERTRUMP,
    X_MUST_TRUMP,
    X_MUST_WIN,
    X_NOT_HELD,
    X_NOT_ON_TABLE,
    X_TABLE_TAKEN_BACK,
)
from .state import card_mask


@njit(cache=True, _nrt=False)
def beats(card, best, trump):
    """Whether ``card`` played after ``best`` takes the lead in the trick (R2.5).

    Of two identical cards the first played wins, so equal rank never beats.
    """
    # x >> 3 and x & 7 equal x // 8 and x % 8 for every int, without the floor fix-ups
    if card >> 3 == best >> 3:
        return card & 7 < best & 7
    return card >> 3 == trump


@njit(cache=True, _nrt=False, inline="always")
def legal_play_bits(P, s, stage, lead, best, trump):
    """Seat ``s``'s legal plays as a bit set over the actions 0..63: bit t plays card t
    from the hand, bit 32 + t from the table.

    First stage: any card, from hand or table (R2.4, R2.7). Second stage, following:
    follow suit and win if possible, else trump (overtrumping a trump already played if
    possible), else anything (R2.20).
    """
    hand = card_mask(P, s, P_HAND_MASK)
    if stage == 1:
        return hand | (card_mask(P, s, P_TABLE_MASK) << A_PLAY_TABLE)
    if lead < 0:
        return hand
    for suit in (lead >> 3, trump):          # follow suit, else trump (R2.20)
        if suit < 0:
            break
        held = hand & (0xFF << (suit * 8))
        if held != 0:
            if best >> 3 == suit:
                higher = held & ((np.int64(1) << best) - 1)   # lower type = higher card
                if higher != 0:
                    return higher
            return held
    return hand


@njit(cache=True, _nrt=False, inline="always")
def list_bits(bits, legal):
    """Write the actions of the bit set ``bits`` into ``legal``, lowest first; return how many."""
    n = 0
    while bits != 0:
        legal[n] = trailing_zeros(bits)
        n += 1
        bits &= bits - 1
    return n


@njit(cache=True, _nrt=False)
def play_failure(P, s, stage, lead, best, trump, action):
    """Why playing ``action`` is illegal: (rule id, detail code)."""
    card = action % 32
    if action >= A_PLAY_TABLE:
        if stage == 2:
            return R2_19, X_TABLE_TAKEN_BACK
        if P[s, P_TABLE + card] == 0:
            return R2_7, X_NOT_ON_TABLE
        return 0, 0
    if P[s, P_HAND + card] == 0:
        return R2_4, X_NOT_HELD
    if stage == 1 or lead < 0:
        return 0, 0
    led = lead // 8
    has_suit = False
    for t in range(led * 8, led * 8 + 8):
        if P[s, P_HAND + t] > 0:
            has_suit = True
    if has_suit:
        if card // 8 != led:
            return R2_20, X_MUST_FOLLOW
        return R2_20, X_MUST_WIN
    if trump >= 0:
        if card // 8 != trump:
            return R2_20, X_MUST_TRUMP
        return R2_20, X_MUST_OVERTRUMP
    return 0, 0
