"""The rulebook's other games (docs/rules.md section 4, V1-V5): each variant's own rule paths,
proved by replays of built deals, and the rule sets that are refused."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from helpers import DONE, ILLEGAL, cards, illegal, run

from analyzer.cards import parse_card
from analyzer.engine.game_kernel import claim_winner, game_winner
from analyzer.engine.layout import MAX_SEATS, P_W
from analyzer.engine.state import add_hand
from analyzer.engine.tricks import legal_play_bits, list_bits
from analyzer.hands.replay_file import HandSpec, ReplayError, parse_move, parse_replay
from analyzer.rules import RuleError, check_whole_rounds, preset


def spec_n(hands: list[str], rules, turn_up: str | None = "9C", talon: str = "", moves=(),
           dealer: int | None = None, game_totals=None) -> HandSpec:
    """A deal for ``len(hands)`` seats (seat 0 the eldest unless ``dealer`` says otherwise): the
    named hands, turn-up and top of the talon; the rest of the talon is every remaining card,
    low plain cards first."""
    n = rules.players
    dealer = n - 1 if dealer is None else dealer
    hs = [cards(h) for h in hands]
    top = cards(talon)
    used = Counter(sum(hs, []) + top + (cards(turn_up) if turn_up else []))
    rest = []
    for t in sorted(range(32), key=lambda t: (-(t % 8), t // 8)):
        rest += [t] * (rules.copies(t) - used.get(t, 0))
    spec = HandSpec(rules, dealer, hs, cards(turn_up)[0] if turn_up else None, top + rest,
                    game_totals=game_totals)
    for i, m in enumerate(moves, start=1):
        row, text = parse_move(m, i, rules)
        spec.moves.append(row)
        spec.move_text.append(text)
    return spec


def events(o, kind):
    return [e for e in o.events if e["event"] == kind]


# --- V1: without a trump ------------------------------------------------------------------

NO_TRUMP = preset("no_trump")
V1_EAST = "AS KH QH QS JD AC AD AH"
V1_WEST = "7C 8C 9C 7D 8D 9D 7H 8H"


def test_V1_no_turn_up_and_the_talon_holds_the_other_48_cards():
    spec = spec_n([V1_EAST, V1_WEST], NO_TRUMP, turn_up=None)
    assert NO_TRUMP.trump == "first_marriage" and not NO_TRUMP.seven_scores
    assert len(spec.talon) == 48 and spec.turn_up is None
    o = run(spec)
    assert not events(o, "turn_up")
    with pytest.raises(ReplayError, match="no turn-up"):
        parse_replay({"rules": "no_trump", "dealer": 1, "hands": [V1_EAST.split(), V1_WEST.split()],
                      "turn_up": "9C", "talon": []})


def test_V1_the_first_marriage_fixes_trumps_and_scores_40():
    o = run(spec_n([V1_EAST, V1_WEST], NO_TRUMP, turn_up=None,
                   moves=["0 plays AS", "1 plays 7C", "0 declares marriage_H KH QH"]))
    assert o.status in (DONE, 1)
    decl = events(o, "declare")
    assert decl[0]["points"] == 40 and events(o, "trumps_fixed")[0]["suit"] == "H"


def test_V1_bezique_and_fours_score_before_trumps_are_fixed():
    o = run(spec_n([V1_EAST, V1_WEST], NO_TRUMP, turn_up=None,
                   moves=["0 plays KH", "1 plays 7C", "0 declares bezique QS JD",
                          "0 plays QH", "1 plays 7H", "0 declares four_aces"]))
    assert [e["points"] for e in events(o, "declare")] == [40, 100]
    assert not events(o, "trumps_fixed")


def test_V1_no_sequence_before_trumps_are_fixed():
    o = run(spec_n(["AH TH KH QH JH AS AC AD", V1_WEST], NO_TRUMP, turn_up=None,
                   moves=["0 plays AS", "1 plays 7C", "0 declares sequence_H"]))
    illegal(o, "Table A")


def test_V1_no_seven_of_trumps_is_scored_or_exchanged():
    o = run(spec_n(["AS KH QH 7H JD AC AD AH", "7C 8C 9C 7D 8D 9D QC 8H"], NO_TRUMP, turn_up=None,
                   moves=["0 plays AS", "1 plays 7C", "0 declares marriage_H KH QH", "0 exchanges 7H"]))
    illegal(o, "R2.9")
    o = run(spec_n(["AS KH QH 7H JD AC AD AH", "7C 8C 9C 7D 8D 9D QC 8H"], NO_TRUMP, turn_up=None,
                   moves=["0 plays AS", "1 plays 7C", "0 declares marriage_H KH QH", "0 plays 7H"]))
    assert not events(o, "seven_played")


# --- V2: panache -----------------------------------------------------------------------------

PANACHE = preset("panache")


def test_V2_a_four_of_four_different_suits_scores():
    o = run(spec_n(["AS KS KH KD KC 9S 9H 9D", "7C 8C 7D 8D 7H 8H 7S 8S"], PANACHE,
                   moves=["0 plays AS", "1 plays 7D", "0 declares four_kings"]))
    assert events(o, "declare")[0]["points"] == 80


def test_V2_panache_fours_with_a_repeated_suit_are_refused():
    hands = ["AS KS KS KH KD 9S 9H 9D", "7C 8C 7D 8D 7H 8H 7S 8S"]
    o = run(spec_n(hands, PANACHE, moves=["0 plays AS", "1 plays 7D", "0 declares four_kings"]))
    illegal(o, "V2")
    assert "one card of each suit" in o.error
    o = run(spec_n(hands, PANACHE, moves=["0 plays AS", "1 plays 7D", "0 declares four_kings KS KS KH KD"]))
    illegal(o, "V2")
    o = run(spec_n(hands, preset("ordinary"), moves=["0 plays AS", "1 plays 7D", "0 declares four_kings"]))
    assert events(o, "declare")[0]["points"] == 80          # the ordinary game takes any suits


# --- V3: limited to a fixed point -------------------------------------------------------------

FIXED = preset("fixed_point")
V3_HANDS = ["AS 9S 9H 9D 8S 8H 8D JS", "7C 7D 7H 7S 8C 9C JC JH"]


@pytest.mark.parametrize("before, right", [(990, True), (980, False)])
def test_V3_a_claim_counts_the_game_total_and_brisques_taken(before, right):
    # seat 0 takes an ace (a brisque, 10 points): 990 + 10 reaches 1000, 980 + 10 does not
    o = run(spec_n(V3_HANDS, FIXED, game_totals=[before, 0],
                   moves=["0 plays AS", "1 plays 7D", "0 claims the game"]))
    assert o.status == DONE
    assert events(o, "game_claim") == [{"event": "game_claim", "seat": 0, "right": right}]
    assert not events(o, "last_trick")             # the hand stops at the claim


def test_V3_a_claim_is_offered_only_once_the_target_is_reached():
    from analyzer.hands.handlog import play_spec
    o = play_spec(spec_n(V3_HANDS, FIXED, game_totals=[990, 0]), policies=["greedy", "greedy"])
    claims = events(o, "game_claim")
    assert claims and claims[0]["right"] and claims[0]["seat"] == 0
    o = play_spec(spec_n(V3_HANDS, FIXED, game_totals=[0, 0]), policies=["greedy", "greedy"])
    assert not events(o, "game_claim")


def test_V3_a_wrong_claim_gives_the_opponent_the_game_and_a_right_one_wins_it():
    assert claim_winner(0 + 4) == 0 and claim_winner(0) == 1
    assert claim_winner(1 + 4) == 1 and claim_winner(1) == 0


def test_V3_claims_only_in_the_fixed_point_game_and_before_a_card():
    o = run(spec_n(V3_HANDS, preset("ordinary"), moves=["0 plays AS", "1 plays 7D", "0 claims the game"]))
    illegal(o, "V3")
    o = run(spec_n(V3_HANDS, FIXED, game_totals=[990, 0], moves=["0 plays AS", "0 claims the game"]))
    illegal(o, "V3")


def test_V3_games_end_at_a_claim():
    from analyzer.studies.play.games import simulate_games
    res = simulate_games(FIXED, ["greedy", "greedy"], 200, 5, threads=1)
    t = res.totals
    assert t.games == 200 and t.claims[0] > 100 and t.claims[1] == 0
    assert t.wins[:2].sum() == 200


# --- V4: three-handed --------------------------------------------------------------------------

THREE = preset("three_handed")


def test_V4_three_handed_is_63_cards_less_one_eight_and_target_2000():
    assert THREE.n_cards == 63 and THREE.copies(parse_card("8C")) == 1 and THREE.target == 2000
    assert preset("three_handed", packs=3).n_cards == 96
    from analyzer.hands.replay_file import dealt_spec
    spec = dealt_spec(THREE, 3, 7)
    counts = Counter(sum(spec.hands, []) + spec.talon + [spec.turn_up])
    assert counts[parse_card("8C")] == 1 and all(counts[t] == 2 for t in range(32) if t != parse_card("8C"))


def test_V4_the_highest_card_of_three_wins_and_identical_cards_go_to_the_first():
    hands = ["AS 9H 9D KS QS JS TS 8S", "AS 7D 7H JH TH KH QH 8H", "TS 7S JD TD KD QD 8D 9S"]
    o = run(spec_n(hands, THREE, moves=["0 plays AS", "1 plays AS", "2 plays TS"]))
    assert events(o, "trick")[0]["seat"] == 0                 # R2.5: the first of two aces
    assert [e["seat"] for e in events(o, "draw")][:3] == [0, 1, 2]   # winner first, then left
    o = run(spec_n(hands, THREE, moves=["0 plays 9H", "1 plays 7H", "2 plays 8D", "0 plays KS",
                                        "1 plays 7D", "2 plays 7S"]))
    assert [e["seat"] for e in events(o, "trick")] == [0, 0]


def test_V4_a_trump_wins_and_play_and_draws_go_left_from_the_winner():
    hands = ["AS 9H 9D KS QS JS TS 8S", "7C 7D 7H JH TH KH QH 8H", "JC 7S JD TD KD QD 8D 9S"]
    o = run(spec_n(hands, THREE, moves=["0 plays AS", "1 plays 7C", "2 plays JC", "2 plays 9S",
                                        "0 plays 8S", "1 plays 8H"]))
    tricks = [e["seat"] for e in events(o, "trick")]
    assert tricks == [2, 2]                                    # JC over 7C; then 9S led
    assert [e["seat"] for e in events(o, "draw")][:3] == [2, 0, 1]


def _stage_two_hand(*card_lists):
    P = np.zeros((MAX_SEATS, P_W), np.int32)
    obs = np.zeros((MAX_SEATS, 2000), np.int32)
    for s, cs in enumerate(card_lists):
        for c in cards(cs):
            add_hand(P, obs, s, c, 1)
    return P


def _legal(P, seat, lead, best, trump="C"):
    """The second-stage legal plays of ``seat`` (sorted card ids) after ``lead``, ``best``
    winning so far."""
    bits = legal_play_bits(P, seat, 2, parse_card(lead), parse_card(best), "SHDC".index(trump))
    out = np.zeros(64, np.int32)
    return sorted(int(a) for a in out[:list_bits(bits, out)])


def test_V4_second_stage_the_third_player_must_overtrump_a_trump_already_played():
    P = _stage_two_hand("", "", "AC 7C KD")
    assert _legal(P, 2, "9S", "JC") == cards("AC")            # void in spades: overtrump JC
    P = _stage_two_hand("", "", "7C KD")
    assert _legal(P, 2, "9S", "JC") == cards("7C")            # cannot overtrump: still trump
    P = _stage_two_hand("", "", "8S 7S AC")
    assert _legal(P, 2, "9S", "JC") == sorted(cards("8S 7S"))  # holds the suit led: follow it
    P = _stage_two_hand("", "", "AS 7S AC")
    assert _legal(P, 2, "9S", "TS") == cards("AS")            # ... and win with it if he can


# --- V5: four-handed partnerships --------------------------------------------------------------

FOUR = preset("four_handed")
V5_HANDS = ["AS 9H 9D 9S 8S 8H 8D JS", "7C 7D 7H 7S 8C 9C JC JH",
            "KH QH TD TH TS TC AD AH", "KD QD 7S 7H 8C 9C QC 8D"]


def test_V5_partners_pool_scores_and_only_the_winner_declares():
    o = run(spec_n(V5_HANDS, FOUR, moves=["0 plays AS", "1 plays 7D", "2 plays TS", "3 plays 7S",
                                          "2 declares marriage_H KH QH"]))
    illegal(o, "R2.6")
    o = run(spec_n(V5_HANDS, FOUR, moves=["0 plays AS", "1 plays 7D", "2 plays TS", "3 plays 7S",
                                          "0 passes to partner"]))
    illegal(o, "V5")


def test_V5_option_the_winner_lets_his_partner_declare():
    rules = preset("four_handed", partner_declares=True)
    o = run(spec_n(V5_HANDS, rules, moves=["0 plays AS", "1 plays 7D", "2 plays TS", "3 plays 7S",
                                           "0 passes to partner", "2 declares marriage_H KH QH"]))
    assert events(o, "partner_declares") == [{"event": "partner_declares", "seat": 0, "partner": 2}]
    assert events(o, "declare")[0]["seat"] == 2
    assert [e["seat"] for e in events(o, "draw")][:4] == [0, 1, 2, 3]     # the winner draws first
    # having passed, the winner may not declare himself: a marriage he holds (so that nothing but
    # R2.6 refuses it), which he may declare when he does not pass
    hands = ["AS KS QS 9S 8S 8H 8D JS"] + V5_HANDS[1:]
    trick = ["0 plays AS", "1 plays 7D", "2 plays TS", "3 plays 7S"]
    o = run(spec_n(hands, rules, moves=trick + ["0 passes to partner", "0 declares marriage_S KS QS"]))
    illegal(o, "R2.6")
    assert not events(o, "declare")
    o = run(spec_n(hands, rules, moves=trick + ["0 declares marriage_S KS QS"]))
    assert o.status != ILLEGAL, o.error
    assert [(e["seat"], e["points"]) for e in events(o, "declare")] == [(0, 20)]


def test_V5_partnership_tallies_pool_the_partners_scores():
    from analyzer import simulate
    res = simulate(FOUR, ["greedy", "random"] * 2, 400, 3, threads=1, keep_records=True)
    from analyzer.run.records import as_structured
    score = as_structured(res.records)["seats"]["score"].astype(int)
    assert list(res.tallies.side_score) == [int(score[:, [0, 2]].sum()), int(score[:, [1, 3]].sum())]
    table = res.tables["partnerships"]
    assert list(table.side) == ["seats 0+2", "seats 1+3"]


def test_V5_four_packs_and_two_packs():
    assert preset("four_handed", packs=4).n_cards == 128
    with pytest.raises(RuleError, match="players=4 and packs=3"):
        preset("four_handed", packs=3)


# --- games and the refused combinations -------------------------------------------------------

def test_R2_24_ties_at_the_target_go_to_the_last_trick_and_the_highest_total_wins():
    assert game_winner(np.array([1000, 1200, 0, 0]), 2, 0) == 1
    assert game_winner(np.array([1200, 1200, 0, 0]), 2, 1) == 1
    assert game_winner(np.array([2000, 2100, 2100, 0]), 3, 0) == 1    # the last trick's side not tied


def test_section_4_the_cards_left_must_split_into_whole_rounds_of_draws():
    check_whole_rounds(63, 3, 8)
    with pytest.raises(RuleError, match="whole rounds of 3 draws"):
        check_whole_rounds(64, 3, 8)


@pytest.mark.parametrize("options, words", [
    ({"players": 3, "fixed_point": True}, ("fixed_point", "players=3")),
    ({"players": 2, "partner_declares": True}, ("partner_declares", "players=2")),
    ({"trump": "first_marriage", "seven_scores": True}, ("trump=first_marriage", "seven_scores")),
    ({"players": 3, "packs": 4}, ("players=3", "packs=4")),
    ({"players": 2, "packs": 4}, ("packs=4", "players=2")),
])
def test_section_4_options_that_do_not_go_together_are_refused_naming_both(options, words):
    with pytest.raises(RuleError) as e:
        preset("ordinary", **options)
    assert all(w in str(e.value) for w in words), str(e.value)


def test_section_4_rubicon_is_two_handed():
    with pytest.raises(RuleError, match="players=3 and the rubicon variant"):
        preset("rubicon", players=3)


def test_R2_24_the_games_module_takes_the_kernel_bins():
    import analyzer.engine.game_kernel as k
    import analyzer.studies.play.games as g
    import analyzer.tables.game_tables as t
    assert (g.AFTER_HANDS, g.DIFF_BINS, g.GAME_HANDS) == (k.AFTER_HANDS, k.DIFF_BINS, k.GAME_HANDS)
    assert (t.AFTER_HANDS, t.DIFF_BINS, t.DIFF_STEP) == (k.AFTER_HANDS, k.DIFF_BINS, k.DIFF_STEP)
    assert g.RECORD_ROWS >= k.GAME_HANDS and g.MAX_SEATS == k.MAX_SEATS
