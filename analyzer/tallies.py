"""Per-hand records -> integer sums (Tallies), mergeable in any order.

All sums are integers, so a run's totals do not depend on how the hands were
split between chunks or threads.
"""
from __future__ import annotations

import numpy as np

from .cards import N_COMBOS
from .engine.layout import (
    REC_DEALER,
    REC_LAST_WINNER,
    REC_SEAT,
    REC_SEAT_W,
    REC_TRUMP,
    REC_TRUMP_HOW,
    REC_TRUMP_TRICK,
    RS_BEZ_MAX,
    RS_BRISQ,
    RS_CARTE,
    RS_DBL_MISS,
    RS_FIRST_B,
    RS_HELD_DBL,
    RS_LAST,
    RS_NDECL,
    RS_RECV_JD,
    RS_RECV_QS,
    RS_SCORE,
    RS_SEVEN,
)
from .game import rubicon_results

SCORE_BIN = 10
SCORE_BINS = 400         # hand scores 0 .. 3990 in bins of 10 (the last bin takes the rest)
GAME_BIN = 100
GAME_BINS = 120          # Rubicon game scores 0 .. 11900 in bins of 100
TRICK_BINS = 66          # trick numbers 0 (never) .. 64
LENGTH_BINS = 60         # hands per game to a target (the last bin takes the rest)
TARGETS = (1000, 1500, 2000)

# name -> shape given n seats ("n" is replaced by the seat count)
FIELDS = {
    "score": ("n",), "score_sq": ("n",), "wins": ("n",), "ties": (), "brisques": ("n",),
    "brisques_sq": ("n",), "seven": ("n",), "seven_sq": ("n",), "last_trick": ("n",),
    "double_bezique": ("n",), "declarations": ("n", N_COMBOS), "decl_points": ("n", N_COMBOS),
    "dealer_score": ("n",), "dealer_score_sq": ("n",), "dealer_hands": ("n",),
    "score_hist": ("n", SCORE_BINS), "carte_blanche": ("n",), "bezique_level": ("n", 5),
    "trump_how": (4,), "trump_trick": (65,),
    # section 5: double bézique over the play
    "first_bezique": ("n", 3, TRICK_BINS), "held_double": ("n",), "missed_played": ("n",),
    "missed_talon": ("n",), "received": ("n", 5),
    # brisque value: margin (seat 0 - seat 1) regressed on the brisques difference
    "reg_sx": (), "reg_sy": (), "reg_sxx": (), "reg_sxy": (), "reg_syy": (),
    "winner_changed": (),
    # Rubicon games (R3.9)
    "game_wins": ("n",), "game_net": ("n",), "game_net_sq": ("n",), "rubiconed": ("n",),
    "winner_points": (), "winner_points_sq": (), "brisques_saved": (), "brisques_broke_tie": (),
    "game_hist": (GAME_BINS,),
    # ordinary games to a target (R2.24), filled in order by the driver
    "game_length": (len(TARGETS), LENGTH_BINS), "target_wins": (len(TARGETS), "n"),
}


class Tallies:
    """Integer sums over hands. Arrays are indexed by seat first where it applies."""

    def __init__(self, n_seats: int):
        self.n_seats = n_seats
        self.hands = 0
        for name, shape in FIELDS.items():
            setattr(self, name, np.zeros(tuple(n_seats if d == "n" else d for d in shape), np.int64))

    def add(self, other: "Tallies") -> None:
        """Add another chunk's sums into this one."""
        self.hands += other.hands
        for name in FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @classmethod
    def from_records(cls, rec: np.ndarray, rules) -> "Tallies":
        """Reduce per-hand records (rows of layout.REC_*) of ``rules`` to sums; Rubicon
        hands are scored as games (R3.9)."""
        from .rules import R_POINTS, R_ROYAL_POINTS, R_TRUMP_SEQ_POINTS
        n_seats = rules.players
        rubicon = rules.brisques == "tiebreak"
        arr = rules.to_array()
        base = arr[R_POINTS:R_POINTS + N_COMBOS]
        trump = rec[:, REC_TRUMP]
        t = cls(n_seats)
        t.hands = len(rec)
        seats = range(n_seats)

        def cols(off):
            return rec[:, [REC_SEAT + s * REC_SEAT_W + off for s in seats]].astype(np.int64)

        score = cols(RS_SCORE)
        brisq = cols(RS_BRISQ) * 10
        seven = cols(RS_SEVEN)
        t.score, t.score_sq = score.sum(0), (score ** 2).sum(0)
        top = score == score.max(1, keepdims=True)
        single = top.sum(1) == 1
        t.wins = (top & single[:, None]).sum(0)
        t.ties = np.int64((~single).sum())
        t.brisques, t.brisques_sq = brisq.sum(0), (brisq ** 2).sum(0)
        t.seven, t.seven_sq = seven.sum(0), (seven ** 2).sum(0)
        t.last_trick = (cols(RS_LAST) > 0).sum(0)
        bez = cols(RS_BEZ_MAX)
        t.double_bezique = (bez >= 2).sum(0)
        t.carte_blanche = (cols(RS_CARTE) > 0).sum(0)
        held = cols(RS_HELD_DBL)
        miss = cols(RS_DBL_MISS)
        t.held_double = (held > 0).sum(0)
        t.missed_played = (miss == 1).sum(0)
        t.missed_talon = (miss == 2).sum(0)
        recv = np.minimum(cols(RS_RECV_QS), cols(RS_RECV_JD))
        for s in seats:
            b = REC_SEAT + s * REC_SEAT_W
            counts = rec[:, b + RS_NDECL:b + RS_NDECL + N_COMBOS].astype(np.int64)
            t.declarations[s] = counts.sum(0)
            pts = counts * base
            for suit in range(4):        # a marriage or sequence in trumps scores more
                in_trump = trump == suit
                pts[in_trump, suit] = counts[in_trump, suit] * arr[R_ROYAL_POINTS]
                pts[in_trump, 4 + suit] = counts[in_trump, 4 + suit] * arr[R_TRUMP_SEQ_POINTS]
            t.decl_points[s] = pts.sum(0)
            dealt = rec[:, REC_DEALER] == s
            t.dealer_score[s] = score[dealt, s].sum()
            t.dealer_score_sq[s] = (score[dealt, s] ** 2).sum()
            t.dealer_hands[s] = dealt.sum()
            t.score_hist[s] = np.bincount(np.minimum(score[:, s] // SCORE_BIN, SCORE_BINS - 1),
                                          minlength=SCORE_BINS)
            t.bezique_level[s] = np.bincount(bez[:, s], minlength=5)[:5]
            for k in range(3):
                first = np.clip(rec[:, b + RS_FIRST_B + k], 0, TRICK_BINS - 1)
                t.first_bezique[s, k] = np.bincount(first, minlength=TRICK_BINS)
            t.received[s] = [(recv[:, s] >= k).sum() for k in range(5)]
        t.trump_how = np.bincount(np.where(rec[:, REC_TRUMP] < 0, 3, rec[:, REC_TRUMP_HOW]),
                                  minlength=4)[:4].astype(np.int64)
        fixed = rec[:, REC_TRUMP] >= 0
        t.trump_trick = np.bincount(np.clip(rec[fixed, REC_TRUMP_TRICK], 0, 64), minlength=65).astype(np.int64)
        if n_seats != 2:
            return t
        x = (brisq[:, 0] - brisq[:, 1]) // 10
        if rubicon:
            g = rubicon_results(score, brisq, rec[:, REC_LAST_WINNER])
            won = np.stack([g["winner"] == 0, g["winner"] == 1], axis=1)
            net = np.where(won, g["points"][:, None], -g["points"][:, None])
            t.game_wins, t.game_net, t.game_net_sq = won.sum(0), net.sum(0), (net ** 2).sum(0)
            t.rubiconed = (~won & g["rubicon"][:, None]).sum(0)
            t.winner_points = np.int64(g["points"].sum())
            t.winner_points_sq = np.int64((g["points"] ** 2).sum())
            t.brisques_saved = np.int64(g["brisques_saved"].sum())
            t.brisques_broke_tie = np.int64(g["brisques_broke_tie"].sum())
            t.game_hist = np.bincount(np.minimum(g["points"] // GAME_BIN, GAME_BINS - 1),
                                      minlength=GAME_BINS).astype(np.int64)
            y = net[:, 0]
            by_totals = np.where(score[:, 0] != score[:, 1], (score[:, 1] > score[:, 0]).astype(int),
                                 rec[:, REC_LAST_WINNER])
            t.winner_changed = np.int64((by_totals != g["winner"]).sum())
        else:
            y = score[:, 0] - score[:, 1]
            without = y - (brisq[:, 0] - brisq[:, 1])
            t.winner_changed = np.int64((np.sign(y) != np.sign(without)).sum())
        t.reg_sx, t.reg_sy = np.int64(x.sum()), np.int64(y.sum())
        t.reg_sxx, t.reg_sxy, t.reg_syy = (np.int64((x * x).sum()), np.int64((x * y).sum()),
                                           np.int64((y * y).sum()))
        return t


def compact_for_games(rec: np.ndarray) -> np.ndarray:
    """Per hand (points without brisques, brisque points, last-trick winner) for chaining
    hands into games: columns p0, p1, b0, b1, last."""
    cols = [REC_SEAT + s * REC_SEAT_W for s in (0, 1)]
    out = np.empty((len(rec), 5), np.int64)
    for s, c in enumerate(cols):
        out[:, 2 + s] = rec[:, c + RS_BRISQ].astype(np.int64) * 10
        out[:, s] = rec[:, c + RS_SCORE] - out[:, 2 + s]
    out[:, 4] = rec[:, REC_LAST_WINNER]
    return out


class GameChainer:
    """Chains consecutive hands into games to each target (R2.24), in hand order."""

    def __init__(self):
        self.state = np.zeros((len(TARGETS), 3), np.int64)

    def feed(self, compact: np.ndarray, tallies: Tallies) -> None:
        """Add the games finished by these hands (in order) to ``tallies``."""
        from .engine.games import chain_games
        n = len(compact)
        hands = np.zeros(n, np.int64)
        winners = np.zeros(n, np.int64)
        pts = np.ascontiguousarray(compact[:, 0:2])
        bri = np.ascontiguousarray(compact[:, 2:4])
        last = np.ascontiguousarray(compact[:, 4])
        for i, target in enumerate(TARGETS):
            g = chain_games(pts, bri, last, target, self.state[i], hands, winners)
            tallies.game_length[i] += np.bincount(np.minimum(hands[:g], LENGTH_BINS - 1),
                                                  minlength=LENGTH_BINS)
            tallies.target_wins[i] += np.bincount(winners[:g], minlength=2)[:2]
