"""The deal: the order a shuffled deck is dealt in, and the dealt hands of many hands (for
deal-time odds).

A deck is dealt in one order everywhere (the hand kernel, replay files, the odds): the eldest
hand's cards first, then round the table from the eldest, then the turn-up (if the rules turn
one up), then the talon from the top.
"""
import numpy as np
from numba import njit

from ..rules import R_HAND, R_N_CARDS, R_PACKS, R_PLAYERS, R_TURNUP, SHORT_EIGHT
from .rng import STREAM_DEAL, short_deck, shuffled_deck, stream_state


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
        deal_deck(n_cards, seed, hand, deck, state)
        dealer = hand % players
        hands[i, :, :] = 0
        for k in range(players):
            seat = packet_seat(dealer, players, k)
            for j in range(hand_size):
                hands[i, seat, deck[k * hand_size + j]] += 1
        turnups[i] = deck[players * hand_size] if turn_up else -1
