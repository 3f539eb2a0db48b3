"""Games: chaining hands into games to a target (R2.24), carried across chunks, and
scoring a Rubicon game (R3.9)."""
from numba import njit

from ..rules import R_GAME_BONUS, R_RUBICON_BONUS, R_RUBICON_LIMIT, R_SCORE_UNIT


@njit(cache=True, nogil=True, inline="always")
def truncate(rules, points):
    """Drop fractions of the score unit (R3.9, 100): 1290 -> 1200."""
    unit = rules[R_SCORE_UNIT]
    return points // unit * unit


@njit(cache=True)
def chain_games(points, brisques, last_winner, target, state, out_hands, out_winner):
    """Play consecutive hands into games to ``target`` (R2.24) for two seats.

    ``points[i, s]`` are hand points without brisques, ``brisques[i, s]`` the brisque
    points; ``state`` = (total 0, total 1, hands so far) carries an unfinished game from
    one call to the next. Each finished game writes its length and winner; returns how
    many games finished.
    """
    g = 0
    for i in range(points.shape[0]):
        a = state[0] + points[i, 0]
        b = state[1] + points[i, 1]
        if a < target and b < target:
            a += brisques[i, 0]
            b += brisques[i, 1]
        state[2] += 1
        if a >= target or b >= target:
            if a > b:
                w = 0
            elif b > a:
                w = 1
            else:
                w = last_winner[i]
            out_hands[g] = state[2]
            out_winner[g] = w
            g += 1
            state[0] = 0
            state[1] = 0
            state[2] = 0
        else:
            state[0] = a
            state[1] = b
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
