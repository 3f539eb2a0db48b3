"""The floor for the engine's speed: a minimal numba loop that plays a two-handed hand of two
packs with the card flow of bézique and none of its rules beyond the tricks.

Per hand: a shuffled deck of 64 (the same counter-based generator as the engine's deals), 8
cards each and a face-up trump card; 24 first-stage tricks where any card may be played, the
winner (R2.5: a higher card of the suit led, or a trump, the first of equals) draws first; then
8 second-stage tricks where the follower must follow suit and win if he can, else trump (R2.20);
brisques and the last trick counted. Both players play the first card they may (in card order,
a choice as cheap as a policy can be), asked through a first-class function as the engine asks
its policies. What it leaves out is what the engine's rules cost:
declarations and their legality (Table A, R2.11-R2.17, R3.6), the seven of trumps, the
observation kept up to date for every seat, the records and the statistics of section 5, the
policy called through a function pointer.
"""
import numpy as np
from numba import njit, types

from analyzer.engine.deals import deal_deck
from analyzer.engine.layout import A_STOP, D_MELD, OBS_DECISION
from analyzer.engine.policy_data import POLICY_SIG


@njit(cache=True, inline="always")
def _beats(card, best, trump):
    if card // 8 == best // 8:
        return card % 8 < best % 8
    return card // 8 == trump


@njit(cache=True)
def _first_card(hand):
    for t in range(32):
        if hand[t] > 0:
            return t
    return -1


@njit(cache=True)
def _follow(hand, lead, trump):
    """The second stage's reply (R2.20): a winner of the suit, else any of the suit, else a
    trump, else any card; the first such card."""
    s = lead // 8
    any_suit = -1
    for t in range(s * 8, s * 8 + 8):
        if hand[t] > 0:
            if t % 8 < lead % 8:
                return t
            if any_suit < 0:
                any_suit = t
    if any_suit >= 0:
        return any_suit
    for t in range(trump * 8, trump * 8 + 8):
        if hand[t] > 0:
            return t
    return _first_card(hand)


CHOOSE_SIG = types.int64(types.int32[::1], types.int64, types.int64)
CHOOSE = types.FunctionType(CHOOSE_SIG)


@njit(CHOOSE_SIG, cache=True)
def first_legal(hand, lead, trump):
    """The minimal policy: the first card of the hand, or the first legal reply (R2.20) to ``lead``
    when it is the second stage's (``lead`` >= 0)."""
    return _first_card(hand) if lead < 0 else _follow(hand, lead, trump)


@njit(types.int64(types.uint64, types.int64, CHOOSE), cache=True)
def _hands(seed, count, choose):
    deck = np.zeros(128, np.int32)
    dstate = np.zeros(1, np.uint64)
    hands = np.zeros((2, 32), np.int32)
    total = 0
    for h in range(count):
        deal_deck(64, seed, h, deck, dstate)
        hands[:] = 0
        for i in range(16):
            hands[i % 2, deck[i]] += 1
        trump = deck[63] // 8
        pos = 16
        leader = h % 2
        score = np.zeros(2, np.int64)
        for trick in range(32):
            a = choose(hands[leader], -1, trump)
            hands[leader, a] -= 1
            f = 1 - leader
            b = choose(hands[f], -1 if trick < 24 else a, trump)
            hands[f, b] -= 1
            winner = f if _beats(b, a, trump) else leader
            score[winner] += 10 * ((a % 8 <= 1) + (b % 8 <= 1))       # aces and tens
            if trick < 24:
                hands[winner, deck[pos]] += 1
                hands[1 - winner, deck[pos + 1]] += 1
                pos += 2
            leader = winner
        score[leader] += 10
        total += score[0] - score[1]
    return total


@njit(POLICY_SIG, cache=True, _nrt=False)
def floor_policy(obs, legal, n_legal, rules, params, rng, data):
    """The minimal loop's policy as a policy of the engine, to time the engine alone: the first
    legal card (the engine lists a second-stage reply's legal cards, R2.20, lowest first), and
    nothing declared (each declaration window ended at once)."""
    if obs[OBS_DECISION] == D_MELD:
        return A_STOP
    return legal[0]


def minimal_hands(seed: int, count: int) -> int:
    """Play ``count`` minimal hands of seed ``seed``; returns the sum of the margins (so that
    nothing is optimised away)."""
    return _hands(np.uint64(seed), count, first_legal)
