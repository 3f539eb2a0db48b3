"""Exact deal-time probabilities (fractions) and their simulated counterparts."""
from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from .rules import RuleSet


def p_hand_holds(rules: RuleSet, need: dict[str, int]) -> Fraction:
    """Probability that one dealt hand holds at least ``need[group]`` cards of each
    disjoint group, where a group is named by its size in cards:
    ``{"QS": 2, "JD": 2}`` for a double bézique (each card type has ``packs`` copies).

    Groups may also be given as ``"rank:A"`` (all copies of a rank, 4 * packs cards).
    """
    sizes = []
    for key, k in need.items():
        size = 4 * rules.packs if key.startswith("rank:") else rules.packs
        sizes.append((size, k))
    n, h = rules.n_cards, rules.hand_size
    others = n - sum(s for s, _ in sizes)
    total = Fraction(0)

    def rec(i, used, ways):
        nonlocal total
        if i == len(sizes):
            if h - used <= others and h >= used:
                total += ways * comb(others, h - used)
            return
        size, k = sizes[i]
        for j in range(k, min(size, h - used) + 1):
            rec(i + 1, used + j, ways * comb(size, j))

    rec(0, 0, 1)
    return total / comb(n, h)


def p_turnup_seven(rules: RuleSet) -> Fraction:
    """Probability that the turn-up is a seven (R2.2): 4 * packs sevens among the cards."""
    return Fraction(4 * rules.packs, rules.n_cards)


def simulated_deals(rules: RuleSet, hands: int, seed: int):
    """(hands[i, seat, type], turnups[i]) of ``hands`` deals of a run seeded ``seed``."""
    from .engine.deals import dealt_counts
    out = np.zeros((hands, rules.players, 32), np.int8)
    turnups = np.zeros(hands, np.int32)
    dealt_counts(rules.packs, rules.players, rules.hand_size, rules.trump == "turn_up",
                 np.uint64(seed), 0, hands, out, turnups)
    return out, turnups


def p_carte_blanche(rules: RuleSet) -> Fraction:
    """Probability that a dealt hand has no king, queen or knave (R3.5)."""
    courts = 12 * rules.packs
    return Fraction(comb(rules.n_cards - courts, rules.hand_size), comb(rules.n_cards, rules.hand_size))
