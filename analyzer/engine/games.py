"""Games: chaining hands into games to a target (R2.24), carried across chunks, and
scoring a Rubicon game (R3.9)."""
import numpy as np
from numba import njit

from ..rules import R_GAME_BONUS, R_RUBICON_BONUS, R_RUBICON_LIMIT, R_SCORE_UNIT


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


@njit(cache=True)
def chain_games(points, brisques, last_side, target, state, out_hands, out_winner):
    """Play consecutive hands into games to ``target`` (R2.24) for the sides of ``points``
    (its columns: each player, or each partnership).

    ``points[i, k]`` are hand points without brisques, ``brisques[i, k]`` the brisque points,
    ``last_side[i]`` the side of the last trick's winner; ``state`` = (the sides' totals in
    0 .. sides - 1, the hands so far last) carries an unfinished game from one call to the
    next. Each finished game writes its length and winner (game_kernel.game_winner); returns
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


@njit(cache=True, nogil=True, inline="always")
def _higher(a, b, brisques_a, brisques_b, last_is_b):
    """(1 if side b wins the comparison of ``a`` and ``b`` else 0, whether the brisques broke
    a tie): totals first, a tie by brisques, a tie in both by the last trick (R3.9)."""
    if a != b:
        return (1 if b > a else 0), False
    if brisques_a != brisques_b:
        return (1 if brisques_b > brisques_a else 0), True
    return (1 if last_is_b else 0), False


@njit(cache=True, nogil=True)
def rubicon_game(rules, total0, total1, brisques0, brisques1, last_trick_winner):
    """Score one Rubicon game (R3.9) for two players under ``rules`` (its limit, bonuses and
    score unit; game.rubicon_result wraps it).

    ``total*`` are the hand totals without brisques, ``brisques*`` the brisque points.
    Returns (winner, points, rubicon, brisques_saved, brisques_broke_tie): the winner's
    game score; whether the loser was rubiconed; whether the brisques saved from the rubicon
    the player who lost on totals (he is under 1000 but reaches it with his brisques, even if
    the former winner is then rubiconed); whether the brisques broke a tie, on totals or,
    once both added their brisques, on totals with brisques.
    """
    limit = rules[R_RUBICON_LIMIT]
    totals = (total0, total1)
    bri = (brisques0, brisques1)
    winner, broke_tie = _higher(total0, total1, brisques0, brisques1, last_trick_winner == 1)
    loser = 1 - winner
    w, l = totals[winner], totals[loser]
    if l >= limit:
        return winner, truncate(rules, w) - truncate(rules, l) + rules[R_GAME_BONUS], False, False, broke_tie
    lb = l + bri[loser]
    if lb < limit:
        return winner, truncate(rules, w) + truncate(rules, l) + rules[R_RUBICON_BONUS], True, False, broke_tie
    # the loser reaches 1000 only with his brisques: both add them and the game is decided
    # on those totals, a tie again by brisques, then by the last trick
    wb = w + bri[winner]
    flip, broke = _higher(wb, lb, bri[winner], bri[loser], last_trick_winner == loser)
    broke_tie |= broke
    if flip:
        if wb < limit:   # the former winner, now the loser, is rubiconed
            return loser, truncate(rules, w) + truncate(rules, l) + rules[R_RUBICON_BONUS], True, True, broke_tie
        return loser, truncate(rules, lb) - truncate(rules, wb) + rules[R_GAME_BONUS], False, True, broke_tie
    return winner, truncate(rules, wb) - truncate(rules, lb) + rules[R_GAME_BONUS], False, True, broke_tie


@njit(cache=True, nogil=True)
def rubicon_games(rules, totals, brisques, last_trick_winner, out):
    """:func:`rubicon_game` for each row of ``totals``/``brisques`` ([n, 2]); row i of
    ``out`` ([n, 5]) gets its five results."""
    for i in range(totals.shape[0]):
        winner, points, rubicon, saved, broke_tie = rubicon_game(
            rules, totals[i, 0], totals[i, 1], brisques[i, 0], brisques[i, 1], last_trick_winner[i])
        out[i, 0] = winner
        out[i, 1] = points
        out[i, 2] = rubicon
        out[i, 3] = saved
        out[i, 4] = broke_tie
