"""The hand-written training (learning/sgd.py): its gradient is the loss's, checked by finite
differences; one pass of Adam lowers the loss of what it fits."""
from __future__ import annotations

import numpy as np

from analyzer.engine.policy_data import new_params
from analyzer.learning.rollouts import Samples
from analyzer.learning.sgd import SCRATCH_FIT, fit_epoch, forward_backward
from analyzer.policies import network as N
from analyzer.policies.features import MAX_ACTION_NZ, N_ACTION, N_STATE


def _sample(rng):
    """A network and one sample, in float64 (the kernels compile for the arrays they are given,
    so the finite differences are not drowned in float32 rounding)."""
    w = N.init_weights(rng, new_params()).astype(np.float64)
    w[:N.N_NET] += rng.normal(0, 0.05, N.N_NET)              # biases off zero: every unit can be active
    xs = np.where(rng.random(N_STATE) < 0.2, rng.integers(1, 4, N_STATE), 0).astype(np.float64)
    ai = np.full(MAX_ACTION_NZ, -1, np.int8)
    ai[:6] = rng.choice(N_ACTION, 6, replace=False)
    av = np.zeros(MAX_ACTION_NZ)
    av[:6] = rng.random(6) + 0.5
    return w, xs, ai, av, 0.3


MAIN = (0, N.N_H1, N.N_H2)


def _loss(w, xs, ai, av, y, net=MAIN):
    return forward_backward(w, net, xs, ai, av, y, np.zeros_like(w), np.zeros(SCRATCH_FIT))


def test_the_gradient_is_the_losss_by_finite_differences():
    """At weights of every block (the state's and the actions' first-layer rows that the sample
    touches, both hidden layers' weights and biases, the output), the gradient forward_backward
    adds equals the central difference of its loss; weights the sample does not touch get 0."""
    rng = np.random.default_rng(3)
    w, xs, ai, av, y = _sample(rng)
    g = np.zeros_like(w)
    forward_backward(w, MAIN, xs, ai, av, y, g, np.zeros(SCRATCH_FIT))
    live_state = np.flatnonzero(xs)
    picks = [N.O_W1 + i * N.N_H1 + j for i in rng.choice(live_state, 6) for j in rng.choice(N.N_H1, 3)]
    picks += [N.O_W1 + (N_STATE + int(a)) * N.N_H1 + j for a in ai[:6] for j in rng.choice(N.N_H1, 3)]
    picks += list(N.O_B1 + rng.choice(N.N_H1, 8)) + list(N.O_W2 + rng.choice(N.N_H1 * N.N_H2, 20))
    picks += list(N.O_B2 + rng.choice(N.N_H2, 8)) + list(N.O_W3 + rng.choice(N.N_H2, 8)) + [N.O_B3]
    eps = 1e-6
    checked = 0
    for k in picks:
        wp, wm = w.copy(), w.copy()
        wp[k] += eps
        wm[k] -= eps
        numeric = (_loss(wp, xs, ai, av, y) - _loss(wm, xs, ai, av, y)) / (2 * eps)
        assert abs(numeric - g[k]) <= 1e-6 + 1e-4 * abs(numeric), (k, numeric, g[k])
        checked += g[k] != 0
    assert checked > len(picks) // 3              # the check saw real gradients (inactive units give 0)
    dead = N.O_W1 + int(np.flatnonzero(xs == 0)[0]) * N.N_H1
    assert not g[dead:dead + N.N_H1].any()        # an input of 0 moves no weight


def test_a_pass_of_adam_lowers_the_loss():
    """Fitting a few hundred samples for some passes brings their mean loss down."""
    rng = np.random.default_rng(5)
    w = N.init_weights(rng, new_params())
    n = 300
    xs = np.where(rng.random((40, N_STATE)) < 0.2, 1.0, 0.0).astype(np.float32)
    row_dec = rng.integers(0, 40, n)
    ai = np.full((n, MAX_ACTION_NZ), -1, np.int8)
    ai[:, 0] = rng.integers(0, N_ACTION, n)
    av = np.zeros((n, MAX_ACTION_NZ), np.float32)
    av[:, 0] = 1.0
    y = rng.normal(0, 1, n).astype(np.float32)
    m, v = np.zeros_like(w), np.zeros_like(w)
    samples = Samples(xs, row_dec, ai, av, y)
    t, first = fit_epoch((w, m, v), 0, samples, np.arange(n), 32, 1e-3, 48)
    for _ in range(30):
        t, last = fit_epoch((w, m, v), t, samples, np.arange(n), 32, 1e-3, 48)
    assert last < 0.7 * first
