"""The exact solver's reference, and the positions its tests and benchmark start from.

:func:`minimax_state` is a plain full minimax over the engine itself (legal_actions, apply,
copy_into), the independent check of the solver of :mod:`analyzer.engine.endgame`
(tests/test_endgame.py); :func:`random_position` deals a hand as every run deals it and plays it
at random into the second stage (tests/test_endgame.py, scripts/bench_endgame.py). Nothing in
the library calls either.
"""
import numpy as np
from numba import njit

from ..rules import R_N_CARDS, R_PLAYERS
from .deals import deal_deck
from .endgame import INF, final_value, legal_count, new_pool, pool_state
from .hand import apply_once, deal_into, is_over
from .layout import G_PHASE, G_STAGE, G_TO_ACT, MAX_TALON, P_HAND, PH_PLAY
from .rng import below, stream_state
from .state import copy_into


@njit(cache=True, _nrt=False)
def _minimax(rules, pool, d, seat):
    """Plain minimax for ``seat`` over the engine's decisions from the state at depth ``d`` of
    ``pool`` (each child copied into the next depth) to the end of the hand, every move
    searched: the solver's reference."""
    st = pool_state(pool, d)
    if is_over(st):
        return final_value(rules, st, seat)
    n = legal_count(rules, st)
    maxi = st.G[G_TO_ACT] == seat
    best = -INF if maxi else INF
    if d + 1 >= pool[0].shape[0]:   # the pool is sized to the cards left: a guard, not a value
        return 0
    child = pool_state(pool, d + 1)
    for k in range(n):
        copy_into(child, st)
        apply_once(rules, child, st.legal[k])
        v = _minimax(rules, pool, d + 1, seat)
        if maxi:
            best = max(best, v)
        else:
            best = min(best, v)
    return best


@njit(cache=True)
def minimax_state(rules, st, seat):
    """The value for ``seat`` of a second-stage HandState by plain minimax over the engine
    (legal_actions, apply, copy_into into one scratch state per depth), without pruning, table
    or solver: the independent check of :func:`endgame.solve_state`. Exponential: small positions
    only."""
    depth = 3
    for s in range(2):
        for t in range(32):
            depth += st.P[s, P_HAND + t]
    pool = new_pool(depth)
    top = np.int64(0)           # not a literal 0: see endgame._search
    copy_into(pool_state(pool, top), st)
    return _minimax(rules, pool, top, np.int64(seat))


@njit(cache=True)
def random_position(rules, st, seed, hand, extra):
    """Deal hand ``hand`` of a run seeded ``seed`` into ``st`` (the deal of every run; the
    policies' streams are not seeded) and play uniformly random legal actions (a stream of its
    own) to the start of the second stage, then ``extra`` random plays more (an odd number
    stops inside a trick). Returns whether ``st`` is a second-stage play decision (False: the
    hand ended first)."""
    deck = np.zeros(MAX_TALON, np.int32)
    dstate = np.zeros(1, np.uint64)
    deal_deck(rules[R_N_CARDS], np.uint64(seed), hand, deck, dstate)
    deal_into(rules, st, deck, hand % rules[R_PLAYERS])
    rng = np.zeros(1, np.uint64)
    rng[0] = stream_state(np.uint64(seed), hand, 99)
    while not is_over(st) and not (st.G[G_STAGE] == 2 and st.G[G_PHASE] == PH_PLAY):
        apply_once(rules, st, st.legal[below(rng, legal_count(rules, st))])
    for _k in range(extra):
        if is_over(st):
            break
        apply_once(rules, st, st.legal[below(rng, legal_count(rules, st))])
    return not is_over(st)
