"""Policy-based inference for the search (Rebstock et al. 2019): the worlds a search samples are
weighted by how likely the other seat's observed move is in each, under the learned policy.

The move read is the card the other seat led to the trick the searching seat is now to follow
(two-handed, first stage). It was chosen with the hand that seat holds now plus the led card,
in the position just before the lead, which a sampled world gives back exactly
(:func:`before_lead`): nothing was drawn in between. Its earlier moves (its follows, its
declarations) were made with a hand that the draws since have changed by a card nobody saw, and
are not read.

How: rejection. A world drawn fairly is kept with probability p, the softmax (temperature
``infer`` points) of the learned network's action values at that lead, taken at the card that was
led; the worlds kept follow the posterior, so every sample keeps weight 1 in the search's
paired arithmetic (pruning, the anchor's switch test). After MAX_TRIES refusals the last world
drawn is kept.
"""
import numpy as np
from numba import njit, types

from ..engine.by_address import by_address

from ..engine.codes import SEVEN, card_of
from ..engine.hand import legal_actions, observe
from ..engine import layout as L
from ..engine.observe import rebuild, sample_world
from ..engine.policy_data import SEAT_TYPE
from ..engine.rng import uniform
from ..engine.state import STATE_TYPE, add_hand, copy_into, table_add
from ..rules import R_SEVEN, R_SEVEN_POINTS
from .learned_net import action_q
from .network import value_unit
from .search_calls import RNG, RULES, best_action_at

MAX_TRIES = 16       # worlds drawn at most for one sample (the last is kept)


@njit(cache=True, _nrt=False)
def infers_lead(obs, params):
    """Whether a search at this decision reads the other seat's lead (``infer`` > 0): a fair
    two-handed search of the first stage, following a card the other seat led."""
    return (params.infer > 0 and obs[L.OBS_TRUE] < L.SEE_HANDS and obs[L.OBS_N_SEATS] == 2
            and obs[L.OBS_STAGE] == 1 and obs[L.OBS_DECISION] == L.D_FOLLOW and obs[L.OBS_TRICK_POS] == 1)


@njit(cache=True, _nrt=False)
def before_lead(rules, st):
    """Take back the lead of the trick in progress of ``st`` (one card played): the card goes
    back to the leader's hand, or its table when it was led from there (G_LEAD_TABLE), a seven
    of trumps its 10 points (R2.10), and the leader is to lead again. The table slot's history
    is not restored (the learned network does not read it). Returns the action the leader took."""
    G, P, obs = st.G, st.P, st.obs
    n = G[L.G_NSEATS]
    s = G[L.G_LEADER]
    card = G[L.G_LEAD]
    from_table = G[L.G_LEAD_TABLE] > 0
    if from_table:
        table_add(P, st.T, obs, n, s, card)
    else:
        add_hand(P, obs, s, card, 1)
    for v in range(n):
        obs[v, L.OBS_PLAYED + card] -= 1
    if rules[R_SEVEN] and card == card_of(G[L.G_TRUMP], SEVEN):
        P[s, L.P_SEVEN] -= rules[R_SEVEN_POINTS]
        P[s, L.P_SCORE] -= rules[R_SEVEN_POINTS]
    G[L.G_TRICK_POS] = 0
    G[L.G_LEAD] = -1
    G[L.G_LEAD_TABLE] = 0
    G[L.G_BEST] = -1
    G[L.G_BEST_SEAT] = -1
    for j in range(n):
        G[L.G_TRICK_CARDS + j] = -1
    G[L.G_TO_ACT] = s
    return card + L.A_PLAY_TABLE if from_table else card


@njit(cache=True, _nrt=False)
def lead_likelihood(rules, st, temperature, rng, data):
    """The learned policy's probability (softmax of its action values, ``temperature`` points)
    that the leader of ``st``'s trick led what it led, in the position before the lead; ``st``
    (a world's copy) is changed. ``data`` is the searching seat's: its network, its scratch."""
    s = st.G[L.G_LEADER]
    led = before_lead(rules, st)
    nleg, _plays = legal_actions(rules, st)
    if nleg <= 1:
        return 1.0
    observe(rules, st, s)
    best_action_at(data.weights, st.obs[s], rules, st.legal, nleg, rng, data)
    q = action_q(data)
    scale = value_unit(st.obs[s, L.OBS_PACKS]) / temperature
    top = q[0]
    for i in range(1, nleg):
        top = max(top, q[i])
    total = 0.0
    mine = 0.0
    for i in range(nleg):
        e = np.exp((q[i] - top) * scale)
        total += e
        if st.legal[i] == led:
            mine = e
    return mine / total


lead_likelihood_at = by_address(lead_likelihood, RULES, STATE_TYPE, types.float64, RNG, SEAT_TYPE)


@njit(cache=True, _nrt=False)
def draw_world(rules, obs, params, rng, sw):
    """Draw one world for the search ``sw`` (expert.SearchWork) into ``sw.base``: fairly
    (observe.sample_world), and where the search reads the other seat's lead
    (:func:`infers_lead`) kept with the probability of that lead in it, else drawn again, at
    most MAX_TRIES times (``sw.work`` is the scratch). Returns how many worlds were drawn."""
    infer = infers_lead(obs, params)
    tries = 0
    while True:
        sw.hidden[:] = 0
        sample_world(rules, obs, rng, sw.hidden, sw.talon, sw.drawn, sw.pool, sw.sizes)
        rebuild(rules, obs, sw.hidden, sw.talon, sw.drawn, sw.base)
        tries += 1
        if not infer or tries >= MAX_TRIES:
            return tries
        copy_into(sw.work, sw.base)
        p = lead_likelihood_at(rules, sw.work, params.infer, rng, sw.data)
        if uniform(rng) < p:
            return tries
