"""Rule tests for the ordinary two-handed game: docs/rules.md sections 1 and 2 (R1.1-R2.25).

Every expected value below is derived from the text of docs/rules.md (and the rulebook in
shared/seeds/000_*), not from the program's output. Long hands are built with a small
independent model of the play (``Deal``): it applies R2.5 (who wins a trick), R2.8 (who
draws which card) and R2.20 (legal second-stage plays) in plain Python, produces the
move list, and checks that the engine saw the same draws and trick winners.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import model
import pytest
from helpers import DONE, INCOMPLETE, events, illegal, run
from helpers import make_spec as _make_spec
from model import beats, legal_follows

from analyzer.cards import card_str, parse_card
from analyzer.hands.hand_json import replay_json
from analyzer.hands.handlog import play_spec
from analyzer.hands.log_text import format_log
from analyzer.hands.replay_file import ReplayError, RuleViolation, dealt_spec, load_replay, parse_replay
from analyzer.rules import RuleError, preset

REPLAYS = Path(__file__).parent / "replays"
RANKS = "ATKQJ987"
SUITS = "SHDC"

# Table A, by combination name (a marriage or sequence in trumps is "royal").
TABLE_A = {"bezique": 40, "double_bezique": 500, "treble_bezique": 1500,
           "four_knaves": 40, "four_queens": 60, "four_kings": 80, "four_aces": 100}


def make_spec(*args, **kw):
    """helpers.make_spec, refusing a deal that is not whole packs (a test-setup error)."""
    spec = _make_spec(*args, **kw)
    deck = Counter(int(c) for c in spec.deck())
    wrong = [f"{card_str(t)}x{deck[t]}" for t in range(32) if deck[t] != spec.rules.packs]
    assert not wrong, f"test setup: not whole packs: {wrong}"
    return spec


def outcome_ok(o) -> None:
    assert o.status in (DONE, INCOMPLETE), o.error


# --- the independent model of the play (tests/model.py) ----------------------------------

def Deal(hand0: str = "", hand1: str = "", turn_up: str = "9C", talon: str = "", dealer: int = 1,
         rules=None, filler_order=None, spec=None) -> model.Deal:
    """The shared model on a deal built here (or on ``spec``)."""
    return model.Deal(spec or make_spec(hand0, hand1, turn_up, talon, dealer=dealer, rules=rules,
                                        filler_order=filler_order))


def first_stage(keep=("", ""), want=("win", "lose"), **kw) -> Deal:
    """A deal played to the last first-stage trick (its draws not yet made)."""
    d = Deal(**kw)
    d.auto(keep=keep, want=want)
    assert len(d.stock) == 2 and d.pending
    return d


def after_stage(o, kind):
    """Events of ``kind`` after the second_stage event."""
    i = next(i for i, e in enumerate(o.events) if e["event"] == "second_stage")
    return [e for e in o.events[i:] if e["event"] == kind]


# Hands used by many tests: seat 1 only holds low plain cards (no A, 10 or trump).
LOW1 = "7D 7D 7H 7H 8C 8C QD QD"
LOWB = "7D 7D 7H 7H 9S 9S 8H 8H"


# --- 1. Cards ------------------------------------------------------------------------

PAIRS = [(RANKS[i], RANKS[i + 1]) for i in range(7)]


@pytest.mark.parametrize("hi,lo", PAIRS)
@pytest.mark.parametrize("suit", ["S", "C"])          # a plain suit and trumps (9C turned up)
def test_R1_1_card_order_in_a_trick(hi, lo, suit):
    h0 = f"{lo}{suit} 8H 8H 9H 9H 8D 8D 9D"
    h1 = f"{hi}{suit} 7H 7H 7D 7D JH JH JD"
    if "9C" in (f"{lo}{suit}", f"{hi}{suit}"):
        turn_up = "TC" if "TC" not in (f"{lo}{suit}", f"{hi}{suit}") else "KC"
    else:
        turn_up = "9C"
    # the lower card led, the higher follows: the follower wins
    o = run(make_spec(h0, h1, turn_up, moves=[f"0 plays {lo}{suit}", f"1 plays {hi}{suit}"]))
    outcome_ok(o)
    assert events(o, "trick")[0]["seat"] == 1
    # the higher card led, the lower follows: the leader keeps it
    o = run(make_spec(h1, h0, turn_up, moves=[f"0 plays {hi}{suit}", f"1 plays {lo}{suit}"]))
    outcome_ok(o)
    assert events(o, "trick")[0]["seat"] == 0


def test_R1_1_thirty_two_cards_per_pack_eight_ranks_four_suits():
    ids = {parse_card(r + s) for r in RANKS for s in SUITS}
    assert len(ids) == 32
    deck = Counter(int(c) for c in dealt_spec(preset("ordinary"), 5, 0).deck())
    assert set(deck) == ids


@pytest.mark.parametrize("packs,n", [(2, 64), (3, 96)])
def test_R1_2_deck_composition(packs, n):
    rules = preset("ordinary", packs=packs)
    assert rules.n_cards == n
    for seed in (1, 2):
        spec = dealt_spec(rules, seed, 0)
        deck = Counter(int(c) for c in spec.deck())
        assert len(spec.deck()) == n
        assert all(deck[t] == packs for t in range(32))
    o = play_spec(dealt_spec(rules, 3, 0), ["random", "random"])
    assert o.status == DONE
    played = Counter(e["card"] for e in events(o, "play"))
    assert sum(played.values()) == n
    assert all(v == packs for v in played.values()) and len(played) == 32


def test_R1_2_replay_with_wrong_card_counts_is_rejected():
    d = Deal("AS 8H 8H 9H 9H 8D 8D 9D", LOW1)
    obj = replay_json(run(d.spec([])))
    obj["talon"] = obj["talon"].replace("7S", "AS", 1)     # now three AS and one 7S
    with pytest.raises(ReplayError):
        parse_replay(obj)


def test_R1_3_notation_round_trip_and_ten_is_T():
    for r in RANKS:
        for s in SUITS:
            assert card_str(parse_card(r + s)) == r + s
    assert parse_card("TD") == parse_card("10D")
    assert parse_card("QS") == parse_card("Q♠")
    # TD is the ten (a brisque, R2.22) and beats the king of diamonds (R1.1)
    o = run(make_spec("KD 8H 8H 9H 9H 8S 8S 9S", "TD 7H 7H 7S 7S JH JH JS", "9C",
                      moves=["0 plays KD", "1 plays TD"]))
    trick = events(o, "trick")[0]
    assert trick["seat"] == 1 and trick["brisques"] == 1
    # QS and JD are the bézique cards
    o = run(make_spec("AS QS JD 8H 9H 8D 9D 9S", LOW1, "9C",
                      moves=["0 plays AS", "1 plays 7D", "0 declares bezique QS JD"]))
    outcome_ok(o)
    assert events(o, "declare")[0]["points"] == 40
    assert "Q♠" in format_log(o, symbols=True)


@pytest.mark.parametrize("bad", ["1S", "QX", "AS5", "KK"])
def test_R1_3_bad_card_text_is_a_replay_error(bad):
    obj = replay_json(run(make_spec("AS 8H 8H 9H 9H 8D 8D 9D", LOW1)))
    obj["moves"] = [f"0 plays {bad}"]
    with pytest.raises(ReplayError):
        parse_replay(obj)
    obj = replay_json(run(make_spec("AS 8H 8H 9H 9H 8D 8D 9D", LOW1)))
    obj["turn_up"] = bad
    with pytest.raises(ReplayError):
        parse_replay(obj)


# --- R2.1 deal ------------------------------------------------------------------------

@pytest.mark.parametrize("size,tricks1", [(8, 24), (9, 23), (10, 22)])
def test_R2_1_deal_size_and_first_stage_length(size, tricks1):
    rules = preset("ordinary", hand_size=size) if size != 8 else preset("ordinary")
    spec = dealt_spec(rules, 11, 0)
    assert [len(h) for h in spec.hands] == [size, size]
    o = play_spec(spec, ["random", "random"])
    assert o.status == DONE
    i = next(i for i, e in enumerate(o.events) if e["event"] == "second_stage")
    assert sum(1 for e in o.events[:i] if e["event"] == "trick") == tricks1
    assert len(events(o, "trick")) == 32
    # the turn-up (or the seven exchanged for it, R2.9) is the last card drawn
    last = card_str(spec.turn_up) if not events(o, "exchange") else "7" + card_str(spec.turn_up)[1]
    assert events(o, "draw")[-1]["card"] == last


def test_R2_1_bad_hand_size_is_rejected():
    with pytest.raises(RuleError):
        preset("ordinary", hand_size=7)
    with pytest.raises(RuleError):
        preset("ordinary", hand_size=11)
    obj = replay_json(run(make_spec("AS 8H 8H 9H 9H 8D 8D 9D", LOW1)))
    obj["rules"] = {"variant": "ordinary", "hand_size": 9}
    with pytest.raises(ReplayError):          # 8-card hands in a 9-card game
        parse_replay(obj)


@pytest.mark.parametrize("turn_up", ["9H", "8S", "TD"])
def test_R2_1_turn_up_suit_is_trumps(turn_up):
    t = turn_up[1]
    lead = "AS" if t != "S" else "AH"
    low = "7" + t
    h0 = f"{lead} 8H 8H 9H 8D 8D 9D 9S".replace(turn_up, "JC")
    h1 = f"{low} 7C 7C JC QC QC KC KC"
    o = run(make_spec(h0, h1, turn_up, moves=[f"0 plays {lead}", f"1 plays {low}"]))
    outcome_ok(o)
    assert events(o, "turn_up")[0]["card"] == turn_up
    assert o.trump == SUITS.index(t)
    assert events(o, "trick")[0]["seat"] == 1          # the seven of trumps takes the ace


# --- R2.2 turned-up seven -----------------------------------------------------------

@pytest.mark.parametrize("dealer", [0, 1])
@pytest.mark.parametrize("turn_up", ["7C", "7H"])
def test_R2_2_turned_up_seven_scores_10_for_dealer(dealer, turn_up):
    o = run(make_spec("AS 8H 8H 9H 9H 8D 8D 9D", "KS 7D 7D 8S 9S 8S 9S JS", turn_up, dealer=dealer))
    assert o.status == INCOMPLETE
    assert o.scores[dealer] == 10 and o.scores[1 - dealer] == 0
    ev = events(o, "turn_up_seven")
    assert len(ev) == 1 and ev[0]["seat"] == dealer and ev[0]["points"] == 10


def test_R2_2_other_turn_up_scores_nothing():
    o = run(make_spec("AS 8H 8H 9H 9H 8D 8D 9D", "KS 7D 7D 8S 9S 8S 9S JS", "8C"))
    assert o.scores == [0, 0] and not events(o, "turn_up_seven")


# --- R2.3 who leads ------------------------------------------------------------------

def test_R2_3_eldest_hand_leads_first_trick():
    h0, h1 = "AS 8H 8H 9H 9H 8D 8D 9D", "KS 7D 7D 8S 9S 8S 9S JS"
    illegal(run(make_spec(h0, h1, moves=["1 plays KS"], dealer=1)), "R2.3")
    outcome_ok(run(make_spec(h0, h1, moves=["0 plays AS"], dealer=1)))
    # seat 0 deals: seat 1 is eldest
    illegal(run(make_spec(h0, h1, moves=["0 plays AS"], dealer=0)), "R2.3")
    o = run(make_spec(h0, h1, moves=["1 plays KS", "0 plays AS"], dealer=0))
    outcome_ok(o)
    assert events(o, "trick")[0]["seat"] == 0


def test_R2_3_winner_of_a_trick_leads_the_next():
    h0, h1 = "KS 8H 8H 9H 9H 8D 8D 9D", "AS 7D 7D 8S 9S 8S 9S JS"
    base = ["0 plays KS", "1 plays AS"]                      # seat 1 (second) wins
    illegal(run(make_spec(h0, h1, moves=base + ["0 plays 8H"])), "R2.3")
    o = run(make_spec(h0, h1, moves=base + ["1 plays 7D", "0 plays 8H"]))
    outcome_ok(o)
    assert [e["seat"] for e in events(o, "trick")] == [1, 1]


# --- R2.4 no duty to follow in the first stage ---------------------------------------

def test_R2_4_no_duty_to_follow_trump_or_win_in_first_stage():
    h0 = "KS 8H 8H 9H 9H 8D 8D 9D"
    h1 = "AS 7S AC 7D 9S 8S JC 8C"       # holds spades, a higher spade and trumps
    for follow in ("7D", "7S", "8C"):     # renounce / under-play / trump: all legal
        o = run(make_spec(h0, h1, moves=["0 plays KS", f"1 plays {follow}"]))
        outcome_ok(o)
    o = run(make_spec(h0, h1, moves=["0 plays KS", "1 plays 7D"]))
    assert events(o, "trick")[0]["seat"] == 0


# --- R2.5 who wins a trick -----------------------------------------------------------

@pytest.mark.parametrize("lead,follow,winner", [
    ("AS", "7C", 1),    # any trump beats a plain card
    ("7C", "AS", 0),    # a plain ace does not beat a led trump
    ("8C", "9C", 1),    # higher trump
    ("KS", "AS", 1),    # highest of the suit led
    ("KS", "AH", 0),    # a higher card of another plain suit does not win
    ("AS", "AS", 0),    # identical cards: the first played wins
    ("TC", "TC", 0),    # identical trumps: the first played wins
    ("7H", "8D", 0),
])
def test_R2_5_trick_winner(lead, follow, winner):
    h0 = f"{lead} 8H 9H 9H 8D 9D JD QD"
    h1 = f"{follow} 7D 7D 7H KH QH JH 9S"
    o = run(make_spec(h0, h1, "9C", moves=[f"0 plays {lead}", f"1 plays {follow}"]))
    outcome_ok(o)
    assert events(o, "trick")[0]["seat"] == winner


# --- R2.6 only the winner declares, one combination ----------------------------------

H0_DECL = "AS AS KH QH QS JD KS 8H"


def test_R2_6_winner_declares_before_drawing():
    o = run(make_spec(H0_DECL, LOW1, moves=["0 plays AS", "1 plays 7D",
                                            "0 declares marriage_H KH QH"]))
    outcome_ok(o)
    kinds = [e["event"] for e in o.events if e["event"] in ("trick", "declare", "draw")]
    assert kinds == ["trick", "declare", "draw", "draw"]
    assert o.scores == [20, 0]


def test_R2_6_second_player_winning_may_declare():
    o = run(make_spec("7D 7D 8D 8D 9H 9H 8H 8H", "AS KH QH 9D 9S 8S 8S JS",
                      moves=["0 plays 8D", "1 plays 9D", "1 declares marriage_H KH QH"]))
    outcome_ok(o)
    assert events(o, "trick")[0]["seat"] == 1
    assert o.scores == [0, 20]


def test_R2_6_loser_may_not_declare():
    # the loser holds the diamond marriage and the seven of trumps (clubs, the turn-up 9C is
    # no seven, nobody has exchanged): only R2.6 stands in the way of either move
    h1 = "KD QD 7D 8D 9D 7C 7H 7H"
    o = run(make_spec(H0_DECL, h1, moves=["0 plays AS", "1 plays 7D", "1 declares marriage_D KD QD"]))
    illegal(o, "R2.6")
    assert o.scores == [0, 0]
    o = run(make_spec(H0_DECL, h1, moves=["0 plays AS", "1 plays 7D", "1 exchanges 7C"]))
    illegal(o, "R2.6")
    assert o.scores == [0, 0]


def test_R2_6_no_declaration_before_a_trick_is_won():
    illegal(run(make_spec(H0_DECL, LOW1, moves=["0 declares marriage_H KH QH"])), "R2.6")
    # nor by the winner once the next trick has begun
    # (he holds K♥ Q♥ and won the last trick, but has led to the next one since)
    o = run(make_spec(H0_DECL, LOW1, moves=["0 plays AS", "1 plays 7D", "0 plays 8H",
                                            "0 declares marriage_H KH QH"]))
    illegal(o, "R2.6")


def test_R2_16_a_second_combination_after_one_trick_is_refused_though_legal_itself():
    """R2.6 gives the winner "one combination"; R2.16 is the rule the engine names for a second
    one. The bézique here breaks nothing else (its cards come from the hand, R2.12; no card is
    re-used, R2.13-R2.15; the winner declares, R2.6): with ``declare_all`` the same moves are
    accepted, so only R2.16 stands in the way."""
    moves = ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH", "0 declares bezique QS JD"]
    o = run(make_spec(H0_DECL, LOW1, moves=moves))
    illegal(o, "R2.16")
    assert o.scores == [20, 0]
    o = run(make_spec(H0_DECL, LOW1, moves=moves, rules=preset("ordinary", declare_all=True)))
    outcome_ok(o)
    assert o.scores == [60, 0]


# --- R2.7 declared cards on the table ------------------------------------------------

def test_R2_7_declared_cards_can_be_played_from_the_table():
    moves = ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH"]
    o = run(make_spec(H0_DECL, LOW1, moves=moves + ["0 plays KH from table", "1 plays 7H",
                                                     "0 plays QH from table", "1 plays 7D"]))
    outcome_ok(o)
    plays = events(o, "play")
    assert [(p["card"], p["from"]) for p in plays if p["seat"] == 0] == [
        ("AS", "hand"), ("KH", "table"), ("QH", "table")]
    # KH beat 8H: table cards are ordinary cards in the trick
    assert [e["seat"] for e in events(o, "trick")] == [0, 0, 0]


def test_R2_7_declared_card_is_no_longer_in_the_hand():
    moves = ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH"]
    # his only K♥ is on the table: played as from the hand, it is a card he does not hold there
    o = run(make_spec(H0_DECL, LOW1, moves=moves + ["0 plays KH"]))
    illegal(o, "R2.4")
    assert "does not hold KH" in o.error
    # a card not on the table cannot be played from it
    o = run(make_spec(H0_DECL, LOW1, moves=moves + ["0 plays KS from table"]))
    illegal(o, "R2.7")


def test_R2_7_table_card_stays_the_owners_for_a_later_combination():
    # the declared K♥ stays the owner's: it can still join four kings later (R2.13)
    h0 = "AS AS KH QH KS KD KC 8H"
    o = run(make_spec(h0, LOW1, moves=["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH",
                                       "0 plays AS", "1 plays 7D",
                                       "0 declares four_kings KS KH KD KC"]))
    outcome_ok(o)
    assert o.scores == [100, 0]


# --- R2.8 drawing ----------------------------------------------------------------------

def test_R2_8_winner_draws_first():
    h0, h1 = "KS 8H 8H 9H 9H 8D 8D 9D", "AS 7D 7D 8S 9S 8S 9S JS"
    o = run(make_spec(h0, h1, talon="AD KD QD JD",
                      moves=["0 plays KS", "1 plays AS", "1 plays 7D", "0 plays 8D"]))
    outcome_ok(o)
    assert [(e["seat"], e["card"]) for e in events(o, "draw")] == [
        (1, "AD"), (0, "KD"), (0, "QD"), (1, "JD")]       # trick 2: 8D beats 7D, seat 0 won


@pytest.mark.parametrize("want", [("win", "lose"), ("lose", "win")])
def test_R2_8_loser_of_last_first_stage_trick_takes_turn_up(want):
    d = first_stage(want=want, hand0="AS TS KH 8H 9H 8D 9D JC", hand1="AH TH KS 8S 9S 7D 9D JS",
                    turn_up="QC")
    d.draw()
    o = d.check(d.run())
    outcome_ok(o)
    w = d.winners[-1]
    draws = events(o, "draw")
    assert len(draws) == 48
    assert draws[-2]["seat"] == w and draws[-1]["seat"] == 1 - w
    assert draws[-1]["card"] == "QC"
    assert draws[-2]["card"] == d.talon[-1]               # the last face-down card
    assert o.events[-1]["event"] == "second_stage"


def test_R2_8_loser_takes_the_exchanged_seven():
    d = Deal("AS 7C 8H 9H 8D 9D JD JS", LOW1, turn_up="KC")
    d.trick("AS", "7D")
    d.exchange(0)
    d.auto(keep=("", ""), want=("win", "lose"))
    w = d.winners[-1]
    d.draw()
    o = d.check(d.run())
    outcome_ok(o)
    assert events(o, "draw")[-1] == {"event": "draw", "seat": 1 - w, "card": "7C"}


# --- R2.9 the exchange ---------------------------------------------------------------

def test_R2_9_exchange_scores_10_and_takes_turn_up():
    h0 = "AS 7C 8H 9H 8D 9D JD JS"
    o = run(make_spec(h0, LOW1, "KC", moves=["0 plays AS", "1 plays 7D", "0 exchanges 7C",
                                             "0 plays KC", "1 plays 7D"]))
    outcome_ok(o)
    ex = events(o, "exchange")
    assert ex == [{"event": "exchange", "seat": 0, "card": "7C", "took": "KC", "points": 10}]
    assert o.scores == [10, 0]
    assert events(o, "trick")[1]["seat"] == 0          # KC (trump) was in seat 0's hand


def test_R2_9_card_taken_can_be_used_in_the_declaration():
    h0 = "AS 7C QC 8H 9H 8D 9D JS"
    o = run(make_spec(h0, LOW1, "KC", moves=["0 plays AS", "1 plays 7D", "0 exchanges 7C",
                                             "0 declares marriage_C KC QC"]))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [40]      # royal marriage
    assert o.scores == [50, 0]


def test_R2_9_exchange_after_the_declaration():
    h0 = "AS 7C QS JD 8H 8D 9D JS"
    o = run(make_spec(h0, LOW1, "KC", moves=["0 plays AS", "1 plays 7D",
                                             "0 declares bezique QS JD", "0 exchanges 7C"]))
    outcome_ok(o)
    assert o.scores == [50, 0]
    kinds = [e["event"] for e in o.events if e["event"] in ("declare", "exchange", "draw")]
    assert kinds == ["declare", "exchange", "draw", "draw"]


def test_R2_9_no_exchange_when_turn_up_is_a_seven():
    h0 = "AS 7C 8H 9H 8D 9D JD JS"
    o = run(make_spec(h0, LOW1, "7C", moves=["0 plays AS", "1 plays 7D", "0 exchanges 7C"]))
    illegal(o, "R2.9")
    assert o.scores == [0, 10]          # only the dealer's 10 for the turned-up seven


def test_R2_9_at_most_one_exchange_per_hand():
    h0 = "AS 7C 8H 9H 8D 9D JD JS"
    h1 = "AH 7C 7D 8D 9S 9S QD KD"
    moves = ["0 plays AS", "1 plays 7D", "0 exchanges 7C", "0 plays 8H", "1 plays AH"]
    outcome_ok(run(make_spec(h0, h1, "KC", moves=moves)))
    o = run(make_spec(h0, h1, "KC", moves=moves + ["1 exchanges 7C"]))
    illegal(o, "R2.9")
    assert o.scores == [10, 0]
    # the same player cannot exchange twice in one window either
    h0b = "AS 7C 7C 8H 9H 8D 9D JS"
    o = run(make_spec(h0b, LOW1, "KC", moves=["0 plays AS", "1 plays 7D",
                                              "0 exchanges 7C", "0 exchanges 7C"]))
    illegal(o, "R2.9")


def test_R2_9_exchange_needs_the_seven_of_trumps():
    h0 = "AS 7S 8H 9H 8D 9D JD JS"
    illegal(run(make_spec(h0, LOW1, "KC", moves=["0 plays AS", "1 plays 7D", "0 exchanges 7C"])), "R2.9")
    illegal(run(make_spec(h0, LOW1, "KC", moves=["0 plays AS", "1 plays 7D", "0 exchanges 7S"])), "R2.9")


# --- R2.10 the seven of trumps played --------------------------------------------------

@pytest.mark.parametrize("lead,follow,scorer,winner", [
    ("7C", "AC", 0, 1),     # led and lost: still 10
    ("AS", "7C", 1, 1),     # trumping and winning: 10
    ("7C", "8H", 0, 0),
])
def test_R2_10_seven_of_trumps_played_scores_10(lead, follow, scorer, winner):
    h0 = f"{lead} 8H 9H 9H 8D 9D JD QD"
    h1 = f"{follow} 7D 7D 7H KH QH JH 9S"
    o = run(make_spec(h0, h1, "9C", moves=[f"0 plays {lead}", f"1 plays {follow}"]))
    outcome_ok(o)
    assert events(o, "trick")[0]["seat"] == winner
    expect = [0, 0]
    expect[scorer] = 10
    assert o.scores == expect
    assert [e["seat"] for e in events(o, "seven_played")] == [scorer]


def test_R2_10_plain_seven_scores_nothing():
    o = run(make_spec("7S 8H 9H 9H 8D 9D JD QD", "7H 7D 7D KH QH JH 9S 8S", "9C",
                      moves=["0 plays 7S", "1 plays 7H"]))
    assert o.scores == [0, 0] and not events(o, "seven_played")


def test_R2_10_exchanged_seven_scores_nothing_in_second_stage():
    d = Deal("AS 7C 8H 9H 8D 9D JD JS", LOW1, turn_up="KC")
    d.trick("AS", "7D")
    d.exchange(0)
    d.auto(want=("win", "lose"))
    d.finish()
    o = d.check(d.run())
    assert o.status == DONE, o.error
    loser = 1 - d.winners[23]
    # 7C was drawn by the loser and played by him in the second stage
    stage2_plays = after_stage(o, "play")
    assert any(p["card"] == "7C" and p["seat"] == loser for p in stage2_plays)
    assert after_stage(o, "seven_played") == []
    # the other 7C (filler) was played in the first stage: each seven scored once
    sevens = events(o, "seven_played")
    assert len(sevens) == 1 and sevens[0]["card"] == "7C"
    assert len(events(o, "exchange")) == 1


def test_R2_10_turned_up_seven_scores_only_once():
    d = Deal("AS 8H 8H 9H 8D 9D JD JS", LOW1, turn_up="7C")
    d.auto(want=("win", "lose"))
    d.finish()
    o = d.check(d.run())
    assert o.status == DONE, o.error
    assert len(events(o, "turn_up_seven")) == 1
    # the turned-up seven was played in the second stage (both copies are played)
    assert after_stage(o, "seven_played") == []
    plays_7c = [p for p in events(o, "play") if p["card"] == "7C"]
    assert len(plays_7c) == 2
    assert len(events(o, "seven_played")) == 1      # only the other copy, in the first stage


# --- R2.11 classes --------------------------------------------------------------------

def test_R2_11_married_king_joins_four_kings_another_class():
    h0 = "AS AS KH QH QH KS KD KC"
    base = ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH", "0 plays AS", "1 plays 7D"]
    # class F is another class: the married K♥ joins four kings
    o = run(make_spec(h0, LOW1, moves=base + ["0 declares four_kings KS KH KD KC"]))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [20, 80]


def test_R2_14_married_king_is_not_married_again_to_a_second_queen():
    """Class M, same step (docs/rules.md, interpretation 6): the married K♥ with a second Q♥ from
    the hand is no new marriage. Only R2.14 refuses it: the Q♥ comes from the hand (R2.12), it is
    a later trick (R2.16) won by the declarer (R2.6); a fresh K♥ and Q♥ in its place score."""
    base = ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH", "0 plays AS", "1 plays 7D"]
    o = run(make_spec("AS AS KH QH QH KS KD KC", LOW1, moves=base + ["0 declares marriage_H KH QH"]))
    illegal(o, "R2.14")
    assert o.scores == [20, 0]
    o = run(make_spec("AS AS KH QH QH KH KD KC", LOW1, moves=base + ["0 declares marriage_H KH QH"]))
    outcome_ok(o)
    assert o.scores == [40, 0]


def test_R2_11_four_of_any_suits_and_table_a_points():
    # a four is any four cards of the rank, whatever the suits (Table A)
    o = run(make_spec("AS KS KS KH KD 8H 9H 9D", LOW1, "9C", moves=[
        "0 plays AS", "1 plays 7D", "0 declares four_kings KS KS KH KD"]))
    outcome_ok(o)
    assert o.scores == [80, 0]
    # three suits of kings held, not the K♣ the declaration names
    o = illegal(run(make_spec("AS KS KS KH KD 8H 9H 9D", LOW1, "9C", moves=[
        "0 plays AS", "1 plays 7D", "0 declares four_kings KS KH KD KC"])), "R2.11")
    assert "does not hold" in o.error
    for combo, cards_, pts in [("four_aces", "AS AH AD AC", 100), ("four_queens", "QS QH QD QC", 60),
                               ("four_knaves", "JS JH JD JC", 40)]:
        h0 = "KS " + cards_ + " 8S 8S 9D"
        o = run(make_spec(h0, LOWB, "9C", moves=["0 plays KS", "1 plays 7D", f"0 declares {combo} {cards_}"]))
        outcome_ok(o)
        assert o.scores == [pts, 0]
    # a double bézique may be declared at once from the hand
    o = run(make_spec("AS QS QS JD JD 8H 9H 9D", LOW1, "9C", moves=[
        "0 plays AS", "1 plays 7D", "0 declares double_bezique QS QS JD JD"]))
    assert o.scores == [500, 0]


def test_R2_11_plain_suit_sequence_is_not_a_combination():
    o = run(make_spec("AH AS TS KS QS JS 8H 9H", LOW1, "9C", moves=[
        "0 plays AH", "1 plays 7D", "0 declares sequence_S AS TS KS QS JS"]))
    illegal(o, "Table A")
    o = run(make_spec("AH AS TS KS QS JS 8H 9H", LOW1, "9S", moves=[
        "0 plays AH", "1 plays 7D", "0 declares sequence_S AS TS KS QS JS"]))
    outcome_ok(o)
    assert o.scores == [250, 0]


# --- R2.12 a card from the hand -------------------------------------------------------

# K♠ on the table from four kings, Q♠ from a bézique: a marriage of them re-uses each card in
# another class (R2.13 allows it, R2.14 does not apply), yet takes nothing from the hand.
H0_TABLE_MARRIAGE = "AS AH KS KH KD KC QS JD"
TABLE_MARRIAGE = ["0 plays AS", "1 plays 7D", "0 declares four_kings KS KH KD KC",
                  "0 plays AH", "1 plays 7H", "0 declares bezique QS JD", "0 plays AD", "1 plays 7D",
                  "0 declares marriage_S KS QS"]


def test_R2_12_a_marriage_of_table_cards_needs_a_card_from_the_hand():
    """Only R2.12 refuses: the same marriage with the second Q♠ drawn into the hand scores."""
    o = run(make_spec(H0_TABLE_MARRIAGE, LOW1, talon="AD 8S", moves=TABLE_MARRIAGE))
    illegal(o, "R2.12")
    assert o.scores == [120, 0]
    o = run(make_spec(H0_TABLE_MARRIAGE, LOW1, talon="AD 8S QS 8S", moves=TABLE_MARRIAGE))
    outcome_ok(o)
    assert o.scores == [140, 0]


def test_R2_12_four_kings_all_from_the_table_is_refused():
    rules = preset("ordinary", declare_all=True, hand_size=9)
    h0 = "AS KS QS KH QH KD QD KC QC"
    h1 = "7D 7D 8D 8D 9D 9D 8H 8H 9H"
    moves = ["0 plays AS", "1 plays 7D", "0 declares marriage_S KS QS", "0 declares marriage_H KH QH",
             "0 declares marriage_D KD QD", "0 declares marriage_C KC QC"]
    o = run(make_spec(h0, h1, "9C", moves=moves, rules=rules))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [20, 20, 20, 40]
    o = run(make_spec(h0, h1, "9C", moves=moves + ["0 declares four_kings KS KH KD KC"], rules=rules))
    illegal(o, "R2.12")
    assert o.scores == [100, 0]


def test_R2_12_four_kings_with_one_king_from_hand_is_allowed():
    rules = preset("ordinary", declare_all=True, hand_size=9)
    h0 = "AS KS QS KH QH KD QD KC 8S"
    h1 = "7D 7D 8D 8D 9D 9D 8H 8H 9H"
    o = run(make_spec(h0, h1, "9C", rules=rules, moves=[
        "0 plays AS", "1 plays 7D", "0 declares marriage_S KS QS", "0 declares marriage_H KH QH",
        "0 declares marriage_D KD QD", "0 declares four_kings KS KH KD KC"]))
    outcome_ok(o)
    assert o.scores == [140, 0]


# --- R2.13 re-use in another class ----------------------------------------------------

def test_R2_13_king_of_a_marriage_in_four_kings():
    h0 = "AS AH KS QS KH KD KC 8H"        # a single K♠: it must come from the table
    o = run(make_spec(h0, LOW1, moves=["0 plays AS", "1 plays 7D", "0 declares marriage_S KS QS",
                                       "0 plays AH", "1 plays 7H", "0 declares four_kings KS KH KD KC"]))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [20, 80]
    assert sorted(events(o, "declare")[1]["cards"]) == ["KC", "KD", "KH", "KS"]
    assert o.scores == [100, 0]


@pytest.mark.parametrize("turn_up,marriage", [("9C", 20), ("9S", 40)])
def test_R2_13_queen_of_a_bezique_in_a_spade_marriage(turn_up, marriage):
    h0 = "AH AH QS JD KS 8H 9S 8S"
    o = run(make_spec(h0, LOW1, turn_up, moves=["0 plays AH", "1 plays 7H", "0 declares bezique QS JD",
                                                "0 plays AH", "1 plays 7H", "0 declares marriage_S KS QS"]))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [40, marriage]
    assert o.scores == [40 + marriage, 0]


def test_R2_13_queen_of_a_bezique_in_a_sequence():
    h0 = "AH AH QS JD AS TS KS JS"
    o = run(make_spec(h0, LOW1, "9S", moves=["0 plays AH", "1 plays 7H", "0 declares bezique QS JD",
                                             "0 plays AH", "1 plays 7H",
                                             "0 declares sequence_S AS TS KS QS JS"]))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [40, 250]


def test_R2_13_ace_of_four_aces_in_a_sequence():
    h0 = "AS AS AH AD AC TC KC QC"
    o = run(make_spec(h0, LOW1, "9C", talon="JC", moves=[
        "0 plays AS", "1 plays 7D", "0 declares four_aces AS AH AD AC",
        "0 plays AH from table", "1 plays 7H", "0 declares sequence_C AC TC KC QC JC"]))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [100, 250]
    assert o.scores == [350, 0]


# --- R2.14 higher in the class only ---------------------------------------------------

def test_R2_14_royal_marriage_extended_to_sequence():
    h0 = "AS AS AC TC KC QC JC 8H"
    o = run(make_spec(h0, LOW1, "9C", moves=["0 plays AS", "1 plays 7D", "0 declares marriage_C KC QC",
                                             "0 plays AS", "1 plays 7D",
                                             "0 declares sequence_C AC TC KC QC JC"]))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [40, 250]
    assert o.scores == [290, 0]


def test_R2_14_bezique_extended_to_double():
    h0 = "AS AS QS QS JD JD 8H 8H"
    o = run(make_spec(h0, LOW1, "9C", moves=["0 plays AS", "1 plays 7D", "0 declares bezique QS JD",
                                             "0 plays AS", "1 plays 7D",
                                             "0 declares double_bezique QS JD QS JD"]))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [40, 500]
    assert o.scores == [540, 0]


def test_R2_12_two_beziques_cannot_become_a_double_with_two_packs():
    """R2.14 lets a bézique rise to a double (a higher combination of its class); "because of
    R2.12" (docs/rules.md R2.14) two béziques of two packs never do: no card of the double would
    come from the hand. R2.12 alone refuses it (the three-pack case below scores it)."""
    h0 = "AS AS AH QS QS JD JD 8H"
    moves = ["0 plays AS", "1 plays 7D", "0 declares bezique QS JD",
             "0 plays AS", "1 plays 7D", "0 declares bezique QS JD", "0 plays AH", "1 plays 7H"]
    o = run(make_spec(h0, LOW1, "9C", moves=moves))
    outcome_ok(o)
    assert o.scores == [80, 0]
    o = run(make_spec(h0, LOW1, "9C", moves=moves + ["0 declares double_bezique QS JD QS JD"]))
    illegal(o, "R2.12")
    assert o.scores == [80, 0]


def test_R2_14_three_packs_third_card_from_hand_joins_two_beziques():
    rules = preset("ordinary", packs=3)
    h0 = "AS AS AH QS QS JD JD QS"
    moves = ["0 plays AS", "1 plays 7D", "0 declares bezique QS JD",
             "0 plays AS", "1 plays 7D", "0 declares bezique QS JD", "0 plays AH", "1 plays 7H",
             "0 declares double_bezique QS JD QS JD"]
    o = run(make_spec(h0, LOW1, "9C", moves=moves, rules=rules))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [40, 40, 500]


def test_R2_14_treble_bezique_only_with_three_packs():
    h0 = "AS QS QS QS JD JD JD 8H"
    moves = ["0 plays AS", "1 plays 7D", "0 declares treble_bezique QS JD QS JD QS JD"]
    o = run(make_spec(h0, LOW1, "9C", moves=moves, rules=preset("ordinary", packs=3)))
    outcome_ok(o)
    assert o.scores == [1500, 0]
    # with two packs there is no treble bézique (Table A)
    h0 = "AS AS QS QS JD JD 8H 9H"
    o = run(make_spec(h0, LOW1, "9C", moves=moves))
    illegal(o, "Table A")
    assert o.scores == [0, 0]
    # naming cards that are not the combination is refused when the replay is read
    with pytest.raises(RuleViolation):
        make_spec(h0, LOW1, "9C", moves=["0 plays AS", "1 plays 7D",
                                         "0 declares double_bezique QS JD QS QS"])


def test_R2_14_sequence_king_can_no_longer_be_married():
    h0 = "AS AS AC TC KC QC JC QC"
    o = run(make_spec(h0, LOW1, "9C", moves=["0 plays AS", "1 plays 7D",
                                             "0 declares sequence_C AC TC KC QC JC",
                                             "0 plays AS", "1 plays 7D",
                                             "0 declares marriage_C KC QC"]))
    illegal(o, "R2.14")
    assert o.scores == [250, 0]


# --- R2.15 fours ----------------------------------------------------------------------

def test_R2_15_card_of_a_four_not_in_another_four_of_that_rank():
    h0 = "AS KS KH KD KC KS 8H 9H"
    o = run(make_spec(h0, LOW1, "9C", moves=["0 plays AS", "1 plays 7D",
                                             "0 declares four_kings KS KH KD KC",
                                             "0 plays KS from table", "1 plays 7D",
                                             "0 declares four_kings KS KH KD KC"]))
    illegal(o, "R2.15")
    assert o.scores == [80, 0]


def test_R2_15_second_four_of_fresh_cards_is_allowed():
    h0 = "AS KS KH KD KC KS KH KD"
    o = run(make_spec(h0, LOW1, "9C", talon="KC", moves=[
        "0 plays AS", "1 plays 7D", "0 declares four_kings KS KH KD KC",
        "0 plays KS from table", "1 plays 7D", "0 declares four_kings KS KH KD KC"]))
    outcome_ok(o)
    assert o.scores == [160, 0]


def test_R2_13_bezique_knave_in_four_knaves():
    h0 = "AS AH JD QS JS JH JC 8H"
    o = run(make_spec(h0, LOW1, "9C", moves=["0 plays AS", "1 plays 7D", "0 declares bezique QS JD",
                                             "0 plays AH", "1 plays 7H",
                                             "0 declares four_knaves JS JH JD JC"]))
    outcome_ok(o)
    assert o.scores == [80, 0]


# --- R2.16 one declaration per trick; declare_all ------------------------------------

def test_R2_16_one_declaration_per_trick():
    o = run(make_spec(H0_DECL, LOW1, moves=["0 plays AS", "1 plays 7D", "0 declares bezique QS JD",
                                            "0 declares marriage_H KH QH"]))
    illegal(o, "R2.16")
    # the second one after the next trick won is fine
    o = run(make_spec(H0_DECL, LOW1, moves=["0 plays AS", "1 plays 7D", "0 declares bezique QS JD",
                                            "0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH"]))
    outcome_ok(o)
    assert o.scores == [60, 0]


def test_R2_16_declare_all_option_allows_several():
    rules = preset("ordinary", declare_all=True)
    o = run(make_spec(H0_DECL, LOW1, rules=rules, moves=[
        "0 plays AS", "1 plays 7D", "0 declares bezique QS JD", "0 declares marriage_H KH QH",
        "0 declares marriage_S KS QS"]))
    outcome_ok(o)
    assert [e["points"] for e in events(o, "declare")] == [40, 20, 20]
    assert o.scores == [80, 0]


def test_R2_14_declare_all_a_second_marriage_of_the_married_king_in_one_window():
    """R2.16 with ``declare_all``: each declaration of the window must satisfy R2.12-R2.15 when
    made. The married K♥ with the second Q♥ from the hand breaks R2.14 alone (a card from the
    hand, R2.12, and several declarations per trick allowed, R2.16)."""
    rules = preset("ordinary", declare_all=True)
    o = run(make_spec("AS KH QH QH QS JD KS 8H", LOW1, rules=rules, moves=[
        "0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH", "0 declares marriage_H KH QH"]))
    illegal(o, "R2.14")
    assert o.scores == [20, 0]


def test_R2_12_declare_all_a_marriage_of_cards_declared_in_the_same_window():
    """R2.16 with ``declare_all``: four kings and a bézique in one window, then the K♠ and Q♠
    they put on the table as a marriage: R2.12 alone refuses it (each card re-used in another
    class, R2.13); with one more trick the marriage would be refused the same way
    (test_R2_12_a_marriage_of_table_cards_needs_a_card_from_the_hand)."""
    rules = preset("ordinary", declare_all=True)
    o = run(make_spec(H0_TABLE_MARRIAGE, LOW1, rules=rules, moves=[
        "0 plays AS", "1 plays 7D", "0 declares four_kings KS KH KD KC", "0 declares bezique QS JD",
        "0 declares marriage_S KS QS"]))
    illegal(o, "R2.12")
    assert o.scores == [120, 0]


def test_R2_16_declare_all_a_bezique_raised_to_a_double_in_one_window():
    rules = preset("ordinary", declare_all=True)
    h0 = "AS QS QS JD JD 8H 8D 9D"
    o = run(make_spec(h0, LOW1, rules=rules, moves=[
        "0 plays AS", "1 plays 7D", "0 declares bezique QS JD", "0 declares double_bezique QS JD QS JD"]))
    outcome_ok(o)
    assert o.scores == [540, 0]


def test_R2_16_declare_all_is_not_default():
    assert preset("ordinary").declare_all is False


# --- R2.17 american re-use --------------------------------------------------------------

AMERICAN = dict(meld_reuse="american")


def test_R2_17_bezique_queen_not_in_a_marriage_american():
    h0 = "AH AH QS JD KS 8H 9S 8S"
    moves = ["0 plays AH", "1 plays 7H", "0 declares bezique QS JD", "0 plays AH", "1 plays 7H",
             "0 declares marriage_S KS QS"]
    illegal(run(make_spec(h0, LOW1, moves=moves, rules=preset("ordinary", **AMERICAN))), "R2.17")
    o = run(make_spec(h0, LOW1, moves=moves))                     # default (french): allowed
    outcome_ok(o)
    assert o.scores == [60, 0]


def test_R2_17_bezique_knave_not_in_four_knaves_american():
    h0 = "AS AH JD QS JS JH JC 8H"
    moves = ["0 plays AS", "1 plays 7D", "0 declares bezique QS JD", "0 plays AH", "1 plays 7H",
             "0 declares four_knaves JS JH JD JC"]
    o = illegal(run(make_spec(h0, LOW1, moves=moves, rules=preset("ordinary", **AMERICAN))), "R2.17")
    assert o.scores == [40, 0]
    o = run(make_spec(h0, LOW1, moves=moves))                     # default (french): allowed
    outcome_ok(o)
    assert o.scores == [80, 0]


def test_R2_17_american_four_refusal_names_R2_17():
    h0 = "AS AH JD QS JS JH JC 8H"
    moves = ["0 plays AS", "1 plays 7D", "0 declares bezique QS JD", "0 plays AH", "1 plays 7H",
             "0 declares four_knaves JS JH JD JC"]
    illegal(run(make_spec(h0, LOW1, moves=moves, rules=preset("ordinary", **AMERICAN))), "R2.17")


def test_R2_17_american_other_copies_and_other_order_still_allowed():
    rules = preset("ordinary", **AMERICAN)
    # a second J♦ from the hand may join four knaves after a bézique
    h0 = "AS AH JD QS JS JH JC JD"
    o = run(make_spec(h0, LOW1, rules=rules, moves=[
        "0 plays AS", "1 plays 7D", "0 declares bezique QS JD", "0 plays AH", "1 plays 7H",
        "0 declares four_knaves JS JH JD JC"]))
    outcome_ok(o)
    assert o.scores == [80, 0]
    # a marriage queen may afterwards join a bézique (the rule restricts bézique cards only)
    h0 = "AH AH QS JD KS 8H 9S 8S"
    o = run(make_spec(h0, LOW1, rules=rules, moves=[
        "0 plays AH", "1 plays 7H", "0 declares marriage_S KS QS", "0 plays AH", "1 plays 7H",
        "0 declares bezique QS JD"]))
    outcome_ok(o)
    assert o.scores == [60, 0]
    # a second Q♠ from the hand may marry even after a bézique
    h0 = "AH AH QS JD KS QS 9S 8S"
    o = run(make_spec(h0, LOW1, rules=rules, moves=[
        "0 plays AH", "1 plays 7H", "0 declares bezique QS JD", "0 plays AH", "1 plays 7H",
        "0 declares marriage_S KS QS"]))
    outcome_ok(o)
    assert o.scores == [60, 0]
    # the bézique may still be raised to a double (same class)
    h0 = "AS AS QS QS JD JD 8H 8H"
    o = run(make_spec(h0, LOW1, rules=rules, moves=[
        "0 plays AS", "1 plays 7D", "0 declares bezique QS JD", "0 plays AS", "1 plays 7D",
        "0 declares double_bezique QS JD QS JD"]))
    outcome_ok(o)
    assert o.scores == [540, 0]


def test_R2_17_bad_option_value_rejected():
    with pytest.raises(RuleError):
        preset("ordinary", meld_reuse="british")


# --- R2.18 end of the first stage ----------------------------------------------------

def test_R2_18_winner_of_last_first_stage_trick_may_declare_and_exchange():
    d = first_stage(keep=("KH QH 7C", ""), want=("win", "lose"),
                    hand0="AS TS KH QH 7C 9H 8D 9D", hand1=LOWB, turn_up="AC")
    assert d.winners[-1] == 0, "setup: seat 0 should win the last first-stage trick"
    d.declare(0, "marriage_H", "KH QH")
    d.exchange(0)
    d.finish()
    o = d.check(d.run())
    assert o.status == DONE, o.error
    stage = next(i for i, e in enumerate(o.events) if e["event"] == "second_stage")
    decl = [i for i, e in enumerate(o.events) if e["event"] == "declare"]
    exch = [i for i, e in enumerate(o.events) if e["event"] == "exchange"]
    assert decl and decl[-1] < stage and exch and exch[-1] < stage
    assert events(o, "declare")[-1]["points"] == 20
    # the exchanged seven is the loser's last card
    assert events(o, "draw")[-1] == {"event": "draw", "seat": 1, "card": "7C"}


def test_R2_18_no_declaration_or_exchange_after_the_last_draw():
    d = first_stage(keep=("KH QH 7C", ""), want=("win", "lose"),
                    hand0="AS TS KH QH 7C 9H 8D 9D", hand1=LOWB, turn_up="AC")
    assert d.winners[-1] == 0
    d.draw()
    assert d.stage == 2 and {"KH", "QH", "7C"} <= set(d.hands[0])
    # (a replay cannot place a move between the last trick's window and the draw: the
    # first move that is certainly after the last draw is a second-stage play)
    lead = "9H" if "9H" in d.hands[0] else d.hands[0][0]
    opening = d.moves + [f"0 plays {lead}"]
    illegal(run(d.spec(opening + ["1 declares bezique QS JD"])), "R2.18")
    d.trick(lead, sorted(legal_follows(d.hands[1], lead, d.trump))[0])
    w = d.winners[-1]
    if w == 0:
        illegal(d.run(["0 declares marriage_H KH QH"]), "R2.18")
        illegal(d.run(["0 exchanges 7C"]), "R2.18")
    else:
        illegal(d.run(["1 declares four_kings KC KC KS KH"]), "R2.18")
    outcome_ok(d.check(d.run()))


# --- R2.19 table cards back in hand ----------------------------------------------------

def _stage2_with_table_cards():
    d = Deal("AS TS KH QH 9H 8S 8D 9D", LOWB, turn_up="AC")
    d.trick("AS", "7D")
    d.declare(0, "marriage_H", "KH QH")
    d.auto(keep=("KH QH", ""), want=("win", "lose"))
    assert d.winners[-1] == 0, "setup: seat 0 should lead the second stage"
    d.draw()
    assert "KH" in d.hands[0] and d.stage == 2
    return d


def test_R2_19_table_cards_taken_back_into_hand():
    d = _stage2_with_table_cards()
    base = d.moves
    o = run(d.spec(base + ["0 plays KH from table"]))
    illegal(o, "R2.19")
    o = run(d.spec(base + ["0 plays KH"]))
    outcome_ok(o)
    assert o.events[-1] == {"event": "play", "seat": 0, "card": "KH", "from": "hand", "trick": 25}


def test_R2_19_whole_hand_with_table_cards_completes():
    d = _stage2_with_table_cards()
    d.finish()
    o = d.check(d.run())
    assert o.status == DONE, o.error
    assert all(p["from"] == "hand" for p in after_stage(o, "play"))
    assert {"KH", "QH"} <= {p["card"] for p in after_stage(o, "play") if p["seat"] == 0}


# --- R2.20 second stage -----------------------------------------------------------------

STAGE2_KEEP = ("AS TS 8S TD 9D 8C JC", "9S 7S QH 8H 9H TC 9C")   # seat 0 void in ♥, seat 1 in ♦


def _stage2():
    """A deal at the start of its second stage with known hands (see the asserts)."""
    d = Deal("AS TS 8S TD 9D 8C JC 7C", "9S 7S QH 8H 9H TC 9C JD", turn_up="QC")
    d.auto(keep=STAGE2_KEEP, want=("win", "lose"))
    d.draw()
    assert d.stage == 2
    return d


def test_R2_20_setup_is_as_designed():
    d = _stage2()
    # seven kept cards each plus the last draw
    for s, kept in enumerate(STAGE2_KEEP):
        assert not (Counter(kept.split()) - Counter(d.hands[s]))
        assert len(d.hands[s]) == 8


def _lead(d, card):
    return d.moves + [f"{d.leader} plays {card}"]


def test_R2_20_second_player_must_follow_suit():
    d = _stage2()
    L, F = d.leader, 1 - d.leader
    lead = next(c for c in d.hands[L] if c[1] == "S")         # both hold spades
    other = next(c for c in d.hands[F] if c[1] != "S")
    o = run(d.spec(_lead(d, lead) + [f"{F} plays {other}"]))
    illegal(o, "R2.20")
    assert f"move {len(d.moves) + 2}:" in o.error and "follow" in o.error


def test_R2_20_second_player_must_win_the_trick():
    d = _stage2()
    L, F = d.leader, 1 - d.leader
    fs = sorted((c for c in d.hands[F] if c[1] == "S"), key=lambda c: RANKS.index(c[0]))
    ls = [c for c in d.hands[L] if c[1] == "S"]
    # a lead between the follower's spades: he must play the higher one
    lead = next(c for c in ls if beats(fs[0], c, "C") and not beats(fs[-1], c, "C"))
    o = run(d.spec(_lead(d, lead) + [f"{F} plays {fs[-1]}"]))
    illegal(o, "R2.20")
    assert "win" in o.error
    o = run(d.spec(_lead(d, lead) + [f"{F} plays {fs[0]}"]))
    outcome_ok(o)
    assert events(o, "trick")[-1]["seat"] == F


def test_R2_20_follow_with_a_lower_card_when_unable_to_win():
    d = _stage2()
    L, F = d.leader, 1 - d.leader
    top = next((c for c in d.hands[L] if any(f[1] == c[1] for f in d.hands[F])
                and not any(beats(f, c, d.trump) for f in d.hands[F] if f[1] == c[1])), None)
    assert top, f"setup: {d.hands}"
    f = next(c for c in d.hands[F] if c[1] == top[1])
    o = run(d.spec(_lead(d, top) + [f"{F} plays {f}"]))
    outcome_ok(o)
    assert events(o, "trick")[-1]["seat"] == L


def test_R2_20_second_player_must_trump_when_void():
    d = _stage2()
    L, F = d.leader, 1 - d.leader
    void = [s for s in "SHD" if not any(c[1] == s for c in d.hands[F])
            and any(c[1] == s for c in d.hands[L])]
    trumps = [c for c in d.hands[F] if c[1] == "C"]
    assert void and trumps, f"setup: {d.hands}"
    lead = next(c for c in d.hands[L] if c[1] == void[0])
    other = next(c for c in d.hands[F] if c[1] != "C")
    o = run(d.spec(_lead(d, lead) + [f"{F} plays {other}"]))
    illegal(o, "R2.20")
    assert "trump" in o.error
    o = run(d.spec(_lead(d, lead) + [f"{F} plays {trumps[0]}"]))
    outcome_ok(o)
    assert events(o, "trick")[-1]["seat"] == F


def test_R2_20_trump_lead_must_be_overtaken_if_possible():
    d = _stage2()
    L, F = d.leader, 1 - d.leader
    lt = [c for c in d.hands[L] if c[1] == "C"]
    ft = sorted((c for c in d.hands[F] if c[1] == "C"), key=lambda c: RANKS.index(c[0]))
    lead = next((c for c in lt if any(beats(f, c, "C") for f in ft)
                 and any(not beats(f, c, "C") for f in ft)), None)
    if lead is None:
        pytest.fail(f"setup: {d.hands}")
    low = next(f for f in reversed(ft) if not beats(f, lead, "C"))
    illegal(run(d.spec(_lead(d, lead) + [f"{F} plays {low}"])), "R2.20")


def test_R2_20_engine_agrees_with_the_rule_for_every_card():
    """For whole second stages of several deals: every card the rule allows is accepted,
    every other card is refused with R2.20."""
    checked_illegal = 0
    for seed in (3, 8, 21, 30, 44):
        d = Deal(spec=dealt_spec(preset("ordinary"), seed, 0))
        d.auto(want=("win", "lose"))
        d.draw()
        while d.hands[d.leader]:
            L, F = d.leader, 1 - d.leader
            for lead in sorted(set(d.hands[L])):
                ok = legal_follows(d.hands[F], lead, d.trump)
                for c in sorted(set(d.hands[F])):
                    o = run(d.spec(_lead(d, lead) + [f"{F} plays {c}"]))
                    if c in ok:
                        outcome_ok(o)
                    else:
                        illegal(o, "R2.20")
                        checked_illegal += 1
            lead = sorted(d.hands[L])[0]
            d.trick(lead, sorted(legal_follows(d.hands[F], lead, d.trump))[0])
        o = d.check(d.run())
        assert o.status == DONE, o.error
    assert checked_illegal > 50


def test_R2_20_no_duty_to_trump_when_void_of_trumps_too():
    found = 0
    for seed in range(12):
        d = Deal(spec=dealt_spec(preset("ordinary"), seed, 0))
        d.auto(want=("win", "lose"))
        d.draw()
        while d.hands[d.leader]:
            L, F = d.leader, 1 - d.leader
            for lead in sorted(set(d.hands[L])):
                if not any(c[1] in (lead[1], d.trump) for c in d.hands[F]) and len(set(d.hands[F])) > 1:
                    for c in set(d.hands[F]):      # void in the suit led and in trumps: any card
                        outcome_ok(run(d.spec(_lead(d, lead) + [f"{F} plays {c}"])))
                    found += 1
                    break
            lead = sorted(d.hands[L])[0]
            d.trick(lead, sorted(legal_follows(d.hands[F], lead, d.trump))[0])
    assert found >= 3


def test_R2_3_winner_of_last_first_stage_trick_leads_second_stage():
    d = _stage2()
    L, F = d.leader, 1 - d.leader
    illegal(run(d.spec(d.moves + [f"{F} plays {d.hands[F][0]}"])), "R2.3")
    outcome_ok(run(d.spec(d.moves + [f"{L} plays {d.hands[L][0]}"])))


# --- R2.21 last trick -------------------------------------------------------------------

def test_R2_21_last_trick_scores_10():
    for seed in (4, 5):
        d = Deal(spec=dealt_spec(preset("ordinary"), seed, 0))
        d.auto(want=("win", "lose"))
        d.finish(want=("lose", "win"))
        o = d.check(d.run())
        assert o.status == DONE, o.error
        last = events(o, "last_trick")
        assert len(last) == 1 and last[0]["points"] == 10
        assert last[0]["seat"] == d.last_winner == events(o, "trick")[-1]["seat"]
        assert len(events(o, "trick")) == 32


# --- R2.22 / R2.23 scoring ---------------------------------------------------------------

def _brisques_from_tricks(o):
    count = [0, 0]
    plays = []
    for e in o.events:
        if e["event"] == "play":
            plays.append(e["card"])
        elif e["event"] == "trick":
            count[e["seat"]] += sum(1 for c in plays if c[0] in "AT")
            plays = []
    return count


@pytest.mark.parametrize("packs,total", [(2, 160), (3, 240)])
def test_R2_22_brisques_10_each(packs, total):
    rules = preset("ordinary", packs=packs)
    for seed in range(6):
        o = play_spec(dealt_spec(rules, seed, 0), ["random", "random"], seed=seed)
        assert o.status == DONE, o.error
        b = {e["seat"]: e for e in events(o, "brisques")}
        assert sum(e["points"] for e in b.values()) == total
        mine = _brisques_from_tricks(o)
        for s in (0, 1):
            assert b[s]["count"] == mine[s]
            assert b[s]["points"] == 10 * mine[s]


def test_R2_22_brisques_in_a_scripted_hand():
    d = Deal(spec=dealt_spec(preset("ordinary"), 9, 0))
    d.auto(want=("win", "lose"))
    d.finish()
    o = d.check(d.run())
    assert o.status == DONE
    assert [e["points"] for e in sorted(events(o, "brisques"), key=lambda e: e["seat"])] == [
        10 * x for x in _brisques_from_tricks(o)]


def _expected_points(e, trump):
    c = e["combination"]
    if c.startswith("marriage_"):
        return 40 if c[-1] == trump else 20
    if c.startswith("sequence_"):
        assert c[-1] == trump
        return 250
    return TABLE_A[c]


@pytest.mark.parametrize("options", [{}, {"declare_all": True}, {"packs": 3}, {"hand_size": 10}])
def test_R2_23_hand_score_is_the_sum_of_its_parts(options):
    rules = preset("ordinary", **options)
    declared = 0
    for seed in range(8):
        o = play_spec(dealt_spec(rules, seed, 1), ["random", "random"], seed=seed)
        assert o.status == DONE, o.error
        trump = SUITS[o.trump]
        total = [0, 0]
        for e in o.events:
            k = e["event"]
            if k == "declare":
                assert e["points"] == _expected_points(e, trump)
                declared += 1
            if k in ("declare", "turn_up_seven", "seven_played", "exchange", "last_trick", "brisques"):
                assert e["points"] % 10 == 0
                assert e["points"] == {"turn_up_seven": 10, "seven_played": 10, "exchange": 10,
                                       "last_trick": 10}.get(k, e["points"])
                total[e["seat"]] += e["points"]
        assert total == o.scores
        assert all(s % 10 == 0 for s in o.scores)
    assert declared > 0


def test_R2_23_scripted_hand_total():
    # 20 (marriage) + 10 (exchange) + last trick + brisques, all from independent counts
    d = Deal("AS TS KH QH 9H 8S 8D 7C", LOWB, turn_up="AC")
    d.trick("AS", "7D")
    d.declare(0, "marriage_H", "KH QH")
    d.exchange(0)
    d.auto(keep=("KH QH", ""), want=("win", "lose"))
    d.finish()
    o = d.check(d.run())
    assert o.status == DONE, o.error
    br = _brisques_from_tricks(o)
    sevens = [0, 0]
    for e in events(o, "seven_played"):
        sevens[e["seat"]] += 10
    expect = [10 * br[s] + sevens[s] + (10 if d.last_winner == s else 0) for s in (0, 1)]
    expect[0] += 20 + 10
    assert o.scores == expect
    assert sum(br) == 16


# --- R2.25 revokes ------------------------------------------------------------------------

def _revoke_replay():
    d = _stage2()
    L, F = d.leader, 1 - d.leader
    lead = next(c for c in d.hands[L] if c[1] == "S")
    other = next(c for c in d.hands[F] if c[1] != "S")
    obj = replay_json(run(d.spec([])))
    obj["moves"] = d.moves + [f"{L} plays {lead}", f"{F} plays {other}"]
    return obj


def test_R2_25_replay_file_with_revoke_is_rejected():
    path = REPLAYS / "ordinary_revoke.json"
    spec = load_replay(path)
    o = play_spec(spec)
    illegal(o, "R2.20")
    n = len(spec.move_text)
    assert o.error.startswith(f"move {n}:")
    # the file really is the deal this module builds, so the revoke is a real one
    assert json.loads(path.read_text(encoding="utf-8"))["moves"] == _revoke_replay()["moves"]


def test_R2_25_revoke_replay_cli_exit_code():
    from click.testing import CliRunner

    from analyzer.cli import main
    result = CliRunner().invoke(main, ["replay", str(REPLAYS / "ordinary_revoke.json")])
    assert result.exit_code == 2
    assert "R2.20" in result.output and "move 50" in result.output


def test_R2_25_fixed_replay_plays_without_error():
    obj = json.loads((REPLAYS / "ordinary_revoke.json").read_text(encoding="utf-8"))
    d = _stage2()
    lead = obj["moves"][-2].split()[-1]
    F = 1 - d.leader
    ok = sorted(legal_follows(d.hands[F], lead, d.trump))
    obj["moves"][-1] = f"{F} plays {ok[0]}"
    outcome_ok(play_spec(parse_replay(obj)))


def test_R2_25_policies_never_revoke():
    follows = 0
    for seed in range(10):
        o = play_spec(dealt_spec(preset("ordinary"), seed, 0), ["random", "random"], seed=seed)
        assert o.status == DONE, o.error
        spec = o.spec
        trump = SUITS[o.trump]
        held = [[card_str(c) for c in h] for h in spec.hands]
        stage2 = False
        lead = None
        for e in o.events:
            k = e["event"]
            if k == "draw":
                held[e["seat"]].append(e["card"])
            elif k == "exchange":
                held[e["seat"]].remove(e["card"])
                held[e["seat"]].append(e["took"])
            elif k == "second_stage":
                stage2 = True
            elif k == "play":
                if stage2 and lead is not None:
                    assert e["card"] in legal_follows(held[e["seat"]], lead, trump), (seed, e)
                    follows += 1
                held[e["seat"]].remove(e["card"])
                lead = e["card"] if lead is None else None
            elif k == "trick":
                lead = None
    assert follows == 10 * 8


def test_R1_3_example_replay_files_parse_and_bad_declaration_is_refused():
    # small example files used above: a declaration replay and one with a bad declaration
    spec = load_replay(REPLAYS / "ordinary_exchange_royal_marriage.json")
    o = play_spec(spec)
    outcome_ok(o)
    assert o.scores == [50, 0]
    with pytest.raises(RuleViolation, match="KH QS do not make the marriage in ♥ \\(KH QH\\)"):
        load_replay(REPLAYS / "ordinary_bad_declaration.json")      # in the game's words, not marriage_H
