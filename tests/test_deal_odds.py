"""Deal-time frequencies agree with exact combinatorics (99 % interval, fixed seed)."""
from fractions import Fraction
from math import comb, sqrt

import numpy as np
import pytest
from numba import njit
from scipy import stats

from analyzer.engine.deals import deal_deck
from analyzer.studies.odds.deal_odds import p_hand_holds, p_turnup_seven, simulated_deals
from analyzer.rules import preset
from helpers import pooled_check

N = 400_000
Z99 = 2.5758293035489004


@pytest.fixture(scope="module")
def deals():
    return simulated_deals(preset("ordinary"), N, seed=20261129)


def within_99(hits: int, n: int, p: Fraction) -> bool:
    p = float(p)
    return abs(hits / n - p) <= Z99 * sqrt(p * (1 - p) / n)


def test_exact_values_by_hand():
    r = preset("ordinary")
    # both Q♠ and both J♦ among 8 of 64 cards: choose the other 4 from 60
    assert p_hand_holds(r, {"QS": 2, "JD": 2}) == Fraction(comb(60, 4), comb(64, 8))
    four_aces = sum(Fraction(comb(8, k) * comb(56, 8 - k), comb(64, 8)) for k in range(4, 9))
    assert p_hand_holds(r, {"rank:A": 4}) == four_aces
    assert p_turnup_seven(r) == Fraction(1, 8)


def assert_pooled(name, hands, rules, p):
    """Event ``name`` over every set of card types of its shape (helpers.pooled_check) in the
    deals ``hands`` [n, seats, 32]: the 99 % interval of the pooled mean holds the exact value,
    and is within 5 % of it, so that a 10 % error in the exact value or in the deal lies
    outside it."""
    copies = np.array([rules.copies(t) for t in range(32)])
    mean, expected, half = pooled_check(name, hands, copies, p)
    assert half <= 0.05 * expected, (name, half, expected)
    assert abs(mean - expected) <= half, (name, mean, expected, half)


def test_R2_1_seat_dealt_double_bezique(deals):
    """Each seat's own count (about 44 hits in N deals: only a gross error shows), and every
    pair of card types two of each in a hand, pooled: a 10 % error shows."""
    hands, _ = deals
    r = preset("ordinary")
    p = p_hand_holds(r, {"QS": 2, "JD": 2})
    hits = (hands[:, :, 3] >= 2) & (hands[:, :, 20] >= 2)
    for seat in (0, 1):
        assert within_99(int(hits[:, seat].sum()), N, p)
    assert p_hand_holds(r, {"AH": 2, "7C": 2}) == p             # any two types alike
    assert_pooled("dealt_double_bezique", hands, r, p)


def test_R2_1_seat_dealt_a_sequence_pooled(deals):
    """A given five cards, one of each, in a dealt hand (the sequence in spades: 1 hand in
    4,900): every set of five card types pooled."""
    hands, _ = deals
    r = preset("ordinary")
    p = p_hand_holds(r, {"AS": 1, "TS": 1, "KS": 1, "QS": 1, "JS": 1})
    # inclusion-exclusion over the five types missing (two copies each)
    assert p == sum((-1) ** j * Fraction(comb(5, j) * comb(64 - 2 * j, 8), comb(64, 8)) for j in range(6))
    assert_pooled("dealt_sequence_S", hands, r, p)


def test_R2_1_four_aces_in_a_dealt_hand(deals):
    hands, _ = deals
    p = p_hand_holds(preset("ordinary"), {"rank:A": 4})
    hits = hands[:, :, [0, 8, 16, 24]].sum(axis=2) >= 4
    for seat in (0, 1):
        assert within_99(int(hits[:, seat].sum()), N, p)


def test_R2_2_turn_up_is_a_seven(deals):
    _, turnups = deals
    assert within_99(int((turnups % 8 == 7).sum()), N, p_turnup_seven(preset("ordinary")))


def test_deal_uses_every_card_once(deals):
    hands, turnups = deals
    assert (hands.sum(axis=2) == 8).all()
    total = hands[:1000].sum(axis=1).astype(int)
    total[np.arange(1000), turnups[:1000]] += 1
    assert (total <= 2).all()


@pytest.fixture(scope="module")
def rubicon_deals():
    return simulated_deals(preset("rubicon"), N, seed=7)


def test_R3_1_rubicon_deal_has_no_turn_up(rubicon_deals):
    hands, turnups = rubicon_deals
    assert (hands.sum(axis=2) == 9).all()
    assert (turnups == -1).all()
    assert (hands[:2000].sum(axis=1) <= 4).all()


def test_R3_5_carte_blanche_frequency(rubicon_deals):
    from analyzer.studies.odds.deal_odds import p_carte_blanche
    r = preset("rubicon")
    p = p_carte_blanche(r)
    assert p == Fraction(comb(80, 9), comb(128, 9))
    hands, _ = rubicon_deals
    courts = [s * 8 + k for s in range(4) for k in (2, 3, 4)]
    hits = hands[:, :, courts].sum(axis=2) == 0
    for seat in (0, 1):
        assert within_99(int(hits[:, seat].sum()), N, p)


def test_R3_1_dealt_two_or_more_queens_of_spades_and_knaves_of_diamonds(rubicon_deals):
    r = preset("rubicon")
    p = p_hand_holds(r, {"QS": 2, "JD": 2})
    by_hand = sum(Fraction(comb(4, a) * comb(4, b) * comb(120, 9 - a - b), comb(128, 9))
                  for a in range(2, 5) for b in range(2, 5) if a + b <= 9)
    assert p == by_hand
    hands, _ = rubicon_deals
    hits = (hands[:, :, 3] >= 2) & (hands[:, :, 20] >= 2)
    for seat in (0, 1):                       # about 150 hits each: only a gross error shows
        assert within_99(int(hits[:, seat].sum()), N, p)
    assert_pooled("dealt_double_bezique", hands, r, p)       # every pair of types: a 10 % error shows


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_odds_table_simulated_values_agree_with_exact(variant):
    """The table's simulated column counts its deals right (hit for hit against the events
    written out in test_variant_odds, on the same deals), and where it has hits enough to see a
    10 % error (SHARP expected) the exact value is in its 99 % interval; the rarer rows are held
    to their exact values pooled, above and in test_variant_odds."""
    from test_variant_odds import SHARP, reference_hits

    from analyzer.studies.odds.deal_odds import odds_table
    rules = preset(variant)
    df = odds_table(rules, 150_000, seed=11)
    dealt, turnups = simulated_deals(rules, 150_000, seed=11)
    sim = df[df["sample"] > 0]
    assert len(sim) >= 8
    sharp = 0
    for _, r in sim.iterrows():
        hits = round(r.simulated * r["sample"])
        assert hits == int(reference_hits(r.event, dealt, turnups).sum()), r.event
        if r.exact_decimal * r["sample"] >= SHARP:
            assert within_99(hits, int(r["sample"]), Fraction(r.exact)), r.event
            sharp += 1
    assert sharp >= 6


def test_receives_double_bezique_exact():
    from analyzer.studies.odds.deal_odds import p_receives_bezique
    # a uniformly random half (32 of 64) holds both Q♠ and both J♦
    assert p_receives_bezique(preset("ordinary"), 2) == Fraction(comb(60, 28), comb(64, 32))
    r = preset("rubicon")
    by_hand = sum(Fraction(comb(4, a) * comb(4, b) * comb(120, 64 - a - b), comb(128, 64))
                  for a in range(3, 5) for b in range(3, 5))
    assert p_receives_bezique(r, 3) == by_hand


# --- the shuffle itself: every card type equally likely at every position of the deck -------

SHUFFLES = 200_000        # deals per deck: 6250 of each (position, card type) expected
ALPHA = 0.001             # the significance of each check below


@njit(cache=True)
def position_counts(n_cards, seed, deals):
    """counts[position, card type] over hands 0 .. deals-1 of a run seeded ``seed``, each
    deck shuffled by the engine's own deal function (deals.deal_deck, which every hand, replay
    file and odds table is dealt from)."""
    counts = np.zeros((n_cards, 32), np.int64)
    deck = np.zeros(n_cards, np.int32)
    state = np.zeros(1, np.uint64)
    for hand in range(deals):
        deal_deck(n_cards, np.uint64(seed), hand, deck, state)
        for pos in range(n_cards):
            counts[pos, deck[pos]] += 1
    return counts


def uniformity(counts, packs):
    """(Pearson's chi-square p-value, largest |z| of a cell, the |z| a cell may reach) for
    ``counts`` against a uniform shuffle: each position holds each type with probability
    packs / n_cards. Both margins are fixed (every position gets a card, every type has
    ``packs`` copies), so the chi-square has (positions - 1) x 31 degrees of freedom. The
    largest cell is held to the Bonferroni bound of ALPHA over all cells, two-sided."""
    n_cards, types = counts.shape
    deals = int(counts[0].sum())
    p = packs / n_cards
    expected = deals * p
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    p_value = stats.chi2.sf(chi2, (n_cards - 1) * (types - 1))
    z = np.abs(counts - expected) / sqrt(deals * p * (1 - p))
    return p_value, float(z.max()), float(stats.norm.isf(ALPHA / 2 / counts.size))


@pytest.mark.parametrize("variant, seed", [("ordinary", 20261201), ("rubicon", 20261202)])
def test_R1_2_R2_1_R3_1_the_shuffle_puts_every_card_anywhere_alike(variant, seed):
    """Card by position over SHUFFLES deals of the 64-card (128-card) deck: the chi-square
    and the largest cell pass at ALPHA. The largest cell is the sharp check: a card type landing
    10 % too often (or too rarely) at one position is 7.9 standard deviations off at this
    size, past the bound (5.0 for 2048 cells, 5.2 for 4096); the same counts with such an
    error are refused."""
    rules = preset(variant)
    counts = position_counts(rules.n_cards, seed, SHUFFLES)
    assert (counts.sum(axis=1) == SHUFFLES).all()                      # one card per position
    assert (counts.sum(axis=0) == SHUFFLES * rules.packs).all()       # whole packs (R1.2)
    p_value, z_max, bound = uniformity(counts, rules.packs)
    assert p_value > ALPHA and z_max < bound, (p_value, z_max, bound)
    # the check can fail: 10 % of the aces of spades dealt first go to another position
    biased = counts.copy()
    moved = biased[0, 0] // 10
    biased[0, 0] -= moved
    biased[1, 0] += moved
    biased[0, 1] += moved                   # the positions keep one card each
    biased[1, 1] -= moved
    assert uniformity(biased, rules.packs)[1] > bound
