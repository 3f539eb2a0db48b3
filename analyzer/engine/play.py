"""Playing a hand with policies: ask the seat to act, check its answer, apply it.

The players arrive as one :class:`policy_data.Players`: four first-class functions of
:data:`policy_data.POLICY_SIG`, one per seat (repeated round the table), their parameter rows
and their seats' data; a decision with one legal action is taken without asking, so a policy's
random stream is only drawn on when it has a choice.
"""
import numpy as np
from numba import njit, types

from .hand import apply, decision, is_over, legal_actions, observe, to_act
from . import layout as L


@njit(cache=True, _nrt=False, inline="always")
def is_legal(legal, nleg, plays, a):
    """Whether ``a`` is one of ``legal[:nleg]`` (a play: one bit test of ``plays``)."""
    if plays != 0:
        return 0 <= a < 64 and (plays >> a) & 1 == 1
    found = False                  # no early exit: a short branch-free scan is faster
    for i in range(nleg):
        found |= legal[i] == a
    return found


# one signature: called with a literal rule and detail at each place, it compiled once per place
@njit(types.int64(types.int64[::1], *[types.int64] * 7), cache=True, _nrt=False)
def report_error(G, status, move, seat, rule, detail, action, decision_kind):
    """Stop the hand with ``status`` and what went wrong (G_ERR_*); returns ``status``."""
    G[L.G_STATUS] = status
    G[L.G_ERR_MOVE] = move
    G[L.G_ERR_SEAT] = seat
    G[L.G_ERR_RULE] = rule
    G[L.G_ERR_DETAIL] = detail
    G[L.G_ERR_ACTION] = action
    G[L.G_ERR_DECISION] = decision_kind
    return status


@njit(cache=True, _nrt=False, inline="always")
def next_move(rules, st):
    """The decision the hand is at: (how many legal actions, the bit set of the plays among
    them), ``st.legal`` holding them and, when there is a choice (more than one), the seat to
    act's observation filled; (0, 0) when the hand is over. Every loop that carries a hand on
    (play_out, the search's roll-outs, the training's kernels) takes its next move from here."""
    if is_over(st):
        return 0, np.int64(0)
    nleg, plays = legal_actions(rules, st)
    if nleg > 1:
        observe(rules, st, to_act(st))
    return nleg, plays


@njit(cache=True, _nrt=False)
def play_out(rules, st, players):
    """Play the hand from its current decision to the end with ``players`` (a Players: each
    seat's policy function, its settings, its data and what it may see — SEE_PUBLIC its public
    record too, a ceiling's SEE_HANDS or SEE_TALON the hidden cards). Returns ST_DONE, or
    ST_ILLEGAL_POLICY when a policy returns an illegal action (details in G_ERR_*)."""
    policies, params, seats, sees = players
    for s in range(st.G[L.G_NSEATS]):
        see = sees[s]
        if see >= L.SEE_PUBLIC:
            st.G[L.G_FULL_OBS] |= 1 << s
        if see >= L.SEE_HANDS:                 # a ceiling: it reads the hidden cards
            st.G[L.G_FULL_OBS] |= 1 << (L.SEE_HANDS_BIT + s)
        if see >= L.SEE_TALON:
            st.G[L.G_FULL_OBS] |= 1 << (L.SEE_TALON_BIT + s)
    while True:
        nleg, plays = next_move(rules, st)
        if nleg == 0:
            return L.ST_DONE
        if nleg == 1:
            a = st.legal[0]
        else:
            s = to_act(st)
            a = policies[s](st.obs[s], st.legal, nleg, rules, params[s], st.rngs[s], seats[s])
            if not is_legal(st.legal, nleg, plays, a):
                return report_error(st.G, L.ST_ILLEGAL_POLICY, st.G[L.G_TRICK], s, 0,
                                    L.X_ILLEGAL_ACTION, a, decision(st))
        apply(rules, st, a)
