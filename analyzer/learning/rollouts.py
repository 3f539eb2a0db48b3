"""Labels by roll-outs: at a sampled first-stage decision of a hand, every legal action is
tried from the true state and the hand played out by fixed roll-out policies; the action's
label is its result minus the mean over the actions (its advantage).

The true state is used only to play the hand on, never as an input: the network sees the
deciding seat's observation alone, so it learns the expectation of each action's advantage
over the hands that look the same to that seat (its Q under the roll-out policies). The actions
of one decision share the deal, the talon order and the other hand (common random numbers),
so the differences between them carry far less noise than one hand's result.

Who plays is a :class:`Players` bundle: the behaviour (the network being trained, or the
teacher), the roll-out policy (the teacher, or a frozen network: a round of policy iteration
over it, its second stage exact as the learned player's is), and for a best response a frozen
opponent that holds one seat throughout (the learner's seat alternates with the hand, and only
its decisions are labelled).

With a search (expert iteration, :class:`Search`: ``expert``'s parameters and a seat whose
network is the round's model) the decisions it searches — those with at most its ``late`` cards
left to draw — are labelled instead by the search's action values, each action's mean over
the worlds it was played in (policies.expert.search, which sees only the seat's observation
and samples the unseen cards), and the search's choice is played there: the hands are the
expert's games.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from ..engine.batch import deal_hand
from ..engine.hand import apply_once, to_act
from ..engine.layout import G_FULL_OBS, G_STAGE, MAX_LEGAL, MAX_TALON, OBS_TALON_LEFT
from ..engine.policy_data import SeatData
from ..engine.rng import below, uniform
from ..engine.state import copy_into, new_state
from ..policies.features import CTX_W, MAX_ACTION_NZ, action_features, state_features
from ..policies.expert import search
from ..policies.hints import hints_policy
from ..policies.learned_net import best_action
from .selfplay import BOTH_SEATS
from .steps import hand_result, legal, next_choice


class LabelRun(NamedTuple):
    """A chunk of labelled hands: which hands and how they are sampled."""

    rubicon: bool        # results as Rubicon's game score (R3.9), else points
    seed: np.uint64      # the run's seed: hands start .. start + count - 1 of it
    start: int
    count: int
    eps: float           # share of the behaviour's moves played at random
    keep: float          # share of the decisions with a choice that are labelled
    scale: float         # the labels' unit (points per unit)
    teacher_input: bool  # the decision's features name the teacher's choice (AF_HINT)


class Players(NamedTuple):
    """Who plays a labelled hand: each a SeatData whose weights are a network (empty: none)."""

    behave: SeatData     # the behaviour at the learner's seat(s): its network, or the teacher
    roll: SeatData       # the roll-outs of the learner's seat(s): a frozen network, or the teacher
    opponent: SeatData   # a frozen opponent at the other seat (a best response), or none
    teacher: np.ndarray  # hints' parameter vector: the teacher


class Search(NamedTuple):
    """The search that labels the late decisions (none when ``params.samples`` is 0)."""

    params: np.void      # an ``expert``'s settings (engine/policy_data.PARAMS_DTYPE)
    data: SeatData       # its seat: the round's network (and the value network after it), the solver


class Samples(NamedTuple):
    """The labelled samples of a chunk, preallocated by the caller and filled in place."""

    dec_xs: np.ndarray   # [decision, N_STATE]: the state features
    row_dec: np.ndarray  # [row]: the decision a row belongs to
    row_ai: np.ndarray   # [row, MAX_ACTION_NZ]: the action's feature indices (-1 after the last)
    row_av: np.ndarray   # [row, MAX_ACTION_NZ]: their values
    row_y: np.ndarray    # [row]: the action's advantage, in units of the run's scale


@njit(cache=True, _nrt=False, inline="always")
def _has_net(data):
    return data.weights.shape[0] > 0


@njit(cache=True, nogil=True)
def roll_out(rules, rubicon, st, seat, mine, theirs, teacher):
    """Play ``st`` to the end, ``seat`` by ``mine`` and the other seat by ``theirs`` (SeatData:
    a network plays its first stage and, when both seats are networks, the second stage is
    exact, as the learned player plays it; without a network, hints with ``teacher``'s weights,
    its second stage too); ``seat``'s result."""
    exact = BOTH_SEATS if _has_net(mine) and _has_net(theirs) else 0
    while True:
        nleg = next_choice(rules, st, exact, mine)
        if nleg == 0:
            return hand_result(rules, st, rubicon, seat)
        s = to_act(st)
        obs = st.obs[s]
        data = mine if s == seat else theirs
        if _has_net(data) and st.G[G_STAGE] == 1:
            a = st.legal[best_action(data.weights, obs, rules, st.legal, nleg, st.rngs[s], data)]
        else:
            a = hints_policy(obs, st.legal, nleg, rules, teacher, st.rngs[s], data)
        apply_once(rules, st, a)


@njit(cache=True, nogil=True)
def _write_rows(obs, rules, hint, valued, feats, at, scale, out):
    """A row per action ``acts[k]`` of a decision (``valued``: its actions ``acts``, how many,
    ``nleg``, and their values ``values``) into ``out`` from ``at`` = (its decision ``nd``, the
    row ``nr``) on: the action's features (``feats``: the decision's context ``ctx`` from
    features.state_features and the scratch ``idx``, ``val`` of action_features) and its
    advantage, ``values[k]`` less the mean over the actions, in units of ``scale`` (an action
    without a value, NaN, gets no row); returns the next row."""
    acts, nleg, values = valued
    ctx, idx, val = feats
    nd, nr = at
    mean = 0.0
    n = 0
    for k in range(nleg):
        if not np.isnan(values[k]):
            mean += values[k]
            n += 1
    mean /= n
    for k in range(nleg):
        if np.isnan(values[k]):
            continue
        nz = action_features(obs, rules, ctx, acts[k], hint, idx, val)
        for j in range(MAX_ACTION_NZ):
            out.row_ai[nr, j] = idx[j] if j < nz else -1
            out.row_av[nr, j] = val[j] if j < nz else 0.0
        out.row_dec[nr] = nd
        out.row_y[nr] = (values[k] - mean) / scale
        nr += 1
    return nr


@njit(cache=True, nogil=True)
def _searched_values(rules, obs, legal, nleg, srch, srng, values):
    """The search's value of each legal action at this decision (its mean over the worlds it
    was played in: a pruned action's over fewer) into ``values``; returns the search's choice
    (an index into ``legal``)."""
    best, vals = search(rules, obs, legal, nleg, srch.params, srng,
                        (max(1, srch.params.samples), srch.params.prune_z), srch.data)
    for k in range(nleg):
        total = 0.0
        n = 0
        for j in range(vals.shape[0]):
            if not np.isnan(vals[j, k]):
                total += vals[j, k]
                n += 1
        values[k] = total / n if n > 0 else np.nan
    return best


@njit(cache=True, nogil=True)
def label_chunk(rules, run, who, srch, out, picks):
    """Play the hands of ``run`` (a LabelRun) with ``who`` (Players: the learner's seats by the
    behaviour's network, or by hints with the teacher's weights; a random action with
    probability ``eps``; with an opponent, seat 1 - hand % 2 by it) and label each first-stage
    decision of a learner's seat with a choice, with probability ``keep``, into ``out``
    (Samples): its state features, a row per legal action with the action's features and its
    advantage under roll-outs (the learner's seat by ``who.roll``, the other by the opponent or
    ``who.roll``). With a search (``srch``, a Search whose ``samples`` > 0) every decision it
    searches is labelled by its action values instead and played by its choice, whose row
    (from the decision's first) goes to ``picks[decision]`` (-1 for a decision labelled by
    roll-outs). Returns (decisions, rows); the arrays' capacity bounds them."""
    st = new_state(False)
    work = new_state(False)
    deck = np.zeros(MAX_TALON, np.int32)
    dstate = np.zeros(1, np.uint64)
    idx = np.zeros(MAX_ACTION_NZ, np.int64)
    val = np.zeros(MAX_ACTION_NZ, np.float32)
    ctx = np.zeros(CTX_W, np.int64)
    feats = (ctx, idx, val)      # a decision's features: its context, an action's scratch
    acts = np.zeros(MAX_LEGAL, np.int32)
    values = np.zeros(MAX_LEGAL, np.float64)
    rs = np.zeros(1, np.uint64)
    srng = np.zeros(1, np.uint64)
    searching = srch.params.samples > 0
    late = srch.params.late
    best_response = _has_net(who.opponent)
    cap_d = out.dec_xs.shape[0]
    cap_r = out.row_y.shape[0]
    nd = 0
    nr = 0
    for i in range(run.count):
        hand = run.start + i
        deal_hand(rules, st, run.seed, hand, deck, dstate)
        rs[0] = st.rngs[0, 0] ^ np.uint64(0x9E3779B97F4A7C15)    # the sampling's own stream
        srng[0] = st.rngs[1, 0] ^ np.uint64(0xD1B54A32D192ED03)  # the search's worlds
        if searching:
            st.G[G_FULL_OBS] = BOTH_SEATS      # the search samples worlds from the public record
        learner = hand % 2 if best_response else -1
        while True:
            nleg = next_choice(rules, st, BOTH_SEATS, who.behave)
            if nleg == 0:
                break
            s = to_act(st)
            obs = st.obs[s]
            if best_response and s != learner:
                apply_once(rules, st, st.legal[best_action(who.opponent.weights, obs, rules, st.legal, nleg,
                                                    st.rngs[s], who.opponent)])
                continue
            chosen = -1
            if searching and (late <= 0 or obs[OBS_TALON_LEFT] <= late):
                chosen = _searched_values(rules, obs, st.legal, nleg, srch, srng, values)
                valued = 0
                for k in range(nleg):
                    valued += not np.isnan(values[k])
                if valued > 1 and nd < cap_d and nr + nleg <= cap_r:
                    hint = hints_policy(obs, st.legal, nleg, rules, who.teacher, st.rngs[s], who.behave) \
                        if run.teacher_input else -1
                    state_features(obs, rules, out.dec_xs[nd], ctx)
                    picks[nd] = 0
                    for k in range(chosen):
                        picks[nd] += not np.isnan(values[k])
                    nr = _write_rows(obs, rules, hint, (st.legal, nleg, values), feats, (nd, nr), run.scale, out)
                    nd += 1
            elif uniform(rs) < run.keep and nd < cap_d and nr + nleg <= cap_r:
                for k in range(nleg):
                    acts[k] = st.legal[k]
                state_features(obs, rules, out.dec_xs[nd], ctx)
                hint = hints_policy(obs, st.legal, nleg, rules, who.teacher, st.rngs[s], who.behave) \
                    if run.teacher_input else -1
                theirs = who.opponent if best_response else who.roll
                for k in range(nleg):
                    copy_into(work, st)
                    legal(rules, work)         # apply expects its decision's legal set
                    apply_once(rules, work, acts[k])
                    values[k] = roll_out(rules, run.rubicon, work, s, who.roll, theirs, who.teacher)
                nr = _write_rows(obs, rules, hint, (acts, nleg, values), feats, (nd, nr), run.scale, out)
                picks[nd] = -1
                nd += 1
            if run.eps > 0 and uniform(rs) < run.eps:
                a = st.legal[below(rs, nleg)]
            elif chosen >= 0:
                a = st.legal[chosen]
            elif _has_net(who.behave):
                a = st.legal[best_action(who.behave.weights, obs, rules, st.legal, nleg, st.rngs[s], who.behave)]
            else:
                a = hints_policy(obs, st.legal, nleg, rules, who.teacher, st.rngs[s], who.behave)
            apply_once(rules, st, a)
    return nd, nr
