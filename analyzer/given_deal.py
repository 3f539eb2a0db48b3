"""A deal given in part: one seat's dealt cards (``--hold``) and the turn-up (``--turn-up``)
named, the rest of the pack dealt fairly, as bridge analysts fix the cards they know and deal
the rest.

:func:`given_deal` makes a block inside which every run deals so (a RunTask packs the active
:class:`GivenDeal` into the kernels' rule array: ``R_DEAL_*`` in rules.py; engine/deals.py
``deal_cards`` places the named cards and shuffles the others into the other places from the
same stream). With no hand given every run deals as before, card for card.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

from .cards import card_str, parse_card
from .errors import BeziqueError
from .rules import MAX_HELD, R_DEAL_CARDS, R_DEAL_N, R_DEAL_SEAT, R_DEAL_TURN_UP, RuleSet


class DealError(BeziqueError, ValueError):
    """A given hand the rules cannot deal."""


@dataclass(frozen=True)
class GivenDeal:
    """What a deal is given: ``held``, the card types seat ``seat`` is dealt (repeats allowed),
    and ``turn_up``, the turned-up card's type (None: dealt fairly)."""

    held: tuple[int, ...] = ()
    seat: int = 0
    turn_up: int | None = None

    def check(self, rules: RuleSet) -> None:
        """DealError unless ``rules`` can deal this: a seat of the table, no more cards than a
        hand, no more copies of a card than the pack holds, a turn-up only where one is turned."""
        if not 0 <= self.seat < rules.players:
            raise DealError(f"there is no seat {self.seat} in a {rules.players}-handed game "
                            f"(seats 0-{rules.players - 1})")
        if len(self.held) > rules.hand_size:
            raise DealError(f"{len(self.held)} cards held, more than a hand of {rules.hand_size}")
        if self.turn_up is not None and rules.trump != "turn_up":
            raise DealError(f"no card is turned up in {rules.name} bézique (trumps: {rules.trump}); "
                            "drop --turn-up")
        named = Counter(self.held) + Counter([] if self.turn_up is None else [self.turn_up])
        for card, n in sorted(named.items()):
            if n > rules.copies(card):
                raise DealError(f"{n} copies of {card_str(card)} named; the {rules.n_cards}-card pack "
                                f"holds {rules.copies(card)}")

    def pack(self, arr: np.ndarray) -> np.ndarray:
        """``arr`` (a rule array, RuleSet.to_array) with this deal's slots filled."""
        arr[R_DEAL_SEAT] = self.seat
        arr[R_DEAL_N] = len(self.held)
        arr[R_DEAL_CARDS:R_DEAL_CARDS + len(self.held)] = self.held
        arr[R_DEAL_TURN_UP] = -1 if self.turn_up is None else self.turn_up
        return arr

    def describe(self) -> dict:
        """The given hand for run.json and reports: the cards in the project's notation."""
        return {"hold": " ".join(card_str(c) for c in self.held), "seat": self.seat,
                "turn_up": None if self.turn_up is None else card_str(self.turn_up)}


def parse_given(rules: RuleSet, hold: str | None = None, seat: int = 0, turn_up: str | None = None) -> GivenDeal | None:
    """Return the GivenDeal of ``hold`` (cards in the project's notation, e.g. "QS JD AH AC", spaces or
    commas between them), ``seat`` and ``turn_up`` (one card), checked against ``rules``; None
    when nothing is given. DealError (one line) for a card that is not one or a hand the rules
    cannot deal."""
    if hold is None and turn_up is None:
        if seat != 0:
            raise DealError("--seat says whose cards --hold names: give --hold too")
        return None
    try:
        held = tuple(parse_card(c) for c in (hold or "").replace(",", " ").split())
        up = None if turn_up is None else parse_card(turn_up.strip())
    except ValueError as e:
        raise DealError(str(e)) from None
    if len(held) > MAX_HELD:
        raise DealError(f"{len(held)} cards held, more than a hand")
    given = GivenDeal(held, seat, up)
    given.check(rules)
    return given


_ACTIVE: ContextVar = ContextVar("bezique_given_hand", default=None)


def active_given() -> GivenDeal | None:
    """The hand an enclosing :func:`given_deal` gives, if any."""
    return _ACTIVE.get()


@contextmanager
def given_deal(given: GivenDeal | None) -> Iterator[GivenDeal | None]:
    """Deal every run inside the block with ``given`` (None: fairly, as outside); returns
    (yields) ``given``."""
    token = _ACTIVE.set(given)
    try:
        yield given
    finally:
        _ACTIVE.reset(token)


@contextmanager
def dealing(rules: RuleSet, hold: str | None = None, seat: int = 0,
            turn_up: str | None = None) -> Iterator[GivenDeal | None]:
    """The block of the Python API's ``hold=``, ``seat=``, ``turn_up=`` (as :func:`parse_given`
    reads them): deals given so inside it, or, when none is given, as the enclosing block deals."""
    given = parse_given(rules, hold, seat, turn_up)
    if given is None:
        yield active_given()
        return
    with given_deal(given):
        yield given
