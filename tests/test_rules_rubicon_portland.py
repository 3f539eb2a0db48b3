"""Rule tests for re-declaring (R3.6) and claims (R3.7) as the Portland Club's laws have them:
the Rubicon preset, ``redeclare=portland``.

Each example of R3.6 (docs/rules.md) is played with the move that is accepted and the one that
is refused, and the refusal's message. Expected values come from the rule text and the laws it
cites (Laws 33-39, 43-48), never from the program's own output.

Deals: seat 0 is the eldest hand and leads; seat 1 holds LOW1 (no spade or heart), so a spade or
heart led by seat 0 wins the trick (and an ace of diamonds or clubs beats seat 1's low cards);
both draw low plain cards unless a talon is given.
"""
from __future__ import annotations

import json

import pytest
from helpers import events
from rubicon_helpers import LOW1, REPLACE, RUB, claims, declared, illegal, ok, play

NO_HAND_CARD = 0        # "from_hand" of a declaration made of table cards alone


def from_hand(o):
    """How many hand cards each declaration took."""
    return [e["from_hand"] for e in events(o, "declare")]


def table_cards(o, seat=0):
    """The cards on ``seat``'s table when the replay stopped, sorted."""
    return sorted(o.tables[seat])


def test_the_preset_reads_the_laws():
    assert RUB.redeclare == "portland"


# =============================================================================================
# R3.6 (a): a combination may be formed of table cards alone (Law 39)
# =============================================================================================

KINGS_THEN_BEZIQUE = ["0 plays AS", "1 plays 7D", "0 declares four_kings KS KH KD KC",
                      "0 plays AD", "1 plays 7C", "0 declares bezique QS JD"]


def test_R3_6_a_marriage_of_the_king_of_a_four_and_the_queen_of_a_bezique():
    # the code's own example: four kings including the K♠, then a bézique with a new Q♠: the
    # K♠-Q♠ marriage, all on the table, is his to score on a later trick (here it fixes trumps)
    h0 = "AS AD AC KS KH KD KC QS JD"
    moves = KINGS_THEN_BEZIQUE + ["0 plays AC", "1 plays 8C", "0 declares marriage_S KS QS"]
    o = ok(play(h0, LOW1, moves))
    assert declared(o) == [(0, "four_kings", 80), (0, "bezique", 40), (0, "marriage_S", 40)]
    assert from_hand(o) == [4, 2, NO_HAND_CARD] and o.trump == 0
    # the earlier reading needed a card new to the table
    o = illegal(play(h0, LOW1, moves, rules=REPLACE), "R3.6")
    assert "new to the table" in o.error


def test_R3_6_two_beziques_declared_apart_are_united_as_a_double():
    # Law 38: bézique combinations declared separately may afterwards be united
    h0 = "QS JD QS JD AS AD AC 9H 9H"
    moves = ["0 plays AS", "1 plays 7D", "0 declares bezique QS JD",
             "0 plays AD", "1 plays 7C", "0 declares bezique QS JD",
             "0 plays AC", "1 plays 8C", "0 declares double_bezique QS QS JD JD"]
    o = ok(play(h0, LOW1, moves))
    assert declared(o) == [(0, "bezique", 40), (0, "bezique", 40), (0, "double_bezique", 500)]
    assert from_hand(o) == [2, 2, NO_HAND_CARD] and o.scores == [580, 0]
    illegal(play(h0, LOW1, moves, rules=REPLACE), "R3.6")


def test_R3_6_a_declared_bezique_raised_to_a_double_is_never_held_back():
    h0 = "QS JD QS JD AC AH 9H 9H 9S"
    o = ok(play(h0, LOW1, ["0 plays AC", "1 plays 7D", "0 declares bezique QS JD",
                           "0 plays AH", "1 plays 7C", "0 declares double_bezique QS QS JD JD"]))
    assert declared(o) == [(0, "bezique", 40), (0, "double_bezique", 500)] and o.scores == [540, 0]


# =============================================================================================
# R3.6 (c): the same combination over again is a restoration (Law 34)
# =============================================================================================

FOUR_QUEENS = ["0 plays AS", "1 plays 7D", "0 declares four_queens QS QH QD QC"]


def test_R3_6_four_queens_again_with_a_fifth_queen_from_the_hand_after_one_is_played():
    # the seed's example: one of the four played, a fifth queen with the three left
    h0 = "QS QH QD QC QH AS AD 9S 9H"
    again = ["0 declares four_queens QH QH QD QC"]
    o = ok(play(h0, LOW1, FOUR_QUEENS + ["0 plays QS from table", "1 plays 7C"] + again))
    assert declared(o) == [(0, "four_queens", 60)] * 2 and o.scores == [120, 0]
    assert table_cards(o) == sorted("QH QH QD QC".split()) and from_hand(o) == [4, 1]
    # refused while the four lies whole: nothing has been played from it
    o = illegal(play(h0, LOW1, FOUR_QUEENS + ["0 plays AD", "1 plays 7C"] + again), "R3.6")
    assert "four queens was scored before with a card of this one, and no card has been played from the earlier one" in o.error and o.scores == [60, 0]


def test_R3_6_the_fifth_queen_may_come_from_a_marriage_on_the_table():
    # the substitute may have scored in another class: the Q♥ of a marriage joins the three
    # queens left of the four, and the restoration is spent on it
    h0 = "QS QH QD QC AS AD AC KH 9S"
    talon = "QH 7H"                           # seat 0 draws a second Q♥ after the first trick
    moves = FOUR_QUEENS + ["0 plays QH from table", "1 plays 7C", "0 declares marriage_H KH QH",
                           "0 plays AD", "1 plays 7C", "0 declares four_queens QS QH QD QC"]
    o = ok(play(h0, LOW1, moves, talon=talon))
    assert declared(o) == [(0, "four_queens", 60), (0, "marriage_H", 40), (0, "four_queens", 60)]
    assert from_hand(o) == [4, 2, NO_HAND_CARD] and o.scores == [160, 0]
    # the earlier reading refused a substitute that had scored (no card new to the table)
    illegal(play(h0, LOW1, moves, talon=talon, rules=REPLACE), "R3.6")
    # with no queen played from the four there is no restoration: the marriage takes the Q♥ of
    # the four, and the four is the same four again
    moves = FOUR_QUEENS + ["0 plays 9S", "1 plays 7C", "0 declares marriage_H KH QH",
                           "0 plays AD", "1 plays 7C", "0 declares four_queens QS QH QD QC"]
    o = illegal(play(h0, LOW1, moves, talon=talon), "R3.6")
    assert "four queens was scored before with a card of this one, and no card has been played from the earlier one" in o.error


def test_R3_6_a_fifth_queen_beside_four_whole_declared_queens_scores_nothing():
    h0 = "QS QH QD QC QH AS AD 9S 9H"
    o = illegal(play(h0, LOW1, FOUR_QUEENS + ["0 plays AD", "1 plays 7C", "0 declares four_queens"]), "R3.6")
    assert "four queens was scored before with a card of this one, and no card has been played from the earlier one" in o.error
    # nor may the fifth queen be laid for it as a claim (R3.7): it could not score
    window = FOUR_QUEENS + ["0 plays AD", "1 plays 7C", "0 declares marriage_H KH QH"]
    o = illegal(play("QS QH QD QC QH AS AD KH QH", LOW1, window + ["0 claims QH"]), "R3.7")
    assert "QH belongs to no combination" in o.error


def test_R3_6_one_restoration_per_card_played_and_one_spent_per_declaration():
    # two queens of the four played: still one restoration (the second came from a four no
    # longer whole); one four queens again, then no more
    h0 = "QS QH QD QC QS QH AS AD AC"
    base = FOUR_QUEENS + ["0 plays QS from table", "1 plays 7C", "0 plays QH from table", "1 plays 8C"]
    first = base + ["0 declares four_queens QS QH QD QC"]
    o = ok(play(h0, LOW1, first))
    assert declared(o) == [(0, "four_queens", 60)] * 2 and from_hand(o) == [4, 2]
    o = illegal(play(h0, LOW1, first + ["0 plays AD", "1 plays 7C", "0 declares four_queens"]), "R3.6")
    assert "four queens was scored before with a card of this one, and no card has been played from the earlier one" in o.error


def test_R3_6_a_card_of_two_whole_combinations_restores_each():
    # the K♠ of a whole four kings and of a whole spade marriage: played, it gives one
    # restoration of each, and a second K♠ then scores both again, one per trick
    h0 = "KS QS KH KD KC KS AH AD AC"
    moves = ["0 plays AH", "1 plays 7D", "0 declares marriage_S KS QS",
             "0 plays AD", "1 plays 7C", "0 declares four_kings KS KH KD KC",
             "0 plays KS from table", "1 plays 7C", "0 declares marriage_S KS QS",
             "0 plays AC", "1 plays 8C", "0 declares four_kings KS KH KD KC"]
    o = ok(play(h0, LOW1, moves))
    assert [d[1] for d in declared(o)] == ["marriage_S", "four_kings"] * 2
    assert from_hand(o) == [2, 3, 1, NO_HAND_CARD] and o.scores == [40 + 80 + 40 + 80, 0]


def test_R3_6_two_marriages_of_a_suit_law_35():
    # K♥¹Q♥¹ and K♥²Q♥² declared; Q♥¹ played: K♥¹ with Q♥² scores a marriage; after K♥¹ is
    # played as well, K♥²Q♥² cannot score again: that set of cards has scored (d)
    h0 = "KH QH KH QH AS AD AC 9S 9S"
    two = ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH",
           "0 plays AD", "1 plays 7C", "0 declares marriage_H KH QH"]
    third = two + ["0 plays QH from table", "1 plays 7C", "0 declares marriage_H KH QH"]
    o = ok(play(h0, LOW1, third))
    assert declared(o) == [(0, "marriage_H", 40)] * 3 and from_hand(o) == [2, 2, NO_HAND_CARD]
    assert table_cards(o) == ["KH", "KH", "QH"]
    o = illegal(play(h0, LOW1, third + ["0 plays KH from table", "1 plays 8D", "0 declares marriage_H KH QH"]),
                "R3.6")
    assert "this set of cards has scored the marriage in ♥ already" in o.error and o.scores == [120, 0]
    # before a card of either is played, no third marriage
    o = illegal(play(h0, LOW1, two + ["0 plays AC", "1 plays 8C", "0 declares marriage_H KH QH"]), "R3.6")
    assert "the marriage in ♥ was scored before with a card of this one, and no card has been played from the earlier one" in o.error


@pytest.mark.parametrize("card", ["QS", "JD"])
def test_R3_6_double_bezique_rebuilt_with_a_substitute_after_one_card_was_played(card):
    # Law 38: béziques may form equal combinations again with a substituted card
    h0 = f"QS QS JD JD {card} AC AH 9H 9H"
    first = ["0 plays AC", "1 plays 7D", "0 declares double_bezique QS QS JD JD"]
    o = ok(play(h0, LOW1, first + [f"0 plays {card} from table", "1 plays 7C",
                                   "0 declares double_bezique QS QS JD JD"]))
    assert declared(o) == [(0, "double_bezique", 500)] * 2 and o.scores == [1000, 0]
    o = illegal(play(h0, LOW1, first + ["0 plays AH", "1 plays 7C", "0 declares double_bezique QS QS JD JD"]),
                "R3.6")
    assert "double bézique was scored before with a card of this one, and no card has been played from the earlier one" in o.error


def test_R3_6_four_wholly_new_aces_need_no_restoration():
    h0 = "AS AH AD AC AS AH AD AC 9H"
    o = ok(play(h0, LOW1, ["0 plays 9H", "1 plays 7D", "0 declares four_aces AS AH AD AC",
                           "0 plays 7S", "1 plays 7D", "0 declares four_aces AS AH AD AC"]))
    assert declared(o) == [(0, "four_aces", 100)] * 2 and from_hand(o) == [4, 4]


# =============================================================================================
# R3.6 (b): never an inferior combination of the class (Laws 37, 38)
# =============================================================================================

SEQUENCE = ["0 plays AC", "1 plays 7D", "0 declares sequence_H AH TH KH QH JH", "0 plays 9S", "1 plays 7C"]


def test_R3_6_the_king_and_queen_of_a_sequence_are_never_married_again():
    o = illegal(play("AC AH TH KH QH JH 9S 9S 9D", LOW1, SEQUENCE + ["0 declares marriage_H KH QH"]), "R3.6")
    assert "higher combination of its class" in o.error and o.scores == [250, 0]
    # Law 37: a fresh king and queen of the suit may be
    o = ok(play("AC AH TH KH QH JH QH KH 9S", LOW1, SEQUENCE + ["0 declares marriage_H KH QH"]))
    assert declared(o) == [(0, "sequence_H", 250), (0, "marriage_H", 40)]


def test_R3_6_a_double_bezique_never_forms_a_single_again_but_forms_a_treble():
    base = ["0 plays AC", "1 plays 7D", "0 declares double_bezique QS QS JD JD", "0 plays AH", "1 plays 7C"]
    o = illegal(play("QS QS JD JD AC AH 9H 9H 9S", LOW1, base + ["0 declares bezique QS JD"]), "R3.6")
    assert "inferior" in o.error
    o = ok(play("QS QS JD JD QS JD AC AH 9H", LOW1, base + ["0 declares treble_bezique QS QS QS JD JD JD"]))
    assert declared(o) == [(0, "double_bezique", 500), (0, "treble_bezique", 1500)] and from_hand(o) == [4, 2]


# =============================================================================================
# R3.7: "and - to score" (Laws 43-48)
# =============================================================================================

def test_R3_7_a_card_laid_to_form_a_marriage_with_a_table_king():
    # the K♠ lies on the table from four kings: the Q♠ laid beside it forms the marriage, which
    # is scored on a later trick from table cards alone
    h0 = "AS AD AC KS KH KD KC QS 9D"
    window = ["0 plays AS", "1 plays 7D", "0 declares four_kings KS KH KD KC"]
    o = ok(play(h0, LOW1, window + ["0 claims QS", "0 plays AD", "1 plays 7C", "0 declares marriage_S KS QS"]))
    assert claims(o) == [(0, None, ["QS"])] and declared(o)[-1] == (0, "marriage_S", 40)
    assert from_hand(o) == [4, NO_HAND_CARD]
    # the claim may also name the combination: the engine lays the cards it needs
    o = ok(play(h0, LOW1, window + ["0 claims marriage_S"]))
    assert claims(o) == [(0, "marriage_S", ["QS"])]


def test_R3_7_a_claimed_combination_is_lost_when_a_card_of_it_is_played():
    # Law 46
    h0 = "AS AD AC KH QH KS QS 9D 9C"
    claimed = ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH", "0 claims KS QS"]
    o = ok(play(h0, LOW1, claimed + ["0 plays AD", "1 plays 7C", "0 declares marriage_S KS QS"]))
    assert declared(o)[-1] == (0, "marriage_S", 20)
    o = illegal(play(h0, LOW1, claimed + ["0 plays QS from table", "1 plays 7C", "0 declares marriage_S KS QS"]),
                "R2.11")
    assert "does not hold" in o.error


def test_R3_7_a_claimed_marriage_is_lost_once_its_cards_score_a_sequence():
    # Law 47: a marriage to score, extended to a sequence and the sequence scored
    h0 = "AH AD AC KH QH KS QS AS JS"
    moves = ["0 plays AH", "1 plays 7D", "0 declares marriage_H KH QH", "0 claims KS QS",
             "0 plays AD", "1 plays 7C", "0 declares sequence_S AS TS KS QS JS"]
    o = ok(play(h0, LOW1, moves, talon="TS"))
    assert declared(o) == [(0, "marriage_H", 40), (0, "sequence_S", 150)] and from_hand(o) == [2, 3]
    o = illegal(play(h0, LOW1, moves + ["0 plays AC", "1 plays 8C", "0 declares marriage_S KS QS"], talon="TS"),
                "R3.6")
    assert "inferior" in o.error


def test_R3_7_claims_lay_only_cards_of_a_combination_that_could_score():
    h0 = "AS AD AC KH QH KS KD 9D 9C"
    window = ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH"]
    for claim, why in [("9D", "9D belongs to no combination"), ("KS", "KS belongs to no combination"),
                       ("KS KS", "does not hold")]:
        o = illegal(play(h0, LOW1, window + [f"0 claims {claim}"]), "R3.7")
        assert why in o.error
    # nothing to lay: the marriage's cards are all on the table already
    illegal(play(h0, LOW1, window + ["0 claims marriage_H"]), "R3.7")


# =============================================================================================
# Bad input: a refused declaration or claim in a replay file is one line, exit 2
# =============================================================================================

@pytest.mark.parametrize("move,rule,says", [
    ("0 declares four_queens", "R3.6", "four queens was scored before with a card of this one, and no card has been played from the earlier one"),
    ("0 declares marriage_H KH QH", "R2.11", "seat 0 does not hold the marriage in ♥"),
    ("0 claims 9S", "R3.7", "9S belongs to no combination"),
])
def test_R3_6_R3_7_a_refused_move_in_a_replay_file_is_one_line_naming_the_rule(tmp_path, move, rule, says):
    from click.testing import CliRunner

    from analyzer.cli import main
    from analyzer.hands.hand_json import replay_json

    window = FOUR_QUEENS + ["0 plays AD", "1 plays 7C"]
    if "claims" in move:
        window.append("0 declares bezique QS JD")
    obj = replay_json(ok(play("QS QH QD QC QH AS AD JD 9S", LOW1, window)))
    obj["moves"].append(move)
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(obj))
    res = CliRunner().invoke(main, ["replay", str(path)])
    errors = res.stderr.strip().splitlines()         # the hand up to the move is on stdout
    assert res.exit_code == 2 and len(errors) == 1, res.output
    assert errors[0].startswith(f"Error: move {len(obj['moves'])}: ") and says in errors[0]
    assert errors[0].endswith(f"({rule})") and "Traceback" not in res.output


def test_R3_6_declarations_of_table_cards_alone_are_counted_as_the_traces_show_them():
    # the record's count (the declarations table's last row) against the traces of the same hands
    from analyzer import simulate
    from analyzer.hands.handlog import play_spec
    from analyzer.hands.replay_file import dealt_spec
    from analyzer.tables.stats import TABLE_ONLY

    hands, seed = 200, 4
    res = simulate(RUB, ["greedy", "hints"], hands, seed, threads=1)
    seen = [0, 0]
    for h in range(hands):
        o = play_spec(dealt_spec(RUB, seed, h), ["greedy", "hints"], seed=seed, hand=h)
        for e in events(o, "declare"):
            seen[e["seat"]] += e["from_hand"] == NO_HAND_CARD
    assert list(res.tallies.table_declarations) == seen and sum(seen) > 20
    assert list(res.tables["declarations"].loc[TABLE_ONLY]) == pytest.approx([n / hands for n in seen])
