"""Legal plays and trick resolution (R2.4, R2.5, R2.20; V4 for three seats)."""
import numpy as np
from numba import njit

from .bits import trailing_zeros
from .codes import R2_4, R2_7, R2_19, R2_20, card_of, card_rank, card_suit, played_card, plays_from_table, suit_bits
from . import layout as L
from .state import card_mask


@njit(cache=True, _nrt=False)
def beats(card, best, trump):
    """Whether ``card`` played after ``best`` takes the lead in the trick (R2.5).

    Of two identical cards the first played wins, so equal rank never beats.
    """
    if card_suit(card) == card_suit(best):
        return card_rank(card) < card_rank(best)
    return card_suit(card) == trump


@njit(cache=True, _nrt=False, inline="always")
def legal_play_bits(P, s, stage, lead, best, trump):
    """Seat ``s``'s legal plays as a bit set over the actions 0..63: bit t plays card t
    from the hand, bit 32 + t from the table.

    First stage: any card, from hand or table (R2.4, R2.7). Second stage, following:
    follow suit and win if possible, else trump (overtrumping a trump already played if
    possible), else anything (R2.20).
    """
    hand = card_mask(P, s, L.P_HAND_MASK)
    if stage == 1:
        return hand | (card_mask(P, s, L.P_TABLE_MASK) << L.A_PLAY_TABLE)
    if lead < 0:
        return hand
    for suit in (card_suit(lead), trump):    # follow suit, else trump (R2.20)
        if suit < 0:
            break
        held = hand & suit_bits(suit)
        if held != 0:
            if card_suit(best) == suit:
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
    card = played_card(action)
    if plays_from_table(action):
        if stage == 2:
            return R2_19, L.X_TABLE_TAKEN_BACK
        if P[s, L.P_TABLE + card] == 0:
            return R2_7, L.X_NOT_ON_TABLE
        return 0, 0
    if P[s, L.P_HAND + card] == 0:
        return R2_4, L.X_NOT_HELD
    if stage == 1 or lead < 0:
        return 0, 0
    led = card_suit(lead)
    has_suit = False
    for rank in range(8):
        if P[s, L.P_HAND + card_of(led, rank)] > 0:
            has_suit = True
    if has_suit:
        if card_suit(card) != led:
            return R2_20, L.X_MUST_FOLLOW
        return R2_20, L.X_MUST_WIN
    if trump >= 0:
        if card_suit(card) != trump:
            return R2_20, L.X_MUST_TRUMP
        return R2_20, L.X_MUST_OVERTRUMP
    return 0, 0
