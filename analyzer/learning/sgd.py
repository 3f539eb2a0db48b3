"""Fitting the network to samples: mean squared error, minibatches, Adam (Kingma and Ba 2015),
in numba. The gradient of the first layer touches only the inputs that are not zero."""
import numpy as np
from numba import njit

from ..policies.features import MAX_ACTION_NZ, N_STATE, X_HINT
from ..policies.network import (
    N_H1,
    N_H2,
    N_NET,
    N_WEIGHTS,
    O_HINT_BONUS,
    O_B1,
    O_B2,
    O_B3,
    O_W1,
    O_W2,
    O_W3,
    hidden_state,
    q_value,
)

SCRATCH_FIT = 3 * N_H1 + N_H2      # h0, h1, dL/dh1, h2


@njit(cache=True, nogil=True)
def forward_backward(w, xs, ai, av, y, g, scratch):
    """Add the gradient of one sample's loss (q - y)^2 / 2 to ``g``; return the loss. ``ai``
    holds the action's feature indices (-1 after the last), ``scratch`` float32[SCRATCH_FIT]."""
    h0 = scratch[:N_H1]
    h1 = scratch[N_H1:2 * N_H1]
    dh1 = scratch[2 * N_H1:3 * N_H1]
    h2 = scratch[3 * N_H1:]
    nz = 0
    while nz < MAX_ACTION_NZ and ai[nz] >= 0:
        nz += 1
    hidden_state(w, xs, h0)
    q = q_value(w, h0, ai, av, nz, h1, h2)          # leaves the activations in h1, h2
    dq = q - y
    g[O_B3] += dq
    for m in range(N_H2):
        g[O_W3 + m] += dq * h2[m]
        h2[m] = dq * w[O_W3 + m] if h2[m] > 0.0 else 0.0       # now dL/d(pre-activation 2)
    for j in range(N_H1):
        d = 0.0
        if h1[j] > 0.0:
            row = O_W2 + j * N_H2
            for m in range(N_H2):
                g[row + m] += h1[j] * h2[m]
                d += w[row + m] * h2[m]
        dh1[j] = d
    for m in range(N_H2):
        g[O_B2 + m] += h2[m]
    for j in range(N_H1):
        g[O_B1 + j] += dh1[j]
    for i in range(N_STATE):
        v = xs[i]
        if v != 0.0:
            row = O_W1 + i * N_H1
            for j in range(N_H1):
                g[row + j] += v * dh1[j]
    for k in range(MAX_ACTION_NZ):
        if ai[k] < 0:
            break
        row = O_W1 + (N_STATE + ai[k]) * N_H1
        v = av[k]
        for j in range(N_H1):
            g[row + j] += v * dh1[j]
    return 0.5 * dq * dq


@njit(cache=True, nogil=True)
def fit_epoch(w, m, v, t, samples, order, batch, lr):
    """One pass of minibatch Adam over the rows in ``order`` of ``samples`` (a
    :class:`~analyzer.learning.rollouts.Samples`; row r: the state features
    ``dec_xs[row_dec[r]]``, the action's ``row_ai[r]``/``row_av[r]``, the target ``row_y[r]``);
    updates ``w`` and Adam's moments ``m``, ``v`` in place (``t``: Adam's steps before) and
    returns (Adam steps so far, mean loss)."""
    xs, row_dec, ai, av, y = samples
    g = np.zeros(N_WEIGHTS, np.float32)
    scratch = np.zeros(SCRATCH_FIT, np.float32)
    b1, b2, eps = 0.9, 0.999, 1e-8
    total = 0.0
    n = order.shape[0]
    for start in range(0, n, batch):
        stop = min(start + batch, n)
        g[:] = 0.0
        for r in range(start, stop):
            s = order[r]
            total += forward_backward(w, xs[row_dec[s]], ai[s], av[s], y[s], g, scratch)
        t += 1
        scale = 1.0 / (stop - start)
        c1 = 1.0 - b1 ** t
        c2 = 1.0 - b2 ** t
        step = lr * np.sqrt(c2) / c1
        for k in range(N_NET):           # the teacher's parameters after the network stay
            gk = g[k] * scale
            m[k] = b1 * m[k] + (1.0 - b1) * gk
            v[k] = b2 * v[k] + (1.0 - b2) * gk * gk
            w[k] -= step * m[k] / (np.sqrt(v[k]) + eps)
    return t, total / max(n, 1)


@njit(cache=True, nogil=True)
def decision_regret(w, samples, picks, gaps):
    """How the network ``w`` chooses at the search's labelled decisions (``samples``, a Samples
    whose rows of one decision are consecutive; ``picks[decision]``: the row, from the
    decision's first, of the search's choice, or -1 for a decision to skip): each decision's
    gap, the search's choice's label less the label of the action of highest Q (the teacher's
    bonus included as in play), into ``gaps[decision]`` (NaN where skipped); returns (the mean
    gap, the share of decisions where the two are the same action). Labels are in the
    samples' units."""
    xs, row_dec, ai, av, y = samples
    h0 = np.zeros(N_H1, np.float32)
    h1 = np.zeros(N_H1, np.float32)
    h2 = np.zeros(N_H2, np.float32)
    regret = 0.0
    agree = 0
    decisions = 0
    r = 0
    n = y.shape[0]
    while r < n:
        d = row_dec[r]
        first = r
        while r < n and row_dec[r] == d:
            r += 1
        gaps[d] = np.nan
        if picks[d] < 0:
            continue
        hidden_state(w, xs[d], h0)
        best_q = -1e30
        chosen = first
        for k in range(first, r):
            nz = 0
            while nz < MAX_ACTION_NZ and ai[k, nz] >= 0:
                nz += 1
            q = q_value(w, h0, ai[k], av[k], nz, h1, h2)
            if nz > 0 and ai[k, 0] == X_HINT:
                q += w[O_HINT_BONUS]
            if q > best_q:
                best_q = q
                chosen = k
        gaps[d] = y[first + picks[d]] - y[chosen]
        regret += gaps[d]
        agree += chosen == first + picks[d]
        decisions += 1
    return regret / max(decisions, 1), agree / max(decisions, 1)
