"""Fitting the network to samples: mean squared error, minibatches, Adam (Kingma and Ba 2015),
in numba. The gradient of the first layer touches only the inputs that are not zero.

Each sample row is fitted by the network that plays its decision in the model (network.net_of):
the late network at the first stage's last decisions where the model has one, else the main
one; the teacher's parameters and the late network's header are never changed."""
import numpy as np
from numba import njit

from ..policies.features import MAX_ACTION_NZ, N_STATE, SF_STAGE2, SF_TALON, AF_HINT
from ..policies.network import (
    LATE_MAX_H1,
    LATE_MAX_H2,
    N_NET,
    O_HINT_BONUS,
    hidden_state,
    late_block,
    layer_offsets,
    net_of,
    net_size,
    q_value,
)

SCRATCH_FIT = 3 * LATE_MAX_H1 + LATE_MAX_H2      # h0, h1, dL/dh1, h2 of the larger network


@njit(cache=True, _nrt=False, inline="always")
def row_net(w, xs, dealt):
    """(offset, h1, h2) of the network of the model ``w`` that plays the decision whose state
    features are ``xs`` (``dealt``: the cards of the talon at the deal, which SF_TALON divides)."""
    _o, cards, _h1, _h2 = late_block(w)
    return net_of(w, xs[SF_STAGE2] == 0.0 and np.rint(xs[SF_TALON] * dealt) <= cards)


@njit(cache=True, nogil=True)
def forward_backward(w, net, xs, ai, av, y, g, scratch):
    """Add the gradient of one sample's loss (q - y)^2 / 2 under the network ``net`` (offset,
    h1, h2) to ``g``; return the loss. ``ai`` holds the action's feature indices (-1 after the
    last), ``scratch`` float32[SCRATCH_FIT]."""
    o, n1, n2 = net
    h0 = scratch[:n1]
    h1 = scratch[LATE_MAX_H1:LATE_MAX_H1 + n1]
    dh1 = scratch[2 * LATE_MAX_H1:2 * LATE_MAX_H1 + n1]
    h2 = scratch[3 * LATE_MAX_H1:3 * LATE_MAX_H1 + n2]
    b1, w2, b2, w3 = layer_offsets(o, n1, n2)
    nz = 0
    while nz < MAX_ACTION_NZ and ai[nz] >= 0:
        nz += 1
    hidden_state(w, o, n1, xs, h0)
    q = q_value(w, o, n1, n2, h0, ai, av, nz, h1, h2)          # leaves the activations in h1, h2
    dq = q - y
    g[w3 + n2] += dq
    for m in range(n2):
        g[w3 + m] += dq * h2[m]
        h2[m] = dq * w[w3 + m] if h2[m] > 0.0 else 0.0       # now dL/d(pre-activation 2)
    for j in range(n1):
        d = 0.0
        if h1[j] > 0.0:
            row = w2 + j * n2
            for m in range(n2):
                g[row + m] += h1[j] * h2[m]
                d += w[row + m] * h2[m]
        dh1[j] = d
    for m in range(n2):
        g[b2 + m] += h2[m]
    for j in range(n1):
        g[b1 + j] += dh1[j]
    for i in range(N_STATE):
        v = xs[i]
        if v != 0.0:
            row = o + i * n1
            for j in range(n1):
                g[row + j] += v * dh1[j]
    for k in range(MAX_ACTION_NZ):
        if ai[k] < 0:
            break
        row = o + (N_STATE + ai[k]) * n1
        v = av[k]
        for j in range(n1):
            g[row + j] += v * dh1[j]
    return 0.5 * dq * dq


@njit(cache=True, _nrt=False, inline="always")
def _adam(fitted, g, lo, hi, scale, step, constants):
    """Adam's update of ``w[lo:hi]`` from the gradient ``g`` (times ``scale``), ``fitted`` the
    weights and Adam's two moments (w, m, v), ``constants`` Adam's (b1, b2, eps)."""
    w, m, v = fitted
    b1, b2, eps = constants
    for k in range(lo, hi):
        gk = g[k] * scale
        m[k] = b1 * m[k] + (1.0 - b1) * gk
        v[k] = b2 * v[k] + (1.0 - b2) * gk * gk
        w[k] -= step * m[k] / (np.sqrt(v[k]) + eps)


@njit(cache=True, nogil=True)
def fit_epoch(fitted, t, samples, order, batch, lr, dealt):
    """One pass of minibatch Adam over the rows in ``order`` of ``samples`` (a
    :class:`~analyzer.learning.rollouts.Samples`; row r: the state features
    ``dec_xs[row_dec[r]]``, the action's ``row_ai[r]``/``row_av[r]``, the target ``row_y[r]``),
    each row by the network that plays its decision (:func:`row_net`; ``dealt``: the talon's
    cards at the deal); ``fitted`` is the weights ``w`` and Adam's moments ``m``, ``v`` (a
    tuple (w, m, v), updated in place; ``t``: Adam's steps before). Returns (Adam steps so far,
    mean loss)."""
    w = fitted[0]
    xs, row_dec, ai, av, y = samples
    g = np.zeros(w.shape[0], np.float32)
    scratch = np.zeros(SCRATCH_FIT, np.float32)
    late_o, _cards, late_h1, late_h2 = late_block(w)
    b1, b2, eps = 0.9, 0.999, 1e-8
    total = 0.0
    n = order.shape[0]
    for start in range(0, n, batch):
        stop = min(start + batch, n)
        g[:] = 0.0
        for r in range(start, stop):
            s = order[r]
            x = xs[row_dec[s]]
            total += forward_backward(w, row_net(w, x, dealt), x, ai[s], av[s], y[s], g, scratch)
        t += 1
        scale = 1.0 / (stop - start)
        c1 = 1.0 - b1 ** t
        c2 = 1.0 - b2 ** t
        step = lr * np.sqrt(c2) / c1
        _adam(fitted, g, 0, N_NET, scale, step, (b1, b2, eps))      # the teacher's parameters stay
        if late_o >= 0:
            _adam(fitted, g, late_o, late_o + net_size(late_h1, late_h2), scale, step, (b1, b2, eps))
    return t, total / max(n, 1)


@njit(cache=True, nogil=True)
def decision_regret(w, samples, picks, gaps, dealt):
    """How the model ``w`` chooses at the search's labelled decisions (``samples``, a Samples
    whose rows of one decision are consecutive; ``picks[decision]``: the row, from the
    decision's first, of the search's choice, or -1 for a decision to skip): each decision's
    gap, the search's choice's label less the label of the action of highest Q under the
    network that plays it (:func:`row_net`; the teacher's bonus included as in play), into
    ``gaps[decision]`` (NaN where skipped); returns (the mean gap, the share of decisions where
    the two are the same action). Labels are in the samples' units."""
    xs, row_dec, ai, av, y = samples
    h0 = np.zeros(LATE_MAX_H1, np.float32)
    h1 = np.zeros(LATE_MAX_H1, np.float32)
    h2 = np.zeros(LATE_MAX_H2, np.float32)
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
        o, n1, n2 = row_net(w, xs[d], dealt)
        hidden_state(w, o, n1, xs[d], h0)
        best_q = -1e30
        chosen = first
        for k in range(first, r):
            nz = 0
            while nz < MAX_ACTION_NZ and ai[k, nz] >= 0:
                nz += 1
            q = q_value(w, o, n1, n2, h0, ai[k], av[k], nz, h1, h2)
            if nz > 0 and ai[k, 0] == AF_HINT:
                q += w[O_HINT_BONUS]
            if q > best_q:
                best_q = q
                chosen = k
        gaps[d] = y[first + picks[d]] - y[chosen]
        regret += gaps[d]
        agree += chosen == first + picks[d]
        decisions += 1
    return regret / max(decisions, 1), agree / max(decisions, 1)
