"""Exact conditional odds of one seat given cards it holds (``bezique odds --hold``, issue 49).

One seat has been dealt the ``held`` cards (card types 0..31, repeats allowed, at most the hand
size) and, in a game with a turn-up, the ``turn_up`` may be known too; every other card is
unknown and the rest of the pack is shuffled fairly. For each combination — each bézique
(``k`` Q♠ and ``k`` J♦, ``k`` = 1 .. packs), each four (four aces, kings, queens, knaves of any
suits, and with the panache option (V2) also the panache four, one of each suit, as
:mod:`analyzer.studies.odds.deal_odds` lists both), each suit's marriage (K, Q of one suit) and a
sequence (A, 10, K, Q, J of one suit) — two exact figures (fractions):

``dealt_*``
    The seat HOLDS it at the deal: its whole dealt hand (the held cards and the
    ``hand_size - len(held)`` others, a uniformly random subset of the unknown cards) contains
    the combination. With nothing held this is :func:`analyzer.studies.odds.deal_odds.p_hand_holds`.
``receives_*``
    The seat RECEIVES it over the hand: the cards it is dealt and draws in the first stage
    (``hand_size + first_stage_tricks`` of them, ``n_cards / players``) contain the combination —
    an upper bound on scoring it. The definition is exact.py's (:func:`p_receives_bezique`): each
    round of talon cards is split between the players on a trick decided before any card is
    seen, so the cards a seat draws are a uniformly random share of the talon, and with the deal
    a uniformly random share of the unknown cards. A known turn-up is the talon's last card, so
    the seat receives it with chance ``first_stage_tricks / talon`` = 1 / players (R2.8: the loser
    of the last first-stage trick takes it), and the rest of its draws come from the unknown
    cards. The seven-of-trumps exchange (R2.9) is ignored, as in exact.py.

Given the held cards (and turn-up) both are multivariate hypergeometric sums over the unknown
cards, the deck (:meth:`RuleSet.copies`: the 63-card deck of V4 counted right) less the held cards
less the turn-up, computed with :func:`analyzer.studies.odds.deal_odds.p_holds`.

The marriages and the sequence: when the turn-up is given (games with ``trump="turn_up"``) the
trump suit is its suit; the marriage in it is the royal marriage (``dealt_royal_marriage``,
``receives_royal_marriage``), the other suits' are ``dealt_marriage_SUIT`` (SUIT: S, H, D, C), and
the sequence rows are ``dealt_trump_sequence`` and ``receives_trump_sequence``. When it is not
known — Rubicon (no turn-up, trumps fixed by the first marriage or sequence, R3.2), V1 (first
marriage), or an ordinary game whose turn-up is not given — no marriage is royal yet and there is no
trump sequence, and the rows are per suit: ``dealt_marriage_SUIT`` and ``dealt_sequence_SUIT`` (and
their ``receives_`` rows), the combinations of the suit that may become trumps.

With nothing held and no turn-up every figure equals exact.py's unconditional one of the same
event (``dealt_bezique``, ``dealt_four_aces``, ``dealt_sequence_S``, ``receives_double_bezique`` ...).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral

import numpy as np
import pandas as pd

from ...cards import (
    ACE,
    KING,
    KNAVE,
    N_TYPES,
    QUEEN,
    SUIT_SYMBOLS,
    SUITS,
    TEN,
    card_id,
    card_str,
    cards_str,
    suit_of,
)
from ...engine.deals import dealt_counts
from ...given_deal import GivenDeal, dealing
from ...numbers import share
from ...rules import RuleSet
from ...run.driver import run_chunks
from ...run.task import RunTask
from ...words import SUIT_SYMBOL, combination_name
from ..files import write_files
from .deal_odds import (
    FOURS,
    OddsTotals,
    bezique_levels,
    bezique_need,
    copies_of,
    first_stage_tricks,
    hit_holds,
    key_cards,
    odds_row,
    odds_table,
    p_holds,
    panache_need,
)


@dataclass(frozen=True)
class Holding:
    """What one seat knows at the deal: the ``rules``, its ``held`` card types (a sorted tuple,
    repeats allowed) and the ``turn_up`` (a card type, or None when not known or when the game
    has none). Built by :meth:`of`, which checks it: ValueError for impossible input."""

    rules: RuleSet
    held: tuple[int, ...]
    turn_up: int | None = None

    @classmethod
    def of(cls, rules: RuleSet, held=(), turn_up: int | None = None) -> "Holding":
        """Check and build a holding: ValueError unless every card is a type 0..31, the held
        cards fit the hand (at most ``hand_size``), no type is held (with the turn-up) more often
        than the deck has it, and a turn-up is given only in a game that turns one up."""
        held = tuple(held)
        for card in held + (() if turn_up is None else (turn_up,)):
            if isinstance(card, bool) or not isinstance(card, Integral) or not 0 <= card < N_TYPES:
                raise ValueError(f"not a card type: {card!r} (use 0..{N_TYPES - 1})")
        held = tuple(sorted(int(c) for c in held))
        turn_up = None if turn_up is None else int(turn_up)
        GivenDeal(held, 0, turn_up).check(rules)        # the rules' limits, as a deal given so checks them
        return cls(rules, held, turn_up)

    @property
    def unknown(self) -> int:
        """The cards the seat cannot see: the deck less the held cards and the turn-up."""
        return self.rules.n_cards - len(self.held) - (self.turn_up is not None)

    @property
    def to_deal(self) -> int:
        """The seat's dealt cards still to come: ``hand_size - len(held)``."""
        return self.rules.hand_size - len(self.held)

    @property
    def trump_suit(self) -> int | None:
        """The suit of the turn-up, or None when it is not known."""
        return None if self.turn_up is None else suit_of(self.turn_up)


def _groups(holding: Holding, need: dict[str, int], extra: tuple[int, ...] = ()) -> list[tuple[int, int]]:
    """(unknown copies, still needed) of each key of ``need`` (:func:`.deal_odds.key_cards`), the
    seat already having its held cards and ``extra`` (the turn-up when it receives it)."""
    have = Counter(holding.held + extra)
    seen = Counter(holding.held + (() if holding.turn_up is None else (holding.turn_up,)))
    out = []
    for key, k in need.items():
        cards = key_cards(key)
        unknown = copies_of(holding.rules, cards) - sum(seen[c] for c in cards)
        out.append((unknown, max(0, k - sum(have[c] for c in cards))))
    return out


def p_dealt_given(rules: RuleSet, held, need: dict[str, int], turn_up: int | None = None) -> Fraction:
    """Probability that the seat's dealt hand holds ``need`` (keys as in
    :func:`.deal_odds.p_hand_holds`: ``"QS"`` a card, ``"rank:A"`` every suit of a rank) given that
    ``held`` are among its cards (and ``turn_up`` is turned up): its other ``hand_size -
    len(held)`` cards are a uniformly random subset of the unknown cards."""
    h = Holding.of(rules, held, turn_up)
    return p_holds(h.unknown, h.to_deal, _groups(h, need))


def p_receives_given(rules: RuleSet, held, need: dict[str, int], turn_up: int | None = None) -> Fraction:
    """Probability that the seat receives ``need`` over the hand (its dealt hand and its
    first-stage draws, ``hand_size + first_stage_tricks`` cards; see the module docstring) given
    ``held`` (and ``turn_up``). Without a known turn-up its unknown cards received are a uniformly
    random subset of the unknown cards; with one, it receives the turn-up with chance
    1 / players and otherwise does not, the rest again uniform over the unknown cards."""
    h = Holding.of(rules, held, turn_up)
    size = h.to_deal + first_stage_tricks(rules)
    if h.turn_up is None:
        return p_holds(h.unknown, size, _groups(h, need))
    share = Fraction(1, rules.players)
    return (share * p_holds(h.unknown, size - 1, _groups(h, need, (h.turn_up,)))
            + (1 - share) * p_holds(h.unknown, size, _groups(h, need)))


def sequence_need(suit: int) -> dict[str, int]:
    """The need of a sequence in ``suit``: its A, 10, K, Q and J."""
    return {card_str(card_id(suit, r)): 1 for r in (ACE, TEN, KING, QUEEN, KNAVE)}


def combinations(holding: Holding) -> list[tuple[str, str, dict[str, int]]]:
    """The combinations of :func:`conditional_events`, each (name, words, need): each bézique
    level, each four (and each panache four, V2), each suit's marriage (:func:`marriages`) and
    the trump sequence when the turn-up is known, else a sequence per suit (module docstring)."""
    rules = holding.rules
    out = [(name, f"{k} Q♠ and {k} J♦ or more", bezique_need(k)) for name, k in bezique_levels(rules)]
    out += [(f"four_{label}", f"four {label} or more (any suits)", {f"rank:{rank}": 4}) for rank, label in FOURS]
    if rules.panache:
        out += [(f"panache_four_{label}", f"a panache four of {label} (one of each suit, V2)", panache_need(rank))
                for rank, label in FOURS]
    out += marriages(holding)
    if holding.trump_suit is not None:
        s = holding.trump_suit
        out.append(("trump_sequence", f"the trump sequence (A, 10, K, Q, J of {SUIT_SYMBOLS[s]}, the turn-up's suit)",
                    sequence_need(s)))
    else:
        out += [(f"sequence_{SUITS[s]}", f"A, 10, K, Q, J of {SUIT_SYMBOLS[s]} (trumps not known)", sequence_need(s))
                for s in range(4)]
    return out


def marriage_need(suit: int) -> dict[str, int]:
    """The need of a marriage in ``suit``: its K and Q."""
    return {card_str(card_id(suit, r)): 1 for r in (KING, QUEEN)}


def marriages(holding: Holding) -> list[tuple[str, str, dict[str, int]]]:
    """Each suit's marriage as :func:`combinations` lists it: with the turn-up known, the royal
    marriage (in its suit, trumps) first and then the other suits' common marriages; without, a
    marriage per suit (module docstring)."""
    trumps = holding.trump_suit
    if trumps is None:
        return [(f"marriage_{SUITS[s]}", f"K, Q of {SUIT_SYMBOLS[s]} (trumps not known)", marriage_need(s))
                for s in range(4)]
    royal = ("royal_marriage", f"the royal marriage (K, Q of {SUIT_SYMBOLS[trumps]}, the turn-up's suit)",
             marriage_need(trumps))
    return [royal] + [(f"marriage_{SUITS[s]}", f"a common marriage (K, Q of {SUIT_SYMBOLS[s]})", marriage_need(s))
                      for s in range(4) if s != trumps]


def conditional_events(rules: RuleSet, held=(), turn_up: int | None = None) -> list[dict]:
    """Every conditional event of a seat holding ``held`` (card types; ``turn_up`` known or
    None): for each combination (:func:`combinations`) a row ``dealt_NAME`` (holds it at the
    deal, :func:`p_dealt_given`) and a row ``receives_NAME`` (receives it over the hand,
    :func:`p_receives_given`). Each row: ``event``, ``description``, ``exact`` (the fraction as
    "a/b"), ``exact_decimal`` (float) and ``fraction`` (the :class:`Fraction`). ValueError on
    impossible input (:meth:`Holding.of`)."""
    h = Holding.of(rules, held, turn_up)
    given = f"given {cards_str(h.held, symbols=True) or 'nothing'} held"
    if h.turn_up is not None:
        given += f" and {card_str(h.turn_up, symbols=True)} turned up"
    rows = []

    def add(event, text, p):
        rows.append({"event": event, "description": text, "exact": f"{p.numerator}/{p.denominator}",
                     "exact_decimal": float(p), "fraction": p})

    for name, words, need in combinations(h):
        add(f"dealt_{name}", f"the seat's dealt hand holds {words}, {given}",
            p_dealt_given(rules, h.held, need, h.turn_up))
        add(f"receives_{name}", f"the seat receives {words} over the hand (dealt and drawn), {given}",
            p_receives_given(rules, h.held, need, h.turn_up))
    return rows


def conditional_odds_table(rules: RuleSet, held=(), turn_up: int | None = None) -> pd.DataFrame:
    """:func:`conditional_events` as a table: ``event``, ``description``, ``exact`` ("a/b") and
    ``exact_decimal``, one row per event."""
    rows = conditional_events(rules, held, turn_up)
    return pd.DataFrame([{k: r[k] for k in ("event", "description", "exact", "exact_decimal")} for r in rows])


GIVEN_CHUNK = 65_536       # deals per chunk of the simulated side of a given hand's odds


def given_odds_chunk(task: RunTask, start: int, count: int) -> np.ndarray:
    """Per combination (:func:`combinations`), the deals ``start`` .. ``start + count - 1``
    (dealt with the task's given hand) in which the given seat's dealt hand holds it. A
    RunTask's play."""
    rules, given = task.rules, task.given
    dealt = np.zeros((count, rules.players, N_TYPES), np.int8)
    turnups = np.zeros(count, np.int32)
    dealt_counts(task.rules_array, np.uint64(task.seed), start, count, dealt, turnups)
    seat = dealt[:, given.seat, :]
    holding = Holding.of(rules, given.held, given.turn_up)
    return np.array([int(hit_holds(need)(seat, turnups).sum()) for _n, _w, need in combinations(holding)],
                    np.int64)


def odds(rules: RuleSet, hands: int, seed: int, threads: int | None = None, progress=None,
         hold: str | None = None, seat: int = 0, turn_up: str | None = None) -> pd.DataFrame:
    """Return the deal-time odds table of ``hands`` deals: :func:`.deal_odds.odds_table`, or inside a
    :func:`analyzer.given_deal.given_deal` block the given seat's odds given its cards — each
    combination's exact chance of holding it at the deal (beside its frequency in ``hands``
    deals dealt so, with a 95 % Wilson interval) and of receiving it over the hand (exact only:
    dealt hands alone cannot show it). ``hold``, ``seat``, ``turn_up`` give the hand here
    (as :func:`analyzer.studies.play.simulate.simulate` takes them)."""
    with dealing(rules, hold, seat, turn_up) as given:
        return _odds(rules, hands, seed, threads, progress, given)


def _odds(rules: RuleSet, hands: int, seed: int, threads, progress, given) -> pd.DataFrame:
    """:func:`odds` with the hand ``given`` (None: the whole pack's odds)."""
    if given is None:
        return odds_table(rules, hands, seed, threads, progress)
    kinds = len(combinations(Holding.of(rules, given.held, given.turn_up)))
    hits = iter(run_chunks(RunTask(given_odds_chunk, rules, seed, given=given), hands, GIVEN_CHUNK,
                           OddsTotals(kinds), threads, progress).hits.tolist())
    return pd.DataFrame([odds_row(r["event"], r["description"], r["fraction"],
                                  *((next(hits), hands) if r["event"].startswith("dealt_") else ()))
                         for r in conditional_events(rules, given.held, given.turn_up)])


TRUMPS_SET_BY = {"marriage_or_sequence": "the first marriage or sequence declared sets them, R3.2",
                 "first_marriage": "the first marriage declared sets them, V1",
                 "turn_up": "the turn-up is not given"}


def trumps_text(rules: RuleSet, given: GivenDeal) -> str:
    """What the seat knows of the trumps: the turn-up's suit where the turn-up is given, else
    why they are not known."""
    if given.turn_up is not None:
        return f"{card_str(given.turn_up, symbols=True)} turned up: trumps {SUIT_SYMBOL[SUITS[suit_of(given.turn_up)]]}"
    return f"trumps not known ({TRUMPS_SET_BY.get(rules.trump, rules.trump)})"


def given_event_name(event: str) -> str:
    """A row of :func:`conditional_events` in words, for the seat it is of: ``dealt_royal_marriage``
    "the royal marriage in its dealt hand", ``receives_marriage_D`` "the marriage in ♦ received
    over the hand"."""
    kind, _, name = event.partition("_")
    return f"{combination_name(name)} {'in its dealt hand' if kind == 'dealt' else 'received over the hand'}"


def format_given_odds(df: pd.DataFrame, rules: RuleSet, given: GivenDeal, hands: int, seed: int) -> str:
    """The odds of the seat of ``given`` (:func:`odds` inside its block) as the terminal shows
    them: its hand and what it knows of the trumps, then a line per event in words, the exact
    chance and, for the dealt hand, the share of the ``hands`` deals dealt so, as percentages
    with the 95 % Wilson interval (the exact fractions are the table's)."""
    held = cards_str(given.held, symbols=True) or "no card named"
    names = [given_event_name(e) for e in df.event]
    width = max(map(len, names))
    lines = [f"{rules.name} bézique, seat {given.seat} holding {held}; {trumps_text(rules, given)}",
             f"its odds: exact, and in {hands:,} deals dealt so (seed {seed}) with the 95 % Wilson interval"]
    for name, (_, r) in zip(names, df.iterrows()):
        sim = f"  simulated {share(r.simulated, r.simulated_lo, r.simulated_hi)}" if r["sample"] else ""
        lines.append(f"{name:<{width}}  {share(r.exact_decimal):>9}{sim}")
    return "\n".join(lines)


def write_odds(df: pd.DataFrame, rules: RuleSet, out, hands: int, seed: int, threads: int | None = None) -> list:
    """Write the odds table (odds.csv, odds.parquet) and run.json into ``out``; returns the
    files written."""
    return write_files(out, threads, {"odds": df}, rules=rules.describe(), hands=hands, seed=seed)
