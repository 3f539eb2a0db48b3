"""Per-hand records -> integer sums (Tallies), mergeable in any order.

All sums are integers, so a run's totals do not depend on how the hands were
split between chunks or threads.
"""
from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ..cards import N_COMBOS
from ..engine.combos import combo_points as points_now
from ..engine.game_score import chain_games, compact_hands
from ..engine.tally_kernel import (  # noqa: F401 (the bins are part of this module's interface)
    CATEGORY_NAMES,
    GAME_BIN,
    GAME_BINS,
    N_CATEGORIES,
    RUBICON_SCORE_BIN,
    SCORE_BIN,
    SCORE_BINS,
    TRICK_BINS,
    tally_hands,
)
from .records import as_structured

LENGTH_BINS = 60         # hands per game to a target (the last bin takes the rest)
TARGETS = (1000, 1500, 2000)

# name -> shape given n seats ("n" is replaced by the seat count)
FIELDS = {
    "score": ("n",), "score_sq": ("n",), "wins": ("n",), "ties": (), "brisques": ("n",),
    "brisques_sq": ("n",), "seven": ("n",), "seven_sq": ("n",), "last_trick": ("n",),
    "double_bezique": ("n",), "declarations": ("n", N_COMBOS), "decl_points": ("n", N_COMBOS),
    "table_declarations": ("n",),           # declarations of table cards alone (R3.6 (a))
    "dealer_score": ("n",), "dealer_score_sq": ("n",), "dealer_hands": ("n",),
    "score_hist": ("n", SCORE_BINS), "carte_blanche": ("n",), "bezique_level": ("n", 5),
    "trump_how": (4,), "trump_trick": (65,),
    # section 5: double bézique over the play
    # by level (double, treble, quadruple): hands by the trick (from 1) after which it was
    # first scored, and by 1 + the tricks played when its cards were first all held (0: never)
    "first_bezique": ("n", 3, TRICK_BINS), "held_bezique": ("n", 3, TRICK_BINS),
    # held a double but never scored one: a card of it was played / else the talon ran out
    "unscored_played": ("n",), "unscored_talon": ("n",), "received": ("n", 5),
    # brisque value: final margin (seat 0 - seat 1) regressed on the brisques won by seat 0
    "reg_sx": (), "reg_sy": (), "reg_sxx": (), "reg_sxy": (), "reg_syy": (),
    "winner_changed": (),
    # Rubicon games (R3.9); a drawn game (Law 61) counts in game_draws and nets 0, and the
    # winner's and loser's sums (game_wins, rubiconed, winner_points*, game_hist, loser_hist)
    # are over decided games only
    "game_wins": ("n",), "game_net": ("n",), "game_net_sq": ("n",), "rubiconed": ("n",),
    "winner_points": (), "winner_points_sq": (), "brisques_saved": (), "brisques_broke_tie": (),
    "game_draws": (),
    "game_hist": (GAME_BINS,), "loser_hist": (SCORE_BINS,),     # the loser's total (R3.9) as score_hist
    # by combination category (CATEGORY_NAMES): hands with one declared at least once,
    # declarations, points
    "cat_hands": ("n", N_CATEGORIES), "cat_count": ("n", N_CATEGORIES), "cat_points": ("n", N_CATEGORIES),
    # ordinary games to a target (R2.24), filled in order by the driver
    "game_length": (len(TARGETS), LENGTH_BINS), "target_wins": (len(TARGETS), "n"),
    # four-handed partnerships (V5), seats 0+2 and 1+3: pooled scores, hands won
    "side_score": (2,), "side_score_sq": (2,), "side_wins": (2,),
}

# The sums as one named bundle of arrays (views into one int64 buffer) for the tally kernel.
TallyFields = NamedTuple("TallyFields", [(name, np.ndarray) for name in FIELDS])
TallyFields.__module__ = __name__


def score_bin(rules) -> int:
    """Width in points of the hand-score bins of ``rules``: 10 in the ordinary game, 100 in
    Rubicon, whose scores are built of 100s (four aces), 20s and 50s: narrower bins alternate
    full and empty (10 points) or full and half-full (50 points)."""
    return RUBICON_SCORE_BIN if rules.is_rubicon else SCORE_BIN


@functools.cache
def _combo_points(rules) -> np.ndarray:
    """Row 1 + trump suit: the points of each combination with that trump suit (the
    engine's own scoring); row 0, no trump at the end, only ever meets béziques and fours.
    Cached per rule set: it is asked for once per chunk of hands."""
    arr = rules.to_array()
    pts = np.array([[points_now(arr, trump, c) for c in range(N_COMBOS)] for trump in range(-1, 4)], np.int64)
    pts.flags.writeable = False
    return pts


@functools.cache
def _layout(n_seats: int) -> tuple[list, int]:
    """Each field's (shape, start, stop) in the buffer of ``n_seats`` seats, and its size."""
    parts, start = [], 0
    for shape in FIELDS.values():
        shape = tuple(n_seats if d == "n" else d for d in shape)
        size = int(np.prod(shape))
        parts.append((shape, start, start + size))
        start += size
    return parts, start


def _restore_tallies(n_seats: int, hands: int, buffer: np.ndarray) -> Tallies:
    t = Tallies(n_seats)
    t.hands = hands
    t.buffer[:] = buffer
    return t


class Tallies:
    """Integer sums over hands, one int64 buffer (``buffer``) whose parts are named by FIELDS
    (``fields``, also readable as attributes: ``t.score``). Arrays are indexed by seat first
    where it applies; a field of shape () reads as a number."""

    def __init__(self, n_seats: int):
        parts, size = _layout(n_seats)
        buffer = np.zeros(size, np.int64)
        views = [buffer[start:stop].reshape(shape) for shape, start, stop in parts]
        object.__setattr__(self, "n_seats", n_seats)
        object.__setattr__(self, "hands", 0)
        object.__setattr__(self, "buffer", buffer)
        object.__setattr__(self, "fields", TallyFields(*views))

    def __getattr__(self, name):
        if name in FIELDS:
            view = getattr(self.fields, name)
            return view[()] if view.ndim == 0 else view
        raise AttributeError(name)

    def __setattr__(self, name, value):
        if name in FIELDS:
            getattr(self.fields, name)[...] = value
        else:
            object.__setattr__(self, name, value)

    def __reduce__(self):
        # the named fields are views of the buffer: pickle the buffer alone, so that they
        # are views of it again when unpickled (a checkpoint, a chunk from a Dask worker)
        return (_restore_tallies, (self.n_seats, self.hands, self.buffer))

    def held_double(self) -> np.ndarray:
        """Hands in which each seat held all the cards of a double bézique at some moment."""
        return self.hands - self.held_bezique[:, 0, 0]

    def add(self, other: Tallies) -> None:
        """Add another chunk's sums into this one (one addition over the buffer)."""
        self.hands += other.hands
        self.buffer += other.buffer

    @classmethod
    def from_records(cls, rec: np.ndarray, rules) -> Tallies:
        """Reduce per-hand records (rows of layout.REC_*) of ``rules`` to sums; Rubicon
        hands are scored as games (R3.9)."""
        t = cls(rules.players)
        t.hands = len(rec)
        tally_hands(rec, _rules_array(rules), rules.players, _combo_points(rules), rules.is_rubicon,
                    score_bin(rules), t.fields)
        if rules.players != 2:
            t.add_sides(rec, rules)
        return t

    def add_sides(self, rec: np.ndarray, rules) -> None:
        """Three or four players: the brisque regression and the winner changed by brisques,
        on sides (seat 0's side against the best other side); with partners (V5) also the
        partnerships' pooled hand scores (seats 0+2, 1+3) and hands won."""
        seats = as_structured(rec)["seats"]
        score = seats["score"][:, :rules.players].astype(np.int64)
        bri = seats["brisques"][:, :rules.players].astype(np.int64)
        if rules.players == 4:
            score, bri = score[:, 0:2] + score[:, 2:4], bri[:, 0:2] + bri[:, 2:4]
            self.side_score += score.sum(0)
            self.side_score_sq += (score * score).sum(0)
            self.side_wins += [int((score[:, 0] > score[:, 1]).sum()), int((score[:, 1] > score[:, 0]).sum())]
        x = bri[:, 0]
        y = score[:, 0] - score[:, 1:].max(1)
        without = score - rules.brisque_points * bri if rules.brisques == "scored" else score
        self.winner_changed += int((np.argmax(score, 1) != np.argmax(without, 1)).sum())
        self.reg_sx += int(x.sum())
        self.reg_sy += int(y.sum())
        self.reg_sxx += int((x * x).sum())
        self.reg_sxy += int((x * y).sum())
        self.reg_syy += int((y * y).sum())


@functools.cache
def _rules_array(rules) -> np.ndarray:
    arr = rules.to_array()
    arr.flags.writeable = False
    return arr


class Compact(NamedTuple):
    """A chunk's hands as chaining them into games needs them, by side (engine.game_score.compact_hands)."""

    points: np.ndarray       # int64[hands, sides]: the points without brisques
    brisques: np.ndarray     # int64[hands, sides]: the brisque points
    last_side: np.ndarray    # int64[hands]: the side of the last trick's winner (-1: none)


def compact_for_games(rec: np.ndarray, rules) -> Compact:
    """Per hand, for chaining hands into games, by side (each player, or with four players
    each partnership, V5): the points without brisques, the brisque points, the side of the
    last trick's winner."""
    n, k = len(rec), rules.sides
    c = Compact(np.empty((n, k), np.int64), np.empty((n, k), np.int64), np.empty(n, np.int64))
    compact_hands(rec, rules.players, rules.brisque_points, *c)
    return c


class GameChainer:
    """Chains consecutive hands into games to each target (R2.24), in hand order."""

    def __init__(self, sides: int = 2):
        self.state = np.zeros((len(TARGETS), sides + 1), np.int64)   # the sides' totals, the hands

    def feed(self, compact: Compact, tallies: Tallies) -> None:
        """Add the games finished by these hands (in order) to ``tallies``."""
        n, sides = compact.points.shape
        hands = np.zeros(n, np.int64)
        winners = np.zeros(n, np.int64)
        for i, target in enumerate(TARGETS):
            g = chain_games(*compact, target, self.state[i], hands, winners)
            tallies.game_length[i] += np.bincount(np.minimum(hands[:g], LENGTH_BINS - 1),
                                                  minlength=LENGTH_BINS)
            tallies.target_wins[i, :sides] += np.bincount(winners[:g], minlength=sides)[:sides]
