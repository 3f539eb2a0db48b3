"""The late network (policies/network.py): a larger network of the same inputs that plays the
first stage's last decisions of a model that has one. It starts as the main network widened
(the same values), it plays exactly the decisions it is for, the fit moves only the network
that plays a row, its gradient is the loss's, and a model file with one round-trips."""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from analyzer.engine import api
from analyzer.engine.layout import OBS_STAGE, OBS_TALON_LEFT
from analyzer.learning.rollouts import Samples
from analyzer.learning.sgd import SCRATCH_FIT, fit_epoch, forward_backward
from analyzer.policies import network as N
from analyzer.policies.features import MAX_ACTION_NZ, N_ACTION, N_STATE, SF_STAGE2, SF_TALON
from analyzer.policies.learned import ModelError, load_model, save_model, shipped_model
from analyzer.policies.learned_net import action_q, best_action
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset

CARDS = 6


@njit
def _values(w, obs, arr, legal, n, rng, data, out):
    """best_action's choice, every action's value left in ``out``."""
    best = best_action(w, obs, arr, legal, n, rng, data)
    q = action_q(data)
    for i in range(n):
        out[i] = q[i]
    return best


def _late(seed=1, cards=CARDS):
    w = load_model(shipped_model("ordinary"), "ordinary")[0][:N.N_WEIGHTS].copy()   # its main network alone
    return w, N.with_late_net(w, cards, np.random.default_rng(seed))


def _features(rng, n):
    xs = np.where(rng.random((n, N_STATE)) < 0.15, rng.integers(1, 3, (n, N_STATE)), 0).astype(np.float32)
    ai = np.full((n, MAX_ACTION_NZ), -1, np.int8)
    av = np.zeros((n, MAX_ACTION_NZ), np.float32)
    for r in range(n):
        ai[r, :5] = rng.choice(N_ACTION, 5, replace=False)
        av[r, :5] = 1.0
    return xs, ai, av


def _q(w, net, x, ai, av):
    o, n1, n2 = net
    h0 = np.zeros(N.LATE_MAX_H1, np.float32)
    N.hidden_state(w, o, n1, x, h0)
    nz = int((ai >= 0).sum())
    return N.q_value(w, o, n1, n2, h0, ai, av, nz, np.zeros(N.LATE_MAX_H1, np.float32),
                     np.zeros(N.LATE_MAX_H2, np.float32))


def test_a_new_late_network_values_every_action_as_the_main_network_does():
    """Widened from the main network (its weights in the first units, the new units' outgoing
    weights zero), the late network gives every action the same value, to the last bit."""
    w, late = _late()
    o, cards, h1, h2 = N.late_block(late)
    assert (cards, h1, h2) == (CARDS, N.LATE_H1, N.LATE_H2) and o == N.N_WEIGHTS + N.LATE_HEADER
    assert late.shape[0] == N.model_size(late) and np.array_equal(late[:N.N_WEIGHTS], w)
    xs, ai, av = _features(np.random.default_rng(2), 30)
    for r in range(30):
        assert _q(late, (o, h1, h2), xs[r], ai[r], av[r]) == _q(w, (0, N.N_H1, N.N_H2), xs[r], ai[r], av[r])
    with pytest.raises(ValueError, match="late network already"):
        N.with_late_net(late, CARDS, np.random.default_rng(0))


def test_the_late_network_plays_exactly_the_decisions_it_is_for():
    """A late network whose values are the main network's negated (its output weights and
    bias flipped): at the first-stage decisions with at most CARDS cards left to draw the player
    takes the main network's lowest action, at every other decision its highest."""
    w, late = _late()
    o, _cards, h1, h2 = N.late_block(late)
    flipped = late.copy()
    w3 = o + N.net_size(h1, h2) - h2 - 1
    flipped[w3:w3 + h2 + 1] *= -1
    rules = preset("ordinary")
    arr = rules.to_array()
    spec = resolve_policy("learned")
    data = spec.new_seat(arr)
    rng = np.ones(1, np.uint64)
    late_seen = early_seen = 0
    for hand in range(6):
        st = api.deal(arr, 7, hand)
        api.seed_policies(st.rngs, np.uint64(7), hand)
        while not api.is_over(st):
            n, _ = api.legal_actions(arr, st)
            s = api.to_act(st)
            if n > 1:
                api.observe(arr, st, s)
                obs = st.obs[s]
                if obs[OBS_STAGE] == 1:
                    q = np.zeros(n, np.float32)
                    main = _values(w, obs, arr, st.legal, n, rng, data, q)
                    got = _values(flipped, obs, arr, st.legal, n, rng, data, np.zeros(n, np.float32))
                    if obs[OBS_TALON_LEFT] <= CARDS:
                        assert got == int(np.argmin(q)), hand     # the first of equals either way
                        late_seen += 1
                    else:
                        assert got == main
                        early_seen += 1
            a = spec.function(st.obs[s], st.legal, n, arr, spec.params, st.rngs[s], data) if n > 1 else st.legal[0]
            api.apply(arr, st, a)
    assert late_seen > 10 and early_seen > 50


def test_a_row_moves_only_the_network_that_plays_its_decision():
    """fit_epoch on rows of late decisions changes the late network's weights and none of the
    main network's, and rows of earlier decisions the reverse; the teacher's parameters and the
    late block's header never change."""
    _w, late = _late()
    rng = np.random.default_rng(4)
    dealt = 48
    xs, ai, av = _features(rng, 40)
    for talon, region in ((CARDS, "late"), (CARDS + 2, "main")):
        xs[:, SF_TALON] = talon / dealt
        xs[:, SF_STAGE2] = 0.0                                     # first stage
        w = late.copy()
        m, v = np.zeros_like(w), np.zeros_like(w)
        y = rng.normal(0, 1, 40).astype(np.float32)
        fit_epoch((w, m, v), 0, Samples(xs, np.arange(40), ai, av, y), np.arange(40), 8, 1e-3, dealt)
        moved = w != late
        o = N.late_block(late)[0]
        assert moved[:N.N_NET].any() == (region == "main")
        assert moved[o:].any() == (region == "late")
        assert not moved[N.N_NET:o].any()                          # teacher, bonus, header


def test_the_late_networks_gradient_is_the_losss_by_finite_differences():
    """forward_backward of the late network: the gradient at weights of each of its blocks is the
    central difference of the loss (float64, as test_sgd checks the main network)."""
    _w, late = _late()
    w = late.astype(np.float64)
    o, _cards, h1, h2 = N.late_block(late)
    rng = np.random.default_rng(6)
    w[o:] += rng.normal(0, 0.05, w.shape[0] - o)                  # the new units active too
    xs, ai, av = (a.astype(np.float64) if a.dtype != np.int8 else a for a in _features(rng, 1))
    xs, ai, av = xs[0], ai[0], av[0]
    net = (o, h1, h2)

    def loss(wt):
        return forward_backward(wt, net, xs, ai, av, 0.3, np.zeros_like(wt), np.zeros(SCRATCH_FIT))
    g = np.zeros_like(w)
    forward_backward(w, net, xs, ai, av, 0.3, g, np.zeros(SCRATCH_FIT))
    b1 = o + N.N_IN * h1
    live = int(np.flatnonzero(xs)[0])
    picks = [o + live * h1 + j for j in rng.choice(h1, 6)] + [o + (N_STATE + int(ai[0])) * h1 + j for j in (0, 100)]
    picks += [b1 + j for j in (1, 90)] + [b1 + h1 + j for j in rng.choice(h1 * h2, 10)]
    picks += [b1 + h1 + h1 * h2 + m for m in (3, 40)] + [b1 + h1 + h1 * h2 + h2 + m for m in (5, 50)]
    picks += [b1 + h1 + h1 * h2 + 2 * h2]
    checked = 0
    for k in picks:
        wp, wm = w.copy(), w.copy()
        wp[k] += 1e-6
        wm[k] -= 1e-6
        numeric = (loss(wp) - loss(wm)) / 2e-6
        assert abs(numeric - g[k]) <= 1e-6 + 1e-4 * abs(numeric), (k, numeric, g[k])
        checked += g[k] != 0
    assert checked >= len(picks) // 4
    assert not g[:N.N_WEIGHTS].any()                              # the main network is not this row's


def test_a_model_with_a_late_network_round_trips_and_a_broken_one_is_refused(tmp_path):
    _w, late = _late(cards=4)
    path = tmp_path / "late.npz"
    save_model(path, late, "ordinary", {"summary": "test"})
    got, meta = load_model(path, "ordinary")
    assert np.array_equal(got, late) and meta["late"] == {"cards": 4, "n_h1": N.LATE_H1, "n_h2": N.LATE_H2}
    spec = resolve_policy(f"learned:weights={path}")
    assert np.array_equal(spec.weights_for(preset("ordinary").to_array()), late)
    cut = tmp_path / "cut.npz"
    save_model(cut, late[:-5], "ordinary", {"summary": "test"})
    with pytest.raises(ModelError, match="weights"):
        load_model(cut)
