"""Deal-time odds of the rulebook's variants (docs/rules.md section 4): each event's exact
fraction (analyzer.studies.odds.deal_odds) against brute-force enumeration and closed forms, and against the
engine's own deals (99 % Wilson interval, fixed seeds)."""
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cards import ACE, KING, KNAVE, QUEEN, card_id
from analyzer.studies.odds.deal_odds import (
    JD,
    QS,
    bezique_need,
    event_counts,
    exact_events,
    p_hand_holds,
    p_holds,
    p_partners_hold,
    p_some_hand_holds,
    p_some_player_dealt,
    panache_need,
    simulated_deals,
    units_per_deal,
)
from analyzer.rules import SHORT_EIGHT, preset
from helpers import pooled_check

DEALS = 200_000         # per rule set: about 0.3 s to deal and count (the table: 6 rule sets)
SHARP = 1_600           # expected hits from which a count sees a 10 % error: 4 standard deviations
FOUR_RANKS = {"aces": ACE, "kings": KING, "queens": QUEEN, "knaves": KNAVE}


def wilson99(hits: int, n: int):
    """The 99 % Wilson interval of ``hits`` in ``n``: analyzer.tables.stats.wilson_ci is fixed at
    95 % (it takes no level), so the same statsmodels method is asked for alpha = 0.01."""
    from statsmodels.stats.proportion import proportion_confint
    lo, hi = proportion_confint(hits, n, alpha=0.01, method="wilson")
    return (0.0 if hits == 0 else lo), (1.0 if hits == n else hi)


def reference_hits(name: str, dealt: np.ndarray, turnups: np.ndarray) -> np.ndarray:
    """Hits of event ``name``, written out here independently of analyzer.studies.odds.deal_odds, from the
    dealt hands [n, players, 32]: per hand (every seat), per partnership or per deal."""
    h = dealt                   # int8 counts: a partnership holds at most 8 of a type
    if name.startswith("partners_"):
        h, name = h[:, :2] + h[:, 2:], "dealt_" + name[len("partners_"):]     # seats 0+2, 1+3
    level = {"dealt_bezique": 1, "dealt_double_bezique": 2, "dealt_treble_bezique": 3,
             "dealt_quadruple_bezique": 4}
    if name in level:
        return (h[..., QS] >= level[name]) & (h[..., JD] >= level[name])
    if name.startswith("dealt_four_"):
        return h[..., [card_id(s, FOUR_RANKS[name[11:]]) for s in range(4)]].sum(-1) >= 4
    if name.startswith("dealt_panache_four_"):
        return (h[..., [card_id(s, FOUR_RANKS[name[19:]]) for s in range(4)]] >= 1).all(-1)
    if name == "dealt_sequence_S":
        return (h[..., [0, 1, 2, 3, 4]] >= 1).all(-1)
    if name == "dealt_marriage_S":
        return (h[..., [2, 3]] >= 1).all(-1)
    if name == "some_player_dealt_bezique":
        return ((h[..., QS] >= 1) & (h[..., JD] >= 1)).any(1)
    if name == "turn_up_seven":
        return turnups % 8 == 7
    if name == "carte_blanche":
        return h[..., [s * 8 + r for s in range(4) for r in (KING, QUEEN, KNAVE)]].sum(-1) == 0
    raise AssertionError(f"no reference for event {name}")


def closed_form_bezique(rules, name: str) -> Fraction:
    """The exact probability of a bézique event (``dealt_treble_bezique``, ``partners_…``) by
    the hypergeometric sum written out here: k or more of the copies of Q♠ and of J♦ among a
    hand's cards (two partners': twice as many) drawn from the deck."""
    per, level = name.split("_", 1)
    k = {"bezique": 1, "double_bezique": 2, "treble_bezique": 3, "quadruple_bezique": 4}[level]
    size = rules.hand_size * (2 if per == "partners" else 1)
    c, n = rules.copies(QS), rules.n_cards
    assert rules.copies(JD) == c
    return sum(Fraction(comb(c, a) * comb(c, b) * comb(n - 2 * c, size - a - b), comb(n, size))
               for a in range(k, c + 1) for b in range(k, c + 1) if a + b <= size)


def check_deal_odds(rules, seed: int) -> list[str]:
    """Each event of ``rules``: its hits by analyzer.studies.odds.deal_odds equal the reference hits, and
    its exact value agrees with DEALS simulated deals as sharply as a 10 % error would show:
    an event with SHARP expected hits or more by its own count (99 % Wilson interval); a rarer
    one counted over every set of card types of its shape (helpers.pooled_check: SHARP pooled
    hits expected, and the 99 % interval of the pooled mean within 5 % of the expectation, so a
    10 % error lies outside it);
    one too rare even so (a treble bézique: one hand in millions) by its exact value against the
    closed form written out here, and loosely by its own count. Returns the event names."""
    dealt, turnups = simulated_deals(rules, DEALS, seed)
    copies = np.array([rules.copies(t) for t in range(32)])
    for ev in exact_events(rules):
        n = DEALS * units_per_deal(rules, ev["per"])
        counts = event_counts(dealt, ev["per"])
        hits = int(ev["hit"](counts, turnups).sum())
        ref = reference_hits(ev["event"], dealt, turnups)
        assert ref.size == n and hits == int(ref.sum()), ev["event"]
        p = ev["exact"]
        lo, hi = wilson99(hits, n)
        assert lo <= float(p) <= hi, (ev["event"], hits, n, float(p))
        if n * float(p) >= SHARP:
            continue
        pooled = pooled_check(ev["event"], counts.reshape(DEALS, -1, 32), copies, p) if ev["per"] != "deal" else None
        if pooled is not None and pooled[1] * DEALS >= SHARP and pooled[2] <= 0.05 * pooled[1]:
            mean, expected, half = pooled
            assert abs(mean - expected) <= half, (ev["event"], mean, expected, half)
        else:
            assert p == closed_form_bezique(rules, ev["event"]), ev["event"]
    return [ev["event"] for ev in exact_events(rules)]


def hand_event_names(packs: int) -> set[str]:
    """The per-hand events of every rule set without carte blanche."""
    levels = ["bezique", "double_bezique", "treble_bezique", "quadruple_bezique"][:packs]
    return ({f"dealt_{x}" for x in levels} | {f"dealt_four_{x}" for x in FOUR_RANKS}
            | {"dealt_sequence_S", "dealt_marriage_S"})


# --- the engine's deals against the exact values, one rule set at a time -------------------

def test_V1_deal_odds_no_trump_no_turn_up():
    rules = preset("no_trump")
    names = check_deal_odds(rules, seed=101)
    assert set(names) == hand_event_names(2)          # no turn-up, so no turn-up event
    _, turnups = simulated_deals(rules, 1000, seed=101)
    assert (turnups == -1).all()


def test_V2_deal_odds_panache_fours():
    names = check_deal_odds(preset("panache"), seed=202)
    assert set(names) == hand_event_names(2) | {f"dealt_panache_four_{x}" for x in FOUR_RANKS} | {"turn_up_seven"}


def test_V3_fixed_point_deal_odds_are_the_ordinary_games():
    def strip(rules):
        return [(e["event"], e["exact"], e["per"]) for e in exact_events(rules)]
    assert strip(preset("fixed_point")) == strip(preset("ordinary"))


def test_V4_deal_odds_three_hands_of_8_from_63():
    names = check_deal_odds(preset("three_handed"), seed=404)
    assert set(names) == hand_event_names(2) | {"some_player_dealt_bezique", "turn_up_seven"}


def test_V4_deal_odds_three_hands_of_8_from_96():
    names = check_deal_odds(preset("three_handed", packs=3), seed=405)
    assert set(names) == hand_event_names(3) | {"some_player_dealt_bezique", "turn_up_seven"}


def test_V5_deal_odds_four_hands_of_8_from_64():
    names = check_deal_odds(preset("four_handed"), seed=505)
    partners = {"partners_bezique", "partners_double_bezique", "partners_four_aces"}
    assert set(names) == hand_event_names(2) | partners | {"some_player_dealt_bezique", "turn_up_seven"}


def test_V5_deal_odds_four_hands_of_8_from_128():
    names = check_deal_odds(preset("four_handed", packs=4), seed=506)
    partners = {f"partners_{x}" for x in ("bezique", "double_bezique", "treble_bezique", "quadruple_bezique")}
    assert partners | {"partners_four_aces", "some_player_dealt_bezique"} <= set(names)


def test_V2_V5_panache_and_partners_together():
    rules = preset("four_handed", panache=True)
    names = {e["event"]: e for e in exact_events(rules)}
    assert "dealt_panache_four_aces" in names and "partners_four_aces" in names
    assert names["dealt_panache_four_aces"]["exact"] == names["dealt_panache_four_kings"]["exact"]


def test_sample_sizes_per_hand_partnership_and_deal():
    from analyzer.studies.odds.deal_odds import odds_table
    df = odds_table(preset("four_handed"), 1000, seed=3, threads=1).set_index("event")
    assert df.loc["dealt_bezique", "sample"] == 4000
    assert df.loc["partners_bezique", "sample"] == 2000
    assert df.loc["some_player_dealt_bezique", "sample"] == 1000
    assert df.loc["turn_up_seven", "sample"] == 1000


# --- the 63-card deck ----------------------------------------------------------------------

def test_V4_deck_of_63_has_one_eight_of_clubs():
    from analyzer.engine.deals import deal_deck
    rules = preset("three_handed")
    assert rules.n_cards == 63 and SHORT_EIGHT == card_id(3, 6)
    expected = np.full(32, 2)
    expected[SHORT_EIGHT] = 1
    assert [rules.copies(t) for t in range(32)] == expected.tolist()
    deck, state = np.zeros(63, np.int32), np.zeros(1, np.uint64)
    for hand in range(50):
        deal_deck(63, np.uint64(9), hand, deck, state)
        held = np.bincount(deck, minlength=32)
        assert (held == expected).all(), (f"deck {hand}: types held once {np.flatnonzero(held == 1).tolist()}, "
                                          f"expected only the 8♣ (type {SHORT_EIGHT})")
    dealt, turnups = simulated_deals(rules, 2000, seed=9)
    assert (dealt.sum(axis=2) == 8).all()
    held = dealt.sum(axis=1).astype(int)
    held[np.arange(2000), turnups] += 1
    assert (held <= expected).all()
    assert [preset("three_handed", packs=3).copies(t) for t in range(32)] == [3] * 32


def test_V4_exact_values_count_the_63_cards():
    r = preset("three_handed")
    four_aces = sum(Fraction(comb(8, k) * comb(55, 8 - k), comb(63, 8)) for k in range(4, 9))
    assert p_hand_holds(r, {"rank:A": 4}) == four_aces
    eights = sum(Fraction(comb(7, k) * comb(56, 8 - k), comb(63, 8)) for k in range(4, 8))
    assert p_hand_holds(r, {"rank:8": 4}) == eights                  # seven eights, not eight
    assert p_hand_holds(r, {"8C": 2}) == 0 and p_hand_holds(r, {"8C": 1}) == Fraction(8, 63)
    none_q, none_qj = Fraction(comb(61, 8), comb(63, 8)), Fraction(comb(59, 8), comb(63, 8))
    assert p_hand_holds(r, bezique_need(1)) == 1 - 2 * none_q + none_qj == Fraction(98, 1891)


# --- exact values: closed forms and brute force ---------------------------------------------

def p_two_players_each_bezique(n_cards: int) -> Fraction:
    """Two given hands of 8 from two packs' worth of ``n_cards`` each hold a Q♠ and a J♦:
    each one copy of each (copies told apart)."""
    others = n_cards - 4
    return Fraction(4 * comb(others, 6) * comb(others - 6, 6), comb(n_cards, 8) * comb(n_cards - 8, 8))


@pytest.mark.parametrize("variant, players, n_cards", [("three_handed", 3, 63), ("four_handed", 4, 64)])
def test_V4_V5_some_player_dealt_bezique_by_inclusion_exclusion(variant, players, n_cards):
    r = preset(variant)
    one = p_hand_holds(r, bezique_need(1))
    # two copies of each card: at most two hands can hold a bézique at once
    by_ie = players * one - comb(players, 2) * p_two_players_each_bezique(n_cards)
    assert p_some_player_dealt(r, bezique_need(1)) == by_ie


def test_V2_panache_four_by_inclusion_exclusion():
    r = preset("panache")       # no suit's two aces in the hand: 62, 60 ... cards to draw from
    by_ie = sum((-1) ** j * Fraction(comb(4, j) * comb(64 - 2 * j, 8), comb(64, 8)) for j in range(5))
    assert p_hand_holds(r, panache_need(ACE)) == by_ie
    r3 = preset("panache", packs=3)
    assert p_hand_holds(r3, panache_need(ACE)) == sum(
        (-1) ** j * Fraction(comb(4, j) * comb(96 - 3 * j, 8), comb(96, 8)) for j in range(5))


def test_V5_partners_exact_values():
    r = preset("four_handed")
    # 16 of 64 cards: inclusion-exclusion over the missing Q♠s and J♦s
    by_ie = 1 - 2 * Fraction(comb(62, 16), comb(64, 16)) + Fraction(comb(60, 16), comb(64, 16))
    assert p_partners_hold(r, bezique_need(1)) == by_ie == Fraction(29735, 158844)
    assert p_partners_hold(r, bezique_need(2)) == Fraction(comb(60, 12), comb(64, 16))


class TinyRules:
    """A deck of any cards (type ids, repeats allowed), enough of a RuleSet for the exact
    functions."""

    def __init__(self, cards, players, hand_size):
        self.cards, self.players, self.hand_size = list(cards), players, hand_size
        self.n_cards = len(self.cards)

    def copies(self, t):
        """Copies of type ``t`` in the deck."""
        return self.cards.count(t)


def brute_force(rules: TinyRules, need: dict) -> tuple[Fraction, Fraction, Fraction]:
    """(seat 0 holds ``need``, seats 0 and 2 together do, some seat does) over every ordered
    deal of the (labelled) cards: exact enumeration."""
    from analyzer.studies.odds.deal_odds import key_cards
    groups = [(set(key_cards(key)), k) for key, k in need.items()]

    @cache                  # the same few hands recur in every deal
    def holds(idx):
        return all(sum(rules.cards[i] in cols for i in idx) >= k for cols, k in groups)
    counts = [0, 0, 0]
    total = 0

    def deal(left, hands):
        nonlocal total
        if len(hands) == rules.players:
            total += 1
            counts[0] += holds(hands[0])
            counts[1] += rules.players == 4 and holds(hands[0] + hands[2])
            counts[2] += any(holds(h) for h in hands)
            return
        for h in combinations(sorted(left), rules.hand_size):
            deal(left - set(h), hands + [h])

    deal(set(range(rules.n_cards)), [])
    return tuple(Fraction(int(c), total) for c in counts)


TINY = [QS, QS, JD, JD, card_id(0, ACE), card_id(1, ACE), card_id(2, ACE), card_id(3, ACE), card_id(3, ACE),
        card_id(1, 7)]


@pytest.mark.parametrize("players, hand_size, need", [
    (3, 3, bezique_need(1)), (3, 3, bezique_need(2)), (3, 2, {"QS": 1, "rank:A": 1}),
    (4, 2, bezique_need(1)), (4, 2, {"rank:A": 4}), (4, 2, panache_need(ACE)), (4, 2, bezique_need(2)),
    (2, 5, panache_need(ACE)), (2, 5, {"rank:A": 4}), (2, 4, bezique_need(1)),
])
def test_exact_fractions_against_brute_force_on_a_tiny_deck(players, hand_size, need):
    r = TinyRules(TINY, players, hand_size)
    hand, partners, some = brute_force(r, need)
    assert p_hand_holds(r, need) == hand
    assert p_some_player_dealt(r, need) == some
    if players == 4:
        assert p_partners_hold(r, need) == partners


def test_p_some_hand_holds_brute_force_groups():
    # 2 + 1 special cards among 7, three hands of 2: enumerate the hands as index sets
    cards = [0, 0, 1, 2, 2, 2, 2]
    hits = total = 0
    for a in combinations(range(7), 2):
        for b in combinations(sorted(set(range(7)) - set(a)), 2):
            for c in combinations(sorted(set(range(7)) - set(a) - set(b)), 2):
                total += 1
                hits += any(sum(cards[i] == 0 for i in h) >= 1 and sum(cards[i] == 1 for i in h) >= 1
                            for h in (a, b, c))
    assert p_some_hand_holds(7, 2, 3, [(2, 1), (1, 1)]) == Fraction(hits, total)
    assert p_some_hand_holds(7, 2, 1, [(2, 1), (1, 1)]) == p_holds(7, 2, [(2, 1), (1, 1)])


# --- the command line -----------------------------------------------------------------------

def test_V4_cli_odds_three_handed_has_a_row_per_event():
    from analyzer.cli import main
    from analyzer.words import event_name
    result = CliRunner().invoke(main, ["odds", "--variant", "three_handed", "--hands", "20000", "--seed", "1"])
    assert result.exit_code == 0, result.output
    rows = [line.split("  ")[0] for line in result.stdout.splitlines()[1:] if line.strip()]
    names = [event_name(ev["event"]) for ev in exact_events(preset("three_handed"))]
    assert rows == names + [event_name("receives_double_bezique")]          # a row per event, in words
    assert "bézique in some player's dealt hand" in rows and "three_handed" in result.stdout.splitlines()[0]
