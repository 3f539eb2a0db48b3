"""Section-5 statistics the records carry: when a seat first held a double (treble,
quadruple) bézique, why a double held was never scored, the Q♠ and J♦ received, and when
a double (treble, quadruple) was first scored. Hooks the hand calls; no rule depends on them.
"""
from numba import njit

from .combos import COMBO_MASK, JD, QS
from .layout import (
    G_TRICK,
    P_BEZ_MAX,
    P_DBL_MISS,
    P_FIRST_B,
    P_HAND,
    P_HELD_B,
    P_MELD_CAND,
    P_RECV_JD,
    P_RECV_QS,
    P_TABLE,
)

MISS_PLAYED, MISS_TALON = 1, 2     # P_DBL_MISS: a card of it was played / the talon ran out


@njit(cache=True, _nrt=False)
def on_receive(G, P, s, card):
    """Seat ``s`` received ``card`` (-1: its dealt hand): count Q♠/J♦ received, note the
    first trick at which it holds a double (treble, quadruple) bézique, and widen its set of
    combinations worth checking (melds.combo_screen_mask)."""
    if card >= 0:
        P[s, P_MELD_CAND] |= COMBO_MASK[card]
    if card == QS:
        P[s, P_RECV_QS] += 1
    elif card == JD:
        P[s, P_RECV_JD] += 1
    elif card >= 0:
        return                       # what is held changes only with a Q♠ or J♦
    pairs = min(P[s, P_HAND + QS] + P[s, P_TABLE + QS], P[s, P_HAND + JD] + P[s, P_TABLE + JD])
    for k in range(min(pairs, 4) - 1):
        if P[s, P_HELD_B + k] == 0:
            P[s, P_HELD_B + k] = G[G_TRICK] + 1


@njit(cache=True, _nrt=False, inline="always")
def on_play(P, s, card, stage):
    """Seat ``s`` played ``card``: a double held and never scored loses a card."""
    if (stage == 1 and (card == QS or card == JD) and P[s, P_HELD_B] > 0
            and P[s, P_BEZ_MAX] < 2 and P[s, P_DBL_MISS] == 0
            and P[s, P_HAND + card] + P[s, P_TABLE + card] < 2):
        P[s, P_DBL_MISS] = MISS_PLAYED


@njit(cache=True, _nrt=False)
def on_talon_out(P, n):
    """The talon ran out: a double still held and never scored is missed for that reason."""
    for s in range(n):
        if P[s, P_HELD_B] > 0 and P[s, P_BEZ_MAX] < 2 and P[s, P_DBL_MISS] == 0:
            P[s, P_DBL_MISS] = MISS_TALON


@njit(cache=True, _nrt=False)
def on_bezique_scored(G, P, s, level):
    """Seat ``s`` scored a bézique of ``level``: the trick of its first double (treble,
    quadruple), and its highest level."""
    if level > P[s, P_BEZ_MAX]:
        for k in range(max(P[s, P_BEZ_MAX] + 1, 2), level + 1):
            P[s, P_FIRST_B + k - 2] = G[G_TRICK]
        P[s, P_BEZ_MAX] = level
