"""Exact solver of the second stage of a two-handed hand (R2.19-R2.22, R3.3, R3.8, R3.9).

Once the talon is out every card is known: each seat holds what it holds, the other seat holds
the rest. The play left is a two-person game of perfect information under R2.20 (follow suit
and win if you can, else trump if you can, else any card; with trumps never fixed there is no
duty to trump, R3.3; of identical cards the first played wins, R2.5), whose value is

- ordinary game: seat 0's final score minus seat 1's, i.e. ``P_SCORE[0] - P_SCORE[1]`` at the
  end of the engine's hand (scores so far, brisques won so far and in the tricks left, the last
  trick, R2.21-R2.22);
- Rubicon (``rules[R_BRISQUES_SCORED] == 0``): seat 0's signed game score of R3.9
  (:func:`game_score.game_value` on the final totals and brisque points), positive when seat 0
  wins the game, 0 when it is drawn (Law 61).

:func:`solve_cards` is the core (alpha-beta over tricks with a transposition table, in a
solver buffer made once by :func:`endgame_buffer.new_solver` or kept by a seat,
:func:`endgame_buffer.solver_in`: the buffer's layout, and how a position is set into it, are
:mod:`.endgame_buffer`'s); :func:`solve_state`, :func:`solve_actions` and :func:`solve_obs` read
a HandState or one seat's observation (:func:`best_obs`: only the best action's index, with the
root's alpha-beta window);
:func:`endgame_reference.minimax_state` is a plain full minimax over the engine itself, the
solver's reference.

How the search is kept exact and small: the cards in the two hands are numbered at the root
(each seat's cards strongest first, identical copies next to each other), a position is the
bit set of the numbers still held, the leader and (Rubicon only) the brisques seat 0 has won
in this stage; of identical copies in one hand only the lowest number still held is ever
played, so the same position always has the same bit set. In the ordinary game the value is a
sum over tricks, so a position's table entry holds the points still to come and does not
depend on the past; in Rubicon the game score is not additive in the brisques, so the
brisques won so far are part of the key and the entry holds the final game score.
"""
from typing import NamedTuple

import numpy as np
from numba import njit, types

from ..rules import R_BRISQUE_POINTS, R_BRISQUES_SCORED, R_PACKS
from .bits import high_bit, popcount, trailing_zeros
from .codes import card_suit, is_brisque, played_card
from .endgame_buffer import (
    MAX_B, MAX_IDX, META, M_BRISQ, M_DUP, M_HIGHER, M_SEAT, M_SUIT, O_CT, O_FMAX, O_FMIN, O_FTERM, O_META, O_PAR,
    O_TABLE, PAR, PAR_BITS, PAR_BP, PAR_GEN, PAR_LAST, PAR_NODES, PAR_RUBICON, PAR_TRUMP, POS_W, SOLVER_BITS,
    SOLVER_TYPE, T_HI, T_KEY, T_LO, T_MOVE, new_solver, set_position,
)
from .game_score import game_value
from .hand import legal_actions
from . import layout as L
from .state import HandState

INF = 1 << 40
_KEY_LEADER = 24         # key = held bit set | leader << 24 | brisques won << 25
_KEY_ACC = 25


@njit(cache=True, _nrt=False, inline="always")
def _replies(sv, mask, leader, lead_t):
    """R2.20: the follower's legal cards against ``lead_t`` (one number per card type), and
    those of them that win the trick."""
    meta = sv[O_META:O_META + META]
    tr = sv[O_PAR + PAR_TRUMP]
    hf = mask & meta[M_SEAT + 1 - leader]
    held = hf & meta[M_SUIT + card_suit(lead_t)]
    win = np.int64(0)
    if held != 0:
        higher = held & meta[M_HIGHER + lead_t]
        legal = higher if higher != 0 else held
        win = higher
    else:
        legal = hf
        if tr >= 0:                          # R3.3: no duty to trump when none was fixed
            ht = hf & meta[M_SUIT + tr]
            if ht != 0:                      # (the lead is no trump: held would be set)
                legal = ht
                win = ht
    canon = ~((hf << 1) & meta[M_DUP])      # of identical copies the lowest number held
    return legal & canon, win & canon


@njit(cache=True, _nrt=False, inline="always")
def _narrow(lo, hi, alpha, beta):
    """A value known to lie in [lo, hi] against the window (alpha, beta): (decided, the value
    if decided, the narrowed alpha and beta)."""
    if lo >= beta:
        return True, lo, alpha, beta
    if hi <= alpha:
        return True, hi, alpha, beta
    if lo == hi:
        return True, lo, alpha, beta
    return False, lo, max(alpha, lo), min(beta, hi)


@njit(types.int64(SOLVER_TYPE, types.int64, types.int64, types.int64, types.int64,
                  types.int64, types.int64), cache=True, _nrt=False)
def _search(sv, mask, leader, acc, lead_t, alpha, beta):
    """Value for seat 0 of a position: cards ``mask`` held, ``leader`` leads (``lead_t`` < 0)
    or has led card type ``lead_t``, seat 0 has won ``acc`` brisques (Rubicon). Ordinary game:
    the margin still to be made; Rubicon: the final game score. Fail-soft alpha-beta."""
    par, meta, ct = sv[O_PAR:O_PAR + PAR], sv[O_META:O_META + META], sv[O_CT:O_CT + MAX_IDX]
    no_lead = np.int64(-1)     # typed values, not literals: a literal argument would make numba
    no_acc = np.int64(0)       # compile (and cache) another, unresolvable version of _search
    par[PAR_NODES] += 1
    rubicon = par[PAR_RUBICON]
    r = popcount(mask & meta[M_BRISQ])
    if lead_t >= 0 and is_brisque(lead_t):
        r += 1
    if rubicon:
        lo = sv[O_FMIN + acc * MAX_B + r]
        hi = sv[O_FMAX + acc * MAX_B + r]
    else:
        hi = par[PAR_BP] * r + par[PAR_LAST]
        lo = -hi
    done, value, alpha, beta = _narrow(lo, hi, alpha, beta)
    if done:
        return value
    if lead_t < 0:
        # --- the leader's card: transposition table at trick boundaries
        key = mask | (np.int64(leader) << _KEY_LEADER) | (np.int64(acc) << _KEY_ACC)
        full = (par[PAR_GEN] << 32) | key
        h = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15))
                     >> np.uint64(64 - par[PAR_BITS]))
        tlo = -INF
        thi = INF
        first = -1
        e = O_TABLE + 4 * h
        if sv[e + T_KEY] == full:
            tlo = sv[e + T_LO]
            thi = sv[e + T_HI]
            done, value, alpha, beta = _narrow(tlo, thi, alpha, beta)
            if done:
                return value
            first = sv[e + T_MOVE]
        a0 = alpha
        b0 = beta
        hl = mask & meta[M_SEAT + leader]
        rest = hl & ~((hl << 1) & meta[M_DUP])
        if first >= 0 and (rest >> first) & 1:
            rest &= ~(np.int64(1) << first)
        else:
            first = -1
        maxi = leader == 0
        best = -INF if maxi else INF
        best_i = -1
        i = first
        while True:
            if i < 0:
                if rest == 0:
                    break
                i = trailing_zeros(rest)     # strongest first
                rest &= rest - 1
            v = _search(sv, mask & ~(np.int64(1) << i), leader, acc, ct[i], alpha, beta)
            if maxi:
                if v > best:
                    best = v
                    best_i = i
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    best_i = i
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
            i = -1
        if best <= a0:
            nlo, nhi = tlo, min(best, thi)
        elif best >= b0:
            nlo, nhi = max(best, tlo), thi
        else:
            nlo, nhi = best, best
        sv[e + T_KEY] = full
        sv[e + T_LO] = nlo
        sv[e + T_HI] = nhi
        sv[e + T_MOVE] = best_i
        return best
    # --- the follower's card (no table: the trick is resolved here)
    legal, win = _replies(sv, mask, leader, lead_t)
    f = 1 - leader
    maxi = f == 0
    best = -INF if maxi else INF
    lb = 1 if is_brisque(lead_t) else 0
    for phase in range(2):
        rest = win if phase == 0 else legal & ~win      # winners, then the others
        w = f if phase == 0 else leader
        while rest != 0:
            j = high_bit(rest)                         # weakest first
            rest &= ~(np.int64(1) << j)
            nb = lb + (1 if is_brisque(ct[j]) else 0)
            child = mask & ~(np.int64(1) << j)
            if rubicon:
                a2 = acc + nb if w == 0 else acc
                if child == 0:
                    v = sv[O_FTERM + a2 * 2 + w]
                else:
                    v = _search(sv, child, w, a2, no_lead, alpha, beta)
            else:
                g = par[PAR_BP] * nb
                if child == 0:
                    g += par[PAR_LAST]
                if w == 1:
                    g = -g
                if child == 0:
                    v = g
                else:
                    v = g + _search(sv, child, w, no_acc, no_lead, alpha - g, beta - g)
            if maxi:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                return best
    return best


@njit(cache=True, _nrt=False)
def _play_value(sv, mask, leader, acc, lead_t, i, alpha, beta):
    """Value for seat 0 (Rubicon: final; ordinary: still to be made) once the seat to act
    plays card number ``i`` in the position ``mask`` (``lead_t`` < 0: the leader leads it),
    seat 0 having won ``acc`` brisques since the root (Rubicon)."""
    no_lead = np.int64(-1)
    no_acc = np.int64(0)
    if lead_t < 0:
        return _search(sv, mask & ~(np.int64(1) << i), leader, acc, sv[O_CT + i], alpha, beta)
    par = sv[O_PAR:O_PAR + PAR]
    f = 1 - leader
    _legal, win = _replies(sv, mask, leader, lead_t)
    w = f if (win >> i) & 1 else leader
    nb = (1 if is_brisque(lead_t) else 0) + (1 if is_brisque(sv[O_CT + i]) else 0)
    child = mask & ~(np.int64(1) << i)
    if par[PAR_RUBICON]:
        a2 = acc + nb if w == 0 else acc
        if child == 0:
            return sv[O_FTERM + a2 * 2 + w]
        return _search(sv, child, w, a2, no_lead, alpha, beta)
    g = par[PAR_BP] * nb
    if child == 0:
        g += par[PAR_LAST]
    if w == 1:
        g = -g
    if child == 0:
        return g
    return g + _search(sv, child, w, no_acc, no_lead, alpha - g, beta - g)


@njit(cache=True, _nrt=False, inline="always")
def _root_moves(sv, mask, leader, lead_t):
    """The card numbers the seat to act may play at the root, one per card type."""
    if lead_t < 0:
        hl = mask & sv[O_META + M_SEAT + leader]
        return hl & ~((hl << 1) & sv[O_META + M_DUP])
    return _replies(sv, mask, leader, lead_t)[0]


@njit(cache=True, _nrt=False, inline="always")
def _number_of(sv, mask, seat, t):
    """The lowest card number of type ``t`` that ``seat`` holds (-1: none)."""
    m = mask & sv[O_META + M_SEAT + seat]
    while m != 0:
        i = trailing_zeros(m)
        if sv[O_CT + i] == t:
            return i
        m &= m - 1
    return -1


class Position(NamedTuple):
    """A second-stage position given by its parts (what :func:`solve_cards` solves: a HandState's,
    or one built by hand)."""

    trump: int               # the trump suit (-1: never fixed)
    hands: np.ndarray        # int64[2, 32]: the cards each seat holds
    leader: int              # the seat leading the trick
    lead_card: int           # the card it has already led (then the other seat is to act; not in
                             # hands), or -1
    scores: np.ndarray       # int64[2]: P_SCORE so far
    brisques: np.ndarray     # int64[2]: P_BRISQ (aces and tens won) so far


@njit(cache=True, _nrt=False, nogil=True)
def solve_cards(rules, position, sv, out_best):
    """The exact value for seat 0 of a two-handed second stage (R2.20-R2.22, R3.8-R3.9) at
    ``position`` (a :class:`Position`), with ``sv`` a solver (:data:`SOLVER_TYPE`). Returns seat
    0's final margin (ordinary) or signed R3.9 game score (Rubicon) under best play; writes the
    best card of the seat to act into ``out_best[0]``."""
    return solve_window(rules, position, sv, out_best, np.int64(-INF), np.int64(INF))


@njit(cache=True, _nrt=False)
def solve_window(rules, position, sv, out_best, alpha, beta):
    """:func:`solve_cards` within the window (``alpha``, ``beta``) of seat 0's value: exact when
    the value lies inside it, else a bound on the side it fell (fail-soft: at most ``alpha``, at
    least ``beta``), found with fewer nodes. ``out_best[0]``: the best card among those searched."""
    trump, hands, leader, lead_card, scores, brisques = position
    mask, base, acc = set_position(rules, trump, hands, lead_card, scores, brisques, sv)
    to_act = leader if lead_card < 0 else 1 - leader
    rest = _root_moves(sv, mask, leader, lead_card)
    maxi = to_act == 0
    alpha = alpha - base              # the window on the value still to be made
    beta = beta - base
    best = -INF if maxi else INF
    out_best[0] = -1
    while rest != 0:
        i = trailing_zeros(rest)
        rest &= rest - 1
        v = _play_value(sv, mask, leader, acc, lead_card, i, alpha, beta)
        if maxi and v > best:
            best = v
            alpha = max(alpha, v)
            out_best[0] = sv[O_CT + i]
        elif not maxi and v < best:
            best = v
            beta = min(beta, v)
            out_best[0] = sv[O_CT + i]
        if alpha >= beta:
            break
    return base + best


@njit(cache=True, _nrt=False, inline="always")
def _state_hands(st, hands):
    for s in range(2):
        for t in range(32):
            hands[s, t] = st.P[s, L.P_HAND + t]


@njit(cache=True, _nrt=False, inline="always")
def _state_lead(st):
    return st.G[L.G_LEAD] if st.G[L.G_TRICK_POS] == 1 else -1


@njit(cache=True, _nrt=False)
def state_value(rules, st, seat, sv, pos):
    """The exact value for ``seat`` (see :func:`solve_cards`) of the HandState ``st`` at a
    second-stage play decision (G_STAGE 2, two seats), a trick possibly in progress, with the
    solver ``sv`` and ``pos`` int64[POS_W] scratch (no allocation)."""
    return state_bound(rules, st, seat, sv, pos, np.int64(-INF), np.int64(INF))


@njit(cache=True, _nrt=False)
def state_bound(rules, st, seat, sv, pos, alpha, beta):
    """:func:`state_value` within the window (``alpha``, ``beta``) of ``seat``'s value: exact
    inside it, else a bound on the side it fell (:func:`solve_window`)."""
    hands = pos[:64].reshape((2, 32))
    _state_hands(st, hands)
    scores = pos[64:66]
    brisques = pos[66:68]
    for r in range(2):
        scores[r] = st.P[r, L.P_SCORE]
        brisques[r] = st.P[r, L.P_BRISQ]
    at = Position(st.G[L.G_TRUMP], hands, st.G[L.G_LEADER], _state_lead(st), scores, brisques)
    if seat == 0:
        return solve_window(rules, at, sv, pos[68:69], alpha, beta)
    return -solve_window(rules, at, sv, pos[68:69], -beta, -alpha)


@njit(cache=True, nogil=True)
def solve_state(rules, st, seat):
    """:func:`state_value` with a solver of its own (allocated: for Python and tests)."""
    return state_value(rules, st, seat, new_solver(SOLVER_BITS), np.zeros(POS_W, np.int64))


@njit(cache=True, nogil=True)
def solve_actions(rules, st, values):
    """For the seat to act at a second-stage play decision of ``st``: the exact value for that
    seat of each of its legal actions, into ``values`` in the order
    :func:`hand.legal_actions` writes them (into ``st.legal``); returns how many."""
    n = legal_count(rules, st)
    hands = np.zeros((2, 32), np.int64)
    _state_hands(st, hands)
    sv = new_solver(SOLVER_BITS)
    seat = st.G[L.G_TO_ACT]
    leader = st.G[L.G_LEADER]
    lead = _state_lead(st)
    mask, base, acc = set_position(rules, st.G[L.G_TRUMP], hands, lead, st.P[:2, L.P_SCORE],
                                   st.P[:2, L.P_BRISQ], sv)
    for k in range(n):
        i = _number_of(sv, mask, seat, played_card(st.legal[k]))
        v = base + _play_value(sv, mask, leader, acc, lead, i, -INF, INF)
        values[k] = v if seat == 0 else -v
    return n


@njit(cache=True, _nrt=False, inline="always")
def _obs_position(rules, obs, sv, pos):
    """The second-stage position a seat sees in its observation ``obs`` (the other hand is every
    copy of the rules' packs neither in its hand nor played), set into the solver ``sv`` with
    ``pos`` as scratch: (mask, base, acc, leader, lead) for :func:`_play_value`."""
    packs = rules[R_PACKS]
    me = obs[L.OBS_SEAT]           # the position by absolute seat, as the other seat sees it too
    other = 1 - me
    hands = pos[:64].reshape((2, 32))
    for t in range(32):
        hands[me, t] = obs[L.OBS_HAND + t]
        hands[other, t] = packs - obs[L.OBS_HAND + t] - obs[L.OBS_PLAYED + t]
    lead = np.int64(-1)
    leader = me
    if obs[L.OBS_TRICK_POS] == 1:
        lead = np.int64(obs[L.OBS_LEAD_CARD])
        leader = other
    scores = pos[64:66]
    brisques = pos[66:68]
    for r in range(2):
        scores[(me + r) % 2] = obs[L.OBS_SCORE + r]
        brisques[(me + r) % 2] = obs[L.OBS_BRISQUES + r]
    mask, base, acc = set_position(rules, obs[L.OBS_TRUMP], hands, lead, scores, brisques, sv)
    return mask, base, acc, leader, lead


@njit(cache=True, _nrt=False)
def solve_obs(rules, obs, legal, n_legal, values, sv, pos):
    """For a policy at a second-stage play decision, from its seat's observation ``obs``
    (OBS_*: the other hand is every copy of the rules' packs neither in its hand nor played):
    the exact value for that seat of each legal action ``legal[:n_legal]``, into ``values``;
    returns the index of the best (the first of equal values). ``sv`` is the seat's solver
    (:func:`solver_in`; what it solved at the seat's earlier decisions of this second stage is
    reused), ``pos`` int64[POS_W] scratch."""
    me = obs[L.OBS_SEAT]
    mask, base, acc, leader, lead = _obs_position(rules, obs, sv, pos)
    sign = 1 if me == 0 else -1
    best_k = 0
    for k in range(n_legal):
        i = _number_of(sv, mask, me, played_card(legal[k]))
        values[k] = sign * (base + _play_value(sv, mask, leader, acc, lead, i, -INF, INF))
        if values[k] > values[best_k]:
            best_k = k
    return best_k


@njit(cache=True, _nrt=False)
def best_obs(rules, obs, legal, n_legal, sv, pos):
    """The index in ``legal[:n_legal]`` of :func:`solve_obs`'s best action (the first of equal
    values) without every action's exact value: the first action is searched with a full window,
    each later one only to learn whether it is strictly better (alpha-beta at the root, as
    :func:`solve_cards` does), which prunes most of the later actions' trees."""
    me = obs[L.OBS_SEAT]
    mask, _base, acc, leader, lead = _obs_position(rules, obs, sv, pos)
    best_k = 0
    best = np.int64(0)
    for k in range(n_legal):
        i = _number_of(sv, mask, me, played_card(legal[k]))
        if k == 0:
            v = _play_value(sv, mask, leader, acc, lead, i, -INF, INF)
            best = v
        elif me == 0:            # seat 0 maximises the value; better only if above the best
            v = _play_value(sv, mask, leader, acc, lead, i, best, INF)
            if v > best:
                best = v
                best_k = k
        else:                    # seat 1 minimises it
            v = _play_value(sv, mask, leader, acc, lead, i, -INF, best)
            if v < best:
                best = v
                best_k = k
    return best_k


# --- finished hands, and scratch states for a search over the engine ------------------------

@njit(cache=True, _nrt=False)
def final_value(rules, st, seat):
    """The value for ``seat`` of a finished hand, as :func:`solve_cards` defines it: the
    margin of P_SCORE (ordinary), or the signed R3.9 game score (Rubicon)."""
    P = st.P
    s0 = np.int64(P[0, L.P_SCORE])
    s1 = np.int64(P[1, L.P_SCORE])
    if rules[R_BRISQUES_SCORED]:
        v = s0 - s1
    else:
        bp = rules[R_BRISQUE_POINTS]
        v = game_value(rules, s0, s1, bp * np.int64(P[0, L.P_BRISQ]), bp * np.int64(P[1, L.P_BRISQ]))
    return v if seat == 0 else -v


@njit(cache=True, _nrt=False)
def legal_count(rules, st):
    """:func:`hand.legal_actions` compiled once (it is inlined wherever it is called): how many."""
    return legal_actions(rules, st)[0]


@njit(cache=True, _nrt=False, inline="always")
def pool_state(pool, d):
    """The HandState at depth ``d`` of a pool of scratch states (:func:`new_pool`)."""
    G, P, T, obs, talon, rngs, ev, legal, work = pool
    return HandState(G[d], P[d], T[d], obs[d], talon[d], rngs[d], ev[d], legal[d], work[d])


@njit(cache=True)
def new_pool(depth):
    """Scratch states for a minimax, one per depth (:func:`endgame_reference.minimax_state`,
    :func:`new_tail_pool`)."""
    return (np.zeros((depth, L.G_SIZE), np.int64), np.zeros((depth, L.MAX_SEATS, L.P_W), np.int32),
            np.zeros((depth, L.MAX_SEATS, L.MAX_TABLE, L.T_W), np.int32),
            np.zeros((depth, L.MAX_SEATS, L.OBS_SIZE), np.int32),
            np.zeros((depth, L.MAX_TALON), np.int32), np.zeros((depth, L.MAX_SEATS, 1), np.uint64),
            np.zeros((depth, 1, L.E_W), np.int32), np.zeros((depth, L.MAX_LEGAL), np.int32),
            np.zeros((depth, L.WORK_SIZE), np.int64))


TAIL_DEPTH = 24      # decisions a first stage's last window can hold, with room to spare


@njit(cache=True)
def new_tail_pool():
    """Scratch states for a search over a first stage's last window (the search player's,
    policies/expert.tail_estimate), one per depth."""
    return new_pool(TAIL_DEPTH)
