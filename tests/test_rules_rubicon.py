"""Rule tests for Rubicon bézique: RULES.md section 3 (R3.1-R3.9), preset ``rubicon``.

Expected values come from the text of RULES.md (Table B and R3.1-R3.9) and the Portland
Club laws in shared/seeds/002_* and 003_*, never from the program's own output. Long hands
are scripted with a small independent model of the play (``RDeal``): no turn-up, no trump
until a marriage or sequence fixes one (R3.2), the winner draws first (R3.3), R2.20 in the
second stage; it produces the move list and checks that the engine saw the same trick
winners and draws.
"""
from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from helpers import events, run  # noqa: E402
from helpers import make_spec as _make_spec  # noqa: E402

from analyzer.cards import card_str, parse_card  # noqa: E402
from analyzer.game import rubicon_result  # noqa: E402
from analyzer.handlog import (HandSpec, ReplayError, dealt_spec, parse_move,  # noqa: E402
                              parse_replay, play_spec, replay_json)
from analyzer.rules import RuleError, preset  # noqa: E402

RUB = preset("rubicon")
RANKS = "ATKQJ987"
SUITS = "SHDC"
DONE, INCOMPLETE, ILLEGAL = 0, 1, 2
COURT = set("KQJ")


# --- building deals ------------------------------------------------------------------------

def make_spec(hand0, hand1, talon="", moves=(), dealer=1, rules=None, tail=""):
    """A Rubicon deal (no turn-up, R3.1). ``talon`` is the top of the talon (drawn first);
    ``tail`` its last cards (drawn last); the rest is every other card of the four packs,
    low plain cards first. Refuses a deal that is not four whole packs (a setup error)."""
    rules = rules or RUB
    if tail:
        used = Counter(hand0.split() + hand1.split() + talon.split() + tail.split())
        middle = []
        for t in sorted(range(32), key=lambda t: (-(t % 8), t // 8)):
            middle += [card_str(t)] * (rules.packs - used.get(card_str(t), 0))
        talon = " ".join(talon.split() + middle + tail.split())
    spec = _make_spec(hand0, hand1, None, talon, moves=moves, dealer=dealer, rules=rules)
    deck = Counter(int(c) for c in spec.deck())
    wrong = [f"{card_str(t)}x{deck[t]}" for t in range(32) if deck[t] != rules.packs]
    assert not wrong and len(spec.deck()) == 128, f"test setup: not four whole packs: {wrong}"
    assert spec.turn_up is None
    return spec


def play(hand0, hand1, moves, talon="", **kw):
    return run(make_spec(hand0, hand1, talon, moves=moves, **kw))


def error_rule(o) -> str:
    m = re.search(r"\((R\d+\.\d+|Table [AB])\)\s*$", o.error or "")
    return m.group(1) if m else ""


def illegal(o, *rules):
    assert o.status == ILLEGAL, f"expected an illegal move, got status {o.status} ({o.error})"
    if rules:
        assert error_rule(o) in rules, o.error
    return o


def ok(o):
    assert o.status in (DONE, INCOMPLETE), o.error
    return o


def declared(o):
    return [(e["seat"], e["combination"], e["points"]) for e in events(o, "declare")]


# --- an independent model of the play --------------------------------------------------------

def beats(card: str, best: str, trump: str | None) -> bool:
    """R2.5 with R3.2: before trumps are fixed (trump None) no card is a trump."""
    if card[1] == best[1]:
        return RANKS.index(card[0]) < RANKS.index(best[0])   # identical card: first one wins
    return trump is not None and card[1] == trump


def legal_follows(hand: list[str], lead: str, trump: str | None) -> set[str]:
    """R2.20 (R3.3) for the second player; with no trump fixed there is no duty to trump."""
    same = [c for c in hand if c[1] == lead[1]]
    if same:
        higher = [c for c in same if beats(c, lead, trump)]
        return set(higher or same)
    trumps = [c for c in hand if trump is not None and c[1] == trump]
    return set(trumps or hand)


def strength(card: str, trump: str | None) -> tuple:
    return (card[1] == trump, -RANKS.index(card[0]))


class RDeal:
    """A Rubicon hand played move by move, with its own hands, table, talon and trump."""

    def __init__(self, hand0, hand1, talon="", tail="", dealer=1, rules=None):
        spec = make_spec(hand0, hand1, talon, dealer=dealer, rules=rules, tail=tail)
        self.rules = spec.rules
        self.dealer = spec.dealer
        self.deal_hands = [[card_str(c) for c in h] for h in spec.hands]
        self.hands = [list(h) for h in self.deal_hands]
        self.talon = [card_str(c) for c in spec.talon]
        self.stock = list(self.talon)
        self.trump = None
        self.table = [[], []]
        self.leader = (self.dealer + 1) % 2
        self.moves: list[str] = []
        self.stage = 1
        self.pending = False
        self.winners: list[int] = []
        self.first_stage_winners: list[int] = []
        self.draws: list[tuple[int, str]] = []
        self.last_winner = None

    def spec(self, moves=None):
        spec = HandSpec(self.rules, self.dealer, [[parse_card(c) for c in h] for h in self.deal_hands],
                        None, [parse_card(c) for c in self.talon])
        for i, m in enumerate(self.moves if moves is None else moves, start=1):
            row, text = parse_move(m, i, self.rules)
            spec.moves.append(row)
            spec.move_text.append(text)
        return spec

    def draw(self):
        if not self.pending:
            return
        w = self.winners[-1]
        for s in (w, 1 - w):                          # R3.3 / R2.8: winner first
            card = self.stock.pop(0)
            self.hands[s].append(card)
            self.draws.append((s, card))
        self.pending = False
        if not self.stock:                            # R2.19
            self.stage = 2
            for s in (0, 1):
                self.hands[s] += self.table[s]
                self.table[s] = []

    def trick(self, lead, follow, lead_table=False, follow_table=False) -> int:
        self.draw()
        first, second = self.leader, 1 - self.leader
        for s, c, tab in ((first, lead, lead_table), (second, follow, follow_table)):
            src = self.table[s] if tab else self.hands[s]
            assert c in src, f"test setup: seat {s} has no {c} {'on the table' if tab else 'in hand'}"
            src.remove(c)
            self.moves.append(f"{s} plays {c}" + (" from table" if tab else ""))
        w = second if beats(follow, lead, self.trump) else first
        self.winners.append(w)
        self.leader = w
        if self.stage == 1:
            self.first_stage_winners.append(w)
            self.pending = True
        elif not self.hands[w]:
            self.last_winner = w
        return w

    def _lay(self, seat, cards):
        on_table = Counter(self.table[seat])
        for c in cards.split():
            if on_table[c] > 0:
                on_table[c] -= 1
            else:
                self.hands[seat].remove(c)
                self.table[seat].append(c)

    def declare(self, seat, combo, cards):
        assert self.pending and self.winners[-1] == seat, "test setup: not the trick winner"
        self._lay(seat, cards)
        if self.trump is None and combo.split("_")[0] in ("marriage", "sequence"):
            self.trump = combo[-1]                   # R3.2
        self.moves.append(f"{seat} declares {combo} {cards}")

    def show(self, seat):
        self.draw()
        self.moves.append(f"{seat} shows carte blanche")

    def choose(self, s, lead, keep, want):
        reserve = Counter(keep[s].split())
        free = []
        for c in self.hands[s]:
            if reserve[c] > 0:
                reserve[c] -= 1
            else:
                free.append(c)
        if self.stage == 2:
            free = list(self.hands[s]) if lead is None else [
                c for c in self.hands[s] if c in legal_follows(self.hands[s], lead, self.trump)]
        assert free, f"test setup: seat {s} has nothing to play"
        key = lambda c: strength(c, self.trump)
        if lead is None:
            return max(free, key=key) if want[s] == "win" else min(free, key=key)
        winning = sorted([c for c in free if beats(c, lead, self.trump)], key=key)
        losing = sorted([c for c in free if not beats(c, lead, self.trump)], key=key)
        if want[s] == "win":
            return (winning or losing)[0]
        return (losing or winning)[0]

    def auto(self, n=None, keep=("", ""), want=("win", "lose")):
        """Play ``n`` tricks (default: to the last first-stage trick, its draws not made)."""
        count = 0
        while n is None or count < n:
            if n is None and self.stage == 1 and self.pending and len(self.stock) == 2:
                break
            self.draw()
            if self.stage == 2 and (n is None or not self.hands[self.leader]):
                break
            lead = self.choose(self.leader, None, keep, want)
            follow = self.choose(1 - self.leader, lead, keep, want)
            self.trick(lead, follow)
            count += 1
        return self

    def check(self, o):
        """The engine saw the same trick winners and draws as this model."""
        tricks = [e["seat"] for e in events(o, "trick")]
        assert tricks == self.winners[:len(tricks)]
        draws = [(e["seat"], e["card"]) for e in events(o, "draw")]
        n = min(len(draws), len(self.draws))
        assert n >= len(self.draws) - 2 and draws[:n] == self.draws[:n]
        return o

    def run(self, extra=()):
        return run(self.spec(self.moves + list(extra)))


def before_after_stage(o, kind):
    """Events of ``kind`` before and after the second_stage event."""
    i = next(i for i, e in enumerate(o.events) if e["event"] == "second_stage")
    return ([e for e in o.events[:i] if e["event"] == kind],
            [e for e in o.events[i:] if e["event"] == kind])


def random_hand(seed, policies=("random", "random"), rules=RUB, hand=0):
    o = play_spec(dealt_spec(rules, seed, hand), list(policies), seed=seed)
    assert o.status == DONE, o.error
    return o


def holdings_replay(o):
    """Walk a finished hand's events, yielding (event, holdings) with each seat's cards
    in hand or on the table just before the event (dealt + drawn - played)."""
    held = [Counter(card_str(c) for c in h) for h in o.spec.hands]
    for e in o.events:
        yield e, held
        if e["event"] == "draw":
            held[e["seat"]][e["card"]] += 1
        elif e["event"] == "play":
            held[e["seat"]][e["card"]] -= 1
            assert held[e["seat"]][e["card"]] >= 0


# Seat 1 holds only low plain cards (no A, 10, court card) in diamonds and clubs.
LOW1 = "7D 7D 7C 7C 8D 8D 8C 8C 9C"


# =============================================================================================
# R3.1  Four packs, nine cards each, no turn-up, 55 + 9 tricks
# =============================================================================================

def test_R3_1_rules_four_packs_nine_cards_no_turn_up():
    assert RUB.packs == 4 and RUB.n_cards == 128 and RUB.hand_size == 9
    assert RUB.trump != "turn_up"
    with pytest.raises(RuleError):
        preset("rubicon", hand_size=8)
    with pytest.raises(RuleError):
        preset("rubicon", packs=2)


@pytest.mark.parametrize("seed", [1, 7, 42])
def test_R3_1_deal_is_128_cards_nine_each_and_a_110_card_talon(seed):
    spec = dealt_spec(RUB, seed, 0)
    assert spec.turn_up is None
    assert [len(h) for h in spec.hands] == [9, 9]
    assert len(spec.talon) == 110
    deck = Counter(int(c) for c in spec.deck())
    assert len(spec.deck()) == 128
    assert sorted(deck) == list(range(32)) and set(deck.values()) == {4}


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_R3_1_a_whole_hand_has_55_first_stage_and_9_second_stage_tricks(seed):
    o = random_hand(seed, ("greedy", "random") if seed % 2 else ("random", "random"))
    assert not events(o, "turn_up")
    tricks1, tricks2 = before_after_stage(o, "trick")
    assert len(tricks1) == 55 and len(tricks2) == 9
    assert len(events(o, "trick")) == 64
    assert len(events(o, "draw")) == 110          # the whole talon, no turn-up
    played = Counter(e["card"] for e in events(o, "play"))
    assert sum(played.values()) == 128 and len(played) == 32 and set(played.values()) == {4}
    # every seat plays one card to each trick: 9 cards in each second-stage trick pair
    plays1, plays2 = before_after_stage(o, "play")
    assert len(plays2) == 18 and [e["seat"] for e in plays2].count(0) == 9


def test_R3_1_replay_with_a_turn_up_is_rejected():
    o = run(make_spec("AS 8H 8H 9H 9H 8D 8D 9D 9S", LOW1, moves=["0 plays AS"]))
    obj = replay_json(o)
    assert "turn_up" not in obj
    parse_replay(obj)                                  # accepted as it is
    obj = dict(obj, turn_up=obj["talon"].split()[-1])
    obj["talon"] = " ".join(obj["talon"].split()[:-1])
    with pytest.raises(ReplayError):
        parse_replay(obj)


# =============================================================================================
# R3.2  Trumps fixed by the first marriage (40) or a sequence before any marriage (250)
# =============================================================================================

@pytest.mark.parametrize("follow", ["AH", "AD", "AC", "TH", "KD"])
def test_R3_2_no_trump_before_a_marriage_high_card_of_another_suit_loses(follow):
    o = play("7S 8H 8H 9H 9H 8D 8D 9D 9D", f"{follow} 7D 7D 7C 7C 8C 8C 9C 9C",
             ["0 plays 7S", f"1 plays {follow}"])
    ok(o)
    assert events(o, "trick")[0]["seat"] == 0        # highest card of the suit led
    assert o.trump == -1 and not events(o, "trumps_fixed")


def test_R3_2_before_trumps_a_higher_card_of_the_suit_led_wins():
    o = ok(play("7S 8H 8H 9H 9H 8D 8D 9D 9D", "8S 7D 7D 7C 7C 8C 8C 9C 9C",
                ["0 plays 7S", "1 plays 8S"]))
    assert events(o, "trick")[0]["seat"] == 1


def test_R3_2_no_trump_over_many_tricks_without_declarations():
    # seat 1 always discards a card of another suit, aces and tens of every other suit:
    # the leader wins every trick while no marriage has been declared
    d = RDeal("9S 9S 9S 8S 8S 8S 7S 7S 9H", "AH AD AC AH AD AC TH TD TC",
              talon="8H 7H 8H 7H 9H 7H 8H 7H 9D 9D")
    for lead, follow in (("9S", "AH"), ("9S", "AD"), ("9S", "AC"), ("8S", "TH"), ("8S", "TD")):
        assert d.trick(lead, follow) == 0
    o = d.check(ok(d.run()))
    assert [e["seat"] for e in events(o, "trick")] == [0] * 5
    assert o.trump == -1 and o.scores == [0, 0]


@pytest.mark.parametrize("suit", list(SUITS))
def test_R3_2_first_marriage_scores_40_and_fixes_trumps(suit):
    other = "S" if suit != "S" else "H"
    h0 = f"A{other} K{suit} Q{suit} 9{other} 9{other} 8{other} 8{other} 7{other} 7{other}"
    # seat 1: low cards of the two suits that are neither ``suit`` nor ``other``, and one
    # seven of ``suit`` to trump with on the second trick
    rest = [s for s in SUITS if s not in (suit, other)]
    h1 = f"7{suit} 7{rest[0]} 7{rest[0]} 8{rest[0]} 8{rest[0]} 7{rest[1]} 7{rest[1]} 8{rest[1]} 8{rest[1]}"
    o = ok(play(h0, h1, ["0 plays A" + other, f"1 plays 7{rest[0]}",
                         f"0 declares marriage_{suit} K{suit} Q{suit}",
                         f"0 plays 9{other}", f"1 plays 7{suit}"]))
    assert declared(o) == [(0, f"marriage_{suit}", 40)]
    assert o.trump == SUITS.index(suit)
    assert [e["suit"] for e in events(o, "trumps_fixed")] == [suit]
    assert o.scores == [40, 0]
    # from now on the seven of the trump suit takes a trick led in another suit
    assert events(o, "trick")[1]["seat"] == 1


def test_R3_2_later_marriages_score_20_in_plain_suits_and_40_in_trumps():
    h0 = "AS AD AC KH QH KS QS KH QH"
    o = ok(play(h0, LOW1, ["0 plays AS", "1 plays 7D", "0 declares marriage_H KH QH",
                           "0 plays AD", "1 plays 7C", "0 declares marriage_S KS QS",
                           "0 plays AC", "1 plays 7D", "0 declares marriage_H KH QH"]))
    assert declared(o) == [(0, "marriage_H", 40), (0, "marriage_S", 20), (0, "marriage_H", 40)]
    assert len(events(o, "trumps_fixed")) == 1 and o.trump == SUITS.index("H")
    assert o.scores == [100, 0]


@pytest.mark.parametrize("suit", ["S", "C"])
def test_R3_2_sequence_before_any_marriage_scores_250_and_fixes_trumps(suit):
    other = "D" if suit != "D" else "H"
    h0 = f"A{suit} A{suit} T{suit} K{suit} Q{suit} J{suit} 9{other} 9{other} 9H"
    h1 = f"7{other} 7{other} 7{suit} 8{other} 8{other} 7H 7H 8H 8H"
    o = ok(play(h0, h1, [f"0 plays A{suit}", f"1 plays 7{other}",
                         f"0 declares sequence_{suit} A{suit} T{suit} K{suit} Q{suit} J{suit}",
                         f"0 plays 9{other}", f"1 plays 7{suit}"]))
    assert declared(o) == [(0, f"sequence_{suit}", 250)]
    assert o.trump == SUITS.index(suit) and [e["suit"] for e in events(o, "trumps_fixed")] == [suit]
    assert events(o, "trick")[1]["seat"] == 1         # the seven now trumps
    assert o.scores == [250, 0]


def test_R3_2_bezique_and_four_aces_before_a_marriage_leave_no_trump():
    # seat 0 declares a bezique and four aces: neither is a marriage or a sequence (R3.2)
    h0 = "AS AH AD AC AD QS JD 9S 9H"
    h1 = "7D 7D 7C 7C 8D 8D 8C 8C 7H"
    o = ok(play(h0, h1, ["0 plays AD", "1 plays 7D", "0 declares bezique QS JD",
                         "0 plays 9S", "1 plays 7C", "0 declares four_aces AS AH AD AC",
                         "0 plays 9H", "1 plays 8D"]))
    assert declared(o) == [(0, "bezique", 40), (0, "four_aces", 100)]
    assert o.trump == -1 and not events(o, "trumps_fixed")
    assert events(o, "trick")[2]["seat"] == 0         # 8D does not trump the 9H


def test_R3_2_sequence_after_a_bezique_is_still_before_any_marriage():
    h0 = "AD QS JD AS TS KS QS JS 9H"
    h1 = "7D 7D 7C 7C 8D 8D 8C 8C 7S"
    o = ok(play(h0, h1, ["0 plays AD", "1 plays 7D", "0 declares bezique QS JD",
                         "0 plays 9H", "1 plays 7C", "0 declares sequence_S AS TS KS QS JS"]))
    assert declared(o) == [(0, "bezique", 40), (0, "sequence_S", 250)]
    assert o.trump == SUITS.index("S")


def test_R3_2_plain_sequence_150_after_trumps_are_fixed():
    h0 = "KH QH AS TS KS QS JS AD AC"
    o = ok(play(h0, LOW1, ["0 plays AD", "1 plays 7D", "0 declares marriage_H KH QH",
                           "0 plays AC", "1 plays 7C", "0 declares sequence_S AS TS KS QS JS"]))
    assert declared(o) == [(0, "marriage_H", 40), (0, "sequence_S", 150)]
    assert o.trump == SUITS.index("H") and o.scores == [190, 0]


def test_R3_2_trump_marriage_extended_to_a_trump_sequence_scores_250():
    h0 = "KH QH AH TH JH AD AC 9S 9S"
    o = ok(play(h0, LOW1, ["0 plays AD", "1 plays 7D", "0 declares marriage_H KH QH",
                           "0 plays AC", "1 plays 7C", "0 declares sequence_H AH TH KH QH JH"]))
    assert declared(o) == [(0, "marriage_H", 40), (0, "sequence_H", 250)]
    assert o.scores == [290, 0]


def test_R3_2_marriage_after_a_sequence_fixed_trumps():
    # trumps fixed by a club sequence: a new club marriage is in trumps (40), a heart one 20
    h0 = "AC TC KC QC JC KC QC KH AD"
    h1 = "AS AS AD AD 7S 7S 7D 7D 8D"
    o = ok(play(h0, h1, ["0 plays AD", "1 plays 7D", "0 declares sequence_C AC TC KC QC JC",
                         "0 plays TC from table", "1 plays 7S", "0 declares marriage_C KC QC",
                         "0 plays KC from table", "1 plays 7S", "0 declares marriage_H KH QH"],
                talon="QH 9S 9C 9S"))
    assert declared(o) == [(0, "sequence_C", 250), (0, "marriage_C", 40), (0, "marriage_H", 20)]
    assert o.scores == [310, 0]
