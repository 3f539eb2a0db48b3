"""What one seat sees of a :class:`~analyzer.field.core.Hand`: its information state (all it has
seen, in order: perfect recall) and its observation (the position now), each as text and as a
tensor, for the OpenSpiel game's observers and the PettingZoo environment.

The information state: the rules, the seat, the dealer, the cards dealt to it, the turn-up, then
every move of both seats (all public: the cards played, the declarations, exchanges, claims and
stops), with the cards a move laid on the table from the hand or showed (carte blanche), and the
cards the seat itself drew. The other hand and the talon never enter it. As a tensor: the
observation (below), the cards dealt to the seat, the turn-up, the dealt hand the other seat
showed (carte blanche, R3.5), and the moves, one row each (:data:`HISTORY_W` numbers), as many
rows as a hand can have decisions (core.max_decisions).

The observation: the engine's observation of the seat now (``api.observe`` with the seat's public
record, layout OBS_* up to OBS_TRUE), the cards known to be in each hand counted as every seat
knows them (core.Hand.known).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..actions import DECISION_NAMES, action_str
from ..cards import N_TYPES, SUITS, card_str, suit_of
from ..engine import api
from ..engine import layout as L
from ..engine.observe import PUB_KNOWN
from ..rules import RuleSet
from .core import N_ACTIONS, Hand, max_decisions

OBS_WIDTH = L.OBS_TRUE
"""The engine's observation of a seat, without the part only the cheating ceilings fill."""
HISTORY_W = 5
"""A move's row: the seat + 1, the action + 1, the card the observing seat drew after it + 1 (0:
none), and the cards the move laid or showed, four a number (each card + 1, in base 33)."""
CARDS_PER_WORD = 4
BASE = N_TYPES + 1
CARD_NAMES = tuple(card_str(t) for t in range(N_TYPES))
TYPES = np.arange(N_TYPES)


def names(cards, empty: str = "") -> str:
    """Cards in notation, space-separated (``analyzer.cards.cards_str``, from a table); ``empty``
    for none."""
    if isinstance(cards, np.ndarray):
        cards = cards.tolist()            # plain ints index the table several times faster
    return " ".join(map(CARD_NAMES.__getitem__, cards)) or empty


def count_names(counts, empty: str = "") -> str:
    """Return :func:`names` of the cards ``counts`` holds (how many of each card type: 32
    numbers, a list or an array), ascending."""
    return _count_names(tuple(counts.tolist() if isinstance(counts, np.ndarray) else counts), empty)


@lru_cache(maxsize=1 << 14)
def _count_names(counts: tuple[int, ...], empty: str) -> str:
    """:func:`count_names`, kept for the counts seen lately (a hand, a table or the cards played
    change by a card or two a move, and OpenSpiel asks for a position's text again and again)."""
    return names(TYPES.repeat(counts), empty)


def array_names(cards: np.ndarray) -> str:
    """Return :func:`names` of the cards of array ``cards``."""
    return _array_names(cards.tobytes(), cards.dtype.str)


@lru_cache(maxsize=1 << 10)
def _array_names(data: bytes, dtype: str) -> str:
    """:func:`array_names`, kept for the arrays seen lately (the talon changes little from move
    to move)."""
    return names(np.frombuffer(data, dtype))


def info_state_shapes(rules: RuleSet) -> list[tuple[str, tuple[int, ...]]]:
    """The pieces of the information-state tensor, in order: (name, shape)."""
    return [("observation", (OBS_WIDTH,)), ("dealt", (N_TYPES,)), ("turn_up", (N_TYPES,)),
            ("shown", (N_TYPES,)), ("history", (max_decisions(rules), HISTORY_W))]


def observation_vector(hand: Hand, seat: int, out: np.ndarray) -> None:
    """Write seat ``seat``'s observation into ``out`` (OBS_WIDTH numbers): the engine's
    (:func:`seat_observation`) once the hand is dealt; while dealing, its cards so far, its seat,
    the dealer and the turn-up where dealt."""
    if hand.st is not None:
        out[:] = _observed(hand, seat)[:OBS_WIDTH]
        return
    out[:] = 0
    for t in hand.dealt_cards(seat):
        out[L.OBS_HAND + t] += 1
    up = hand.turn_up()
    out[L.OBS_DECISION] = -1
    out[L.OBS_SEAT] = seat
    out[L.OBS_N_SEATS] = 2
    out[L.OBS_PACKS] = hand.rules.packs
    out[L.OBS_DEALER_REL] = (hand.dealer - seat) % 2 if hand.dealer >= 0 else -1
    out[L.OBS_TURNUP] = up
    out[L.OBS_TRUMP] = suit_of(up) if up >= 0 else -1
    out[L.OBS_LEAD_CARD] = out[L.OBS_BEST_CARD] = out[L.OBS_BEST_REL] = -1


def seat_observation(hand: Hand, seat: int) -> np.ndarray:
    """The engine's observation of seat ``seat`` (``api.observe``, its public record filled: a
    copy, int32[OBS_SIZE]), with the cards known to be in each hand as every seat knows them
    (core.Hand.known, not the engine's count, which depends on the hidden cards)."""
    return _observed(hand, seat).copy()


def _observed(hand: Hand, seat: int) -> np.ndarray:
    """:func:`seat_observation`, made once a position (kept in ``hand.now``, read-only: the
    copies of the hand taken at this position share it)."""
    obs = hand.now.get(("observation", seat))
    if obs is None:
        api.observe(hand.arr, hand.st, seat)
        obs = hand.st.obs[seat].copy()
        for r in (0, 1):
            at = L.OBS_PUBLIC + r * L.OBS_PUBLIC_W + PUB_KNOWN
            obs[at:at + N_TYPES] = hand.known[(seat + r) % 2]
        obs.flags.writeable = False
        hand.now["observation", seat] = obs
    return obs


def cards_words(cards) -> tuple[int, int]:
    """Up to eight cards (ascending) as two numbers, four cards each in base 33 (card + 1)."""
    words = [0, 0]
    if len(cards) > 2 * CARDS_PER_WORD:
        raise ValueError(f"{len(cards)} cards do not fit a history row")
    for i, c in enumerate(cards):
        words[i // CARDS_PER_WORD] += (c + 1) * BASE ** (i % CARDS_PER_WORD)
    return words[0], words[1]


def own_draw(hand: Hand, k: int, seat: int) -> int:
    """The card seat ``seat`` drew after move ``k`` (-1: none)."""
    return next((card for s, card in hand.drawn[k] if s == seat), -1)


def deal_showed(hand: Hand, k: int) -> bool:
    """Whether move ``k`` showed a dealt hand (carte blanche before the first card)."""
    _seat, action, kind = hand.moves[k]
    return kind == L.D_CARTE and action == L.A_CARTE_BLANCHE and len(hand.shown[k]) != 1


def info_state_tensor(hand: Hand, seat: int, pieces: dict) -> None:
    """Fill ``pieces`` (arrays of :func:`info_state_shapes`) with seat ``seat``'s information
    state."""
    observation_vector(hand, seat, pieces["observation"])
    for name in ("turn_up", "shown"):
        pieces[name].fill(0)
    pieces["dealt"][:] = np.bincount(hand.dealt_cards(seat), minlength=N_TYPES)
    if hand.turn_up() >= 0:
        pieces["turn_up"][hand.turn_up()] = 1
    for k, (s, _action, kind) in enumerate(hand.moves):
        if kind != L.D_CARTE:          # the dealt hands' round of carte blanche comes first
            break
        if s != seat and deal_showed(hand, k):
            for t in hand.shown[k]:
                pieces["shown"][t] += 1
    pieces["history"][:] = _history(hand, seat)


def _row(hand: Hand, k: int, seat: int) -> tuple:
    """Move ``k``'s row of seat ``seat``'s history (HISTORY_W numbers)."""
    s, action, _kind = hand.moves[k]
    words = (0, 0) if deal_showed(hand, k) else cards_words(hand.shown[k])
    return (s + 1, action + 1, own_draw(hand, k, seat) + 1, *words)


class RowBuffer:
    """Rows of a seat's history, shared by a hand and its copies: ``rows[:filled]`` made so far,
    the rest zeros (as an array, so that filling a tensor costs one copy, not one conversion a
    move)."""

    def __init__(self, capacity: int):
        # float32, as the tensor is: a row's largest number, 33**4, is exact in it
        self.rows, self.filled = np.zeros((capacity, HISTORY_W), np.float32), 0

    def own(self, n: int) -> RowBuffer:
        """This buffer if its rows are those of a hand with ``n`` rows (no copy of the hand has
        gone past them), else a new one with those ``n``."""
        if self.filled == n:
            return self
        new = RowBuffer.__new__(RowBuffer)
        new.rows, new.filled = np.zeros_like(self.rows), n
        new.rows[:n] = self.rows[:n]
        return new


def _history(hand: Hand, seat: int) -> np.ndarray:
    """Seat ``seat``'s history rows (max_decisions rows, zeros after the moves so far). The hand's
    memo keeps (buffer, its rows in it); the rows of the moves since are added in place, where
    no copy of the hand has added others (moves are only ever added)."""
    buffer, n = hand.memo.get(("history", seat)) or (RowBuffer(max_decisions(hand.rules)), 0)
    buffer = buffer.own(n)
    for k in range(n, len(hand.moves)):
        buffer.rows[k] = _row(hand, k, seat)
    buffer.filled = len(hand.moves)
    hand.memo["history", seat] = (buffer, buffer.filled)
    return buffer.rows


def _line(hand: Hand, k: int, seat: int) -> str:
    """Move ``k``'s line of seat ``seat``'s information state."""
    s, action, _kind = hand.moves[k]
    line = f"{s} {move_name(action)}"
    if hand.shown[k]:
        line += f" ({names(hand.shown[k])})"
    drew = own_draw(hand, k, seat)
    return line + (f"; draws {CARD_NAMES[drew]}" if drew >= 0 else "")


def _lines(hand: Hand, seat: int) -> list[str]:
    """Seat ``seat``'s line of every move so far. The hand's memo keeps (list, its lines in it),
    the list shared by the hand's copies; the lines of the moves since are appended in place,
    where no copy of the hand has appended others (moves are only ever added)."""
    lines, n = hand.memo.get(("lines", seat)) or ([], 0)
    if len(lines) != n:
        lines = lines[:n]
    lines += (_line(hand, k, seat) for k in range(n, len(hand.moves)))
    hand.memo["lines", seat] = (lines, len(lines))
    return lines


def info_state_string(hand: Hand, seat: int) -> str:
    """Seat ``seat``'s information state as text: a line for the game, the seat and the dealer,
    its dealt cards, the turn-up, then one line a move (``1 play JH``, ``0 declare four_kings (KS
    KH KD KC)``, ``0 stop; draws QS``)."""
    dealer = hand.dealer if hand.dealer >= 0 else "?"
    lines = [f"bezique {hand.rules.name}; seat {seat}; dealer {dealer}",
             "hand " + names(hand.dealt_cards(seat))]
    if hand.turn_up() >= 0:
        lines.append("turn-up " + card_str(hand.turn_up()))
    return "\n".join(lines + _lines(hand, seat))


def move_name(action: int) -> str:
    """An action code in short words: ``play QS``, ``play QS from table``, ``declare bezique``,
    ``stop`` (the end of a declaration window, carte blanche kept hidden, or playing on)."""
    return "stop" if action == L.A_STOP else action_str(action)


MOVE_NAMES = tuple(move_name(a) for a in range(N_ACTIONS))
"""``MOVE_NAMES[a]``: :func:`move_name` of every action code."""


def observation_string(hand: Hand, seat: int) -> str:
    """The position as seat ``seat`` sees it now: the stage and trick, trumps, the turn-up and
    the talon, its hand, both tables, the cards known to be in the other hand, the cards played,
    the trick in progress, the scores and brisques, and who is to act."""
    other = 1 - seat
    if hand.st is None:
        dealer = f"dealer {hand.dealer}" if hand.dealer >= 0 else "no dealer yet"
        text = (f"bezique {hand.rules.name}; seat {seat}; {dealer}; dealing, {len(hand.deck)} of "
                f"{hand.rules.n_cards} cards dealt\nhand: {names(hand.dealt_cards(seat), '-')}")
        return text + (f"\nturn-up {card_str(hand.turn_up())}" if hand.turn_up() >= 0 else "")
    obs = _observed(hand, seat)
    o = obs[:L.OBS_PUBLIC].tolist()        # plain ints: read and formatted several times faster
    counts = lambda base: count_names(o[base:base + N_TYPES], '-')
    stage = "first stage" if o[L.OBS_STAGE] == 1 else "second stage"
    trumps = SUITS[o[L.OBS_TRUMP]] if o[L.OBS_TRUMP] >= 0 else "none yet"
    up = f"; turn-up {card_str(o[L.OBS_TURNUP])}" if o[L.OBS_TURNUP] >= 0 else ""
    trick = [card_str(c) for c in o[L.OBS_TRICK_CARDS:L.OBS_TRICK_CARDS + 2] if c >= 0]
    known = L.OBS_PUBLIC + L.OBS_PUBLIC_W + PUB_KNOWN
    lines = [(f"bezique {hand.rules.name}; seat {seat}; dealer {hand.dealer}; {stage}, trick "
              f"{o[L.OBS_TRICK] + 1}; trumps {trumps}{up}; talon {o[L.OBS_TALON_LEFT]}"),
             f"hand: {counts(L.OBS_HAND)}",
             f"table {seat}: {counts(L.OBS_TABLE)}; table {other}: {counts(L.OBS_TABLE + 32)}",
             f"known in hand {other}: {count_names(obs[known:known + N_TYPES], '-')}",
             f"played: {counts(L.OBS_PLAYED)}",
             f"trick: {' '.join(trick) or '-'}",
             (f"scores {seat}: {o[L.OBS_SCORE]}, {other}: {o[L.OBS_SCORE + 1]}; brisques {seat}: "
              f"{o[L.OBS_BRISQUES]}, {other}: {o[L.OBS_BRISQUES + 1]}")]
    if hand.is_over():
        lines.append("hand over")
    else:
        lines.append(f"to act: {hand.player} ({DECISION_NAMES[o[L.OBS_DECISION]]})")
    return "\n".join(lines)
