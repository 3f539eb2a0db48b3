"""Games' scores: who wins a game to a target (R2.24), hands chained into games across chunks,
and a Rubicon game's score (R3.9)."""
import numpy as np
from numba import njit

from ..rules import (
    R_GAME_BONUS,
    R_GAME_MINIMUM,
    R_RUBICON_BONUS,
    R_RUBICON_LIMIT,
    R_RUBICON_MINIMUM,
    R_SCORE_UNIT,
)
from . import layout as L


@njit(cache=True, nogil=True)
def game_winner(totals, sides, last_side):
    """R2.24 once a side is at the target: the highest total wins; a tie goes to the side of
    the last trick's winner, else (the rules are silent) to the lowest side number tied."""
    best = totals[0]
    for k in range(1, sides):
        best = max(best, totals[k])
    if last_side >= 0 and totals[last_side] == best:
        return last_side
    for k in range(sides):
        if totals[k] == best:
            return k
    return -1


@njit(cache=True, nogil=True, inline="always")
def truncate(rules, points):
    """Drop fractions of the score unit (R3.9, 100): 1290 -> 1200."""
    unit = rules[R_SCORE_UNIT]
    return points // unit * unit


@njit(cache=True, nogil=True)
def compact_hands(rec, players, brisque_points, points, brisques, last_side):
    """Per hand of the records ``rec``, by side (each player, or with four players each
    partnership, seats k and k + 2: V5), what chaining hands into games needs: ``points[i, k]``
    without brisques, ``brisques[i, k]`` the brisque points, ``last_side[i]`` the side of the
    last trick's winner (-1: none). Filled in place (a kernel: a chunk's worker does it without
    holding the interpreter)."""
    sides = points.shape[1]
    for i in range(rec.shape[0]):
        for k in range(sides):
            points[i, k] = 0
            brisques[i, k] = 0
        for s in range(players):
            b = L.REC_SEAT + s * L.REC_SEAT_W
            bri = np.int64(rec[i, b + L.RS_BRISQ]) * brisque_points
            points[i, s % sides] += np.int64(rec[i, b + L.RS_SCORE]) - bri
            brisques[i, s % sides] += bri
        last = rec[i, L.REC_LAST_WINNER]
        last_side[i] = last % sides if last >= 0 else -1


@njit(cache=True, nogil=True)
def chain_games(points, brisques, last_side, target, state, out_hands, out_winner):
    """Play consecutive hands into games to ``target`` (R2.24) for the sides of ``points``
    (its columns: each player, or each partnership).

    ``points[i, k]`` are hand points without brisques, ``brisques[i, k]`` the brisque points,
    ``last_side[i]`` the side of the last trick's winner; ``state`` = (the sides' totals in
    0 .. sides - 1, the hands so far last) carries an unfinished game from one call to the
    next. Each finished game writes its length and winner (:func:`game_winner`); returns
    how many games finished.
    """
    sides = points.shape[1]
    hands_at = state.shape[0] - 1
    totals = np.zeros(sides, np.int64)
    g = 0
    for i in range(points.shape[0]):
        reached = False
        for k in range(sides):
            totals[k] = state[k] + points[i, k]
            reached |= totals[k] >= target
        if not reached:                     # brisques count unless the target was reached without
            for k in range(sides):
                totals[k] += brisques[i, k]
                reached |= totals[k] >= target
        state[hands_at] += 1
        if reached:
            out_hands[g] = state[hands_at]
            out_winner[g] = game_winner(totals, sides, last_side[i])
            g += 1
            state[:] = 0
        else:
            for k in range(sides):
                state[k] = totals[k]
    return g


DRAW = -1       # rubicon_game's winner of a drawn game (null and void, Law 61)


@njit(cache=True, nogil=True, inline="always")
def _game(rules, w, l):
    """Law 57: the winner's score on totals ``w`` over ``l``, the difference at least the
    rule set's minimum (100), plus the game bonus (500)."""
    return max(truncate(rules, w) - truncate(rules, l), rules[R_GAME_MINIMUM]) + rules[R_GAME_BONUS]


@njit(cache=True, nogil=True, inline="always")
def _rubicon(rules, w, l):
    """Laws 58-59: the winner's score on totals ``w`` over a rubiconed ``l``, the loser's
    score at least the rule set's minimum (100), plus the rubicon bonus (1300)."""
    return truncate(rules, w) + max(truncate(rules, l), rules[R_RUBICON_MINIMUM]) + rules[R_RUBICON_BONUS]


@njit(cache=True, nogil=True)
def rubicon_game(rules, total0, total1, brisques0, brisques1):
    """Score one Rubicon game (R3.9, Laws 56-61) for two players under ``rules`` (its limit,
    bonuses, minimums and score unit; rubicon_score.rubicon_result wraps it).

    ``total*`` are the hand totals without brisques, ``brisques*`` the brisque points.
    Returns (winner, points, rubicon, brisques_saved, brisques_broke_tie): the winner (0, 1,
    or DRAW when the game is null and void); the winner's game score (0 for a draw); whether
    the loser was rubiconed; whether the brisques saved from the rubicon the player who lost
    on totals (he is under the limit but reaches it with his brisques, whatever the totals
    with brisques then give); whether the brisques broke a tie of the totals. The last trick
    decides nothing more: its 50 are in the totals.
    """
    limit = rules[R_RUBICON_LIMIT]
    broke_tie = total0 == total1        # ... by the brisques, unless they are equal too
    if broke_tie and brisques0 == brisques1:
        return DRAW, 0, False, False, False                      # Law 61
    if broke_tie:
        winner = 1 if brisques1 > brisques0 else 0
    else:
        winner = 1 if total1 > total0 else 0
    loser = 1 - winner
    w, l = (total1, total0) if winner else (total0, total1)
    bw, bl = (brisques1, brisques0) if winner else (brisques0, brisques1)
    wb, lb = w + bw, l + bl
    if lb < limit:          # rubiconed (Law 58); brisques that broke a tie are not added (Law 61)
        return winner, _rubicon(rules, w, l), True, False, broke_tie
    if l >= limit:          # Law 57; after a tie broken by brisques, on the totals with them (Law 61)
        if broke_tie:
            return winner, _game(rules, wb, lb), False, False, True
        return winner, _game(rules, w, l), False, False, False
    # Law 60: the loser reaches the limit only with his brisques; both add them and the game
    # is decided on those totals (a tie cannot follow a tie broken by brisques: wb > lb then)
    if wb == lb:
        return DRAW, 0, False, True, broke_tie                   # Law 61: a tie after adding
    if wb > lb:
        return winner, _game(rules, wb, lb), False, True, broke_tie
    if wb < limit:          # the former winner, now the loser, is rubiconed: on totals without brisques
        return loser, _rubicon(rules, l, w), True, True, broke_tie
    return loser, _game(rules, lb, wb), False, True, broke_tie


@njit(cache=True, nogil=True)
def game_value(rules, total0, total1, brisques0, brisques1):
    """Seat 0's signed game score of :func:`rubicon_game`: the points if seat 0 wins, minus
    them if seat 1 wins, 0 for a draw."""
    winner, points, _r, _s, _t = rubicon_game(rules, total0, total1, brisques0, brisques1)
    if winner == DRAW:
        return np.int64(0)
    return np.int64(points) if winner == 0 else -np.int64(points)


@njit(cache=True, nogil=True)
def rubicon_games(rules, totals, brisques, out):
    """:func:`rubicon_game` for each row of ``totals``/``brisques`` ([n, 2]); row i of
    ``out`` ([n, 5]) gets its five results (a draw: winner DRAW, points 0). Returns None."""
    for i in range(totals.shape[0]):
        winner, points, rubicon, saved, broke_tie = rubicon_game(
            rules, totals[i, 0], totals[i, 1], brisques[i, 0], brisques[i, 1])
        out[i, 0] = winner
        out[i, 1] = points
        out[i, 2] = rubicon
        out[i, 3] = saved
        out[i, 4] = broke_tie
