"""The combinations (Table A, Table B): their cards, classes, levels and points.

Classes (R2.11): M = marriage (1) < sequence (2), one per suit; B = bézique (1) < double (2)
< treble (3) < quadruple (4); F = a four (1), one class per rank. Combination ids follow
``analyzer.cards.COMBO_NAMES``.
"""
import numpy as np
from numba import njit

from ..rules import (
    R_PACKS,
    R_PANACHE,
    R_PLAIN_SEQ,
    R_POINTS,
    R_ROYAL_POINTS,
    R_TRUMP_MODE,
    R_TRUMP_SEQ_POINTS,
    TRUMP_RUBICON,
)

from .codes import CLS_B, CLS_F, CLS_M, FOUR_RANKS, JD, KING, QS, QUEEN  # noqa: F401

ALL_COMBOS = (1 << 16) - 1
SEQUENCES = 0xF0


def _combo_masks():
    """COMBO_MASK[t]: the combinations card type ``t`` belongs to."""
    masks = np.zeros(32, np.int64)
    for t in range(32):
        suit, rank = divmod(t, 8)
        if rank in (KING, QUEEN):
            masks[t] |= 1 << suit
        if rank <= 4:
            masks[t] |= 1 << (4 + suit)
        if t in (QS, JD):
            masks[t] |= 0xF00
        if rank in FOUR_RANKS:
            masks[t] |= 1 << (12 + FOUR_RANKS.index(rank))
    return masks


COMBO_MASK = _combo_masks()


@njit(cache=True, _nrt=False)
def combo_class(c):
    """Class of combination ``c``: CLS_M, CLS_B or CLS_F."""
    if c < 8:
        return CLS_M
    if c < 12:
        return CLS_B
    return CLS_F


@njit(cache=True, _nrt=False)
def combo_level(c):
    """Step of ``c`` within its class (marriage 1, sequence 2, bézique n = n, a four 1)."""
    if c < 4:
        return 1
    if c < 8:
        return 2
    if c < 12:
        return c - 7
    return 1


@njit(cache=True, _nrt=False)
def combo_requirements(c, req_t, req_n):
    """Fill the card types and counts a fixed combination needs; return how many types.

    Fours (c >= 12) have free suits and return 0: see :func:`four_rank`.
    """
    if c < 4:
        req_t[0] = c * 8 + KING
        req_t[1] = c * 8 + QUEEN
        req_n[0] = 1
        req_n[1] = 1
        return 2
    if c < 8:
        for i in range(5):
            req_t[i] = (c - 4) * 8 + i
            req_n[i] = 1
        return 5
    if c < 12:
        req_t[0] = QS
        req_t[1] = JD
        req_n[0] = c - 7
        req_n[1] = c - 7
        return 2
    return 0


@njit(cache=True, _nrt=False, inline="always")
def panache_requirements(rules, c, req_t, req_n):
    """V2: under panache a four is one card of each suit: fill its four types (count 1) and
    return 4; otherwise return 0 (a four's suits are free)."""
    if c < 12 or not rules[R_PANACHE]:
        return 0
    rank = four_rank(c)
    for suit in range(4):
        req_t[suit] = suit * 8 + rank
        req_n[suit] = 1
    return 4


@njit(cache=True, _nrt=False, inline="always")
def four_rank(c):
    """The rank of four ``c`` (c >= 12): FOUR_RANKS[c - 12], by arithmetic (ace 0, then
    king, queen, knave 2, 3, 4)."""
    return 0 if c == 12 else c - 11


@njit(cache=True, _nrt=False)
def combo_points(rules, trump, c):
    """Points ``c`` scores now (a marriage or sequence fixing trumps counts as trump)."""
    if c < 4 and (trump == c or trump < 0):
        return rules[R_ROYAL_POINTS]
    if 4 <= c < 8 and (trump == c - 4 or trump < 0):
        return rules[R_TRUMP_SEQ_POINTS]
    return rules[R_POINTS + c]


@njit(cache=True, _nrt=False)
def combo_allowed(rules, trump, c):
    """Whether ``c`` exists in this rule set right now (Table A / Table B)."""
    if 4 <= c < 8:
        suit = c - 4
        if trump == suit:
            return True
        if trump < 0:
            return rules[R_TRUMP_MODE] == TRUMP_RUBICON   # R3.2; V1 forbids it
        return rules[R_PLAIN_SEQ] > 0
    if 8 <= c < 12:
        return c - 7 <= rules[R_PACKS]
    return True
