"""Games: chaining hands into games to a target (R2.24), carried across chunks, and
scoring a Rubicon game (R3.9)."""
from numba import njit

RUBICON_LIMIT = 1000


@njit(cache=True)
def trunc100(points):
    """Drop fractions of 100 (R3.9): 1290 -> 1200."""
    return points // 100 * 100


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


@njit(cache=True, nogil=True)
def rubicon_game(total0, total1, brisques0, brisques1, last_trick_winner):
    """Score one Rubicon game (R3.9) for two players (game.rubicon_result wraps it).

    ``total*`` are the hand totals without brisques, ``brisques*`` the brisque points.
    Returns (winner, points, rubicon, brisques_saved, brisques_broke_tie): the winner's
    game score, whether the loser was rubiconed, whether the loser reached 1000 only
    with his brisques, and whether the brisques broke a tie.
    """
    totals = (total0, total1)
    bri = (brisques0, brisques1)
    broke_tie = False
    if total0 != total1:
        winner = 0 if total0 > total1 else 1
    elif brisques0 != brisques1:
        winner = 0 if brisques0 > brisques1 else 1
        broke_tie = True
    else:
        winner = last_trick_winner
    loser = 1 - winner
    w, l = totals[winner], totals[loser]
    wb, lb = w + bri[winner], l + bri[loser]
    if lb < RUBICON_LIMIT:
        return winner, trunc100(w) + trunc100(l) + 1300, True, False, broke_tie
    if l >= RUBICON_LIMIT:
        return winner, trunc100(w) - trunc100(l) + 500, False, False, broke_tie
    # the loser reaches 1000 only with his brisques: both count them
    if lb > wb or (lb == wb and last_trick_winner == loser):
        # the former winner now loses; under 1000 even with brisques -> rubiconed
        if wb < RUBICON_LIMIT:
            return loser, trunc100(w) + trunc100(l) + 1300, True, False, broke_tie
        return loser, trunc100(lb) - trunc100(wb) + 500, False, True, broke_tie
    return winner, trunc100(wb) - trunc100(lb) + 500, False, True, broke_tie


@njit(cache=True, nogil=True)
def rubicon_games(totals, brisques, last_trick_winner, out):
    """:func:`rubicon_game` for each row of ``totals``/``brisques`` ([n, 2]); row i of
    ``out`` ([n, 5]) gets its five results."""
    for i in range(totals.shape[0]):
        winner, points, rubicon, saved, broke_tie = rubicon_game(
            totals[i, 0], totals[i, 1], brisques[i, 0], brisques[i, 1], last_trick_winner[i])
        out[i, 0] = winner
        out[i, 1] = points
        out[i, 2] = rubicon
        out[i, 3] = saved
        out[i, 4] = broke_tie
