"""A deal given in part (analyzer/given_deal.py, engine/deals.deal_cards): the named cards are dealt
where named, every other card fairly (a chi-square over many deals), nothing changes without
one, and a hand the rules cannot deal is one line and a non-zero exit."""
from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from scipy.stats import chisquare

from analyzer.cards import N_TYPES, parse_card
from analyzer.cli import main
from analyzer.given_deal import DealError, GivenDeal, parse_given
from analyzer.engine.deals import deal_cards, deal_deck, dealt_counts
from analyzer.rules import preset
from analyzer.studies.play.simulate import simulate

ORD, RUB = preset("ordinary"), preset("rubicon")


def dealt(rules, given, deals, seed=11):
    """(hands[deal, seat, type], turn-ups) of ``deals`` deals with ``given``."""
    arr = given.pack(rules.to_array()) if given else rules.to_array()
    hands = np.zeros((deals, rules.players, N_TYPES), np.int8)
    turnups = np.zeros(deals, np.int32)
    dealt_counts(arr, np.uint64(seed), 0, deals, hands, turnups)
    return hands, turnups


def test_without_a_given_hand_every_deck_is_the_fair_one():
    for rules in (ORD, RUB, preset("three_handed")):
        arr = rules.to_array()
        for hand in range(50):
            a, b = np.zeros(128, np.int32), np.zeros(128, np.int32)
            deal_deck(rules.n_cards, np.uint64(3), hand, a, np.zeros(1, np.uint64))
            deal_cards(arr, np.uint64(3), hand, hand % rules.players, b, np.zeros(1, np.uint64))
            assert np.array_equal(a, b)


@pytest.mark.parametrize("seat", [0, 1])
def test_the_held_cards_and_the_turn_up_are_dealt_as_named(seat):
    given = parse_given(ORD, "QS JD AH AH", seat, "7S")
    hands, turnups = dealt(ORD, given, 400)        # the deal goes round: the seat is eldest or dealer
    for card in ("QS", "JD"):
        assert (hands[:, seat, parse_card(card)] >= 1).all()
    assert (hands[:, seat, parse_card("AH")] == 2).all()
    assert (turnups == parse_card("7S")).all()
    assert (hands.sum(-1) == ORD.hand_size).all()
    assert (hands[:, 1 - seat, parse_card("AH")] == 0).all()     # both aces of hearts are the seat's


def test_the_other_cards_are_dealt_fairly():
    """Chi-square: the given seat's four unnamed cards, and the other seat's hand, are drawn
    uniformly from the 59 cards left (QS, JD, AH, AC held; 7S turned up)."""
    given = parse_given(ORD, "QS JD AH AC", 1, "7S")
    deals = 20_000
    hands, _t = dealt(ORD, given, deals)
    left = np.array([ORD.copies(t) for t in range(N_TYPES)], float)
    for card in ("QS", "JD", "AH", "AC", "7S"):
        left[parse_card(card)] -= 1
    mine = hands[:, 1, :].sum(0).astype(float)
    for card in ("QS", "JD", "AH", "AC"):
        mine[parse_card(card)] -= deals
    for counts, drawn in ((mine, 4), (hands[:, 0, :].sum(0).astype(float), 8)):
        expected = left / left.sum() * drawn * deals
        assert counts.sum() == pytest.approx(expected.sum())
        assert chisquare(counts, expected).pvalue > 1e-3
    # the test can fail: a deal that favours low card types is refused
    skewed = expected * (1 + 0.05 * (np.arange(N_TYPES) < 16)) / (1 + 0.025)
    assert chisquare(hands[:, 0, :].sum(0).astype(float), skewed * expected.sum() / skewed.sum()).pvalue < 1e-3


def test_a_simulation_given_the_cards_is_reproducible_and_differs_from_the_fair_one():
    a = simulate(ORD, ["greedy", "greedy"], 3000, 5, threads=2, hold="QS JD", seat=1)
    b = simulate(ORD, ["greedy", "greedy"], 3000, 5, threads=1, hold="QS JD", seat=1)
    fair = simulate(ORD, ["greedy", "greedy"], 3000, 5, threads=2)
    assert np.array_equal(a.tallies.buffer, b.tallies.buffer)
    assert not np.array_equal(a.tallies.buffer, fair.tallies.buffer)


@pytest.mark.parametrize("hold,seat,turn_up,rules,message", [
    ("ZZ", 0, None, ORD, "not a card"),
    ("QS QS QS", 0, None, ORD, "3 copies of QS named; the 64-card pack holds 2"),
    ("QS QS", 0, "QS", ORD, "3 copies of QS named"),
    ("AS AH AD AC TS TH TD TC KS", 0, None, ORD, "9 cards held, more than a hand of 8"),
    (None, 0, "7S", RUB, "no card is turned up in rubicon"),
    ("QS", 2, None, ORD, "there is no seat 2 in a 2-handed game"),
    (None, 1, None, ORD, "--seat says whose cards --hold names"),
])
def test_a_hand_the_rules_cannot_deal_is_refused(hold, seat, turn_up, rules, message):
    with pytest.raises(DealError, match=message):
        parse_given(rules, hold, seat, turn_up)


@pytest.mark.parametrize("args,message", [
    (["simulate", "--hold", "QS QS QS"], "3 copies of QS named"),
    (["odds", "--variant", "rubicon", "--turn-up", "7S"], "no card is turned up in rubicon"),
    (["compare", "greedy", "random", "--hold", "XX"], "not a card: 'XX'"),
    (["report", "--hold", "AS AH AD AC TS TH TD TC KS"], "9 cards held"),
])
def test_the_command_line_says_it_in_one_line(args, message):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1 and message in res.output and "Traceback" not in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1


def test_the_odds_given_the_cards_agree_with_their_exact_values():
    """bezique odds --hold: each dealt row's exact value within the simulated interval (the
    cards are dealt as the exact arithmetic assumes)."""
    res = CliRunner().invoke(main, ["odds", "--hold", "QS JD AH AC", "--hands", "100000", "--seed", "4", "--json"])
    assert res.exit_code == 0, res.output
    import json
    rows = [r for r in json.loads(res.stdout)["odds"] if r["event"].startswith("dealt_")]
    assert len(rows) >= 6 and sum(r["within_ci"] for r in rows) >= len(rows) - 1
    assert next(r for r in rows if r["event"] == "dealt_bezique")["exact_decimal"] == 1.0


def test_a_given_hand_travels_with_its_run():
    import pickle

    from analyzer.run.task import RunTask
    from analyzer.given_deal import given_deal
    with given_deal(GivenDeal((parse_card("QS"),), 1)):
        task = RunTask(print, ORD, 1)
    again = pickle.loads(pickle.dumps(task))
    assert again.given == task.given and np.array_equal(again.rules_array, task.rules_array)
    assert RunTask(print, ORD, 1).given is None
