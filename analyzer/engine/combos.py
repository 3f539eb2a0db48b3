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

from .codes import (  # noqa: F401  (ALL_COMBOS, SEQUENCES, four_rank: the engine imports them from here)
    ALL_COMBOS,
    BEZIQUES,
    CLS_B,
    CLS_F,
    CLS_M,
    FIRST_FOUR,
    FIRST_SEQUENCE,
    FOUR_RANKS,
    JD,
    KING,
    KNAVE,
    QS,
    QUEEN,
    SEQUENCES,
    bezique_level,
    card_of,
    combo_suit,
    four_rank,
    is_bezique,
    is_four,
    is_marriage,
    is_sequence,
    is_suited,
)


def _combo_masks():
    """COMBO_MASK[t]: the combinations card type ``t`` belongs to."""
    masks = np.zeros(32, np.int64)
    for t in range(32):
        suit, rank = divmod(t, 8)
        if rank in (KING, QUEEN):
            masks[t] |= 1 << suit
        if rank <= KNAVE:
            masks[t] |= 1 << (FIRST_SEQUENCE + suit)
        if t in (QS, JD):
            masks[t] |= BEZIQUES
        if rank in FOUR_RANKS:
            masks[t] |= 1 << (FIRST_FOUR + FOUR_RANKS.index(rank))
    return masks


COMBO_MASK = _combo_masks()


@njit(cache=True, _nrt=False)
def combo_class(c):
    """Class of combination ``c``: CLS_M, CLS_B or CLS_F."""
    if is_suited(c):
        return CLS_M
    if is_bezique(c):
        return CLS_B
    return CLS_F


@njit(cache=True, _nrt=False)
def combo_level(c):
    """Step of ``c`` within its class (marriage 1, sequence 2, bézique n = n, a four 1)."""
    if is_marriage(c):
        return 1
    if is_sequence(c):
        return 2
    if is_bezique(c):
        return bezique_level(c)
    return 1


@njit(cache=True, _nrt=False)
def combo_requirements(c, req_t, req_n):
    """Fill the card types and counts a fixed combination needs; return how many types.

    Fours have free suits and return 0: see :func:`four_rank`.
    """
    if is_marriage(c):
        req_t[0] = card_of(combo_suit(c), KING)
        req_t[1] = card_of(combo_suit(c), QUEEN)
        req_n[0] = 1
        req_n[1] = 1
        return 2
    if is_sequence(c):
        for i in range(KNAVE + 1):       # A, 10, K, Q, J: the ranks up to the knave
            req_t[i] = card_of(combo_suit(c), i)
            req_n[i] = 1
        return 5
    if is_bezique(c):
        req_t[0] = QS
        req_t[1] = JD
        req_n[0] = bezique_level(c)
        req_n[1] = bezique_level(c)
        return 2
    return 0


@njit(cache=True, _nrt=False, inline="always")
def panache_requirements(rules, c, req_t, req_n):
    """V2: under panache a four is one card of each suit: fill its four types (count 1) and
    return 4; otherwise return 0 (a four's suits are free)."""
    if not is_four(c) or not rules[R_PANACHE]:
        return 0
    rank = four_rank(c)
    for suit in range(4):
        req_t[suit] = card_of(suit, rank)
        req_n[suit] = 1
    return 4


@njit(cache=True, _nrt=False)
def combo_points(rules, trump, c):
    """Points ``c`` scores now (a marriage or sequence fixing trumps counts as trump)."""
    if is_marriage(c) and (trump == combo_suit(c) or trump < 0):
        return rules[R_ROYAL_POINTS]
    if is_sequence(c) and (trump == combo_suit(c) or trump < 0):
        return rules[R_TRUMP_SEQ_POINTS]
    return rules[R_POINTS + c]


@njit(cache=True, _nrt=False)
def combo_allowed(rules, trump, c):
    """Whether ``c`` exists in this rule set right now (Table A / Table B)."""
    if is_sequence(c):
        if trump == combo_suit(c):
            return True
        if trump < 0:
            return rules[R_TRUMP_MODE] == TRUMP_RUBICON   # R3.2; V1 forbids it
        return rules[R_PLAIN_SEQ] > 0
    if is_bezique(c):
        return bezique_level(c) <= rules[R_PACKS]
    return True
