"""Which table copies a declaration uses, and when a claim is possible (R2.12-R2.17, R3.6, R3.7).

The engine picks a combination's cards in one pass over the table (melds._choose_cards) and
decides whether a claim is possible from the table counts alone (melds.combo_check). Both are
checked here against a plain reading on random tables: for each card of the combination,
eligible table copies first (never-scored before scored, lowest slot first), then the hand,
and at least one new card (R2.12); a claim (R3.7) is possible when that selection takes a
card from the hand.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analyzer.engine import layout as L
from analyzer.engine.melds import _select, claim_possible, combo_feasible
from analyzer.engine.state import add_hand, table_add
from analyzer.rules import preset

RULESETS = {
    "rubicon": preset("rubicon"),
    "ordinary": preset("ordinary"),
    "american": dataclasses.replace(preset("ordinary"), meld_reuse="american"),
}
# the cards of every combination: A T K Q J of each suit
COMBO_CARDS = [suit * 8 + rank for suit in range(4) for rank in range(5)]


def random_position(rng, packs):
    """Seat 0 with a few combination cards in hand and on the table, each table copy with
    random class levels (what earlier declarations left)."""
    P = np.zeros((L.MAX_SEATS, L.P_W), np.int32)
    T = np.zeros((L.MAX_SEATS, L.MAX_TABLE, L.T_W), np.int32)
    obs = np.zeros((L.MAX_SEATS, L.OBS_SIZE), np.int32)
    left = {t: packs for t in COMBO_CARDS}
    pool = rng.choice(COMBO_CARDS, 8, replace=False)     # few kinds, so combinations form
    for where, n in (("hand", int(rng.integers(0, 9))), ("table", int(rng.integers(0, 13)))):
        for t in rng.choice(pool, n):
            if left[t] == 0:
                continue
            left[t] -= 1
            if where == "hand":
                add_hand(P, obs, 0, t, 1)
            else:
                k = table_add(P, T, obs, 2, 0, t)
                T[0, k, L.T_M] = rng.integers(0, 3)
                T[0, k, L.T_B] = rng.integers(0, min(packs, 4) + 1) if t in (3, 20) else 0
                T[0, k, L.T_F] = rng.integers(0, 2) if t % 8 != 1 else 0
                T[0, k, L.T_SCORED] = int(T[0, k, L.T_M] + T[0, k, L.T_B] + T[0, k, L.T_F] > 0
                                          or rng.random() < 0.3)
    G = np.zeros(L.G_SIZE, np.int64)
    G[L.G_TRUMP] = rng.integers(-1, 4) if packs == 4 else rng.integers(0, 4)
    return G, P, T


def eligible(rules, T, k, cls, lvl):
    have = T[0, k, (L.T_M, L.T_B, L.T_F)[cls]]
    if rules.redeclare == "same_or_higher":
        if have > lvl:                      # R3.6
            return False
    elif have >= lvl:                       # R2.14, R2.15
        return False
    return not (rules.meld_reuse == "american" and cls != 1 and T[0, k, L.T_B] > 0)   # R2.17


def reference_selection(rules, P, T, c):
    """(table slots used, cards from the hand) for a fixed combination c < 12."""
    if c < 4:
        need, cls, lvl = {c * 8 + 2: 1, c * 8 + 3: 1}, 0, 1
    elif c < 8:
        need, cls, lvl = {(c - 4) * 8 + r: 1 for r in range(5)}, 0, 2
    else:
        need, cls, lvl = {3: c - 7, 20: c - 7}, 1, c - 7
    used, from_hand = {}, 0
    for card, n in need.items():
        copies = [k for k in range(P[0, L.P_NTABLE])
                  if T[0, k, L.T_CARD] == card and eligible(rules, T, k, cls, lvl)]
        copies.sort(key=lambda k: (T[0, k, L.T_SCORED], k))          # never scored first
        used[card] = copies[:n]
        from_hand += max(n - len(copies), 0)
    if from_hand == 0 and all(T[0, k, L.T_SCORED] for k in sum(used.values(), [])):
        # R2.12: one card must be new: the first card held in hand replaces a table copy
        card = next(t for t in need if P[0, L.P_HAND + t] > 0)
        used[card] = used[card][1:]
        from_hand = 1
    return sorted(sum(used.values(), [])), from_hand


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_R2_12_R3_6_selection_and_R3_7_claims_match_a_plain_reading(name):
    rules = RULESETS[name]
    arr = rules.to_array()
    rng = np.random.default_rng(5)
    req_t = np.zeros(8, np.int64)
    req_n = np.zeros(8, np.int64)
    work = np.zeros(64, np.int64)
    four = np.full(4, -1, np.int64)
    checked = claims = 0
    for _ in range(1500):
        G, P, T = random_position(rng, rules.packs)
        for c in range(16):
            if not combo_feasible(arr, G, P, T, 0, c, req_t, req_n):
                assert not claim_possible(arr, G, P, T, 0, c, req_t, req_n)
                continue
            nreq, n_chosen, from_hand = _select(arr, P, T, 0, c, four, req_t, req_n, work)
            assert claim_possible(arr, G, P, T, 0, c, req_t, req_n) == (from_hand > 0), c
            claims += from_hand > 0
            if c < 12:
                slots, hand = reference_selection(rules, P, T, c)
                assert sorted(work[:n_chosen]) == slots, c
                assert from_hand == hand, c
            checked += 1
    assert checked > 500 and 0 < claims < checked      # both answers occur
