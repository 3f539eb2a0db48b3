"""The moves of the variants beside a trick and a declaration (docs/rules.md section 4): the
claim of the game limited to a fixed point (V3) and the partner's declaration (V5), with
the brisques counted at the end of a hand (R2.22), which a claim also ends."""
from numba import njit

from ..rules import R_BRISQUE_POINTS, R_BRISQUES_SCORED, R_FIXED_POINT
from .layout import (
    GAME_CLAIM_RIGHT,
    E_BRISQUES,
    E_GAME_CLAIM,
    E_PARTNER,
    G_GAME_CLAIM,
    G_LEADER,
    G_NSEATS,
    G_PHASE,
    G_STATUS,
    G_TO_ACT,
    G_WINDOW_SEAT,
    P_BASE,
    P_BRISQ,
    P_SCORE,
    PH_OVER,
    ST_DONE,
)
from .state import record_event


@njit(cache=True, _nrt=False)
def set_game_totals(rules, st, totals):
    """Each seat's game total before this hand (``totals[seat]``), which a claim of the
    game counts (V3); call it right after :func:`deal_into`."""
    for s in range(st.G[G_NSEATS]):
        st.P[s, P_BASE] = totals[s]


@njit(cache=True, _nrt=False)
def claim_is_right(rules, st, s):
    """V3: whether seat ``s``'s game total before the hand, its points in this hand and its
    brisques taken so far reach the target."""
    P = st.P
    total = P[s, P_BASE] + P[s, P_SCORE]
    if rules[R_BRISQUES_SCORED]:
        total += rules[R_BRISQUE_POINTS] * P[s, P_BRISQ]
    return total >= rules[R_FIXED_POINT]


@njit(cache=True, _nrt=False)
def claim_game(rules, st):
    """V3: the seat to act claims the game and the hand stops: every seat counts its
    brisques, and G_GAME_CLAIM says who claimed and whether he was right (if not, his
    opponent wins the game)."""
    G = st.G
    s = G[G_TO_ACT]
    right = claim_is_right(rules, st, s)
    G[G_GAME_CLAIM] = s + GAME_CLAIM_RIGHT * right
    record_event(st.ev, G, E_GAME_CLAIM, s, right, 0, 0, 0)
    count_brisques(rules, st)
    G[G_STATUS] = ST_DONE
    G[G_PHASE] = PH_OVER
    G[G_TO_ACT] = -1


@njit(cache=True, _nrt=False)
def pass_to_partner(st):
    """V5 option: the trick winner lets his partner (the seat opposite) declare instead."""
    G = st.G
    partner = (G[G_LEADER] + 2) % G[G_NSEATS]
    G[G_WINDOW_SEAT] = partner
    G[G_TO_ACT] = partner
    record_event(st.ev, G, E_PARTNER, G[G_LEADER], partner, 0, 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def count_brisques(rules, st):
    """R2.22: each seat scores its brisques (not in Rubicon, R3.8)."""
    if rules[R_BRISQUES_SCORED]:
        P = st.P
        for v in range(st.G[G_NSEATS]):
            pts = rules[R_BRISQUE_POINTS] * P[v, P_BRISQ]
            P[v, P_SCORE] += pts
            record_event(st.ev, st.G, E_BRISQUES, v, P[v, P_BRISQ], pts, 0, 0)
