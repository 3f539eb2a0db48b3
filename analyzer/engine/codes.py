"""The engine's vocabulary: card names, combination ids and classes, actions and the rule ids of
docs/rules.md.

Plain ints that numba folds into the kernels, and tiny inline helpers that say what a piece of
card or combination arithmetic means (numba inlines them, so they cost nothing). A rule id is
written as its name (``R2_20`` is rule R2.20 and has the value 220), so that searching for
``R2_20`` finds the check and the test named after it; :func:`analyzer.hands.handlog.rule_name` turns a
value back into ``R2.20``. Points and limits are not here: they are data of the RuleSet
(analyzer.rules).
"""
from numba import njit

from ..cards import (  # noqa: F401 (the engine's names for the cards and combination ids)
    ACE, BEZIQUE, CLUBS, DIAMONDS, FIRST_FOUR, FIRST_SEQUENCE, FOUR_RANKS, HEARTS, KING, KNAVE, MARRIAGE,
    QUEEN, SEVEN, SPADES, TEN,
)
from .layout import A_CLAIM, A_DECLARE, A_PLAY_TABLE, N_COMBOS

# --- cards (type = suit * 8 + rank) ----------------------------------------------------------
# A card type is ``suit << 3 | rank``: the helpers shift and mask, which equals ``// 8`` and
# ``% 8`` for every int, without the floor fix-ups of a signed division.
QS = SPADES * 8 + QUEEN          # the queen of spades and knave of diamonds: béziques
JD = DIAMONDS * 8 + KNAVE
COURT_LOW, COURT_HIGH = KING, KNAVE      # K, Q, J: the court cards (R3.5)

# Bit sets over card types (bit t: card type t)
EVERY_SUIT = 0x01010101          # the ace of every suit; << rank: that rank in every suit
SUIT_CARDS = 0xFF                # the eight cards of spades; << 8 * suit: that suit's
SEQUENCE_CARDS = 0x1F            # A, 10, K, Q, J of spades (a sequence); << 8 * suit
KINGS = EVERY_SUIT << KING
QUEENS = EVERY_SUIT << QUEEN
COMBO_CARDS = SEQUENCE_CARDS * EVERY_SUIT    # every A, 10, K, Q, J: cards of some combination


@njit(cache=True, _nrt=False, inline="always")
def card_suit(card):
    """The suit (0..3) of card type ``card``."""
    return card >> 3


@njit(cache=True, _nrt=False, inline="always")
def card_rank(card):
    """The rank (0 = ace .. 7 = seven) of card type ``card``."""
    return card & 7


@njit(cache=True, _nrt=False, inline="always")
def card_of(suit, rank):
    """The card type of ``rank`` in ``suit``."""
    return suit * 8 + rank


@njit(cache=True, _nrt=False, inline="always")
def is_brisque(card):
    """Whether ``card`` is a brisque: an ace or a ten."""
    return card & 7 <= TEN


@njit(cache=True, _nrt=False, inline="always")
def suit_bits(suit):
    """The bit set of the eight card types of ``suit``."""
    return SUIT_CARDS << (suit * 8)


@njit(cache=True, _nrt=False, inline="always")
def sequence_bits(suit):
    """The bit set of the five card types of the sequence of ``suit`` (A, 10, K, Q, J)."""
    return SEQUENCE_CARDS << (suit * 8)


@njit(cache=True, _nrt=False, inline="always")
def rank_bits(rank):
    """The bit set of the four card types of ``rank``."""
    return EVERY_SUIT << rank


# Small counts packed 8 bits each into an int64, field i at bits 8i..8i+7 (per requirement of
# a combination, per suit, per rank): one pass over the table counts them all at once.
PACKED_MAX = 0xFF


@njit(cache=True, _nrt=False, inline="always")
def pack_count(count, i):
    """``count`` (at most PACKED_MAX) placed in field ``i`` of a packed int64."""
    return count << (8 * i)


@njit(cache=True, _nrt=False, inline="always")
def packed_count(packed, i):
    """The count in field ``i`` of the packed int64 ``packed``."""
    return (packed >> (8 * i)) & PACKED_MAX


# --- combination ids (analyzer.cards.COMBO_NAMES) and classes (R2.11) --------------------------
# marriages 0-3 and sequences 4-7 by suit, béziques 8-11 single .. quadruple, fours 12-15 of
# aces, kings, queens, knaves (MARRIAGE, FIRST_SEQUENCE, BEZIQUE, FIRST_FOUR: analyzer.cards)
FOUR_ACES, FOUR_KINGS = FIRST_FOUR, FIRST_FOUR + 1
CLS_M, CLS_B, CLS_F = 0, 1, 2    # marriage < sequence; bézique < double < ...; a four

# Bit sets over combination ids (bit c: combination c)
SEQUENCES = 0x00F0
BEZIQUES = 0x0F00
FOURS = 0xF000
ALL_COMBOS = (1 << N_COMBOS) - 1


@njit(cache=True, _nrt=False, inline="always")
def is_marriage(c):
    """Whether combination ``c`` is a marriage."""
    return c < FIRST_SEQUENCE


@njit(cache=True, _nrt=False, inline="always")
def is_sequence(c):
    """Whether combination ``c`` is a sequence."""
    return FIRST_SEQUENCE <= c < BEZIQUE


@njit(cache=True, _nrt=False, inline="always")
def is_suited(c):
    """Whether combination ``c`` is a marriage or a sequence (class M: one suit's, it can fix
    trumps)."""
    return c < BEZIQUE


@njit(cache=True, _nrt=False, inline="always")
def is_bezique(c):
    """Whether combination ``c`` is a bézique of some level."""
    return BEZIQUE <= c < FIRST_FOUR


@njit(cache=True, _nrt=False, inline="always")
def is_four(c):
    """Whether combination ``c`` is a four (aces, kings, queens or knaves)."""
    return c >= FIRST_FOUR


@njit(cache=True, _nrt=False, inline="always")
def combo_suit(c):
    """The suit of a marriage or sequence ``c``."""
    return c & 3


@njit(cache=True, _nrt=False, inline="always")
def sequence_of(suit):
    """The combination id of the sequence of ``suit``."""
    return FIRST_SEQUENCE + suit


@njit(cache=True, _nrt=False, inline="always")
def bezique_level(c):
    """The level of bézique ``c``: 1 single, 2 double, 3 treble, 4 quadruple."""
    return c - (BEZIQUE - 1)


@njit(cache=True, _nrt=False, inline="always")
def bezique_of(level):
    """The combination id of the bézique of ``level`` (1 single .. 4 quadruple)."""
    return BEZIQUE - 1 + level


@njit(cache=True, _nrt=False, inline="always")
def four_of(i):
    """The combination id of the four of FOUR_RANKS[i]."""
    return FIRST_FOUR + i


@njit(cache=True, _nrt=False, inline="always")
def four_rank(c):
    """The rank of four ``c``: FOUR_RANKS[c - FIRST_FOUR], by arithmetic (the ace, then the
    king, queen and knave in rank order)."""
    return ACE if c == FOUR_ACES else KING + (c - FOUR_KINGS)


# --- actions (layout A_*) ---------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def play_action(card, from_table):
    """The action that plays ``card`` from the hand (``from_table`` 0) or the table (1)."""
    return card + A_PLAY_TABLE * from_table


@njit(cache=True, _nrt=False, inline="always")
def played_card(a):
    """The card a play action ``a`` plays (from the hand or the table)."""
    return a & 31


@njit(cache=True, _nrt=False, inline="always")
def plays_from_table(a):
    """Whether the play action ``a`` plays a card from the table."""
    return a >= A_PLAY_TABLE


@njit(cache=True, _nrt=False, inline="always")
def declare_action(c):
    """The action that declares combination ``c``."""
    return A_DECLARE + c


@njit(cache=True, _nrt=False, inline="always")
def claim_action(c):
    """The action that lays combination ``c``'s cards for a claim (R3.7)."""
    return A_CLAIM + c


@njit(cache=True, _nrt=False, inline="always")
def declared_combo(a):
    """The combination a declare action ``a`` names."""
    return a - A_DECLARE


@njit(cache=True, _nrt=False, inline="always")
def claimed_combo(a):
    """The combination a claim action ``a`` names."""
    return a - A_CLAIM


@njit(cache=True, _nrt=False, inline="always")
def is_declare(a):
    """Whether action ``a`` declares a combination (A_DECLARE + combination id)."""
    return A_DECLARE <= a < A_DECLARE + N_COMBOS


@njit(cache=True, _nrt=False, inline="always")
def is_claim(a):
    """Whether action ``a`` lays a combination's cards for a claim (A_CLAIM + combination id)."""
    return A_CLAIM <= a < A_CLAIM + N_COMBOS


# --- rule ids: the rule an illegal move breaks -----------------------------------------------
R2_3 = 203       # the seat to play
R2_4 = 204       # a card from the hand must be held
R2_6 = 206       # only the trick winner declares, right after the trick
R2_7 = 207       # a card played from the table must lie there
R2_9 = 209       # the exchange of the seven of trumps
R2_11 = 211      # a combination's cards must be held
R2_12 = 212      # a card from the hand in every declaration
R2_14 = 214      # within a class, only a higher combination
R2_15 = 215      # a card once in a four never again in a four of that rank
R2_16 = 216      # one declaration per trick won
R2_17 = 217      # American re-use: a bézique card joins no other class
R2_18 = 218      # no declaration or exchange after the last draw
R2_19 = 219      # table cards are taken back for the second stage
R2_20 = 220      # the second stage: follow, win, trump
R2_21 = 221      # the last trick ends the hand
R3_4 = 304       # Rubicon: no exchange of the seven
R3_5 = 305       # carte blanche
R3_6 = 306       # re-declaring (Rubicon)
R3_7 = 307       # "and - to score", one score per trick (Rubicon)
V2 = 902         # panache: a four of four different suits
V3 = 903         # the fixed point: a claim of the game
V5 = 905         # four-handed: who declares
TABLE_A = 299    # not a combination of the ordinary game
TABLE_B = 399    # not a combination of Rubicon
