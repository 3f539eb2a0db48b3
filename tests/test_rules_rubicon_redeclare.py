"""Rule tests for the earlier readings of re-declaring (R3.6), kept as options of the rule set,
with claims (R3.7) and which copies a declaration uses under them. The preset's own reading,
the Portland Club's laws (``redeclare=portland``), is tested in test_rules_rubicon_portland.py.

``redeclare=replace`` (REPLACE): the same combination again needs a card new to the table, and
every earlier scored instance of that combination sharing a copy with the new one must have
lost a card to a trick. ``redeclare=same_or_higher`` (SAME) drops the second condition. Expected
values come from docs/rules.md R3.6/R3.7, never from the program's own output.

Deals: seat 0 is the eldest hand and leads; seat 1 holds LOW1 (no spade or heart), so a spade
or heart led by seat 0 wins the trick; both draw low plain cards (sevens first).
"""
from __future__ import annotations

import pytest
from helpers import events
from rubicon_helpers import DONE, LOW1, REPLACE, SAME, claims, declared, illegal, ok
from rubicon_helpers import make_spec as _make_spec
from rubicon_helpers import play as _play

from analyzer.hands.hand_json import replay_json
from analyzer.hands.handlog import play_spec
from analyzer.hands.replay_file import ReplayError, dealt_spec, parse_replay


def play(hand0, hand1, moves, talon="", rules=REPLACE, **kw):
    """Replay ``moves`` on the deal, under ``redeclare=replace`` unless told."""
    return _play(hand0, hand1, moves, talon, rules=rules, **kw)


def make_spec(hand0, hand1, talon="", moves=(), rules=REPLACE, **kw):
    """A Rubicon deal, under ``redeclare=replace`` unless told."""
    return _make_spec(hand0, hand1, talon, moves, rules=rules, **kw)


def table_cards(o, seat=0):
    """The cards on ``seat``'s table when the replay stopped, sorted."""
    return sorted(o.tables[seat])


# =============================================================================================
# R3.6  Re-declaring: the rule's examples, under REPLACE and under SAME
# =============================================================================================

ACES = "AS AS AH AD AC KH QH 9H 9D"          # five aces and a heart marriage
FOUR_ACES = ["0 plays 9H", "1 plays 7D", "0 declares four_aces AS AH AD AC"]


def test_R3_6_fifth_ace_beside_four_whole_declared_aces_scores_nothing():
    o = illegal(play(ACES, LOW1, FOUR_ACES + ["0 plays 9D", "1 plays 7D",
                                              "0 declares four_aces AS AS AH AD"]), "R3.6")
    assert "still lies whole" in o.error and o.scores == [100, 0]
    # nor with the engine choosing the cards: every ace on the table belongs to the whole four
    illegal(play(ACES, LOW1, FOUR_ACES + ["0 plays 9D", "1 plays 7D", "0 declares four_aces"]), "R3.6")
    # the old reading (SAME) scores it again with the fifth ace
    o = ok(play(ACES, LOW1, FOUR_ACES + ["0 plays 9D", "1 plays 7D", "0 declares four_aces AS AS AH AD"],
                rules=SAME))
    assert declared(o) == [(0, "four_aces", 100), (0, "four_aces", 100)]


def test_R3_6_fifth_ace_cannot_be_claimed_beside_four_whole_declared_aces():
    window = FOUR_ACES + ["0 plays 9D", "1 plays 7D", "0 declares marriage_H KH QH"]
    o = illegal(play(ACES, LOW1, window + ["0 claims AS"]), "R3.7")
    assert "AS belongs to no combination" in o.error
    illegal(play(ACES, LOW1, window + ["0 claims four_aces"]), "R3.7")
    o = ok(play(ACES, LOW1, window + ["0 claims AS"], rules=SAME))
    assert claims(o) == [(0, None, ["AS"])]


def test_R3_6_fifth_ace_scores_once_one_of_the_four_has_been_played():
    o = ok(play(ACES, LOW1, FOUR_ACES + ["0 plays AH from table", "1 plays 7D",
                                        "0 declares four_aces AS AS AD AC"]))
    assert declared(o) == [(0, "four_aces", 100), (0, "four_aces", 100)]
    assert table_cards(o) == ["AC", "AD", "AS", "AS"]
    # the three left and the fifth ace are now a whole four: a sixth would again need one played
    o = ok(play("AS AS AS AH AD AC KH QH 9H", LOW1,
                FOUR_ACES + ["0 plays AH from table", "1 plays 7D", "0 declares four_aces"]))
    o = illegal(play("AS AS AS AH AD AC KH QH 9H", LOW1,
                     FOUR_ACES + ["0 plays AH from table", "1 plays 7D", "0 declares four_aces",
                                  "0 plays 7S", "1 plays 7C", "0 declares four_aces AS AS AD AC"]), "R3.6")


def test_R3_6_four_wholly_new_aces_always_score():
    h0 = "AS AH AD AC AS AH AD AC 9H"
    o = ok(play(h0, LOW1, ["0 plays 9H", "1 plays 7D", "0 declares four_aces AS AH AD AC",
                           "0 plays 7S", "1 plays 7D", "0 declares four_aces AS AH AD AC"]))
    assert declared(o) == [(0, "four_aces", 100), (0, "four_aces", 100)]
    assert table_cards(o) == sorted("AS AH AD AC AS AH AD AC".split())


@pytest.mark.parametrize("rules,first_queen_played,legal", [
    (REPLACE, False, False), (REPLACE, True, True), (SAME, False, True), (SAME, True, True)])
def test_R3_6_married_king_with_a_new_queen(rules, first_queen_played, legal):
    h0 = "AS AD KH QH QH 9D 9S 9S 8D"
    second = ["0 plays QH from table", "1 plays 7C"] if first_queen_played else ["0 plays AD", "1 plays 7C"]
    moves = (["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH"] + second
             + ["0 declares marriage_H KH QH"])
    if not legal:
        o = illegal(play(h0, LOW1, moves, rules=rules), "R3.6")
        assert "the marriage in ♥ was scored before" in o.error and o.scores == [40, 0]
        return
    o = ok(play(h0, LOW1, moves, rules=rules))
    assert declared(o) == [(0, "marriage_H", 40), (0, "marriage_H", 40)] and o.scores == [80, 0]
    # seat 0 held one king of hearts: the second marriage used the king on the table, and
    # the new queen went from the hand to the table
    illegal(play(h0, LOW1, moves + ["0 plays 9S", "1 plays 7C", "0 plays QH"], rules=rules), "R2.4")


@pytest.mark.parametrize("card", ["QS", "JD"])
def test_R3_6_double_bezique_rebuilt_after_one_card_was_played(card):
    h0 = f"QS QS JD JD {card} AC AH 9H 9H"
    first = ["0 plays AC", "1 plays 7D", "0 declares double_bezique QS QS JD JD"]
    o = ok(play(h0, LOW1, first + [f"0 plays {card} from table", "1 plays 7C",
                                   "0 declares double_bezique QS QS JD JD"]))
    assert declared(o) == [(0, "double_bezique", 500), (0, "double_bezique", 500)]
    assert o.scores == [1000, 0]
    # before a card of it is played, the fifth card does not rebuild it
    illegal(play(h0, LOW1, first + ["0 plays AH", "1 plays 7C", "0 declares double_bezique QS QS JD JD"]),
            "R3.6")
    o = ok(play(h0, LOW1, first + ["0 plays AH", "1 plays 7C", "0 declares double_bezique QS QS JD JD"],
                rules=SAME))
    assert o.scores == [1000, 0]


def test_R3_6_bezique_to_double_is_never_held_back():
    # the bézique still lies whole on the table: a higher combination of the class is not the
    # same combination, so the double scores 500 more
    h0 = "QS JD QS JD AC AH 9H 9H 9S"
    o = ok(play(h0, LOW1, ["0 plays AC", "1 plays 7D", "0 declares bezique QS JD",
                           "0 plays AH", "1 plays 7C", "0 declares double_bezique QS QS JD JD"]))
    assert declared(o) == [(0, "bezique", 40), (0, "double_bezique", 500)] and o.scores == [540, 0]
    h0 = "QS QS QS JD JD JD QS JD AC"
    o = ok(play(h0, LOW1, ["0 plays AC", "1 plays 7D", "0 declares treble_bezique QS QS QS JD JD JD",
                           "0 plays 7S", "1 plays 7D",
                           "0 declares quadruple_bezique QS QS QS QS JD JD JD JD"]))
    assert declared(o) == [(0, "treble_bezique", 1500), (0, "quadruple_bezique", 4500)]


def test_R3_6_four_queens_again_after_one_is_played_with_a_fifth_queen():
    # the Portland Club example: four queens, play one, add a fifth queen to the three left
    h0 = "QS QH QD QC QH AS AD 9S 9H"
    o = ok(play(h0, LOW1, ["0 plays AS", "1 plays 7D", "0 declares four_queens QS QH QD QC",
                           "0 plays QS from table", "1 plays 7C",
                           "0 declares four_queens QH QH QD QC"]))
    assert declared(o) == [(0, "four_queens", 60), (0, "four_queens", 60)]
    assert o.scores == [120, 0] and table_cards(o) == sorted("QH QH QD QC".split())


def test_R3_6_messages_say_what_is_barred():
    base = ["0 plays AS", "1 plays 7D", "0 declares four_queens QS QH QD QC", "0 plays AD", "1 plays 7C"]
    # no new card, and the four still whole
    o = illegal(play("QS QH QD QC AS AD 9S 9H 9D", LOW1, base + ["0 declares four_queens QS QH QD QC"]), "R3.6")
    assert "new to the table" in o.error and "still lies whole" in o.error
    # a new card, but the four still whole
    o = illegal(play("QS QH QD QC QH AS AD 9S 9H", LOW1, base + ["0 declares four_queens QS QH QH QC"]), "R3.6")
    assert "still lies whole" in o.error and "new to the table" not in o.error
    # the four broken, but no new card: the three left cannot score it alone
    o = illegal(play("QS QH QD QC AS AD 9S 9H 9D", LOW1,
                     ["0 plays AS", "1 plays 7D", "0 declares four_queens QS QH QD QC",
                      "0 plays QS from table", "1 plays 7C", "0 declares four_queens QH QD QC QH"]), "R2.11")
    assert "does not hold" in o.error
    # an inferior combination of the class
    o = illegal(play("AC AH TH KH QH JH QH 9S 9S", LOW1,
                     ["0 plays AC", "1 plays 7D", "0 declares sequence_H AH TH KH QH JH",
                      "0 plays 9S", "1 plays 7C", "0 declares marriage_H KH QH"]), "R3.6")
    assert "higher combination of its class" in o.error and "inferior" in o.error


def test_R3_6_the_same_marriage_without_a_new_card_is_refused():
    h0 = "AS AD KH QH 9D 9D 9S 9S 8D"
    moves = ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH", "0 plays AD", "1 plays 7C",
             "0 declares marriage_H KH QH"]
    for rules in (REPLACE, SAME):
        o = illegal(play(h0, LOW1, moves, rules=rules), "R3.6")
        assert "new to the table" in o.error and o.scores == [40, 0]


def test_R3_6_plain_marriage_again_scores_20_again():
    h0 = "AS AD AC KH QH KS QS QS 9D"
    o = ok(play(h0, LOW1, ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH",
                           "0 plays AD", "1 plays 7C", "0 declares marriage_S KS QS",
                           "0 plays QS from table", "1 plays 7D", "0 declares marriage_S KS QS"]))
    assert declared(o) == [(0, "marriage_H", 40), (0, "marriage_S", 20), (0, "marriage_S", 20)]
    assert o.scores == [80, 0]


def test_R3_6_sequence_again_with_a_new_card_after_one_is_played():
    h0 = "AC AH TH KH QH JH AH 9S 9S"
    o = ok(play(h0, LOW1, ["0 plays AC", "1 plays 7D", "0 declares sequence_H AH TH KH QH JH",
                           "0 plays AH from table", "1 plays 7C",
                           "0 declares sequence_H AH TH KH QH JH"]))
    assert declared(o) == [(0, "sequence_H", 250), (0, "sequence_H", 250)]


def test_R3_6_sequence_king_and_queen_can_no_longer_be_married():
    h0 = "AC AH TH KH QH JH QH 9S 9S"
    base = ["0 plays AC", "1 plays 7D", "0 declares sequence_H AH TH KH QH JH", "0 plays 9S", "1 plays 7C"]
    o = illegal(play(h0, LOW1, base + ["0 declares marriage_H KH QH"]), "R3.6")
    assert o.scores == [250, 0]
    # a new K♥ and Q♥ from the hand do make a marriage (in trumps: 40)
    o = ok(play("AC AH TH KH QH JH QH KH 9S", LOW1, base + ["0 declares marriage_H KH QH"]))
    assert declared(o) == [(0, "sequence_H", 250), (0, "marriage_H", 40)]


def test_R3_6_never_an_inferior_combination_of_the_same_class():
    base = ["0 plays AC", "1 plays 7D", "0 declares double_bezique QS QS JD JD", "0 plays AH", "1 plays 7C"]
    illegal(play("QS QS JD JD JD AC AH 9H 9H", LOW1, base + ["0 declares bezique QS JD"]), "R3.6")
    # a new Q♠ and a new J♦ from the hand are a bézique of their own
    o = ok(play("QS QS JD JD JD QS AC AH 9H", LOW1, base + ["0 declares bezique QS JD"]))
    assert declared(o) == [(0, "double_bezique", 500), (0, "bezique", 40)]


@pytest.mark.parametrize("combo,cards,points", [
    ("treble_bezique", "QS QS QS JD JD JD", 1500),
    ("quadruple_bezique", "QS QS QS QS JD JD JD JD", 4500),
    ("four_aces", "AS AH AD AC", 100), ("four_kings", "KS KH KD KS", 80),
    ("four_queens", "QS QH QH QH", 60), ("four_knaves", "JS JH JD JC", 40)])
def test_R3_6_table_b_points_of_the_bezique_class_and_fours(combo, cards, points):
    h0 = (cards + " AC" + " 9H" * (8 - len(cards.split()))).strip()
    o = ok(play(h0, LOW1, ["0 plays AC", "1 plays 7D", f"0 declares {combo} {cards}"]))
    assert declared(o) == [(0, combo, points)] and o.scores == [points, 0]
    assert o.trump == -1


def test_R3_6_a_card_may_join_a_combination_of_another_class():
    # the K♥ of the trump marriage in four kings; the Q♠ of a bézique in a spade marriage
    h0 = "AS AD AC KH QH KS KD KC QS"
    h1 = "7D 7D 7C 7C 8D 8D 8C 8C JD"
    o = ok(play(h0, h1, ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH",
                         "0 plays AD", "1 plays 7C", "0 declares four_kings KH KS KD KC",
                         "0 plays AC", "1 plays 8D", "0 declares marriage_S KS QS"]))
    assert declared(o) == [(0, "marriage_H", 40), (0, "four_kings", 80), (0, "marriage_S", 20)]


# =============================================================================================
# Which copies a declaration uses: never one that bars a later declaration
# =============================================================================================

def test_R3_6_R3_7_claimed_card_is_not_spent_when_the_hand_supplies_the_new_card():
    # bézique Q♠ J♦ from the hand; a second J♦ claimed (never scored); the table Q♠ played; a
    # bézique with a new Q♠: the hand Q♠ is the new card, so the J♦ already scored is used and
    # the claimed J♦ stays new, and one trick later the table Q♠ and the claimed J♦ score again
    h0 = "QS JD JD QS AC AH AD 9H 9H"
    moves = ["0 plays AC", "1 plays 7D", "0 declares bezique QS JD", "0 claims JD",
             "0 plays QS from table", "1 plays 7C", "0 declares bezique QS JD",
             "0 plays AH", "1 plays 7D", "0 declares bezique QS JD"]
    o = ok(play(h0, LOW1, moves, rules=SAME))
    assert declared(o) == [(0, "bezique", 40)] * 3 and o.scores == [120, 0]
    # under REPLACE the claim is refused (the bézique lies whole) ...
    illegal(play(h0, LOW1, moves[:4], rules=REPLACE), "R3.7")
    # ... and without it the second bézique uses the J♦ of the broken first one
    o = ok(play(h0, LOW1, moves[:3] + moves[4:7], rules=REPLACE))
    assert declared(o) == [(0, "bezique", 40)] * 2 and table_cards(o) == ["JD", "QS"]


# =============================================================================================
# R3.7  "And - to score": claims, by combination or naming the cards laid
# =============================================================================================

H_CLAIM = "AS AD AC KH QH KS QS 9D 9C"
CLAIM_WINDOW = ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH"]


def test_R3_7_claim_laid_after_scoring_then_scored_after_a_later_trick():
    first = CLAIM_WINDOW + ["0 claims marriage_S"]
    o = ok(play(H_CLAIM, LOW1, first))
    assert claims(o) == [(0, "marriage_S", ["KS", "QS"])] and o.scores == [40, 0]
    o = ok(play(H_CLAIM, LOW1, first + ["0 plays AD", "1 plays 7C", "0 declares marriage_S KS QS"]))
    assert declared(o) == [(0, "marriage_H", 40), (0, "marriage_S", 20)] and o.scores == [60, 0]
    # the claimed cards were laid on the table: no K♠ is left in the hand
    illegal(play(H_CLAIM, LOW1, first + ["0 plays KS"]), "R2.4")
    ok(play(H_CLAIM, LOW1, first + ["0 plays KS from table"]))


def test_R3_7_claim_naming_its_cards():
    o = ok(play(H_CLAIM, LOW1, CLAIM_WINDOW + ["0 claims KS QS"]))
    assert claims(o) == [(0, None, ["KS", "QS"])] and table_cards(o) == sorted("KH QH KS QS".split())
    o = ok(play(H_CLAIM, LOW1, CLAIM_WINDOW + ["0 claims KS QS", "0 plays AD", "1 plays 7C",
                                               "0 declares marriage_S KS QS"]))
    assert declared(o)[-1] == (0, "marriage_S", 20)


def test_R3_7_both_cards_of_a_marriage_may_be_laid_when_one_would_do():
    # K♠ lies on the table from four kings; laying Q♠ alone would form the spade marriage, but
    # the player may lay a second K♠ with it: each card laid belongs to that marriage
    h0 = "AS KS KS KH KD KC QS 9D 9C"
    four = ["0 plays AS", "1 plays 7D", "0 declares four_kings KS KH KD KC"]
    o = ok(play(h0, LOW1, four + ["0 claims QS"]))
    assert claims(o) == [(0, None, ["QS"])]
    o = ok(play(h0, LOW1, four + ["0 claims KS QS"]))
    assert claims(o) == [(0, None, ["KS", "QS"])]
    assert table_cards(o) == sorted("KS KH KD KC KS QS".split())


def test_R3_7_a_second_copy_may_be_laid_for_a_later_re_declaration():
    # K♥ on the table from four kings; both Q♥ laid: each belongs to a heart marriage. The
    # first scores; the second, never scored, marries the K♥ again once the first Q♥ is played
    h0 = "AS AD KS KH KD KC QH QH 9C"
    moves = ["0 plays AS", "1 plays 7D", "0 declares four_kings KS KH KD KC", "0 claims QH QH",
             "0 plays AD", "1 plays 7C", "0 declares marriage_H KH QH"]
    o = ok(play(h0, LOW1, moves))
    assert claims(o) == [(0, None, ["QH", "QH"])]
    illegal(play(h0, LOW1, moves + ["0 plays 9C", "1 plays 7C", "0 declares marriage_H KH QH"]), "R3.6")
    o = ok(play(h0, LOW1, moves + ["0 plays QH from table", "1 plays 7D", "0 declares marriage_H KH QH"]))
    assert declared(o)[1:] == [(0, "marriage_H", 40), (0, "marriage_H", 40)]
    # the queen played was the one already married: the claimed one is still on the table
    assert table_cards(o) == sorted("KS KH KD KC QH".split())


@pytest.mark.parametrize("claim,why", [
    ("9D", "9D belongs to no combination"),              # no combination holds a nine
    ("KS", "KS belongs to no combination"),              # no Q♠ on the table or laid with it
    ("KS KS", "does not hold"),                          # one K♠ in the hand
    ("JD", "does not hold"),
])
def test_R3_7_wrong_claims_are_refused_naming_R3_7(claim, why):
    h0 = "AS AD AC KH QH KS KD 9D 9C"
    o = illegal(play(h0, LOW1, CLAIM_WINDOW + [f"0 claims {claim}"]), "R3.7")
    assert why in o.error


def test_R3_7_no_claim_before_scoring_in_that_window():
    illegal(play(H_CLAIM, LOW1, ["0 plays AS", "1 plays 7D", "0 claims marriage_S"]), "R3.7")
    illegal(play(H_CLAIM, LOW1, ["0 plays AS", "1 plays 7D", "0 claims KS QS"]), "R3.7")


def test_R3_7_only_the_trick_winner_claims():
    # the loser holds the diamond marriage and the window has a score: only the window's
    # being the winner's refuses (R2.6, which R3.3 applies to Rubicon)
    h1 = "KD QD 7C 7C 8D 8D 8C 8C 9C"
    scored = ["0 plays AS", "1 plays 8D", "0 declares marriage_H KH QH"]
    for claim in ("marriage_D", "KD QD"):
        o = illegal(play(H_CLAIM, h1, scored + [f"1 claims {claim}"]), "R2.6")
        assert "seat 1" in o.error and claims(o) == []
    ok(play(H_CLAIM, h1, scored + ["0 claims marriage_S"]))       # the winner may


def test_R3_7_still_one_score_per_trick():
    first = CLAIM_WINDOW + ["0 claims marriage_S"]
    o = illegal(play(H_CLAIM, LOW1, first + ["0 declares marriage_S KS QS"]), "R3.7")
    assert o.scores == [40, 0]
    h0 = "AS AD AC KH QH KS QS KD KC"
    first = CLAIM_WINDOW + ["0 claims marriage_S", "0 claims four_kings"]
    o = ok(play(h0, LOW1, first))
    assert claims(o) == [(0, "marriage_S", ["KS", "QS"]), (0, "four_kings", ["KD", "KC"])]
    illegal(play(h0, LOW1, first + ["0 plays AD", "1 plays 7C", "0 declares four_kings KS KH KD KC",
                                    "0 declares marriage_S KS QS"]), "R3.7")
    o = ok(play(h0, LOW1, first + ["0 plays AD", "1 plays 7C", "0 declares four_kings KS KH KD KC",
                                   "0 plays AC", "1 plays 7D", "0 declares marriage_S KS QS"]))
    assert declared(o) == [(0, "marriage_H", 40), (0, "four_kings", 80), (0, "marriage_S", 20)]


def test_R3_7_claim_scored_after_any_later_trick_he_wins():
    h1 = "TD 7D 7C 7C 8D 8D 8C 8C 9C"
    o = ok(play(H_CLAIM, h1, CLAIM_WINDOW + ["0 claims marriage_S",
                                             "0 plays 9D", "1 plays TD",          # seat 1 wins this one
                                             "1 plays 7C", "0 plays AC",          # seat 0 wins again
                                             "0 declares marriage_S KS QS"]))
    assert [e["seat"] for e in events(o, "trick")] == [0, 1, 0]
    assert declared(o) == [(0, "marriage_H", 40), (0, "marriage_S", 20)]


def test_R3_7_claim_formed_with_table_cards_scores_without_a_card_from_the_hand():
    # K♥ of the marriage on the table + K♠ K♦ K♣ laid from the hand: four kings, scored after
    # the next trick with no card from the hand (another class than the marriage: R2.13)
    h0 = "AS AD KH QH KS KD KC 9D 9C"
    first = CLAIM_WINDOW + ["0 claims four_kings"]
    o = ok(play(h0, LOW1, first))
    assert claims(o) == [(0, "four_kings", ["KS", "KD", "KC"])]
    o = ok(play(h0, LOW1, first + ["0 plays AD", "1 plays 7C", "0 declares four_kings KS KH KD KC"]))
    assert declared(o)[-1] == (0, "four_kings", 80) and o.scores == [120, 0]
    illegal(play(h0, LOW1, first + ["0 plays AD", "1 plays 7C", "0 declares four_kings KS KH KD KC",
                                    "0 plays 9D", "1 plays 7D", "0 declares four_kings KS KH KD KC"]),
            "R3.6")


def test_R3_7_claim_ends_when_one_of_its_cards_is_played():
    # Law 46: the claimed Q♠ played, the K♠ left on the table is no marriage: nothing but
    # the missing queen refuses it (R2.11); the claim is not kept as a thing of its own
    # (docs/rules.md item 17), so another Q♠ held takes the played one's place
    first = CLAIM_WINDOW + ["0 claims marriage_S"]
    again = ["0 plays QS from table", "1 plays 7C", "0 declares marriage_S KS QS"]
    o = illegal(play(H_CLAIM, LOW1, first + again), "R2.11")
    assert "does not hold the marriage in ♠" in o.error and o.scores == [40, 0]
    assert table_cards(o) == ["KH", "KS", "QH"]
    o = ok(play("AS AD AC KH QH KS QS QS 9C", LOW1, first + again))
    assert declared(o)[-1] == (0, "marriage_S", 20) and o.scores == [60, 0]


def test_R3_7_a_claim_needs_cards_from_the_hand():
    # the heart marriage already lies on the table, scored: nothing to lay, nothing to claim
    h0 = "AS AD KH QH 9S 9S 9D 9C 9C"
    illegal(play(h0, LOW1, CLAIM_WINDOW + ["0 claims marriage_H"]), "R3.7")


def test_R3_7_claimed_fifth_ace_scores_four_aces_once_more_in_the_old_reading():
    h0, h1 = "AS AS AH AD AC 7H 7H 7D 7D", "7S 7S 8S 8S 7C 7C 8C 8C 9C"
    first = ["0 plays 7H", "1 plays 7S", "0 declares four_aces AS AS AH AD", "0 claims four_aces",
             "0 plays 7H", "1 plays 7S"]
    o = ok(play(h0, h1, first[:4], rules=SAME))
    assert claims(o) == [(0, "four_aces", ["AC"])]
    illegal(play(h0, h1, first + ["0 declares four_aces AS AS AH AD"], rules=SAME), "R3.6")
    second = first + ["0 declares four_aces AS AH AD AC"]
    o = ok(play(h0, h1, second, rules=SAME))
    assert declared(o) == [(0, "four_aces", 100), (0, "four_aces", 100)]
    illegal(play(h0, h1, second + ["0 plays 7D", "1 plays 7C", "0 declares four_aces AS AH AD AC"],
                 rules=SAME), "R3.6")
    # REPLACE: the claim of the fifth ace beside the whole four is refused
    illegal(play(h0, h1, first[:4]), "R3.7")


def _greedy_five_aces_hand(rules):
    # seat 0 holds five aces and wins the first tricks (seat 1 holds no heart or diamond)
    spec = make_spec("AS AS AH AD AC 7H 7H 7D 7D", "7S 7S 8S 8S 7C 7C 8C 8C 9C",
                     "8H 9S 8D 9S 9H 9C 9D 9C", rules=rules)
    o = play_spec(spec, ["greedy", "greedy"])
    assert o.status == DONE, o.error
    return o


def _four_aces_before_another_ace_is_drawn(o, seat=0):
    out = []
    for e in o.events:
        if e["event"] == "draw" and e["seat"] == seat and e["card"][0] == "A":
            break
        if e["event"] == "declare" and e["seat"] == seat and e["combination"] == "four_aces":
            out.append(sorted(e["cards"]))
    return out


@pytest.mark.parametrize("rules", [REPLACE, SAME])
def test_R3_6_four_aces_from_five_aces_scores_at_most_twice(rules):
    # five aces: the first four aces takes four new cards, the second the fifth ace; then
    # every ace has been in a scored combination and no new one has come (R3.6, R3.7)
    fours = _four_aces_before_another_ace_is_drawn(_greedy_five_aces_hand(rules))
    assert 1 <= len(fours) <= 2, f"four aces scored {len(fours)} times with five aces"


def test_R3_7_greedy_claims_the_fifth_ace_only_in_the_old_reading():
    o = _greedy_five_aces_hand(SAME)
    assert claims(o)[:1] == [(0, "four_aces", ["AC"])]
    fours = _four_aces_before_another_ace_is_drawn(o)
    assert len(fours) == 2 and "AC" in fours[1]      # the claimed ace is the new card
    o = _greedy_five_aces_hand(REPLACE)
    assert all(c[1] != "four_aces" for c in claims(o) if c[0] == 0)


@pytest.mark.parametrize("rules", [REPLACE, SAME])
def test_R3_7_replay_of_a_simulated_hand_reproduces_it(rules):
    # a trace written as a replay file (claims name their cards) replays to the same scores
    for hand in range(6):
        spec = dealt_spec(rules, 11, hand)
        o = play_spec(spec, ["greedy", "hints"], seed=11, hand=hand)
        assert o.status == DONE, o.error
        o2 = play_spec(parse_replay(replay_json(o)))
        assert o2.status == DONE, o2.error
        laid = lambda o: [(seat, cards) for seat, _, cards in claims(o)]   # noqa: E731
        assert o2.scores == o.scores and declared(o2) == declared(o) and laid(o2) == laid(o)


@pytest.mark.parametrize("move,why", [
    ("0 claims KS four_kings", "either its cards or one combination"),
    ("0 claims XX", "neither a card nor a combination"),
    ("0 claims " + " ".join(["KS"] * 13), "at most 12 cards"),
    ("0 claims", "name the cards laid or the combination"),
])
def test_R3_7_malformed_claim_moves_are_one_clear_error(move, why):
    obj = replay_json(play(H_CLAIM, LOW1, CLAIM_WINDOW))
    obj["moves"].append(move)
    with pytest.raises(ReplayError, match=why):
        parse_replay(obj)
