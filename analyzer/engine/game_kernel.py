"""Whole games to a target (R2.24, V3, V4, V5): hands played one after another, the deal
rotating, until a side reaches the target or claims the game (V3).

Unlike single hands, the hands of a game depend on each other: a claim of the game (V3)
counts the game total carried into the hand. So the kernel plays game after game itself,
writes each hand's record, and keeps, per game, its length, winner and claim, and for the
chart of the chance of winning, the score difference of each side after each hand.
"""
from typing import NamedTuple

import numpy as np
from numba import njit, types

from ..rules import R_BRISQUE_POINTS, R_BRISQUES_SCORED, R_PLAYERS, R_TARGET
from .batch import policy_error, seed_policies, write_record
from .deals import deal_cards
from .game_score import game_winner
from .hand import deal_into
from .variant_moves import set_game_totals
from .layout import (
    AFTER_HANDS,
    DIFF_BINS,
    DIFF_STEP,
    GAME_CLAIM_RIGHT,
    G_GAME_CLAIM,
    G_LAST_WINNER,
    MAX_SEATS,
    MAX_TALON,
    P_BRISQ,
    P_SCORE,
)
from .play import play_out
from .policy_data import PLAYERS_TYPE
from .state import new_state

GAME_HANDS = 256         # hands a game may last (hand stream ids: game * GAME_HANDS + hand)
(GR_HANDS, GR_WINNER, GR_CLAIM, GR_CLAIM_RIGHT) = range(4)
GR_TOTALS = 4            # MAX_SEATS: each side's final game total
GR_W = GR_TOTALS + MAX_SEATS


class GamesOut(NamedTuple):
    """What a chunk of games writes, preallocated by the caller and filled in place (run_games)."""

    records: np.ndarray      # int32[rows, REC_W]: one record per hand played
    games: np.ndarray        # int64[games, GR_W]: one row per game
    chance: np.ndarray       # int64[MAX_SEATS, AFTER_HANDS, DIFF_BINS, 2]: counts, added to
    err: np.ndarray          # int64[5]: a policy's error (hand, seat, action, decision), then the rows written


GAMES_OUT_TYPE = types.NamedTuple((types.int32[:, ::1], types.int64[:, ::1], types.int64[:, :, :, ::1],
                                   types.int64[::1]), GamesOut)
GAMES_SIG = types.int64(types.int64[::1], types.uint64, types.int64, types.int64, PLAYERS_TYPE, GAMES_OUT_TYPE)


@njit(cache=True, nogil=True, inline="always")
def side_of(seat, n):
    """The side a seat plays for: itself, or with four players its partnership (seat % 2)."""
    return seat % 2 if n == 4 else seat


@njit(cache=True, nogil=True)
def claim_winner(claim):
    """V3, two players: the winner of a game claimed (G_GAME_CLAIM: the claimer + GAME_CLAIM_RIGHT if
    he was right): the claimer if right, else his opponent."""
    claimer = claim % GAME_CLAIM_RIGHT
    return claimer if claim >= GAME_CLAIM_RIGHT else 1 - claimer


@njit(GAMES_SIG, cache=True, nogil=True)
def run_games(rules, seed, start, count, players, out):
    """Play games ``start`` .. ``start + count - 1`` to ``target`` (the rules' target), into
    ``out`` (a :class:`GamesOut`): one record row per hand into ``records`` and one row per game
    into ``games`` (GR_*); ``chance[side, after, bin, 0]`` counts a side's score differences to
    the best other side after each hand but the last, ``[..., 1]`` those after which the side
    went on to win. Stops before a game whose hands might not fit in ``records``: returns the
    games played (err[4]: the rows written), or minus a status when a policy returns an illegal
    action (err: hand, seat, action, decision)."""
    records, games, chance, err = out
    n = rules[R_PLAYERS]
    sides = 2 if n == 4 else n
    target = rules[R_TARGET]
    st = new_state(False)
    deck = np.zeros(MAX_TALON, np.int32)
    dstate = np.zeros(1, np.uint64)
    totals = np.zeros(MAX_SEATS, np.int64)
    seat_totals = np.zeros(MAX_SEATS, np.int64)
    diffs = np.zeros((GAME_HANDS, MAX_SEATS), np.int64)
    hand_pts = np.zeros(MAX_SEATS, np.int64)
    hand_bri = np.zeros(MAX_SEATS, np.int64)
    row = 0
    for i in range(count):
        if row + GAME_HANDS > records.shape[0]:
            err[4] = row
            return i
        g = start + i
        totals[:] = 0
        winner = -1
        claim = -1
        k = 0
        while winner < 0 and k < GAME_HANDS:
            hand = g * GAME_HANDS + k
            dealer = (g + k) % n
            deal_cards(rules, seed, hand, dealer, deck, dstate)
            deal_into(rules, st, deck, dealer)
            for s in range(n):               # a seat's claim counts its side's total (V3)
                seat_totals[s] = totals[side_of(s, n)]
            set_game_totals(rules, st, seat_totals)
            seed_policies(st.rngs, seed, hand)
            status = play_out(rules, st, players)
            if status != 0:
                return -policy_error(st, hand, status, err)
            write_record(rules, st, dealer, status, records[row])
            row += 1
            k += 1
            claim = st.G[G_GAME_CLAIM]
            hand_pts[:] = 0
            hand_bri[:] = 0
            for s in range(n):
                bri = rules[R_BRISQUE_POINTS] * st.P[s, P_BRISQ] if rules[R_BRISQUES_SCORED] else 0
                hand_bri[side_of(s, n)] += bri
                hand_pts[side_of(s, n)] += st.P[s, P_SCORE] - bri
            if claim >= 0:                   # V3: a claim ends the game, right or wrong
                for k2 in range(sides):
                    totals[k2] += hand_pts[k2] + hand_bri[k2]
                winner = claim_winner(claim)
                break
            reached = False
            for k2 in range(sides):
                reached |= totals[k2] + hand_pts[k2] >= target
            for k2 in range(sides):          # R2.24: brisques count unless the target was
                totals[k2] += hand_pts[k2]   # reached without them
                if not reached:
                    totals[k2] += hand_bri[k2]
            at_target = False
            for k2 in range(sides):
                at_target |= totals[k2] >= target
            if at_target:
                last = st.G[G_LAST_WINNER]
                winner = game_winner(totals, sides, side_of(last, n) if last >= 0 else -1)
            else:
                for k2 in range(sides):
                    other = np.int64(-(1 << 40))
                    for k3 in range(sides):
                        if k3 != k2:
                            other = max(other, totals[k3])
                    diffs[k - 1, k2] = totals[k2] - other
        row_g = games[i]
        row_g[:] = 0
        row_g[GR_HANDS] = k
        row_g[GR_WINNER] = winner
        row_g[GR_CLAIM] = claim % GAME_CLAIM_RIGHT if claim >= 0 else -1
        row_g[GR_CLAIM_RIGHT] = claim >= GAME_CLAIM_RIGHT
        for k2 in range(sides):
            row_g[GR_TOTALS + k2] = totals[k2]
        if winner >= 0:                      # the hands before the last, by their outcome
            for h in range(k - 1):
                a = min(h, AFTER_HANDS - 1)
                for k2 in range(sides):
                    b = (diffs[h, k2] + DIFF_STEP // 2) // DIFF_STEP + DIFF_BINS // 2
                    b = min(max(b, 0), DIFF_BINS - 1)
                    chance[k2, a, b, 0] += 1
                    chance[k2, a, b, 1] += k2 == winner
    err[4] = row
    return count
