"""The moves of the variants beside a trick and a declaration (docs/rules.md section 4): the
claim of the game limited to a fixed point (V3) and the partner's declaration (V5), with
the brisques counted at the end of a hand (R2.22), which a claim also ends."""
from numba import njit

from ..rules import R_BRISQUE_POINTS, R_BRISQUES_SCORED, R_FIXED_POINT
from . import layout as L
from .state import record_event


@njit(cache=True, _nrt=False)
def set_game_totals(rules, st, totals):
    """Each seat's game total before this hand (``totals[seat]``), which a claim of the
    game counts (V3); call it right after :func:`deal_into`."""
    for s in range(st.G[L.G_NSEATS]):
        st.P[s, L.P_BASE] = totals[s]


@njit(cache=True, _nrt=False)
def claim_is_right(rules, st, s):
    """V3: whether seat ``s``'s game total before the hand, its points in this hand and its
    brisques taken so far reach the target."""
    P = st.P
    total = P[s, L.P_BASE] + P[s, L.P_SCORE]
    if rules[R_BRISQUES_SCORED]:
        total += rules[R_BRISQUE_POINTS] * P[s, L.P_BRISQ]
    return total >= rules[R_FIXED_POINT]


@njit(cache=True, _nrt=False)
def claim_game(rules, st):
    """V3: the seat to act claims the game and the hand stops: every seat counts its
    brisques, and G_GAME_CLAIM says who claimed and whether he was right (if not, his
    opponent wins the game)."""
    G = st.G
    s = G[L.G_TO_ACT]
    right = claim_is_right(rules, st, s)
    G[L.G_GAME_CLAIM] = s + L.GAME_CLAIM_RIGHT * right
    record_event(st.ev, G, L.E_GAME_CLAIM, s, right, 0, 0, 0)
    count_brisques(rules, st)
    G[L.G_STATUS] = L.ST_DONE
    G[L.G_PHASE] = L.PH_OVER
    G[L.G_TO_ACT] = -1


@njit(cache=True, _nrt=False)
def pass_to_partner(st):
    """V5 option: the trick winner lets his partner (the seat opposite) declare instead."""
    G = st.G
    partner = (G[L.G_LEADER] + 2) % G[L.G_NSEATS]
    G[L.G_WINDOW_SEAT] = partner
    G[L.G_TO_ACT] = partner
    record_event(st.ev, G, L.E_PARTNER, G[L.G_LEADER], partner, 0, 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def count_brisques(rules, st):
    """R2.22: each seat scores its brisques (not in Rubicon, R3.8)."""
    if rules[R_BRISQUES_SCORED]:
        P = st.P
        for v in range(st.G[L.G_NSEATS]):
            pts = rules[R_BRISQUE_POINTS] * P[v, L.P_BRISQ]
            P[v, L.P_SCORE] += pts
            record_event(st.ev, st.G, L.E_BRISQUES, v, P[v, L.P_BRISQ], pts, 0, 0)
