"""Chaining hands into games to a target (R2.24), carried across chunks."""
from numba import njit


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
