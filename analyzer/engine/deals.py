"""The deal: the order a shuffled deck is dealt in, and the dealt hands of many hands (for
deal-time odds).

A deck is dealt in one order everywhere (the hand kernel, replay files, the odds): the eldest
hand's cards first, then round the table from the eldest, then the turn-up (if the rules turn
one up), then the talon from the top.
"""
from typing import NamedTuple

import numpy as np
from numba import njit, types

from ..cards import N_TYPES
from ..rules import (
    R_DEAL_CARDS,
    R_DEAL_N,
    R_DEAL_SEAT,
    R_DEAL_TURN_UP,
    R_HAND,
    R_N_CARDS,
    R_PACKS,
    R_PLAYERS,
    R_TURNUP,
    SHORT_EIGHT,
)
from .rng import STREAM_DEAL, below, short_deck, shuffled_deck, stream_state


class Deal(NamedTuple):
    """A hand as given: the deck in the engine's deal order (this module's), the dealer, and each
    seat's game total before the hand (the claims of V3 count it)."""

    deck: np.ndarray         # int32[::1]
    dealer: int
    totals: np.ndarray       # int64[MAX_SEATS]


DEAL_TYPE = types.NamedTuple((types.int32[::1], types.int64, types.int64[::1]), Deal)


@njit(cache=True, _nrt=False, inline="always")
def deck_copies(rules, t):
    """Copies of card type ``t`` in the deck: one per pack, one fewer of the eight thrown out
    by three players with two packs (V4, RuleSet.copies)."""
    return rules[R_PACKS] - (short_deck(rules[R_N_CARDS]) and t == SHORT_EIGHT)


@njit(cache=True, _nrt=False)
def deal_deck(n_cards, seed, hand, deck, state):
    """Shuffle the ``n_cards`` cards (RuleSet.n_cards) of hand number ``hand`` of a run seeded
    ``seed`` (``state``: uint64[1])."""
    state[0] = stream_state(seed, hand, STREAM_DEAL)
    return shuffled_deck(n_cards, state, deck)


@njit(cache=True, _nrt=False)
def packet_seat(dealer, players, k):
    """The seat that receives the ``k``-th packet of the deal (k = 0: the eldest hand, the
    dealer's left)."""
    return (dealer + 1 + k) % players


@njit(cache=True, _nrt=False)
def deal_cards(rules, seed, hand, dealer, deck, state):
    """The deck of hand number ``hand`` of a run seeded ``seed``, dealt by seat ``dealer``: a
    fair shuffle (:func:`deal_deck`), or, when the rules name a deal given in part (R_DEAL_N
    held cards of seat R_DEAL_SEAT, the turn-up R_DEAL_TURN_UP), those cards where the deal
    puts them (the held ones first in the seat's packet) and the rest of the pack shuffled
    fairly (Fisher-Yates from the same stream) into the other places."""
    n = rules[R_N_CARDS]
    held, turn_up = rules[R_DEAL_N], rules[R_DEAL_TURN_UP]
    if held == 0 and turn_up < 0:
        return deal_deck(n, seed, hand, deck, state)
    state[0] = stream_state(seed, hand, STREAM_DEAL)
    size = rules[R_HAND]
    first = ((rules[R_DEAL_SEAT] - dealer - 1) % rules[R_PLAYERS]) * size    # the seat's packet
    up = rules[R_PLAYERS] * size                                              # the turn-up's place
    m = 0                                       # the rest of the pack, type by type, in deck[:m]
    for t in range(N_TYPES):
        c = deck_copies(rules, t) - (turn_up == t)
        for j in range(held):
            c -= rules[R_DEAL_CARDS + j] == t
        for _ in range(c):
            deck[m] = t
            m += 1
    for i in range(m - 1, 0, -1):               # shuffled as shuffled_deck shuffles a whole deck
        j = below(state, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    r = m - 1                                   # spread from the end: r <= pos, never overwritten early
    for pos in range(n - 1, -1, -1):
        if first <= pos < first + held:
            deck[pos] = rules[R_DEAL_CARDS + pos - first]
        elif pos == up and turn_up >= 0:
            deck[pos] = turn_up
        else:
            deck[pos] = deck[r]
            r -= 1
    return n


@njit(cache=True)
def dealt_counts(rules, seed, start, count, hands, turnups):
    """Fill ``hands[i, seat, type]`` (card counts) and ``turnups[i]`` (-1 if none) for hands
    ``start .. start+count-1`` of ``rules`` (RuleSet.to_array), dealt exactly as the engine
    deals them."""
    n_cards, players, hand_size = rules[R_N_CARDS], rules[R_PLAYERS], rules[R_HAND]
    turn_up = rules[R_TURNUP]
    deck = np.zeros(n_cards, np.int32)
    state = np.zeros(1, np.uint64)
    for i in range(count):
        hand = start + i
        dealer = hand % players
        deal_cards(rules, seed, hand, dealer, deck, state)
        hands[i, :, :] = 0
        for k in range(players):
            seat = packet_seat(dealer, players, k)
            for j in range(hand_size):
                hands[i, seat, deck[k * hand_size + j]] += 1
        turnups[i] = deck[players * hand_size] if turn_up else -1
