"""Exact deal-time probabilities (fractions) and their simulated counterparts.

Each deal-time event of ``bezique odds`` is counted over one unit, its ``per``: ``"hand"``
(every seat's dealt hand), ``"partnership"`` (the two partners' dealt hands together, four-handed
V5: seats 0+2 and 1+3) or ``"deal"`` (one whole deal: every hand and the turn-up). Card counts
come from the deck itself (:meth:`RuleSet.copies`), so the 63-card deck of three-handed
bézique (V4, one 8♣) is counted right.
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from math import comb, prod

import numpy as np
import pandas as pd

from ...cards import (
    ACE,
    KING,
    KNAVE,
    QUEEN,
    RANKS,
    SEVEN,
    TEN,
    card_id,
    card_str,
    parse_card,
    rank_of,
)
from ...engine.deals import dealt_counts
from ...numbers import share
from ...rules import RuleSet
from ...run.driver import run_chunks
from ...run.task import RunTask
from ...tables.stats import wilson_ci
from ...words import event_name

QS, JD = card_id(0, QUEEN), card_id(2, KNAVE)
FOURS = ((ACE, "aces"), (KING, "kings"), (QUEEN, "queens"), (KNAVE, "knaves"))
COURTS = [card_id(s, r) for s in range(4) for r in (KING, QUEEN, KNAVE)]


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


def p_some_hand_holds(n_cards: int, size: int, players: int, groups) -> Fraction:
    """Probability that at least one of ``players`` disjoint hands of ``size`` cards, dealt
    from ``n_cards``, includes at least ``k`` cards of each disjoint group (``groups``:
    (group size, k) pairs): one minus the share of deals in which no hand does.

    The deals are counted exactly (a multivariate hypergeometric): hand by hand, over how
    many of the copies still undealt of each group the hand takes."""
    sizes, needs = tuple(g for g, _ in groups), tuple(k for _, k in groups)

    @cache
    def misses(i: int, left: tuple) -> int:
        """Ways to deal hands i.. from what is left with no hand holding the groups."""
        if i == players:
            return 1
        others = n_cards - i * size - sum(left)
        total = 0
        for take in product(*(range(min(g, size) + 1) for g in left)):
            rest = size - sum(take)
            if 0 <= rest <= others and not all(t >= k for t, k in zip(take, needs)):
                ways = prod(comb(g, t) for g, t in zip(left, take)) * comb(others, rest)
                total += ways * misses(i + 1, tuple(g - t for g, t in zip(left, take)))
        return total

    deals = prod(comb(n_cards - i * size, size) for i in range(players))
    return 1 - Fraction(misses(0, sizes), deals)


def key_cards(key: str) -> list[int]:
    """The card types of a key of :func:`p_hand_holds`: one card (``"QS"``) or every suit of
    a rank (``"rank:A"``, or ``"rank:0"`` by rank index)."""
    if not key.startswith("rank:"):
        return [parse_card(key)]
    name = key[5:].upper().replace("10", "T")
    rank = RANKS.index(name) if len(name) == 1 and name in RANKS else int(name)
    return [card_id(s, rank) for s in range(4)]


def copies_of(rules: RuleSet, cards) -> int:
    """Copies in the deck of the card types ``cards`` (:meth:`RuleSet.copies`; a plain
    namespace of ``n_cards``, ``packs`` ... without it: ``packs`` of each)."""
    copies = getattr(rules, "copies", None)
    return sum(copies(c) if copies else rules.packs for c in cards)


def groups_of(rules: RuleSet, need: dict[str, int]) -> list[tuple[int, int]]:
    """(copies in the deck, k) of each key of ``need`` (see :func:`key_cards`)."""
    return [(copies_of(rules, key_cards(key)), k) for key, k in need.items()]


def p_hand_holds(rules: RuleSet, need: dict[str, int]) -> Fraction:
    """Probability that one dealt hand holds at least ``need[key]`` cards of each key:
    a card (``"QS"``: ``rules.copies`` of it) or a rank (``"rank:A"``: every suit's copies)."""
    return p_holds(rules.n_cards, rules.hand_size, groups_of(rules, need))


def p_partners_hold(rules: RuleSet, need: dict[str, int]) -> Fraction:
    """Probability that two partners' dealt hands together hold ``need`` (as in
    :func:`p_hand_holds`): their 2 * hand_size cards are a uniformly random subset of the
    deck, so this is a hypergeometric probability (V5)."""
    return p_holds(rules.n_cards, 2 * rules.hand_size, groups_of(rules, need))


def p_some_player_dealt(rules: RuleSet, need: dict[str, int]) -> Fraction:
    """Probability that at least one player's dealt hand holds ``need`` (as in
    :func:`p_hand_holds`)."""
    return p_some_hand_holds(rules.n_cards, rules.hand_size, rules.players, groups_of(rules, need))


def panache_need(rank: int) -> dict[str, int]:
    """The need of a panache four of ``rank`` (V2): at least one card of each suit."""
    return {card_str(card_id(s, rank)): 1 for s in range(4)}


def p_turnup_seven(rules: RuleSet) -> Fraction:
    """Probability that the turn-up is a seven (R2.2): the deck's sevens among its cards."""
    return Fraction(copies_of(rules, [card_id(s, SEVEN) for s in range(4)]), rules.n_cards)


def p_carte_blanche(rules: RuleSet) -> Fraction:
    """Probability that a dealt hand has no king, queen or knave (R3.5)."""
    courts = copies_of(rules, COURTS)
    return Fraction(comb(rules.n_cards - courts, rules.hand_size), comb(rules.n_cards, rules.hand_size))


def bezique_need(level: int) -> dict[str, int]:
    """The need of a bézique of multiplicity ``level``: that many Q♠ and J♦."""
    return {"QS": level, "JD": level}


def p_receives_bezique(rules: RuleSet, level: int) -> Fraction:
    """Probability that one player receives (is dealt or draws) at least ``level`` Q♠ and
    ``level`` J♦ over the whole hand: an upper bound on scoring that bézique.

    Each round of draws splits the talon cards between the players on the result of a
    trick played before any card is seen, so the cards a player receives are a uniformly
    random share of the cards (n_cards / players of them)."""
    return p_holds(rules.n_cards, rules.n_cards // rules.players, groups_of(rules, bezique_need(level)))


def first_stage_tricks(rules: RuleSet) -> int:
    """Tricks of the first stage: after each, every player draws one card until the talon
    (with the turn-up) is gone."""
    return (rules.n_cards - rules.players * rules.hand_size) // rules.players


def p_receives_bezique_by_trick(rules: RuleSet, level: int, tricks: int) -> Fraction:
    """Probability that one player has received at least ``level`` Q♠ and ``level`` J♦ once
    ``tricks`` tricks have been played (his dealt hand and one draw per first-stage trick):
    an upper bound on having held, and so on having scored, that bézique by then.

    As in :func:`p_receives_bezique`, each round of talon cards is split on a trick decided
    before any card is seen, so the cards received so far are a uniformly random subset
    of the deck of that size: a hypergeometric probability."""
    size = rules.hand_size + min(max(tricks, 0), first_stage_tricks(rules))
    return p_holds(rules.n_cards, size, groups_of(rules, bezique_need(level)))


def bezique_levels(rules: RuleSet) -> list[tuple[str, int]]:
    """The bézique multiplicities this rule set scores: single, double, treble, quadruple."""
    names = ["bezique", "double_bezique", "treble_bezique", "quadruple_bezique"]
    return [(names[k - 1], k) for k in range(1, rules.packs + 1)]


def hit_holds(need: dict[str, int]):
    """A ``hit`` of :func:`exact_events`: whether counts ``[..., 32]`` (a hand's, or two
    partners' together) hold ``need`` (as in :func:`p_hand_holds`)."""
    groups = [(key_cards(key), k) for key, k in need.items()]
    return lambda h, t: np.logical_and.reduce([h[..., cols].sum(-1) >= k for cols, k in groups])


def hit_some_hand(need: dict[str, int]):
    """A ``hit`` of a per-deal event: whether some hand of a deal (``[n, players, 32]``)
    holds ``need``."""
    holds = hit_holds(need)
    return lambda d, t: holds(d, t).any(-1)


def exact_events(rules: RuleSet) -> list[dict]:
    """Every deal-time event of ``bezique odds``: its ``event`` name, ``description``,
    ``exact`` probability, its unit ``per`` (``"hand"``, ``"partnership"`` or ``"deal"``, see
    the module docstring) and ``hit``, a function of (counts, turn-ups [n]) giving the
    simulated hits; the counts are [m, 32] (one row per hand, or per partnership: the two
    partners' cards together) or, per deal, the dealt hands [n, players, 32]."""
    events = []

    def add(per, name, text, p, hit):
        events.append({"event": name, "description": text, "exact": p, "per": per, "hit": hit})

    _hand_events(rules, add)
    if rules.carte_blanche != "off":
        add("hand", "carte_blanche", "a dealt hand has no K, Q or J", p_carte_blanche(rules),
            lambda h, t: h[:, COURTS].sum(1) == 0)
    if rules.players == 4:
        _partnership_events(rules, add)
    if rules.players > 2:
        add("deal", "some_player_dealt_bezique", "some player's dealt hand holds a Q♠ and a J♦",
            p_some_player_dealt(rules, bezique_need(1)), hit_some_hand(bezique_need(1)))
    if rules.trump == "turn_up":
        add("deal", "turn_up_seven", "the turn-up is a seven (R2.2)", p_turnup_seven(rules),
            lambda d, t: rank_of(t) == SEVEN)
    return events


def _hand_events(rules: RuleSet, add) -> None:
    """The events of one dealt hand: each bézique, each four (and, V2, each panache four),
    the sequence and the marriage in spades."""
    def hand(name, text, need):
        add("hand", name, text, p_hand_holds(rules, need), hit_holds(need))

    for name, k in bezique_levels(rules):
        hand(f"dealt_{name}", f"a dealt hand holds {k} Q♠ and {k} J♦ or more", bezique_need(k))
    for rank, label in FOURS:
        hand(f"dealt_four_{label}", f"a dealt hand holds four {label} or more (any suits)", {f"rank:{rank}": 4})
    if rules.panache:
        for rank, label in FOURS:
            hand(f"dealt_panache_four_{label}",
                 f"a dealt hand holds a panache four of {label} (one of each suit, V2)", panache_need(rank))
    hand("dealt_sequence_S", "a dealt hand holds A, 10, K, Q, J of spades",
         {card_str(card_id(0, r)): 1 for r in (ACE, TEN, KING, QUEEN, KNAVE)})
    hand("dealt_marriage_S", "a dealt hand holds K and Q of spades", {"KS": 1, "QS": 1})


def _partnership_events(rules: RuleSet, add) -> None:
    """Four-handed (V5): what two partners' dealt hands hold together, each partnership
    (seats 0+2, 1+3) counted."""
    def side(name, text, need):
        add("partnership", name, text, p_partners_hold(rules, need), hit_holds(need))

    for name, k in bezique_levels(rules):
        side(f"partners_{name}", f"two partners' dealt hands together hold {k} Q♠ and {k} J♦ or more",
             bezique_need(k))
    side("partners_four_aces", "two partners' dealt hands together hold four aces or more (any suits)",
         {f"rank:{ACE}": 4})


ODDS_CHUNK = 65_536        # deals per chunk of the simulated side of the odds table


def simulated_deals(rules: RuleSet, hands: int, seed: int, start: int = 0):
    """(hands[i, seat, type], turnups[i]) of deals ``start`` .. ``start + hands - 1`` of a run
    seeded ``seed``."""
    out = np.zeros((hands, rules.players, 32), np.int8)
    turnups = np.zeros(hands, np.int32)
    dealt_counts(rules.to_array(), np.uint64(seed), start, hands, out, turnups)
    return out, turnups


@lru_cache(maxsize=8)
def _events(rules: RuleSet) -> list[dict]:
    return exact_events(rules)


def units_per_deal(rules: RuleSet, per: str) -> int:
    """How many units ``per`` one deal gives an event: every hand, both partnerships, or the
    deal itself."""
    return {"hand": rules.players, "partnership": 2, "deal": 1}[per]


def event_counts(dealt: np.ndarray, per: str) -> np.ndarray:
    """What an event of unit ``per`` sees of the deals ``dealt`` [n, players, 32]: one row of
    counts per hand, or per partnership (seats 0+2, 1+3: [2n, 32]), or the deals as they are."""
    if per == "hand":
        return dealt.reshape(-1, 32)
    if per == "partnership":
        return (dealt[:, :2] + dealt[:, 2:]).reshape(-1, 32)
    return dealt


def odds_chunk(task: RunTask, start: int, count: int) -> np.ndarray:
    """Hits of each deal-time event (:func:`exact_events`) in deals ``start`` ..
    ``start + count - 1``, each over its own units. A RunTask's play."""
    rules = task.rules
    dealt, turnups = simulated_deals(rules, count, task.seed, start)
    events = _events(rules)
    counts = {per: event_counts(dealt, per) for per in {ev["per"] for ev in events}}
    return np.array([int(ev["hit"](counts[ev["per"]], turnups).sum()) for ev in events], np.int64)


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
    ``exact_decimal``) beside their frequencies in ``hands`` simulated deals with 95 % Wilson
    intervals, one row per event. An event's ``sample`` is its units (:func:`units_per_deal`):
    every seat's hand for a per-hand event (players * hands), both partnerships for a
    partnership event (2 * hands), the deals for a per-deal one (hands). The receive rows have
    no simulated value (dealt hands alone cannot show it).
    The deals are simulated in chunks on ``threads`` worker threads (or the active Dask
    backend); ``progress`` is called with the deals just simulated."""

    events = _events(rules)
    hits = run_chunks(RunTask(odds_chunk, rules, seed), hands, ODDS_CHUNK, OddsTotals(len(events)), threads,
                      progress).hits
    rows = [odds_row(ev["event"], ev["description"], ev["exact"], hit, hands * units_per_deal(rules, ev["per"]))
            for ev, hit in zip(events, hits.tolist())]
    rows += [odds_row(f"receives_{name}", f"one player receives {k} Q♠ and {k} J♦ or more over the hand "
                      "(upper bound on scoring it)", p_receives_bezique(rules, k))
             for name, k in bezique_levels(rules)[1:]]
    return pd.DataFrame(rows)


def odds_row(event: str, description: str, p: Fraction, hits: int | None = None, n: int = 0) -> dict:
    """A row of an odds table: the exact probability ``p`` beside the share of ``hits`` in ``n``
    units simulated, with its 95 % Wilson interval (``hits`` None: not simulated)."""
    row = {"event": event, "description": description, "exact": f"{p.numerator}/{p.denominator}",
           "exact_decimal": float(p)}
    if hits is None:
        return row | {"simulated": np.nan, "simulated_lo": np.nan, "simulated_hi": np.nan, "sample": 0,
                      "within_ci": None}
    share, lo, hi = (float(v) for v in wilson_ci(hits, n))
    return row | {"simulated": share, "simulated_lo": lo, "simulated_hi": hi, "sample": n,
                  "within_ci": bool(lo <= float(p) <= hi)}


def format_odds(df: pd.DataFrame, rules: RuleSet, hands: int, seed: int) -> str:
    """:func:`odds_table` as text: a line per event in words, the exact chance (a fraction and in
    per cent) beside the simulated share with its 95 % interval."""
    lines = [f"{rules.name} bézique: exact odds and {hands:,} simulated deals (seed {seed}), 95 % intervals"]
    width = max(len(event_name(e)) for e in df.event)
    for _, r in df.iterrows():
        sim = f"  simulated {share(r.simulated, r.simulated_lo, r.simulated_hi)}" if r["sample"] else ""
        lines.append(f"{event_name(r.event):<{width}}  {r.exact:>24} = {share(r.exact_decimal)}{sim}")
    return "\n".join(lines)
