"""Deal-time frequencies agree with exact combinatorics (99 % interval, fixed seed)."""
from fractions import Fraction
from math import comb, sqrt

import numpy as np
import pytest

from analyzer.exact import p_hand_holds, p_turnup_seven, simulated_deals
from analyzer.rules import preset

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


def test_R2_1_seat_dealt_double_bezique(deals):
    hands, _ = deals
    p = p_hand_holds(preset("ordinary"), {"QS": 2, "JD": 2})
    hits = (hands[:, :, 3] >= 2) & (hands[:, :, 20] >= 2)
    for seat in (0, 1):
        assert within_99(int(hits[:, seat].sum()), N, p)


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
    from analyzer.exact import p_carte_blanche
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
    for seat in (0, 1):
        assert within_99(int(hits[:, seat].sum()), N, p)


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_odds_table_simulated_values_agree_with_exact(variant):
    from analyzer.exact import odds_table
    df = odds_table(preset(variant), 150_000, seed=11)
    sim = df[df["sample"] > 0]
    assert len(sim) >= 8
    for _, r in sim.iterrows():
        hits = round(r.simulated * r["sample"])
        assert within_99(hits, int(r["sample"]), Fraction(r.exact)), r.event


def test_receives_double_bezique_exact():
    from analyzer.exact import p_receives_bezique
    # a uniformly random half (32 of 64) holds both Q♠ and both J♦
    assert p_receives_bezique(preset("ordinary"), 2) == Fraction(comb(60, 28), comb(64, 32))
    r = preset("rubicon")
    by_hand = sum(Fraction(comb(4, a) * comb(4, b) * comb(120, 64 - a - b), comb(128, 64))
                  for a in range(3, 5) for b in range(3, 5))
    assert p_receives_bezique(r, 3) == by_hand
