"""expert: a strong reference player by determinized search (perfect-information Monte Carlo).

At a decision of the first stage the player draws ``samples`` assignments of the cards it
cannot see, consistent with everything public (observe.sample_hidden: the other hand's known
cards, the turn-up, sizes), rebuilds each as a whole hand (observe.rebuild), and for each legal
action applies it and plays the hand out with a fast rollout policy; it picks the action of best
mean final value. Every action is tried on the same samples with the same rollout streams
(common random numbers), so their difference is not blurred by luck. In a two-handed second
stage every card is known and the choice is exact (engine.endgame).

The value of a finished hand is the one the exact solver uses (endgame.final_value): the margin
of the hand scores in the ordinary game, the signed R3.9 game score in Rubicon.

It plays two-handed games only: the ordinary game and its variants V1-V3 and V6-V7, and
Rubicon (the registry refuses a rule set of three or four players, see
registry.check_rules). Asked whether it claims the game (V3) it always does: the engine asks
only when the claim is right, and a right claim wins the game.

Parameters (``params`` slots; the first 16 are the hints weights a ``hints`` rollout uses):
E_SAMPLES samples per decision; E_ROLLOUT the rollout policy (0 greedy, 1 random, 2 hints);
E_ENDGAME 1: a rollout that reaches the second stage is finished by the exact solver;
E_EXACT 1: own second-stage decisions by the exact solver (else as the first stage);
E_PRUNE_Z: after every PRUNE_BLOCK samples an action more than this many standard errors
(of its paired difference) behind the best is dropped, so the samples go to the close calls
(0: every action gets every sample).
"""
from typing import NamedTuple

import numpy as np
from numba import njit, types

from ..engine.endgame import final_value, solve_state
from ..engine.hand import apply, is_over, legal_actions, observe, to_act
from ..engine.layout import (
    A_CLAIM_GAME,
    D_CLAIM,
    G_PHASE,
    G_STAGE,
    MAX_SEATS,
    MAX_TALON,
    OBS_DECISION,
    OBS_N_SEATS,
    OBS_SEAT,
    PARAM_FULL_OBS,
    PH_PLAY,
    POLICY_SIG,
)
from ..engine.observe import rebuild, sample_hidden
from ..engine.rng import below, next_u64, stream_state
from ..engine.state import STATE_TYPE, HandState, copy_into, new_state
from .builtin import greedy_policy
from .endgame import exact_endgame_action, is_exact_decision
from .hints import default_params as hints_defaults
from .hints import hints_policy
from .params import E_ENDGAME, E_EXACT, E_PRUNE_Z, E_ROLLOUT, E_SAMPLES

PRUNE_BLOCK = 8            # samples between two looks at the actions' differences
DEFAULT_PRUNE_Z = 2.0
ROLLOUT_GREEDY, ROLLOUT_RANDOM, ROLLOUT_HINTS = 0, 1, 2
ROLLOUT_NAMES = ("greedy", "random", "hints")
DEFAULT_SAMPLES = 32


def default_params() -> np.ndarray:
    """The default search: DEFAULT_SAMPLES samples, greedy rollouts, exact second stage."""
    p = hints_defaults()
    p[E_SAMPLES] = DEFAULT_SAMPLES
    p[E_ROLLOUT] = ROLLOUT_GREEDY
    p[E_ENDGAME] = 0
    p[E_EXACT] = 1
    p[E_PRUNE_Z] = DEFAULT_PRUNE_Z
    p[PARAM_FULL_OBS] = 1                  # the search needs the public record to sample
    return p


# compiled on its own (the solver allocates) so that the rollout loop runs without the
# runtime: reference counting on every state access costs it a factor of ten
@njit(types.int64(types.int64[::1], STATE_TYPE, types.int64), cache=True)
def _solve_rest(rules, st, me):
    return solve_state(rules, st, me)


@njit(cache=True, _nrt=False)
def rollout_value(rules, st, me, params):
    """Play ``st`` to its end with the rollout policy of ``params`` (E_ROLLOUT; with E_ENDGAME
    a two-handed second stage is solved exactly instead) and return its value for ``me``."""
    kind = params[E_ROLLOUT]
    while not is_over(st):
        if params[E_ENDGAME] > 0 and st.G[G_STAGE] == 2 and st.G[G_PHASE] == PH_PLAY:
            return _solve_rest(rules, st, me)
        nleg, _plays = legal_actions(rules, st)
        if nleg == 1:
            a = st.legal[0]
        else:
            s = to_act(st)
            observe(rules, st, s)
            if kind == ROLLOUT_RANDOM:
                a = st.legal[below(st.rngs[s], nleg)]
            elif kind == ROLLOUT_HINTS:
                a = hints_policy(st.obs[s], st.legal, nleg, rules, params, st.rngs[s])
            else:
                a = greedy_policy(st.obs[s], st.legal, nleg, rules, params, st.rngs[s])
        apply(rules, st, a)
    return final_value(rules, st, me)


@njit(cache=True, _nrt=False)
def _prune(vals, k, alive, n_legal, z):
    """Drop every action whose paired difference from the best mean so far (same samples) is
    more than ``z`` standard errors below it; return the best."""
    best = -1
    best_sum = 0.0
    for i in range(n_legal):
        if alive[i]:
            t = 0.0
            for j in range(k):
                t += vals[j, i]
            if best < 0 or t > best_sum:
                best = i
                best_sum = t
    if z <= 0 or k < 2:
        return best
    for i in range(n_legal):
        if alive[i] and i != best:
            m = 0.0
            q = 0.0
            for j in range(k):
                d = vals[j, best] - vals[j, i]
                m += d
                q += d * d
            m /= k
            var = max(q / k - m * m, 0.0) * k / (k - 1)
            if m > z * np.sqrt(var / k):
                alive[i] = False
    return best


class SearchWork(NamedTuple):
    """One decision's search: its budget and the arrays it works in (:func:`new_search`)."""

    samples: int            # determinizations at most
    z: float                # an action this many standard errors behind the best is dropped
    vals: np.ndarray        # [sample, action]: the action's value for the searching seat
    alive: np.ndarray       # [action]: still searched
    base: HandState         # a sampled world, rebuilt from the observation
    work: HandState         # that world after one action, played out
    hidden: np.ndarray      # [seat, card type]: the unseen cards a sample gives each seat
    talon: np.ndarray       # the sample's talon, and below what sample_hidden works in
    drawn: np.ndarray
    pool: np.ndarray
    sizes: np.ndarray


@njit(cache=True)
def new_search(samples, z, n_legal):
    """A :class:`SearchWork` for up to ``samples`` samples of ``n_legal`` actions."""
    return SearchWork(samples, z, np.full((max(samples, 1), n_legal), np.nan), np.ones(n_legal, np.bool_),
                      new_state(False), new_state(False), np.zeros((MAX_SEATS, 32), np.int32),
                      np.zeros(MAX_TALON, np.int32), np.full(MAX_SEATS, -1, np.int64),
                      np.zeros(MAX_TALON, np.int32), np.zeros(4, np.int64))


@njit(cache=True, _nrt=False)
def _sample_and_play(rules, obs, legal, n_legal, params, rng, sw):
    """Up to ``sw.samples`` determinizations in blocks of PRUNE_BLOCK; after each block the
    actions clearly worse than the best are dropped (``sw.z`` > 0; with ``z`` = 0 every
    action, even a forced one, gets every sample). ``sw.vals[k, i]``: the value of action i in
    sample k. Returns (samples played, the best action's index)."""
    samples, z, vals, alive, base, work = sw.samples, sw.z, sw.vals, sw.alive, sw.base, sw.work
    me = obs[OBS_SEAT]
    n = obs[OBS_N_SEATS]
    n_alive = 0
    for i in range(n_legal):
        n_alive += alive[i]
    k = 0
    best = 0
    while k < samples and (n_alive > 1 or z <= 0):      # z = 0: every sample (analysis)
        stop = min(samples, k + PRUNE_BLOCK)
        while k < stop:
            sw.hidden[:] = 0
            sample_hidden(rules, obs, rng, sw.hidden, sw.talon, sw.drawn, sw.pool, sw.sizes)
            rebuild(rules, obs, sw.hidden, sw.talon, sw.drawn, base)
            seed = next_u64(rng)
            for i in range(n_legal):
                if not alive[i]:
                    continue
                copy_into(work, base)
                for s in range(n):
                    work.rngs[s, 0] = stream_state(seed, 0, 1 + s)
                apply(rules, work, legal[i])
                vals[k, i] = float(rollout_value(rules, work, me, params))
            k += 1
        best = _prune(vals, k, alive, n_legal, z)
        n_alive = 0
        for i in range(n_legal):
            n_alive += alive[i]
    if n_alive == 1:
        for i in range(n_legal):
            if alive[i]:
                best = i
    return k, best


@njit(cache=True)
def search(rules, obs, legal, n_legal, params, rng, samples, z):
    """Determinized search for the seat whose observation is ``obs`` (its public record
    filled) over its legal actions ``legal[:n_legal]``: up to ``samples`` samples drawn from
    ``rng``, every action on the same samples and rollout streams; with ``z`` > 0 an action
    ``z`` standard errors behind the best is dropped early. Returns (the best action's index,
    ``vals`` [samples played, n_legal]: each action's value for that seat per sample, NaN where
    it was dropped)."""
    sw = new_search(samples, z, n_legal)
    k, best = _sample_and_play(rules, obs, legal, n_legal, params, rng, sw)
    return best, sw.vals[:k]


@njit(POLICY_SIG, cache=True)
def expert_policy(obs, legal, n_legal, rules, params, rng):
    """The expert (module docstring): exact in a two-handed second stage (with E_EXACT), else
    the action of best mean over up to E_SAMPLES determinizations played out by the rollout
    policy, the clearly worse actions dropped early (E_PRUNE_Z). A claim of the game (V3) is
    always made."""
    if obs[OBS_DECISION] == D_CLAIM:
        return A_CLAIM_GAME
    if params[E_EXACT] > 0 and is_exact_decision(obs):
        return exact_endgame_action(rules, obs, legal, n_legal)
    best, _vals = search(rules, obs, legal, n_legal, params, rng, max(1, int(params[E_SAMPLES])),
                         params[E_PRUNE_Z])
    return legal[best]
