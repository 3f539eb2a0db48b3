"""Exact conditional odds given held cards (analyzer.studies.odds.given_odds, issue 49; the
marriages, royal where the turn-up names the trumps, issue 56): equal to the unconditional figures
of exact.py with nothing held, equal to fractions worked by hand, inside
a 99.9 % Wilson interval of a plain numpy simulation of the deal and the draws (no engine), and
impossible input refused."""
import json
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from statsmodels.stats.proportion import proportion_confint

from analyzer.cards import parse_card
from analyzer.cli import main
from analyzer.rules import preset
from analyzer.studies.odds.deal_odds import (
    bezique_levels,
    exact_events,
    hit_holds,
    p_receives_bezique,
)
from analyzer.studies.odds.given_odds import (
    Holding,
    combinations,
    conditional_events,
    conditional_odds_table,
    p_dealt_given,
    p_receives_given,
)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def by_event(rows) -> dict[str, Fraction]:
    return {r["event"]: r["fraction"] for r in rows}


@pytest.mark.parametrize("variant", ["ordinary", "rubicon", "panache", "no_trump", "three_handed", "four_handed"])
def test_nothing_held_is_exact_py(variant):
    """Held nothing and no turn-up: every event exact.py also has (dealt béziques, fours, panache
    fours, the sequence in spades; the receive rows) has exact.py's value."""
    rules = preset(variant)
    ours = by_event(conditional_events(rules, ()))
    theirs = {ev["event"]: ev["exact"] for ev in exact_events(rules) if ev["per"] == "hand"}
    theirs.update({f"receives_{name}": p_receives_bezique(rules, k) for name, k in bezique_levels(rules)})
    shared = ours.keys() & theirs.keys()
    expected = {f"{kind}_{name}" for name, _ in bezique_levels(rules) for kind in ("dealt", "receives")}
    expected |= {f"dealt_four_{x}" for x in ("aces", "kings", "queens", "knaves")} | {"dealt_sequence_S", "dealt_marriage_S"}
    if rules.panache:
        expected |= {f"dealt_panache_four_{x}" for x in ("aces", "kings", "queens", "knaves")}
    assert expected <= shared
    for event in shared:
        assert ours[event] == theirs[event], event


def test_hand_worked_dealt():
    """Ordinary (two packs, 64 cards, 8-card hand)."""
    r = preset("ordinary")
    # held Q♠ J♦: the 6 other dealt cards from the other 62 must hold the other Q♠ and J♦
    assert p_dealt_given(r, cards("QS JD"), {"QS": 2, "JD": 2}) == Fraction(comb(60, 4), comb(62, 6))
    # held Q♠ J♦ A♠ A♥: the 4 other dealt cards from the other 60 hold the other Q♠ and J♦
    rows = by_event(conditional_events(r, cards("QS JD AS AH")))
    assert rows["dealt_double_bezique"] == Fraction(comb(58, 2), comb(60, 4))
    assert rows["dealt_bezique"] == 1
    # four aces: 2 of the other 6 aces among the 4 other cards, or 3, or 4
    four = sum(comb(6, k) * comb(54, 4 - k) for k in (2, 3, 4))
    assert rows["dealt_four_aces"] == Fraction(four, comb(60, 4))
    # the other Q♠ turned up: no double bézique at the deal
    assert by_event(conditional_events(r, cards("QS JD AS AH"), parse_card("QS")))["dealt_double_bezique"] == 0


def test_hand_worked_receives():
    """Receives over the hand: 8 dealt + 24 drawn = 32 cards of the seat."""
    r = preset("ordinary")
    held = cards("QS JD AS AH")
    # no turn-up known: the seat's 28 unknown cards are a random 28 of 60, holding Q♠ and J♦
    assert p_receives_given(r, held, {"QS": 2, "JD": 2}) == Fraction(comb(58, 26), comb(60, 28))
    # the other Q♠ turned up: the seat gets it with chance 1/2 (loser of the last trick), and
    # then needs the other J♦ among its other 27 cards of the 59 unknown
    rows = by_event(conditional_events(r, held, parse_card("QS")))
    assert rows["receives_double_bezique"] == Fraction(1, 2) * Fraction(comb(58, 26), comb(59, 27))
    # held A♠ A♥, A♦ turned up: 5 aces unknown among 61 cards, 6 + 24 = 30 cards to come
    p = p_receives_given(r, cards("AS AH"), {"rank:A": 4}, parse_card("AD"))
    with_turnup = 1 - Fraction(comb(56, 29), comb(61, 29))                       # one more ace in 29
    without = 1 - Fraction(comb(56, 30) + 5 * comb(56, 29), comb(61, 30))        # two more in 30
    assert p == Fraction(1, 2) * with_turnup + Fraction(1, 2) * without
    # Rubicon: 9 dealt + 55 drawn = 64 of 128; held three Q♠: the fourth among 61 of the other 125
    q = p_receives_given(preset("rubicon"), cards("QS QS QS"), {"QS": 4})
    assert q == Fraction(comb(124, 60), comb(125, 61))


def test_hand_worked_marriages():
    """The marriages: the royal marriage in the turn-up's suit, a common marriage per other suit;
    per suit when the trumps are not known."""
    r = preset("ordinary")
    rows = by_event(conditional_events(r, cards("QS JD KH QH"), parse_card("7H")))
    assert rows["dealt_royal_marriage"] == rows["receives_royal_marriage"] == 1      # K♥ Q♥ held, ♥ trumps
    # Q♠ held: a K♠ (2 unknown) among the 4 other dealt cards of the 59 unknown
    assert rows["dealt_marriage_S"] == 1 - Fraction(comb(57, 4), comb(59, 4)) == Fraction(226, 1711)
    # K♦ and Q♦ (2 unknown each) among 4 of 59; over the hand 4 + 24 = 28 cards, the turn-up (7♥)
    # taken by the seat with chance 1/2, leaving 27 to come from the unknown cards

    def both(n):
        return 1 - 2 * Fraction(comb(57, n), comb(59, n)) + Fraction(comb(55, n), comb(59, n))
    assert rows["dealt_marriage_D"] == both(4)
    assert rows["receives_marriage_D"] == Fraction(1, 2) * both(27) + Fraction(1, 2) * both(28)
    assert "dealt_marriage_H" not in rows                      # ♥'s marriage is the royal one
    # K♥ held, Q♥ turned up: the other Q♥ among the 7 other dealt cards of 62; over the hand the
    # seat takes the turn-up with chance 1/2, else it needs that Q♥ among its 31 cards of the 62
    royal = by_event(conditional_events(r, cards("KH"), parse_card("QH")))
    assert royal["dealt_royal_marriage"] == Fraction(7, 62)
    assert royal["receives_royal_marriage"] == Fraction(1, 2) + Fraction(1, 2) * Fraction(31, 62)
    # Rubicon, no trumps yet: K♣ held, 4 Q♣ among the 127 unknown, 8 other dealt cards
    rubicon = by_event(conditional_events(preset("rubicon"), cards("KC")))
    assert rubicon["dealt_marriage_C"] == 1 - Fraction(comb(123, 8), comb(127, 8))
    assert "dealt_royal_marriage" not in rubicon


def simulate(rules, held, turn_up, n, rng):
    """The seat's counts [n, 32] at the deal and over the hand, by shuffling the unknown cards:
    its other dealt cards first, then the other hands, then the talon (the turn-up last); each
    round of `players` talon cards, the seat takes one at random (a trick decided blind)."""
    deck = [c for c in range(32) for _ in range(rules.copies(c))]
    for c in list(held) + ([] if turn_up is None else [turn_up]):
        deck.remove(c)
    pool = np.array(deck, np.int8)          # the shuffle moves n * len(pool) of them: the smaller the faster
    shuffled = pool[rng.random((n, len(pool))).argsort(1)]
    mine = rules.hand_size - len(held)
    talon = shuffled[:, mine + (rules.players - 1) * rules.hand_size:]
    if turn_up is not None:
        talon = np.concatenate([talon, np.full((n, 1), turn_up)], 1)
    rounds = talon.reshape(n, -1, rules.players)
    pick = rng.integers(rules.players, size=rounds.shape[:2])
    drawn = np.take_along_axis(rounds, pick[:, :, None], 2)[:, :, 0]

    def counts(x):
        return np.bincount((x + np.arange(0, 32 * n, 32)[:, None]).ravel(), minlength=32 * n).reshape(n, 32)

    dealt = counts(shuffled[:, :mine]) + np.bincount(np.array(held, int), minlength=32)
    return dealt, dealt + counts(drawn)


CASES = [
    ("ordinary", "QS JD AS AH", "KS"),
    ("ordinary", "KH QS KD", "QH"),                      # the royal marriage completed by the turn-up
    ("rubicon", "QS QS JD KH KH AS", None),
    ("four_handed", "AS AD QS", "AH"),
    ("panache", "AS KD KC", None),
    ("three_handed", "8C JD QS", "TS"),
]


@pytest.mark.parametrize("variant,held,turn_up", CASES)
def test_simulated_within_wilson(variant, held, turn_up):
    """Each exact figure lies in the 99.9 % Wilson interval of its frequency in 200,000 simulated
    deals (numpy, fixed seed)."""
    rules = preset(variant)
    held = cards(held)
    turn_up = None if turn_up is None else parse_card(turn_up)
    n = 200_000
    dealt, received = simulate(rules, held, turn_up, n, np.random.default_rng(49))
    exact = by_event(conditional_events(rules, held, turn_up))
    names = [name for name, _, _ in combinations(Holding.of(rules, held, turn_up))]
    assert sum(n.startswith(("marriage_", "royal_marriage")) for n in names) == 4      # each suit's marriage
    for name, _, need in combinations(Holding.of(rules, held, turn_up)):
        for event, counts in ((f"dealt_{name}", dealt), (f"receives_{name}", received)):
            hits = int(hit_holds(need)(counts, None).sum())
            lo, hi = proportion_confint(hits, n, alpha=0.001, method="wilson")
            p = float(exact[event])
            assert lo - 1e-12 <= p <= hi + 1e-12, (event, hits / n, p)


def test_rows():
    """The table: the trump sequence with a turn-up, a sequence per suit without; the fraction
    as a string beside its float."""
    r = preset("ordinary")
    with_turnup = conditional_odds_table(r, cards("QS JD"), parse_card("TH"))
    assert {"dealt_trump_sequence", "receives_trump_sequence"} <= set(with_turnup.event)
    assert not with_turnup.event.str.startswith("dealt_sequence_").any()
    assert {"dealt_royal_marriage", "receives_royal_marriage", "dealt_marriage_S", "dealt_marriage_D",
            "dealt_marriage_C"} <= set(with_turnup.event) and "dealt_marriage_H" not in set(with_turnup.event)
    rubicon = conditional_odds_table(preset("rubicon"), cards("QS"))
    assert {f"dealt_sequence_{s}" for s in "SHDC"} <= set(rubicon.event)
    assert {f"{k}_marriage_{s}" for s in "SHDC" for k in ("dealt", "receives")} <= set(rubicon.event)
    assert "dealt_royal_marriage" not in set(rubicon.event)
    assert "dealt_quadruple_bezique" in set(rubicon.event)
    for _, row in with_turnup.iterrows():
        assert float(Fraction(row.exact)) == row.exact_decimal


@pytest.mark.parametrize("variant,held,turn_up", [
    ("ordinary", "QS QS QS", None),                      # more copies than packs
    ("ordinary", "QS QS", "QS"),                         # held and turned up: three of two
    ("ordinary", "AS AH AD AC KS KH KD KC QS", None),    # nine cards in an eight-card hand
    ("rubicon", "QS", "JD"),                             # Rubicon turns nothing up
    ("no_trump", "QS", "JD"),                            # nor does V1
    ("three_handed", "8C 8C", None),                     # V4 has one 8♣
])
def test_impossible_input(variant, held, turn_up):
    """More copies than the deck has, more cards than the hand, a turn-up where none is turned up."""
    rules = preset(variant)
    with pytest.raises(ValueError):
        conditional_events(rules, cards(held), None if turn_up is None else parse_card(turn_up))


@pytest.mark.parametrize("held", [[32], [-1], [True], ["QS"]])
def test_not_a_card(held):
    """A held card or turn-up that is not a card type 0..31."""
    with pytest.raises(ValueError):
        p_dealt_given(preset("ordinary"), held, {"QS": 1})
    with pytest.raises(ValueError):
        conditional_events(preset("ordinary"), [], held[0])


def test_the_command_says_the_odds_in_words_and_percentages(tmp_path):
    """bezique odds --hold: the turn-up's suit as the trumps, a line per event in words with its
    share in per cent (numbers.share), the marriages among them; the exact fractions in the
    table it writes and in --json."""
    args = ["odds", "--hold", "QS JD KH QH", "--turn-up", "7H", "--hands", "4000", "-q"]
    res = CliRunner().invoke(main, [*args, "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "ordinary bézique, seat 0 holding Q♠ J♦ K♥ Q♥; 7♥ turned up: trumps ♥"
    body = lines[2:]
    royal = next(line for line in body if line.startswith("the royal marriage in its dealt hand"))
    assert "100.0 %  simulated 100.0 % [" in royal
    spades = next(line for line in body if line.startswith("the marriage in ♠ in its dealt hand"))
    assert "13.2 %" in spades                                               # 226/1711
    assert any(line.startswith("the marriage in ♦ received over the hand") for line in body)
    assert not any("/" in line for line in body) and all(" %" in line for line in body)
    table = pd.read_csv(tmp_path / "odds.csv", index_col=0).set_index("event")
    assert table.loc["dealt_marriage_S", "exact"] == "226/1711" and table.loc["dealt_royal_marriage", "exact"] == "1/1"
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    assert {"event": "dealt_marriage_S", "exact": "226/1711"}.items() <= \
        next(r for r in data["odds"] if r["event"] == "dealt_marriage_S").items()
    unknown = CliRunner().invoke(main, ["odds", "--variant", "rubicon", "--hold", "KC", "--hands", "2000", "-q"])
    assert unknown.stdout.splitlines()[0].endswith("trumps not known (the first marriage or sequence declared "
                                                   "sets them, R3.2)")
    assert "the marriage in ♣ in its dealt hand" in unknown.stdout and "royal" not in unknown.stdout
