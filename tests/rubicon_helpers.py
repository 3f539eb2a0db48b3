"""Building and checking Rubicon deals for the rule tests (no turn-up, four packs, R3.1)."""
from __future__ import annotations

from collections import Counter

from helpers import DONE, INCOMPLETE, ILLEGAL, error_rule, events, illegal, run  # noqa: F401
from helpers import make_spec as _make_spec

from analyzer.cards import card_str
from analyzer.rules import preset

RUB = preset("rubicon")                                   # R3.6 by the laws (portland)
REPLACE = preset("rubicon", redeclare="replace")          # the earlier readings, kept as options
SAME = preset("rubicon", redeclare="same_or_higher")
LOW1 = "7D 7D 7C 7C 8D 8D 8C 8C 9C"       # a seat 1 that never wins a trick led in S or H


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
    """Replay ``moves`` on the deal; the HandOutcome."""
    return run(make_spec(hand0, hand1, talon, moves=moves, **kw))


def ok(o):
    """Assert the replay had no illegal move."""
    assert o.status in (DONE, INCOMPLETE), o.error
    return o


def declared(o):
    """(seat, combination, points) of every declaration."""
    return [(e["seat"], e["combination"], e["points"]) for e in events(o, "declare")]


def claims(o):
    """(seat, combination or None, cards laid) of every claim."""
    return [(e["seat"], e["combination"], e["cards"]) for e in events(o, "claim")]
