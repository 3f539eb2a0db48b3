"""Card ids, text notation (docs/rules.md R1.1-R1.3) and combination names.

A card *type* is an integer 0..31: ``suit * 8 + rank``, where rank 0..7 is
A, 10, K, Q, J, 9, 8, 7 (high to low, R1.1) and suit 0..3 is S, H, D, C.
Copies of one card are identical (R1.2), so the engine counts types.
"""
from __future__ import annotations

from .errors import BeziqueError

RANKS = "ATKQJ987"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
N_TYPES = 32

ACE, TEN, KING, QUEEN, KNAVE, NINE, EIGHT, SEVEN = range(8)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)

# Combination ids: the engine, the records and the CLI share this order.
COMBO_NAMES = (
    "marriage_S", "marriage_H", "marriage_D", "marriage_C",
    "sequence_S", "sequence_H", "sequence_D", "sequence_C",
    "bezique", "double_bezique", "treble_bezique", "quadruple_bezique",
    "four_aces", "four_kings", "four_queens", "four_knaves",
)
N_COMBOS = len(COMBO_NAMES)
# where each kind starts in COMBO_NAMES: marriages and sequences by suit (+ suit), béziques by
# level (+ level - 1), fours in the order of FOUR_RANKS (+ index)
MARRIAGE, FIRST_SEQUENCE, BEZIQUE, FIRST_FOUR = 0, 4, 8, 12
FOUR_RANKS = (ACE, KING, QUEEN, KNAVE)


def is_four_combo(combo: int) -> bool:
    """Whether combination ``combo`` is a four (of aces, kings, queens or knaves)."""
    return combo >= FIRST_FOUR


class CardError(BeziqueError, ValueError):
    """A card or combination name that cannot be parsed."""


def card_id(suit: int, rank: int) -> int:
    """Return the card type id of ``rank`` in ``suit``."""
    return suit * 8 + rank


def suit_of(card: int) -> int:
    """Return the suit index (0..3) of a card type."""
    return card // 8


def rank_of(card: int) -> int:
    """Return the rank index (0 = ace .. 7 = seven) of a card type."""
    return card % 8


def parse_card(text: str) -> int:
    """Parse ``QS``, ``TD``, ``10D`` or ``Q♠`` into a card type id."""
    s = str(text).strip().upper()
    for i, sym in enumerate(SUIT_SYMBOLS):
        s = s.replace(sym, SUITS[i])
    if s.startswith("10"):
        s = "T" + s[2:]
    if len(s) != 2 or s[0] not in RANKS or s[1] not in SUITS:
        raise CardError(f"not a card: {text!r} (expected rank A T K Q J 9 8 7 and suit S H D C, e.g. QS)")
    return card_id(SUITS.index(s[1]), RANKS.index(s[0]))


def card_str(card: int, symbols: bool = False) -> str:
    """Format a card type id as ``QS`` (or ``Q♠`` with ``symbols``)."""
    suit = SUIT_SYMBOLS[suit_of(card)] if symbols else SUITS[suit_of(card)]
    return RANKS[rank_of(card)] + suit


def cards_str(cards, symbols: bool = False) -> str:
    """Format an iterable of card ids, space separated."""
    return " ".join(card_str(c, symbols) for c in cards)


def combo_id(name: str) -> int:
    """Parse a combination name (``bezique``, ``marriage_H``, ``four_aces`` …)."""
    key = str(name).strip()
    low = {n.lower(): i for i, n in enumerate(COMBO_NAMES)}
    aliases = {"royal_marriage": None, "double": 9, "treble": 10, "quadruple": 11}
    if key.lower() in low:
        return low[key.lower()]
    if key.lower() in aliases and aliases[key.lower()] is not None:
        return aliases[key.lower()]
    raise CardError(f"unknown combination {name!r}; known: {', '.join(COMBO_NAMES)}")


def combo_cards(combo: int) -> list[int]:
    """Return the card ids (with repeats) that make up a combination."""
    if combo < 4:
        return [card_id(combo, KING), card_id(combo, QUEEN)]
    if combo < 8:
        s = combo - 4
        return [card_id(s, r) for r in (ACE, TEN, KING, QUEEN, KNAVE)]
    if combo < 12:
        n = combo - 7
        return [card_id(SPADES, QUEEN)] * n + [card_id(DIAMONDS, KNAVE)] * n
    rank = (ACE, KING, QUEEN, KNAVE)[combo - 12]
    return [card_id(s, rank) for s in range(4)]  # suits are free in a four; this is one example
