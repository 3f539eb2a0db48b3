"""Carte blanche (R3.5): who may show, and the score of a show."""
from numba import njit

from ..rules import R_CARTE_BLANCHE, R_CARTE_POINTS
from .codes import COURT_HIGH, COURT_LOW, card_of, card_rank
from .layout import E_CARTE, P_CARTE, P_CARTE_PTS, P_HAND, P_KNOWN, P_SCORE
from .state import record_event

CARTE_REPEAT = 2        # rules[R_CARTE_BLANCHE]: 1 once (the dealt hand), 2 repeated on draws


@njit(cache=True, _nrt=False, inline="always")
def is_court(card):
    """K, Q or J."""
    return COURT_LOW <= card_rank(card) <= COURT_HIGH


@njit(cache=True, _nrt=False)
def carte_eligible(P, s, drawn):
    """R3.5: seat ``s`` may show carte blanche: a dealt hand (``drawn`` < 0) without K, Q
    or J, or, having shown it, a drawn card that is not a court card."""
    if drawn < 0:
        for suit in range(4):
            for rank in range(COURT_LOW, COURT_HIGH + 1):
                if P[s, P_HAND + card_of(suit, rank)] > 0:
                    return False
        return True
    return P[s, P_CARTE] == 1 and not is_court(drawn)


@njit(cache=True, _nrt=False)
def show_carte(rules, G, P, ev, s, drawn):
    """Seat ``s`` shows carte blanche (its dealt hand, or the card ``drawn``) and scores it;
    what it shows is known to every seat from then on."""
    if drawn < 0:
        for t in range(32):
            P[s, P_KNOWN + t] = P[s, P_HAND + t]
    else:
        P[s, P_KNOWN + drawn] += 1
    pts = rules[R_CARTE_POINTS]
    P[s, P_SCORE] += pts
    P[s, P_CARTE_PTS] += pts
    P[s, P_CARTE] = 1 if rules[R_CARTE_BLANCHE] == CARTE_REPEAT else 0
    record_event(ev, G, E_CARTE, s, pts, drawn, 0, 0)
