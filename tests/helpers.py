"""Building deals for rule tests: name the cards that matter, the rest is filled in."""
from __future__ import annotations

import re
from collections import Counter

from analyzer.cards import parse_card
from analyzer.hands.handlog import play_spec
from analyzer.hands.replay_file import HandSpec, parse_move
from analyzer.rules import preset


def cards(text: str) -> list[int]:
    """``"AS TS 7H"`` -> card ids."""
    return [parse_card(c) for c in text.split()]


def make_spec(hand0: str, hand1: str, turn_up: str | None = "9C", talon: str = "",
              moves=(), dealer: int = 1, rules=None, filler_order: str | None = None) -> HandSpec:
    """A deal with the given hands (seat 0, seat 1), turn-up and top of the talon; the
    rest of the talon is every remaining card in a fixed order (low plain cards first,
    so that they rarely matter). ``dealer=1`` makes seat 0 the eldest hand (leads first).
    """
    rules = rules or preset("ordinary")
    h0, h1, top = cards(hand0), cards(hand1), cards(talon)
    used = Counter(h0 + h1 + top + (cards(turn_up) if turn_up else []))
    rest = []
    order = cards(filler_order) if filler_order else sorted(range(32), key=lambda t: (-(t % 8), t // 8))
    for t in order:
        rest += [t] * (rules.packs - used.get(t, 0))
    spec = HandSpec(rules, dealer, [h0, h1], cards(turn_up)[0] if turn_up else None, top + rest)
    for i, m in enumerate(moves, start=1):
        row, text = parse_move(m, i, rules)
        spec.moves.append(row)
        spec.move_text.append(text)
    return spec


def run(spec: HandSpec):
    """Replay the spec's moves; return the HandOutcome."""
    return play_spec(spec)


DONE, INCOMPLETE, ILLEGAL = 0, 1, 2     # hand status of a replay


def error_rule(o) -> str:
    """The rule id an illegal move's message ends with (``R2.20``, ``R3.6``, ``Table B`` …)."""
    m = re.search(r"\((R\d+\.\d+|V\d+|Table [AB])\)\s*$", o.error or "")
    return m.group(1) if m else ""


def illegal(o, *rules):
    """Assert the replay stopped at an illegal move naming one of ``rules``."""
    assert o.status == ILLEGAL, f"expected an illegal move, got status {o.status} ({o.error})"
    if rules:
        assert error_rule(o) in rules, o.error
    return o


def events(outcome, kind: str) -> list[dict]:
    """The outcome's events of one kind."""
    return [e for e in outcome.events if e["event"] == kind]


def first_progress_line(proc) -> str:
    """Read a running ``bezique`` process's stderr up to its first progress line ("simulate:
    N of M hands (..."), past the start line and any compile notice: the run is then under way."""
    while True:
        line = proc.stderr.readline()
        assert line, "the process ended before any progress"
        if " hands (" in line:
            return line


def assert_margin(row: dict, measured: float) -> None:
    """A strength claim held to its measured size: ``row`` (a compare row) is clear of zero and
    its 99 % interval holds ``measured``, the margin of a larger run on other deals. A player
    much weaker (or stronger) than measured fails, not only one that loses."""
    mean, half = row["mean_diff"], (row["mean_diff_hi"] - row["mean_diff_lo"]) / 2 * 2.576 / 1.96
    assert row["mean_diff_lo"] > 0, row
    assert mean - half <= measured <= mean + half, (measured, mean, half)
