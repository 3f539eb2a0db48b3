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

Settings (``params``, engine/policy_data.PARAMS_DTYPE; the ``hint`` weights are those a
``hints`` rollout uses): ``samples`` per decision; ``rollout`` the rollout policy (ROLLOUT_*);
``rollout_endgame``: a rollout that reaches the second stage is finished by the exact solver;
``exact``: own second-stage decisions by the exact solver (else as the first stage);
``prune_z``: after every ``block`` samples an action more than this many standard errors
(of its paired difference) behind the best is dropped, so the samples go to the close calls
(0: every action gets every sample);
``tail``: at a decision of the first stage's last window (one card to draw and the turn-up)
each sampled world is searched to the second stage (tail_estimate) instead of rolled out;
``prior`` K > 0: the learned network ranks the actions first; only its K best are searched;
``guard`` (without a prior): the roll-out policy's own choice at the decision is ranked first.
That choice, the anchor, stands unless another action's paired mean is ``switch_z`` standard
errors above it, so a search is never weaker than the policy it anchors on where it cannot
tell the actions apart; ``gate`` > 0: a decision whose network values are this far apart (best
to second) is not searched at all (in points; Rubicon: game points, the winner's score);
``late`` N > 0: only the decisions with at most N cards left to draw are searched, the anchor
(without one, the roll-out policy) plays the others; ``infer`` T > 0: following the other
seat's lead, the worlds are kept by how likely that lead is in each under the learned network
(policies/inference.py; softmax temperature T points). The learned network (``prior``,
or the ``learned`` rollout) is the seat's model (``SeatData.weights``: the registry gives such a
search the learned player's models), and the exact solver's table is the seat's too.

A ceiling (a seat that sees SEE_HANDS or SEE_TALON, ``Players.sees``) draws its worlds with
the true hands (observe.sample_world), and with the talon's order too plays one world, whose best action is
sure (no anchor holds it back): it cheats, and the registry names it so.
"""
import math
from typing import NamedTuple

import numpy as np
from numba import njit, typeof, types

from ..engine.by_address import by_address
from ..engine.endgame import INF, final_value, legal_count, new_tail_pool, pool_state, state_bound
from ..engine.endgame_buffer import POS_W, solver_in
from ..engine.hand import is_over, to_act
from ..engine.play import next_move
from ..engine import layout as L
from ..engine.policy_data import (
    PARAMS_TYPE, POLICY_SIG, SCRATCH_WORDS, SEAT_TYPE, SeatData, SW_EXACT, SW_SCRATCH, SW_SOLVER, new_seat_data,
)
from ..engine.rng import below, next_u64, stream_state
from ..engine.state import STATE_TYPE, HandState, copy_into, new_state
from .exact_endgame import exact_endgame_action, is_exact_decision
from .inference import draw_world
from .search_calls import INTS, RNG, RULES, apply_once_at, best_action_at, greedy_at, hints_at
from .learned_net import SCRATCH_USED, action_q
from .network import value_unit
from .stage2_value import H_W, V_WEIGHTS, estimated_value, value_applies
from .params import (
    DEFAULT_BLOCK,
    ROLLOUT_HINTS,
    ROLLOUT_LEARNED,
    ROLLOUT_RANDOM,
)

# fewer paired samples do not estimate a standard error: values come in steps of 10 points, so
# a few samples often differ by the same amount (a spread of 0) and any lead looks sure; with 4
# samples a search anchored on learned overruled it at 7 % of decisions and lost to it
MIN_SWITCH_SAMPLES = 16
TAIL_TALON = 2             # the last window: the last card to draw and the turn-up
assert SCRATCH_USED <= SCRATCH_WORDS - H_W // 2, "the value network's scratch overlaps the learned player's"


@njit(cache=True, _nrt=False, inline="always")
def _second_stage_value(rules, st, me, params, data, alpha, beta):
    """The value for ``me`` of a two-handed second stage: exact, with the seat's solver, within
    the window (``alpha``, ``beta``) (floats, -inf and inf for none; outside it a bound on the
    side it fell, endgame.state_bound); with ``leaf``, where the value network applies
    (stage2_value.value_applies), its estimate (the network's weights follow the learned
    model's in the seat's weights: the last V_WEIGHTS of them)."""
    if params.leaf and value_applies(rules, st):
        h = data.work[SW_SCRATCH + SCRATCH_WORDS - H_W // 2:SW_SCRATCH + SCRATCH_WORDS].view(np.float32)
        return estimated_value(rules, st, me, data.weights[data.weights.shape[0] - V_WEIGHTS:], h)
    pos = data.work[SW_EXACT + L.MAX_LEGAL:SW_EXACT + L.MAX_LEGAL + POS_W]
    lo = np.int64(max(np.floor(alpha), -INF))     # exact values are whole: the window widened to them
    hi = np.int64(min(np.ceil(beta), INF))
    return np.float64(state_bound(rules, st, me, solver_in(data.work, SW_SOLVER), pos, lo, hi))


@njit(cache=True, _nrt=False)
def rollout_value(rules, st, me, params, data):
    """Play ``st`` to its end with the rollout policy of ``params`` (``rollout``; with ``rollout_endgame``
    a two-handed second stage is solved exactly instead) and return its value for ``me``.
    ``data`` is the searching seat's SeatData: the learned network of the ``learned`` rollout
    (its weights), the solver's table and the scratch every rollout policy works in."""
    kind = params.rollout
    while True:
        if params.rollout_endgame and st.G[L.G_STAGE] == 2 and st.G[L.G_PHASE] == L.PH_PLAY and not is_over(st):
            return _second_stage_value(rules, st, me, params, data, -np.inf, np.inf)
        nleg, _plays = next_move(rules, st)
        if nleg == 0:
            return final_value(rules, st, me)
        if nleg == 1:
            a = st.legal[0]
        else:
            s = to_act(st)
            if kind == ROLLOUT_RANDOM:
                a = st.legal[below(st.rngs[s], nleg)]
            elif kind == ROLLOUT_HINTS:
                a = hints_at(st.obs[s], st.legal, nleg, rules, params, st.rngs[s], data)
            elif kind == ROLLOUT_LEARNED:
                if st.G[L.G_STAGE] == 2 and st.G[L.G_NSEATS] == 2 and st.G[L.G_PHASE] == L.PH_PLAY:
                    return _second_stage_value(rules, st, me, params, data, -np.inf, np.inf)  # learned's own second stage
                a = st.legal[best_action_at(data.weights, st.obs[s], rules, st.legal, nleg, st.rngs[s], data)]
            else:
                a = greedy_at(st.obs[s], st.legal, nleg, rules, params, st.rngs[s], data)
        apply_once_at(rules, st, np.int32(a))


@njit(cache=True, _nrt=False, inline="always")
def _paired_lead(vals, k, a, b):
    """Action ``a``'s mean lead over ``b`` on the first ``k`` samples, and its standard error."""
    m = 0.0
    q = 0.0
    for j in range(k):
        d = vals[j, a] - vals[j, b]
        m += d
        q += d * d
    m /= k
    var = max(q / k - m * m, 0.0) * k / (k - 1)
    return m, np.sqrt(var / k)


@njit(cache=True, _nrt=False)
def _prune(vals, k, alive, n_legal, z, keep):
    """Drop every action whose paired difference from the best mean so far (same samples) is
    more than ``z`` standard errors below it, but never ``keep`` (the anchor, or -1: whether it
    is beaten is :func:`_keep_anchor`'s call); return the best."""
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
        if alive[i] and i != best and i != keep:
            m, se = _paired_lead(vals, k, best, i)
            if m > z * se:
                alive[i] = False
    return best


@njit(cache=True, _nrt=False)
def switch_threshold(z, k, rivals):
    """How many estimated standard errors the best of ``rivals`` actions must lead the anchor by,
    over ``k`` paired samples, for the lead to be as sure as a lead of ``z`` true standard errors
    over one rival: the one-sided level of ``z`` shared among the rivals (Bonferroni), then
    Student's t for k - 1 degrees of freedom (Cornish-Fisher), since the standard error is
    itself estimated from the k samples. Infinite (never switch) below 3 samples."""
    if k < 3 or z <= 0:
        return np.inf if z > 0 else 0.0
    p = 0.5 * math.erfc(z / math.sqrt(2.0)) / max(rivals, 1)
    x = z
    for _ in range(30):              # Newton: the normal quantile of 1 - p
        f = 0.5 * math.erfc(x / math.sqrt(2.0)) - p
        x += f / (math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi))
    nu = k - 1.0
    x2 = x * x
    return x + x * (x2 + 1.0) / (4.0 * nu) + x * (5.0 * x2 * x2 + 16.0 * x2 + 3.0) / (96.0 * nu * nu) \
        + x * (3.0 * x2 ** 3 + 19.0 * x2 * x2 + 17.0 * x2 - 15.0) / (384.0 * nu ** 3)


class SearchWork(NamedTuple):
    """One decision's search: its budget and the arrays it works in (:func:`new_search`)."""

    samples: int            # determinizations at most
    z: float                # an action this many standard errors behind the best is dropped
    vals: np.ndarray        # [sample, action]: the action's value for the searching seat
    alive: np.ndarray       # [action]: still searched
    base: HandState         # a sampled world, rebuilt from the observation
    work: HandState         # that world after one action, played out
    hidden: np.ndarray      # [seat, card type]: the unseen cards a sample gives each seat
    talon: np.ndarray       # the sample's talon, and below what sample_world works in
    drawn: np.ndarray
    pool: np.ndarray
    sizes: np.ndarray
    tail: tuple             # the last window's minimax states (endgame.new_tail_pool)
    data: SeatData          # the searching seat's data: the learned network, the solver, scratch


@njit(cache=True)
def new_search(samples, z, n_legal, data):
    """A :class:`SearchWork` for up to ``samples`` samples of ``n_legal`` actions, for the seat
    whose data is ``data``."""
    return SearchWork(samples, z, np.full((max(samples, 1), n_legal), np.nan), np.ones(n_legal, np.bool_),
                      new_state(False), new_state(False), np.zeros((L.MAX_SEATS, 32), np.int32),
                      np.zeros(L.MAX_TALON, np.int32), np.full(L.MAX_SEATS, -1, np.int64),
                      np.zeros(L.MAX_TALON, np.int32), np.zeros(4, np.int64), new_tail_pool(), data)


@njit(cache=True, _nrt=False)
def _tail_estimate(rules, pool, d, me, params, data, alpha, beta):
    """Fail-soft alpha-beta for ``me`` within (``alpha``, ``beta``) over the engine's moves from
    the state at depth ``d`` of ``pool`` to the second stage, each second stage reached valued
    by :func:`_second_stage_value` within the window left (exact, or the network under ``leaf``)."""
    st = pool_state(pool, d)
    if is_over(st):
        return np.float64(final_value(rules, st, me))
    if st.G[L.G_STAGE] == 2 and st.G[L.G_PHASE] == L.PH_PLAY:
        return _second_stage_value(rules, st, me, params, data, alpha, beta)
    n = legal_count(rules, st)
    maxi = to_act(st) == me
    best = -np.inf if maxi else np.inf
    if d + 1 >= pool[0].shape[0]:       # never reached from a last window: a guard, not a value
        return 0.0
    child = pool_state(pool, d + 1)
    for k in range(n):
        copy_into(child, st)
        apply_once_at(rules, child, st.legal[k])
        v = _tail_estimate(rules, pool, d + 1, me, params, data, alpha, beta)
        if maxi:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


POOL_TYPE = typeof(new_tail_pool())
_tail_estimate_at = by_address(_tail_estimate, RULES, POOL_TYPE, types.int64, types.int64, PARAMS_TYPE, SEAT_TYPE,
                               types.float64, types.float64)


@njit(cache=True, _nrt=False)
def tail_estimate(rules, st, me, pool, params, data):
    """The value for ``me`` of a two-handed HandState of the first stage's last window whose
    talon order is known (a sampled world): alpha-beta over the moves to the second stage
    (:func:`_tail_estimate`), each second stage reached solved exactly within its window, or
    under ``leaf`` valued by the network; ``pool`` from endgame.new_tail_pool."""
    top = np.int64(0)                   # typed values, not literals (see endgame._search)
    copy_into(pool_state(pool, top), st)
    return _tail_estimate_at(rules, pool, top, np.int64(me), params, data, -np.inf, np.inf)


@njit(cache=True, _nrt=False)
def in_last_window(obs, params):
    """Whether each sampled world of this decision is solved exactly (``tail``): a two-handed
    first stage with only the last card to draw and the turn-up left."""
    return (params.tail and obs[L.OBS_N_SEATS] == 2 and obs[L.OBS_STAGE] == 1
            and obs[L.OBS_TALON_LEFT] <= TAIL_TALON)


@njit(cache=True, _nrt=False)
def _apply_prior(obs, legal, n_legal, rules, params, rng, sw):
    """Rank the actions by the learned network (``prior``): only its ``prior`` best stay alive.
    Returns the network's choice, or -1 - its choice when the decision is not to be searched
    (the best is ``gate`` or more above the second)."""
    best = best_action_at(sw.data.weights, obs, rules, legal, n_legal, rng, sw.data)
    q = action_q(sw.data)
    k = params.prior
    second = -1e30
    for i in range(n_legal):
        above = 0
        for j in range(n_legal):
            above += q[j] > q[i] or (q[j] == q[i] and j < i)
        sw.alive[i] = above < k
        if i != best:
            second = max(second, q[i])
    if params.gate > 0 and (q[best] - second) * value_unit(obs[L.OBS_PACKS]) >= params.gate:
        return -1 - best
    return best


@njit(cache=True, _nrt=False)
def _rollout_choice(obs, legal, n_legal, rules, params, rng, data):
    """The index in ``legal`` of the action the roll-out policy would take here itself (the
    anchor of a search without a prior, ``guard``)."""
    kind = params.rollout
    if kind == ROLLOUT_LEARNED:
        if is_exact_decision(obs):
            a = exact_endgame_action(rules, obs, legal, n_legal, data)
        else:
            return best_action_at(data.weights, obs, rules, legal, n_legal, rng, data)
    elif kind == ROLLOUT_HINTS:
        a = hints_at(obs, legal, n_legal, rules, params, rng, data)
    elif kind == ROLLOUT_RANDOM:
        return below(rng, n_legal)
    else:
        a = greedy_at(obs, legal, n_legal, rules, params, rng, data)
    for i in range(n_legal):
        if legal[i] == a:
            return i
    return 0


@njit(cache=True, _nrt=False)
def _keep_anchor(vals, k, alive, best, anchor, z):
    """The anchor's choice (the prior's, or the roll-out policy's own) stands unless ``best``
    leads it (paired, over the ``k`` samples) by :func:`switch_threshold` standard errors: as
    sure as ``z`` over one rival, whatever the number of rivals and samples, so that a search
    which cannot tell its actions apart plays its anchor. Below MIN_SWITCH_SAMPLES samples the
    anchor always stands."""
    if best == anchor or not alive[anchor]:
        return best
    if k < MIN_SWITCH_SAMPLES:
        return anchor
    rivals = 0
    for i in range(alive.shape[0]):
        rivals += alive[i] and i != anchor
    m, se = _paired_lead(vals, k, best, anchor)
    return best if m > switch_threshold(z, k, rivals) * se else anchor


# _sample_and_play calls its heavy callees by address too, so that neither it nor the levels
# above it (search, expert_policy) generate the roll-out's machine code again
SEARCH_TYPE = typeof(new_search(1, 0.0, 1, new_seat_data()))
_draw_world_at = by_address(draw_world, RULES, INTS, PARAMS_TYPE, RNG, SEARCH_TYPE)
_apply_prior_at = by_address(_apply_prior, INTS, INTS, types.int64, RULES, PARAMS_TYPE, RNG, SEARCH_TYPE)
_rollout_choice_at = by_address(_rollout_choice, INTS, INTS, types.int64, RULES, PARAMS_TYPE, RNG, SEAT_TYPE)
_rollout_value_at = by_address(rollout_value, RULES, STATE_TYPE, types.int32, PARAMS_TYPE, SEAT_TYPE)
tail_estimate_at = by_address(tail_estimate, RULES, STATE_TYPE, types.int32, POOL_TYPE, PARAMS_TYPE, SEAT_TYPE)


@njit(cache=True, _nrt=False)
def _sample_and_play(rules, obs, legal, n_legal, params, rng, sw):
    """Up to ``sw.samples`` determinizations in blocks of ``block``; after each block the
    actions clearly worse than the best are dropped (``sw.z`` > 0; with ``z`` = 0 every
    action, even a forced one, gets every sample). ``sw.vals[k, i]``: the value of action i in
    sample k (a world of the last window solved exactly, ``tail``). With ``prior`` only the
    network's best actions are searched; the anchor (the prior's choice, or with ``guard`` the
    roll-out policy's own) stands unless clearly beaten, and plays the decisions ``late`` leaves
    unsearched. Returns (samples played, the best action's index)."""
    samples, z, vals, alive, base, work = sw.samples, sw.z, sw.vals, sw.alive, sw.base, sw.work
    me = obs[L.OBS_SEAT]
    n = obs[L.OBS_N_SEATS]
    if obs[L.OBS_TRUE] == L.SEE_TALON:           # a ceiling that knows the talon: one world
        samples = 1
    anchor = -1
    if params.prior > 0:
        anchor = _apply_prior_at(obs, legal, n_legal, rules, params, rng, sw)
        if anchor < 0:
            return 0, -1 - anchor
    elif params.guard:
        anchor = _rollout_choice_at(obs, legal, n_legal, rules, params, rng, sw.data)
    if params.late > 0 and obs[L.OBS_TALON_LEFT] > params.late:   # not searched: the anchor plays,
        #                                                      without one (guard=0) the roll-out policy
        return 0, anchor if anchor >= 0 else _rollout_choice_at(obs, legal, n_legal, rules, params, rng, sw.data)
    tail = in_last_window(obs, params)
    n_alive = 0
    for i in range(n_legal):
        n_alive += alive[i]
    block = params.block if params.block > 0 else DEFAULT_BLOCK
    k = 0
    best = 0
    while k < samples and (n_alive > 1 or z <= 0):      # z = 0: every sample (analysis)
        stop = min(samples, k + block)
        while k < stop:
            _draw_world_at(rules, obs, params, rng, sw)
            seed = next_u64(rng)
            for i in range(n_legal):
                if not alive[i]:
                    continue
                copy_into(work, base)
                for s in range(n):
                    work.rngs[s, 0] = stream_state(seed, np.int64(0), 1 + s)   # typed: the batch's signature
                apply_once_at(rules, work, legal[i])
                if tail:
                    vals[k, i] = tail_estimate_at(rules, work, me, sw.tail, params, sw.data)
                else:
                    vals[k, i] = float(_rollout_value_at(rules, work, me, params, sw.data))
            k += 1
        best = _prune(vals, k, alive, n_legal, z, anchor)
        n_alive = 0
        for i in range(n_legal):
            n_alive += alive[i]
    if n_alive == 1:
        for i in range(n_legal):
            if alive[i]:
                best = i
    if anchor >= 0 and obs[L.OBS_TRUE] != L.SEE_TALON:     # the one true world's best is sure
        best = _keep_anchor(vals, k, alive, best, anchor, params.switch_z)
    return k, best


@njit(cache=True)
def search(rules, obs, legal, n_legal, params, rng, budget, data):
    """Determinized search for the seat whose observation is ``obs`` (its public record
    filled) and whose data is ``data`` over its legal actions ``legal[:n_legal]``, within the
    ``budget`` (samples, z): up to ``samples`` samples drawn from ``rng``, every action on the
    same samples and rollout streams; with ``z`` > 0 an action ``z`` standard errors behind the
    best is dropped early. Returns (the best action's index, ``vals`` [samples played,
    n_legal]: each action's value for that seat per sample, NaN where it was dropped)."""
    samples, z = budget
    sw = new_search(samples, z, n_legal, data)
    k, best = _sample_and_play(rules, obs, legal, n_legal, params, rng, sw)
    return best, sw.vals[:k]


@njit(POLICY_SIG, cache=True)
def expert_policy(obs, legal, n_legal, rules, params, rng, data):
    """The expert (module docstring): exact in a two-handed second stage (with ``exact``), else
    the action of best mean over up to ``samples`` determinizations played out by the rollout
    policy, the clearly worse actions dropped early (``prune_z``). A claim of the game (V3) is
    always made."""
    if obs[L.OBS_DECISION] == L.D_CLAIM:
        return L.A_CLAIM_GAME
    if params.exact and is_exact_decision(obs):
        return exact_endgame_action(rules, obs, legal, n_legal, data)
    best, _vals = search(rules, obs, legal, n_legal, params, rng, (max(1, params.samples), params.prune_z), data)
    return legal[best]
