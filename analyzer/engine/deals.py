"""Deal-only kernel: the dealt hands and turn-ups of many hands, for deal-time odds."""
import numpy as np
from numba import njit

from .batch import deal_deck


@njit(cache=True)
def dealt_counts(packs, players, hand_size, turn_up, seed, start, count, hands, turnups):
    """Fill ``hands[i, seat, type]`` (card counts) and ``turnups[i]`` (-1 if none) for hands
    ``start .. start+count-1``, dealt exactly as the engine deals them."""
    deck = np.zeros(32 * packs, np.int32)
    state = np.zeros(1, np.uint64)
    for i in range(count):
        hand = start + i
        deal_deck(packs, seed, hand, deck, state)
        dealer = hand % players
        hands[i, :, :] = 0
        for k in range(players):
            seat = (dealer + 1 + k) % players
            for j in range(hand_size):
                hands[i, seat, deck[k * hand_size + j]] += 1
        turnups[i] = deck[players * hand_size] if turn_up else -1
