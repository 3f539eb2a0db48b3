"""Exact deal-time probabilities (fractions) and their simulated counterparts."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from .cards import ACE, KING, KNAVE, QUEEN, TEN, card_id
from .rules import RuleSet

if TYPE_CHECKING:
    import pandas as pd

QS, JD = card_id(0, QUEEN), card_id(2, KNAVE)


def p_holds(n_cards: int, size: int, groups) -> Fraction:
    """Probability that ``size`` cards drawn from ``n_cards`` include at least ``k``
    cards of each disjoint group, ``groups`` being (group size, k) pairs."""
    others = n_cards - sum(g for g, _ in groups)
    total = 0

    def rec(i, used, ways):
        nonlocal total
        if i == len(groups):
            if 0 <= size - used <= others:
                total += ways * comb(others, size - used)
            return
        g, k = groups[i]
        for j in range(k, min(g, size - used) + 1):
            rec(i + 1, used + j, ways * comb(g, j))

    rec(0, 0, 1)
    return Fraction(total, comb(n_cards, size))


def p_hand_holds(rules: RuleSet, need: dict[str, int]) -> Fraction:
    """Probability that one dealt hand holds at least ``need[key]`` cards of each key:
    a card (``"QS"``: ``packs`` copies) or a rank (``"rank:A"``: ``4 * packs`` copies)."""
    groups = [(4 * rules.packs if key.startswith("rank:") else rules.packs, k) for key, k in need.items()]
    return p_holds(rules.n_cards, rules.hand_size, groups)


def p_turnup_seven(rules: RuleSet) -> Fraction:
    """Probability that the turn-up is a seven (R2.2): 4 * packs sevens among the cards."""
    return Fraction(4 * rules.packs, rules.n_cards)


def p_carte_blanche(rules: RuleSet) -> Fraction:
    """Probability that a dealt hand has no king, queen or knave (R3.5)."""
    courts = 12 * rules.packs
    return Fraction(comb(rules.n_cards - courts, rules.hand_size), comb(rules.n_cards, rules.hand_size))


def p_receives_bezique(rules: RuleSet, level: int) -> Fraction:
    """Probability that one player receives (is dealt or draws) at least ``level`` Q♠ and
    ``level`` J♦ over the whole hand: an upper bound on scoring that bézique.

    Each round of draws splits two talon cards between the players on the result of a
    trick played before either card is seen, so the cards a player receives are a
    uniformly random half of the cards (n_cards / players of them)."""
    return p_holds(rules.n_cards, rules.n_cards // rules.players, [(rules.packs, level)] * 2)


def first_stage_tricks(rules: RuleSet) -> int:
    """Tricks of the first stage: after each, every player draws one card until the talon
    (with the turn-up) is gone."""
    return (rules.n_cards - rules.players * rules.hand_size) // rules.players


def p_receives_bezique_by_trick(rules: RuleSet, level: int, tricks: int) -> Fraction:
    """Probability that one player has received at least ``level`` Q♠ and ``level`` J♦ once
    ``tricks`` tricks have been played (his dealt hand and one draw per first-stage trick):
    an upper bound on having held, and so on having scored, that bézique by then.

    As in :func:`p_receives_bezique`, each pair of talon cards is split on a trick decided
    before either card is seen, so the cards received so far are a uniformly random subset
    of the packs of that size: a hypergeometric probability."""
    size = rules.hand_size + min(max(tricks, 0), first_stage_tricks(rules))
    return p_holds(rules.n_cards, size, [(rules.packs, level)] * 2)


def bezique_levels(rules: RuleSet) -> list[tuple[str, int]]:
    """The bézique multiplicities this rule set scores: single, double, treble, quadruple."""
    names = ["bezique", "double_bezique", "treble_bezique", "quadruple_bezique"]
    return [(names[k - 1], k) for k in range(1, rules.packs + 1)]


def exact_events(rules: RuleSet) -> list[dict]:
    """Every deal-time event of ``bezique odds``: name, description, exact probability,
    and a function of (dealt counts [n, 32], turn-ups [n]) giving the simulated hits."""
    events = []

    def add(name, text, p, hit):
        events.append({"event": name, "description": text, "exact": p, "hit": hit})

    for name, k in bezique_levels(rules):
        add(f"dealt_{name}", f"a dealt hand holds {k} Q♠ and {k} J♦ or more",
            p_hand_holds(rules, {"QS": k, "JD": k}),
            lambda h, t, k=k: (h[:, QS] >= k) & (h[:, JD] >= k))
    for rank, label in ((ACE, "aces"), (KING, "kings"), (QUEEN, "queens"), (KNAVE, "knaves")):
        cols = [card_id(s, rank) for s in range(4)]
        add(f"dealt_four_{label}", f"a dealt hand holds four {label} or more (any suits)",
            p_hand_holds(rules, {f"rank:{rank}": 4}), lambda h, t, cols=cols: h[:, cols].sum(1) >= 4)
    seq = [card_id(0, r) for r in (ACE, TEN, KING, QUEEN, KNAVE)]
    add("dealt_sequence_S", "a dealt hand holds A, 10, K, Q, J of spades",
        p_holds(rules.n_cards, rules.hand_size, [(rules.packs, 1)] * 5),
        lambda h, t: (h[:, seq] >= 1).all(1))
    mar = [card_id(0, KING), card_id(0, QUEEN)]
    add("dealt_marriage_S", "a dealt hand holds K and Q of spades",
        p_holds(rules.n_cards, rules.hand_size, [(rules.packs, 1)] * 2),
        lambda h, t: (h[:, mar] >= 1).all(1))
    if rules.carte_blanche != "off":
        courts = [card_id(s, r) for s in range(4) for r in (KING, QUEEN, KNAVE)]
        add("carte_blanche", "a dealt hand has no K, Q or J", p_carte_blanche(rules),
            lambda h, t: h[:, courts].sum(1) == 0)
    if rules.trump == "turn_up":
        add("turn_up_seven", "the turn-up is a seven (R2.2)", p_turnup_seven(rules),
            lambda h, t: t % 8 == 7)
    return events


ODDS_CHUNK = 65_536        # deals per chunk of the simulated side of the odds table


def simulated_deals(rules: RuleSet, hands: int, seed: int, start: int = 0):
    """(hands[i, seat, type], turnups[i]) of deals ``start`` .. ``start + hands - 1`` of a run
    seeded ``seed``."""
    from .engine.deals import dealt_counts
    out = np.zeros((hands, rules.players, 32), np.int8)
    turnups = np.zeros(hands, np.int32)
    dealt_counts(rules.n_cards, rules.players, rules.hand_size, rules.trump == "turn_up",
                 np.uint64(seed), start, hands, out, turnups)
    return out, turnups


@lru_cache(maxsize=8)
def _events(rules: RuleSet) -> list[dict]:
    return exact_events(rules)


def odds_chunk(rules: RuleSet, seed: int, start: int, count: int) -> np.ndarray:
    """Hits of each deal-time event (:func:`exact_events`) in deals ``start`` ..
    ``start + count - 1``. A backend's task."""
    dealt, turnups = simulated_deals(rules, count, seed, start)
    per_hand = dealt.reshape(-1, 32)
    return np.array([int(ev["hit"](None, turnups).sum()) if ev["event"] == "turn_up_seven"
                     else int(ev["hit"](per_hand, None).sum()) for ev in _events(rules)], np.int64)


class OddsTotals:
    """The merged hits of each event over the deals simulated so far."""

    def __init__(self, n_events: int):
        self.hits = np.zeros(n_events, np.int64)

    def merge(self, hits: np.ndarray) -> None:
        """Add one chunk's hits."""
        self.hits += hits


def odds_table(rules: RuleSet, hands: int, seed: int, threads: int | None = None,
               progress=None) -> pd.DataFrame:
    """Return a table of exact deal-time probabilities (``exact`` as a fraction,
    ``exact_decimal``) beside their frequencies in ``hands`` simulated deals (seat 0's hand
    and seat 1's hand both counted: 2 * hands hands) with 95 % Wilson intervals, one row
    per event; the receive rows have no simulated value (dealt hands alone cannot show it).
    The deals are simulated in chunks on ``threads`` worker threads (or the active Dask
    backend); ``progress`` is called with the deals just simulated."""
    import pandas as pd

    from .driver import run_chunks
    from .stats import wilson_ci
    events = _events(rules)
    hits = run_chunks(odds_chunk, (rules, seed), hands, ODDS_CHUNK, OddsTotals(len(events)), threads,
                      progress).hits
    rows = []
    for ev, hit in zip(events, hits.tolist()):
        n = hands if ev["event"] == "turn_up_seven" else hands * rules.players
        share, lo, hi = wilson_ci(hit, n)
        p = ev["exact"]
        rows.append({"event": ev["event"], "description": ev["description"],
                     "exact": f"{p.numerator}/{p.denominator}", "exact_decimal": float(p),
                     "simulated": float(share), "simulated_lo": float(lo), "simulated_hi": float(hi),
                     "sample": n, "within_ci": bool(lo <= float(p) <= hi)})
    for name, k in bezique_levels(rules)[1:]:
        p = p_receives_bezique(rules, k)
        rows.append({"event": f"receives_{name}",
                     "description": f"one player receives {k} Q♠ and {k} J♦ or more over the hand "
                                    "(upper bound on scoring it)",
                     "exact": f"{p.numerator}/{p.denominator}", "exact_decimal": float(p),
                     "simulated": np.nan, "simulated_lo": np.nan, "simulated_hi": np.nan,
                     "sample": 0, "within_ci": None})
    return pd.DataFrame(rows)
