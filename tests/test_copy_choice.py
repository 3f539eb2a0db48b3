"""Which copies a declaration uses (R2.12-R2.17, R3.6, R3.7): the engine's choice never makes a
later declaration illegal that another choice of identical copies would have allowed.

Random sequences of events for one seat (cards received, declarations, claims naming cards,
plays from the table and the hand) are played on the engine's kernels and, beside them, on a
plain reading of the rules over explicit histories (tests/reference_melds.py). The reference
follows the engine's own choices, and must agree with every legality answer the engine gives.
It also follows every *other* choice of copies the player could have made at each
declaration since the last play from the table: the same cards from the hand, any eligible
table copies, but never more new copies (never scored) of a card type than the engine spent.
Wherever any of those histories could declare (or claim), the engine must accept.

Two choices are left out because no rule can make them right for every future: which
*different* card supplies a new card (the K♥ or the Q♥ of a marriage, the suits of a four:
either may be wanted later), and which copy a play from the table gives up when two copies
are each better for a different later combination (a K♥ married, a K♥ in a four). So the other histories restart
from the engine's at every play from the table, where the engine gives up the most used copy.
Under the Portland reading (R3.6 (c)) a third: when a fresh set of copies could make a sequence
or a double (treble …) bézique, the engine keeps the restoration of that combination and raises
the fresh copies, which can then no longer join the marriage or the lower bézique; spending the
restoration on copies already at that level keeps them for the lower combination instead. Either
may be the one wanted later, so the other histories never spend a restoration there that the
engine kept. (For marriages, fours and single béziques keeping it is never worse, and tested.)
The American reading (R2.17) is left out too: there a Q♠ spent on a bézique is barred from
both marriage and four, and which of two Q♠ to spend depends on which of those comes later.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from reference_melds import Seat, combo_level, combo_types

from analyzer.cards import COMBO_NAMES, card_str, parse_card
from analyzer.engine import layout as L
from analyzer.engine.combos import combo_allowed
from analyzer.engine.copies import select_copies
from analyzer.engine.melds import (
    claim_cards,
    claim_cards_failure,
    claim_possible,
    combo_check,
    declare,
    play_from_table,
)
from analyzer.engine.state import add_hand, new_state
from analyzer.rules import preset

# few kinds of card, so that identical copies pile up; those of several combinations at once
# (K♥ Q♥ in a marriage, a sequence and fours; Q♠ in béziques, a marriage and four queens) most
POOL = [parse_card(c) for c in "AH TH KH QH JH KS QS JD KD QD".split()]
WEIGHT = {parse_card(c): 3.0 for c in "KH QH QS JD".split()}
COMBOS = [c for c in range(16) if combo_types(c) <= set(POOL) or c >= 12]
READINGS = {
    "portland": preset("rubicon"),
    "replace": preset("rubicon", redeclare="replace"),
    "same_or_higher": preset("rubicon", redeclare="same_or_higher"),
    "higher": preset("ordinary", packs=3),
}
MAX_BRANCHES = 40


class Engine:
    """Seat 0's state in the engine's arrays, driven through the kernels."""

    def __init__(self, rules, trump):
        self.rules = rules.to_array()
        self.st = new_state(False)
        self.G, self.P, self.T, self.obs = self.st.G, self.st.P, self.st.T, self.st.obs
        self.G[L.G_TRUMP] = trump
        self.G[L.G_NSEATS] = 2
        work = self.st.work                  # the kernels' scratch regions (layout W_*)
        self.req_t = work[L.W_REQ_T:L.W_REQ_T + L.REQ_W]
        self.req_n = work[L.W_REQ_N:L.W_REQ_N + L.REQ_W]
        self.work = work[L.W_SELECT:L.W_SELECT + L.SEL_W]
        self.four = np.full(4, -1, np.int64)

    def receive(self, t):
        add_hand(self.P, self.obs, 0, t, 1)

    def legal(self, c):
        return combo_check(self.rules, self.G, self.P, self.T, 0, c, self.req_t, self.req_n)[0]

    def choice(self, c):
        """(table slots, hand cards by type, new copies spent by type: hand and never scored)
        the engine would use for ``c``; also checks claim_possible against it."""
        nreq, n_chosen, total_hand = select_copies(self.rules, self.st, 0, c, self.four)
        slots = [int(k) for k in self.work[L.SEL_CHOSEN:L.SEL_CHOSEN + n_chosen]]
        took = self.work[L.SEL_FROM_HAND:L.SEL_FROM_HAND + nreq]
        hand = Counter({int(self.req_t[i]): int(took[i]) for i in range(nreq) if took[i]})
        assert claim_possible(self.rules, self.G, self.P, self.T, 0, c, self.req_t, self.req_n) == (total_hand > 0)
        new = hand + Counter(int(self.T[0, k, L.T_CARD]) for k in slots if self.T[0, k, L.T_SCORED] == 0)
        return slots, hand, new

    def declare(self, c):
        n_before = int(self.P[0, L.P_NTABLE])
        declare(self.rules, self.st, 0, c, self.four)
        return [int(self.T[0, k, L.T_CARD]) for k in range(n_before, int(self.P[0, L.P_NTABLE]))]

    def claim_ok(self, cards):
        row = np.full(L.S_MAX_CARDS, -1, np.int32)
        row[:len(cards)] = cards
        return claim_cards_failure(self.rules, self.G, self.P, self.T, 0, row, self.req_t, self.req_n)[0] < 0, row

    def claim(self, row):
        claim_cards(self.rules, self.st, 0, row)

    def play_table(self, t):
        return play_from_table(self.rules, self.P, self.T, self.obs, 2, 0, t)

    def play_hand(self, t):
        add_hand(self.P, self.obs, 0, t, -1)


def alternatives(seat: Seat, c, hand: Counter, new: Counter, kept_restoration: bool = False):
    """Seat ``seat`` declaring ``c`` with the same hand cards as the engine and, of each card
    type, no more new copies than the engine spent (``new``): each resulting state. With
    ``kept_restoration`` (portland: the engine's set was fresh) and ``c`` above the lowest step of
    its class, not the sets that spend a restoration of ``c`` (see the module docstring)."""
    for ks, h in seat.choices(c):
        spent = h + Counter(seat.table[k].card for k in ks if seat.is_new(seat.table[k]))
        if h != hand or any(n > new[t] for t, n in spent.items()):
            continue
        if kept_restoration and combo_level(c) >= 2 and any(seat.shares(seat.table[k], c) for k in ks):
            continue
        alt = seat.clone()
        alt.declare(c, ks, h)
        yield alt


def describe(log, *seats):
    """The last events, and the tables of the seats named (engine's history first)."""
    out = log[-30:]
    for name, seat in seats:
        out.append(f"{name}: " + show(seat))
    return "\n".join(out)


def show(seat: Seat) -> str:
    """Each table copy with the combinations it was declared in (W: still whole), and the hand."""
    cells = []
    for cp in seat.table:
        hist = ",".join(COMBO_NAMES[seat.instances[i].combo] + ("(W)" if seat.instances[i].whole else "")
                        for i in cp.history)
        cells.append(f"{card_str(cp.card)}[{hist}]")
    return " ".join(cells) + " | hand " + " ".join(card_str(t) for t in sorted(seat.hand.elements()))


def run_sequence(reading: str, seed: int, steps: int = 60) -> int:
    """One random sequence; returns how many declarations the engine made."""
    rules = READINGS[reading]
    rng = np.random.default_rng(seed)
    trump = int(rng.integers(0, 4)) if rules.claims else 1      # hearts: the sequence in the pool
    eng = Engine(rules, trump)
    combos = [c for c in COMBOS if combo_allowed(eng.rules, trump, c)]     # Table A / Table B
    mirror = Seat(reading, rules.claims)
    branches = []                 # other histories: Seats
    left = Counter({t: rules.packs for t in POOL})
    log = [f"{reading} seed {seed} trump {'SHDC'[trump]}"]
    declared = 0

    def receive():
        avail = [t for t in POOL if left[t] > 0]
        w = np.array([WEIGHT.get(t, 1.0) for t in avail])
        t = int(rng.choice(avail, p=w / w.sum()))
        left[t] -= 1
        eng.receive(t)
        for s in [mirror] + branches:
            s.hand[t] += 1
        log.append(f"receive {card_str(t)}")

    for _ in range(9):
        receive()
    for _ in range(steps):
        held = sum(mirror.hand.values()) + len(mirror.table)
        op = rng.choice(["receive", "declare", "claim", "play_table", "play_hand"],
                        p=[0.3, 0.35, 0.1 if rules.claims else 0.0, 0.2, 0.05 if rules.claims else 0.15])
        if op == "receive" and held < 14 and any(left[t] for t in POOL):
            receive()
        elif op == "declare":
            some = [c for c in combos if any(s.legal(c) for s in [mirror] + branches)]
            c = int(rng.choice(some)) if some and rng.random() < 0.85 else int(rng.choice(combos))
            got = eng.legal(c)
            log.append(f"declare {COMBO_NAMES[c]}: engine {'legal' if got else 'refused'}")
            assert got == mirror.legal(c), "engine and plain reading disagree on the engine's own history\n" + describe(log)
            if not got:
                other = next((s for s in branches if s.legal(c)), None)
                assert other is None, ("refused, though another choice of copies earlier would allow it\n"
                                       + describe(log, ("engine", mirror), ("other", other)))
            if not got:
                continue
            slots, hand, new = eng.choice(c)
            assert any(sorted(ks) == sorted(slots) and h == hand for ks, h in mirror.choices(c)), (
                "the engine's choice is not legal by the plain reading\n" + describe(log))
            kept = reading == "portland" and not any(mirror.shares(mirror.table[k], c) for k in slots)
            nxt = list(alternatives(mirror, c, hand, new, kept))
            for s in branches:
                nxt += list(alternatives(s, c, hand, new, kept))
            laid = eng.declare(c)
            mirror.declare(c, slots, hand, laid)
            log.append(f"  engine uses slots {slots} and {sorted(card_str(t) for t in hand.elements())} from the hand")
            declared += 1
            seen = {mirror.signature()}
            branches = []
            for s in nxt:
                sig = s.signature()
                if sig not in seen:
                    seen.add(sig)
                    branches.append(s)
            if len(branches) > MAX_BRANCHES:
                branches = [branches[i] for i in rng.choice(len(branches), MAX_BRANCHES, replace=False)]
        elif op == "claim" and sum(mirror.hand.values()):
            hand = list(mirror.hand.elements())
            cards = [int(x) for x in rng.choice(hand, int(rng.integers(1, min(3, len(hand)) + 1)), replace=False)]
            ok, row = eng.claim_ok(cards)
            log.append(f"claim {' '.join(card_str(t) for t in cards)}: engine {'legal' if ok else 'refused'}")
            assert ok == mirror.claim_legal(cards), "engine and plain reading disagree on a claim\n" + describe(log)
            if not ok:
                other = next((s for s in branches if s.claim_legal(cards)), None)
                assert other is None, ("claim refused, though another choice of copies earlier would allow it\n"
                                       + describe(log, ("engine", mirror), ("other", other)))
            if ok:
                eng.claim(row)
                branches = [s for s in branches if s.claim_legal(cards)]
                for s in [mirror] + branches:
                    s.claim(cards)
        elif op == "play_table" and mirror.table:
            t = int(rng.choice([cp.card for cp in mirror.table]))
            k = eng.play_table(t)
            assert k == mirror.slot_to_play(t), "engine and documented play rule disagree\n" + describe(log)
            log.append(f"play {card_str(t)} from table (slot {k})")
            mirror.play_table(k)
            branches = []
        elif op == "play_hand" and sum(mirror.hand.values()):
            t = int(rng.choice(list(mirror.hand.elements())))
            eng.play_hand(t)
            for s in [mirror] + branches:
                s.hand[t] -= 1
            log.append(f"play {card_str(t)} from hand")
    return declared


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_R3_6_R3_7_no_choice_of_identical_copies_bars_a_later_declaration(reading):
    declared = sum(run_sequence(reading, seed) for seed in range(120))
    assert declared > 400            # the sequences do declare (not vacuous)
