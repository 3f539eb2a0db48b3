"""A seat's public record, and a hand rebuilt from one seat's view (for search players).

:func:`observe_public` fills the part of a seat's observation that holds every public fact
(layout OBS_FULL ...): each seat's public counters, the cards known to be in its hand, its
table slots with their histories, the trick in progress. :func:`rebuild` makes a complete
HandState from such an observation and an assignment of the cards the seat cannot see (the
other seats' hidden cards, the order of the talon); :func:`unseen_cards`,
:func:`hidden_sizes` and :func:`sample_hidden` give such assignments.

The ceilings cheat: :func:`observe_true` also shows a seat the other hands (and the talon's
order), and :func:`sample_world` then draws only what the seat still cannot see.

What a rebuilt state does not reproduce, because no player knows it: the other seats'
section-5 statistics (the Q♠ and J♦ they received, when they held a double bézique), the
order of the cards already drawn, the policies' random streams, and P_MELD_CAND (a cache of
the combinations worth checking, set to all of them).
"""
import numpy as np
from numba import njit

from ..rules import R_PACKS
from .deals import deck_copies
from .combos import ALL_COMBOS
from . import layout as L
from .rng import below
from .state import rel_seat

# offsets within a seat's block of the public record
PUB_HAND_SIZE = L.REC_SEAT_W
PUB_NTABLE = L.REC_SEAT_W + 1
PUB_CARTE = L.REC_SEAT_W + 2
PUB_INST_USED = L.REC_SEAT_W + 3
PUB_KNOWN = L.REC_SEAT_W + 4       # 32
PUB_RESTORE = L.REC_SEAT_W + 36    # 16: restorations held (R3.6 portland)
PUB_INST_COMBO = L.REC_SEAT_W + 52     # 16: the combination of each whole instance
assert PUB_INST_COMBO + 16 <= L.OBS_PUBLIC_W
PRIVATE_STATS = (L.RS_RECV_QS, L.RS_RECV_JD, L.RS_DBL_MISS, L.RS_HELD_B, L.RS_HELD_B + 1, L.RS_HELD_B + 2)


@njit(cache=True, _nrt=False)
def observe_public(rules, st, s):
    """Fill seat ``s``'s public record (layout OBS_FULL onwards) from the state."""
    G, P, T = st.G, st.P, st.T
    o = st.obs[s]
    n = G[L.G_NSEATS]
    o[L.OBS_FULL] = 1
    o[L.OBS_LEADER_REL] = rel_seat(G[L.G_LEADER], s, n)
    o[L.OBS_LEAD_TABLE] = G[L.G_LEAD_TABLE]
    o[L.OBS_TRUMP_TRICK] = G[L.G_TRUMP_TRICK]
    o[L.OBS_TRUMP_HOW] = G[L.G_TRUMP_HOW]
    o[L.OBS_TALON_LEN] = G[L.G_TALON_LEN]
    carte = G[L.G_PHASE] == L.PH_CARTE
    first = G[L.G_CARTE_FIRST]
    o[L.OBS_CARTE_FIRST_REL] = rel_seat(first, s, n) if carte else -1
    o[L.OBS_DRAWN] = G[L.G_DRAWN + rel_seat(s, first, n)] if carte else -1
    for j in range(4):
        o[L.OBS_TRICK_CARDS + j] = G[L.G_TRICK_CARDS + j]
    for r in range(n):
        v = s + r
        if v >= n:
            v -= n
        b = L.OBS_PUBLIC + r * L.OBS_PUBLIC_W
        for j in range(L.REC_SEAT_W):
            o[b + j] = P[v, L.P_REC + j]
        if v != s:
            for j in PRIVATE_STATS:
                o[b + j] = 0
        size = 0
        for t in range(32):
            size += P[v, L.P_HAND + t]
            o[b + PUB_KNOWN + t] = P[v, L.P_KNOWN + t]
        o[b + PUB_HAND_SIZE] = size
        o[b + PUB_NTABLE] = P[v, L.P_NTABLE]
        o[b + PUB_CARTE] = P[v, L.P_CARTE]
        o[b + PUB_INST_USED] = P[v, L.P_INST_USED]
        for c in range(16):
            o[b + PUB_RESTORE + c] = P[v, L.P_RESTORE + c]
            o[b + PUB_INST_COMBO + c] = P[v, L.P_INST_COMBO + c]
        for k in range(L.MAX_TABLE):                 # the slots in use, then empty ones
            used = k < P[v, L.P_NTABLE]
            for f in range(L.T_W):
                o[L.OBS_SLOTS + (r * L.MAX_TABLE + k) * L.T_W + f] = T[v, k, f] if used else 0


@njit(cache=True, _nrt=False, inline="always")
def _unseen(rules, o, t):
    """Copies of card ``t`` the observing seat cannot place (see :func:`unseen_cards`)."""
    c = deck_copies(rules, t) - o[L.OBS_HAND + t] - o[L.OBS_PLAYED + t]
    for r in range(o[L.OBS_N_SEATS]):
        c -= o[L.OBS_TABLE + 32 * r + t]
        if r > 0:
            c -= o[L.OBS_PUBLIC + r * L.OBS_PUBLIC_W + PUB_KNOWN + t]
    if o[L.OBS_TURNUP] == t:
        c -= 1
    return c


@njit(cache=True, _nrt=False)
def unseen_cards(rules, o, out):
    """Fill ``out[t]`` with the copies of card ``t`` the observing seat cannot place: not in its
    hand, on a table, played, known to be in another hand, nor the visible turn-up. Needs the
    public record (OBS_FULL). Returns how many cards that is."""
    total = 0
    for t in range(32):
        out[t] = _unseen(rules, o, t)
        total += out[t]
    return total


@njit(cache=True, _nrt=False)
def hidden_sizes(o, out):
    """``out[r]``: the cards of relative seat ``r`` (r > 0) its neighbours cannot place (hand
    size minus the known cards); ``out[0]``: the talon's cards still to draw that are not the
    visible turn-up."""
    n = o[L.OBS_N_SEATS]
    for r in range(1, n):
        b = L.OBS_PUBLIC + r * L.OBS_PUBLIC_W
        known = 0
        for t in range(32):
            known += o[b + PUB_KNOWN + t]
        out[r] = o[b + PUB_HAND_SIZE] - known
    out[0] = o[L.OBS_TALON_LEFT] - (1 if o[L.OBS_TURNUP] >= 0 else 0)


@njit(cache=True, _nrt=False)
def sample_hidden(rules, o, rng, hidden, talon_rest, drawn, pool, sizes):
    """A random assignment of the cards the observing seat cannot see, consistent with its
    public record: ``hidden[seat]`` (32 counts) the other seats' hands (their known cards
    included), ``talon_rest`` the talon still to draw (the visible turn-up last), ``drawn[seat]``
    a card each other seat may have drawn last (for a carte-blanche round in progress).
    ``pool`` (int32, at least 32 * packs) and ``sizes`` (int64[4]) are scratch. Returns how
    many cards were placed."""
    n = o[L.OBS_N_SEATS]
    me = o[L.OBS_SEAT]
    m = 0
    for t in range(32):
        for _ in range(_unseen(rules, o, t)):
            pool[m] = t
            m += 1
    for i in range(m - 1, 0, -1):                # Fisher-Yates
        j = below(rng, i + 1)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
    hidden_sizes(o, sizes)
    k = 0
    for r in range(1, n):
        v = (me + r) % n
        b = L.OBS_PUBLIC + r * L.OBS_PUBLIC_W
        for t in range(32):
            hidden[v, t] = o[b + PUB_KNOWN + t]
        for _ in range(sizes[r]):
            hidden[v, pool[k]] += 1
            k += 1
        drawn[v] = pool[k - 1] if sizes[r] > 0 else -1
    left = o[L.OBS_TALON_LEFT]
    for j in range(sizes[0]):
        talon_rest[j] = pool[k + j]
    if o[L.OBS_TURNUP] >= 0 and left > 0:
        talon_rest[left - 1] = o[L.OBS_TURNUP]
    return k + sizes[0]


@njit(cache=True, _nrt=False)
def rebuild(rules, o, hidden, talon_rest, drawn, dst):
    """Make ``dst`` the hand seen in observation ``o`` (its public record filled), with
    ``hidden[seat]`` (32 counts) the other seats' hands, ``talon_rest`` the cards still to draw
    in order (the turn-up last) and ``drawn[seat]`` the card each other seat drew last (read
    only in a carte-blanche round after a draw). The seat to act is the observing seat."""
    G, P, T, obs, talon = dst.G, dst.P, dst.T, dst.obs, dst.talon
    n = o[L.OBS_N_SEATS]
    me = o[L.OBS_SEAT]
    G[:] = 0
    P[:] = 0
    T[:] = 0
    for v in range(obs.shape[0]):
        for j in range(obs.shape[1]):
            obs[v, j] = 0
    G[L.G_NSEATS] = n
    G[L.G_DEALER] = (me + o[L.OBS_DEALER_REL]) % n
    G[L.G_TRUMP] = o[L.OBS_TRUMP]
    G[L.G_STAGE] = o[L.OBS_STAGE]
    G[L.G_TRICK] = o[L.OBS_TRICK]
    G[L.G_EXCHANGES] = o[L.OBS_EXCHANGED]
    G[L.G_TRUMP_TRICK] = o[L.OBS_TRUMP_TRICK]
    G[L.G_TRUMP_HOW] = o[L.OBS_TRUMP_HOW]
    G[L.G_TALON_LEN] = o[L.OBS_TALON_LEN]
    G[L.G_TALON_POS] = o[L.OBS_TALON_LEN] - o[L.OBS_TALON_LEFT]
    G[L.G_LEADER] = (me + o[L.OBS_LEADER_REL]) % n
    G[L.G_LAST_WINNER] = -1
    G[L.G_STATUS] = L.ST_INCOMPLETE
    G[L.G_TO_ACT] = me
    G[L.G_WINDOW_SEAT] = -1
    G[L.G_CARTE_FIRST] = -1
    G[L.G_GAME_CLAIM] = -1
    for j in range(4):
        G[L.G_TRICK_CARDS + j] = o[L.OBS_TRICK_CARDS + j]
        G[L.G_DRAWN + j] = -1
    G[L.G_LEAD] = -1
    G[L.G_BEST] = -1
    G[L.G_BEST_SEAT] = -1
    dec = o[L.OBS_DECISION]
    if dec == L.D_LEAD or dec == L.D_FOLLOW or dec == L.D_CLAIM:
        G[L.G_PHASE] = L.PH_CLAIM if dec == L.D_CLAIM else L.PH_PLAY
        G[L.G_TRICK_POS] = o[L.OBS_TRICK_POS]
        G[L.G_LEAD] = o[L.OBS_LEAD_CARD]
        G[L.G_LEAD_TABLE] = o[L.OBS_LEAD_TABLE]
        G[L.G_BEST] = o[L.OBS_BEST_CARD]
        if o[L.OBS_BEST_REL] >= 0:
            G[L.G_BEST_SEAT] = (me + o[L.OBS_BEST_REL]) % n
    elif dec == L.D_MELD:
        G[L.G_PHASE] = L.PH_MELD
        G[L.G_WINDOW_SEAT] = me
        G[L.G_DECLARED] = o[L.OBS_DECLARED]
    elif dec == L.D_CARTE:
        G[L.G_PHASE] = L.PH_CARTE
        first = (me + o[L.OBS_CARTE_FIRST_REL]) % n
        G[L.G_CARTE_FIRST] = first
        G[L.G_CARTE_I] = rel_seat(me, first, n)
        if o[L.OBS_DRAWN] >= 0:                  # a round after a draw (else: the dealt hands)
            for i in range(n):
                v = (first + i) % n
                G[L.G_DRAWN + i] = o[L.OBS_DRAWN] if v == me else drawn[v]
    for r in range(n):
        v = (me + r) % n
        b = L.OBS_PUBLIC + r * L.OBS_PUBLIC_W
        for j in range(L.REC_SEAT_W):
            P[v, L.P_REC + j] = o[b + j]
        P[v, L.P_NTABLE] = o[b + PUB_NTABLE]
        P[v, L.P_CARTE] = o[b + PUB_CARTE]
        P[v, L.P_INST_USED] = o[b + PUB_INST_USED]
        for c in range(16):
            P[v, L.P_RESTORE + c] = o[b + PUB_RESTORE + c]
            P[v, L.P_INST_COMBO + c] = o[b + PUB_INST_COMBO + c]
        P[v, L.P_MELD_CAND] = ALL_COMBOS
        P[v, L.P_BASE] = o[L.OBS_GAME + r]
        hand_mask = 0
        table_mask = 0
        for t in range(32):
            P[v, L.P_KNOWN + t] = o[b + PUB_KNOWN + t]
            P[v, L.P_TABLE + t] = o[L.OBS_TABLE + 32 * r + t]
            P[v, L.P_HAND + t] = o[L.OBS_HAND + t] if v == me else hidden[v, t]
            if P[v, L.P_HAND + t] > 0:
                hand_mask |= np.int64(1) << t
            if P[v, L.P_TABLE + t] > 0:
                table_mask |= np.int64(1) << t
        P[v, L.P_HAND_MASK] = hand_mask
        P[v, L.P_TABLE_MASK] = table_mask
        for k in range(P[v, L.P_NTABLE]):
            for f in range(L.T_W):
                T[v, k, f] = o[L.OBS_SLOTS + (r * L.MAX_TABLE + k) * L.T_W + f]
    for v in range(n):                             # every seat's observation (its core)
        ov = obs[v]
        ov[L.OBS_SEAT] = v
        ov[L.OBS_N_SEATS] = n
        ov[L.OBS_DEALER_REL] = rel_seat(G[L.G_DEALER], v, n)
        ov[L.OBS_PACKS] = rules[R_PACKS]
        for t in range(32):
            ov[L.OBS_HAND + t] = P[v, L.P_HAND + t]
            ov[L.OBS_PLAYED + t] = o[L.OBS_PLAYED + t]
            for u in range(n):
                ov[L.OBS_TABLE + 32 * rel_seat(u, v, n) + t] = P[u, L.P_TABLE + t]
    for j in range(o[L.OBS_TALON_LEFT]):
        talon[G[L.G_TALON_POS] + j] = talon_rest[j]


@njit(cache=True, _nrt=False)
def observe_true(st, s, talon_too):
    """Show seat ``s`` what no fair player sees (layout OBS_TRUE): every hand by relative seat,
    the last round's draws and, with ``talon_too``, the cards still to draw in order. Only the
    ceilings ask for it (Players.sees of SEE_HANDS or SEE_TALON)."""
    G, P = st.G, st.P
    o = st.obs[s]
    n = G[L.G_NSEATS]
    o[L.OBS_TRUE] = L.SEE_TALON if talon_too else L.SEE_HANDS
    for r in range(4):
        v = (s + r) % n
        for t in range(32):
            o[L.OBS_TRUE_HANDS + 32 * r + t] = P[v, L.P_HAND + t] if r < n else 0
        o[L.OBS_TRUE_DRAWN + r] = G[L.G_DRAWN + r]
    left = G[L.G_TALON_LEN] - G[L.G_TALON_POS]
    for j in range(o.shape[0] - L.OBS_TRUE_TALON):
        o[L.OBS_TRUE_TALON + j] = st.talon[G[L.G_TALON_POS] + j] if talon_too and j < left else -1


@njit(cache=True, _nrt=False)
def sample_world(rules, o, rng, hidden, talon_rest, drawn, pool, sizes):
    """:func:`sample_hidden` for every observation: a fair one gets a random assignment of the
    unseen cards; a ceiling's (OBS_TRUE) gets the true hands, and the true talon (SEE_TALON) or
    its unseen cards shuffled (SEE_HANDS). Returns how many cards were placed at random."""
    see = o[L.OBS_TRUE]
    if see < L.SEE_HANDS:
        return sample_hidden(rules, o, rng, hidden, talon_rest, drawn, pool, sizes)
    n = o[L.OBS_N_SEATS]
    me = o[L.OBS_SEAT]
    first = (me + o[L.OBS_CARTE_FIRST_REL]) % n if o[L.OBS_CARTE_FIRST_REL] >= 0 else 0
    for r in range(1, n):
        v = (me + r) % n
        for t in range(32):
            hidden[v, t] = o[L.OBS_TRUE_HANDS + 32 * r + t]
        drawn[v] = o[L.OBS_TRUE_DRAWN + rel_seat(v, first, n)]
    left = o[L.OBS_TALON_LEFT]
    if see == L.SEE_TALON:
        for j in range(left):
            talon_rest[j] = o[L.OBS_TRUE_TALON + j]
        return 0
    m = 0
    for t in range(32):                       # the unseen cards not in a hand: the talon's
        c = _unseen(rules, o, t)
        for r in range(1, n):
            c -= hidden[(me + r) % n, t] - o[L.OBS_PUBLIC + r * L.OBS_PUBLIC_W + PUB_KNOWN + t]
        for _ in range(c):
            pool[m] = t
            m += 1
    for i in range(m - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
    for j in range(m):
        talon_rest[j] = pool[j]
    if o[L.OBS_TURNUP] >= 0 and left > 0:
        talon_rest[left - 1] = o[L.OBS_TURNUP]
    return m
