"""Building deals for rule tests: name the cards that matter, the rest is filled in."""
from __future__ import annotations

import re
from collections import Counter

from analyzer.cards import parse_card
from analyzer.hands.hand_json import replay_json
from analyzer.hands.handlog import play_spec
from analyzer.hands.replay_file import HandSpec, dealt_spec, parse_move, parse_replay
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


# --- rare deal-time events, counted over every set of card types of their shape ----------------

Z99 = 2.5758293035489004
BEZIQUE_LEVELS = {"bezique": 1, "double_bezique": 2, "treble_bezique": 3, "quadruple_bezique": 4}
FOUR_RANKS = {"aces": 0, "kings": 2, "queens": 3, "knaves": 4}        # rank indices (cards.RANKS)


def pooled_event(name: str, rows, copies):
    """A deal-time event of ``bezique odds`` (analyzer.studies.odds.deal_odds.exact_events' names) counted
    over every set of card types of its shape, not only the set it names: the dealt hands are a
    uniformly random part of the deck, so every set of types with as many copies each is held
    alike, and the named set's exact probability is each one's. A rare event (a double bézique:
    about 1 hand in 9,000) so gets hundreds of times the sample from the same deals.

    ``rows`` [..., 32] are card counts (a hand's, or two partners' together); ``copies`` [32]
    the deck's copies of each type. Returns (hits of each row over the sets, the number of
    sets), or None for an event of no such shape."""
    import numpy as np
    from math import comb
    copies = np.asarray(copies)
    h = np.asarray(rows)            # small counts (int8): comparisons need no wider copy
    base = name.split("_", 1)[1] if name.startswith(("dealt_", "partners_")) else name

    def alike(types):           # the types with as many copies as those of ``types``
        assert len({int(copies[t]) for t in types}) == 1
        return np.flatnonzero(copies == copies[types[0]])

    def ranks(rank):            # the ranks whose four suits have as many copies as ``rank``'s
        c = copies[[s * 8 + rank for s in range(4)]]
        return [r for r in range(8) if (copies[[s * 8 + r for s in range(4)]] == c).all()]

    if base in BEZIQUE_LEVELS:               # Q♠ and J♦, k of each: any two types, k of each
        types = alike([3, 20])
        m = (h[..., types] >= BEZIQUE_LEVELS[base]).sum(-1)
        return m * (m - 1) // 2, comb(len(types), 2)
    if base in ("sequence_S", "marriage_S"):  # five (two) given types, one of each
        size = 5 if base == "sequence_S" else 2
        types = alike(list(range(size)) if size == 5 else [2, 3])
        m = (h[..., types] >= 1).sum(-1)
        table = np.array([comb(j, size) for j in range(33)])
        return table[m], comb(len(types), size)
    for kind, test in (("four_", lambda c: c.sum(-1) >= 4), ("panache_four_", lambda c: (c >= 1).all(-1))):
        if base.startswith(kind) and base[len(kind):] in FOUR_RANKS:
            rs = ranks(FOUR_RANKS[base[len(kind):]])
            hits = sum(test(h[..., [s * 8 + r for s in range(4)]]).astype(np.int64) for r in rs)
            return hits, len(rs)
    return None


def pooled_check(name: str, by_deal, copies, p):
    """(mean pooled hits per deal, their exact expectation, the 99 % half-width of the mean) of
    event ``name`` (see :func:`pooled_event`) over deals ``by_deal`` [n, units, 32] (each deal's
    hands, or its two partnerships) for the exact probability ``p`` of one set; None if the
    event has no pooled form. The deals are independent; the units of one deal are not, so a
    deal's hits are summed before the interval is taken."""
    import numpy as np
    got = pooled_event(name, by_deal, copies)
    if got is None:
        return None
    hits, sets = got
    x = hits.reshape(len(by_deal), -1).sum(-1).astype(float)
    expected = by_deal.shape[1] * sets * float(p)
    return float(x.mean()), expected, Z99 * float(x.std(ddof=1)) / np.sqrt(len(x))


def played_hand(variant: str, seed: int, hand: int, policy: str = "greedy"):
    """(spec, outcome played): hand ``hand`` of seed ``seed`` of ``variant`` played by ``policy``
    at both seats, the spec holding its moves as a replay file reads them."""
    played = play_spec(dealt_spec(preset(variant), seed, hand), [policy, policy])
    return parse_replay(replay_json(played)), played


# a hand of the game limited to a fixed point that ends in a claim of the game (V3): hand 128 of
# seed 0, learned at both seats (no greedy hand of seed 0's first 400 reaches the 1,000)
CLAIM_HAND = ("fixed_point", 0, 128)


def claim_hand():
    """(spec, outcome played) of CLAIM_HAND (:func:`played_hand`); fails if the hand no longer
    ends in a right claim, so that the tests playing it still play a claim."""
    spec, played = played_hand(*CLAIM_HAND, "learned")
    claims = [e for e in played.events if e["event"] == "game_claim"]
    assert claims and claims[-1]["right"], claims
    return spec, played
