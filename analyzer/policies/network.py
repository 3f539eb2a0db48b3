"""The learned player's network: the action value Q(s, a) of a small dense network over the
features of :mod:`.features`, in numba.

``x = [state features (N_STATE); action features (N_ACTION)]``, two hidden layers of ReLU units
(N_H1, N_H2) and one output, the expected change of the seat's result from now to the end of the
hand (points per hand / 100; Rubicon: the game score / 1000). Every weight lives in one flat
float32 vector (offsets ``O_*``), followed by the teacher's parameter vector and the bonus of its
choice, so a model file is one array and training updates it in place.

The state's share of the first layer (:func:`hidden_state`) is computed once per decision; the
actions of a decision are then valued together (:func:`action_values`), BLOCK at a time, the
second layer's rows read once per block. Every sum runs in the same order as a plain loop over
one action would run it (over the inputs, then the hidden units), so the values do not depend
on how the actions are blocked.
"""
import numpy as np
from numba import njit

from ..engine.layout import POLICY_PARAMS
from .features import MAX_ACTION_NZ, N_ACTION, N_STATE

N_IN = N_STATE + N_ACTION
N_H1 = 64
N_H2 = 32
O_W1 = 0                          # [N_IN, N_H1]
O_B1 = O_W1 + N_IN * N_H1
O_W2 = O_B1 + N_H1                # [N_H1, N_H2]
O_B2 = O_W2 + N_H1 * N_H2
O_W3 = O_B2 + N_H2
O_B3 = O_W3 + N_H2
N_NET = O_B3 + 1                  # the network's weights; then the teacher's parameter vector
O_TEACHER = N_NET                 # [POLICY_PARAMS]: hints' weights, whose choice is input X_HINT
O_HINT_BONUS = O_TEACHER + POLICY_PARAMS   # added to the teacher's choice: deviate only for more
N_WEIGHTS = O_HINT_BONUS + 1
FORMAT_VERSION = 1
BLOCK = 16                        # actions valued together

# the unit of the network's values: 100 points per hand, in Rubicon 1000 game points (the
# winner's game score, R3.9: half of compare's net game points)
UNIT_ORDINARY, UNIT_RUBICON = 100.0, 1000.0


@njit(cache=True, _nrt=False, inline="always")
def value_unit(packs):
    """The points one unit of the network's values stands for (four packs: Rubicon)."""
    return UNIT_RUBICON if packs == 4 else UNIT_ORDINARY


@njit(cache=True, _nrt=False)
def hidden_state(w, xs, h0):
    """``h0`` = the first layer's input sum of the state features (bias included): shared by
    every action of a decision."""
    for j in range(N_H1):
        h0[j] = w[O_B1 + j]
    w1 = w[O_W1:O_W1 + N_STATE * N_H1].reshape((N_STATE, N_H1))
    for i in range(N_STATE):
        v = xs[i]
        if v != 0.0:
            row = w1[i]
            for j in range(N_H1):
                h0[j] += v * row[j]


@njit(cache=True, _nrt=False)
def q_value(w, h0, idx, val, nz, h1, h2):
    """Q of one action from the shared ``h0`` and its nonzero features (``nz`` of them);
    ``h1``/``h2`` are scratch, left holding the hidden layers' activations (training's
    backward pass reads them)."""
    w1a = w[O_W1 + N_STATE * N_H1:O_W1 + N_IN * N_H1].reshape((N_ACTION, N_H1))
    w2 = w[O_W2:O_W2 + N_H1 * N_H2].reshape((N_H1, N_H2))
    for j in range(N_H1):
        h1[j] = h0[j]
    for k in range(nz):
        row = w1a[idx[k]]
        v = val[k]
        for j in range(N_H1):
            h1[j] += v * row[j]
    for j in range(N_H1):
        if h1[j] < 0.0:
            h1[j] = 0.0
    for m in range(N_H2):
        h2[m] = w[O_B2 + m]
    for j in range(N_H1):
        v = h1[j]
        if v != 0.0:
            row = w2[j]
            for m in range(N_H2):
                h2[m] += v * row[m]
    q = w[O_B3]
    for m in range(N_H2):
        if h2[m] < 0.0:
            h2[m] = 0.0
        q += h2[m] * w[O_W3 + m]
    return q


@njit(cache=True, _nrt=False)
def action_values(w, h0, idx, val, nz, n, hidden, out):
    """Q of ``n`` (at most BLOCK) actions at once: action ``a``'s nonzero features are
    ``idx[a, :nz[a]]``/``val[a, :nz[a]]``; ``hidden`` [BLOCK, N_H1 + N_H2] is scratch (each
    action's two hidden layers); ``out[a]`` gets its Q, the same float as :func:`q_value`
    gives (the same sums in the same order)."""
    w1a = w[O_W1 + N_STATE * N_H1:O_W1 + N_IN * N_H1].reshape((N_ACTION, N_H1))
    w2 = w[O_W2:O_W2 + N_H1 * N_H2].reshape((N_H1, N_H2))
    for a in range(n):
        x = hidden[a, :N_H1]
        y = hidden[a, N_H1:]
        n2 = y.shape[0]     # N_H2, read at run time: a constant trip count of 32 gets the loop
        #                     unrolled into scalar code instead of vectorized (0.84x the time a decision)
        for j in range(N_H1):
            x[j] = h0[j]
        for k in range(nz[a]):
            row = w1a[idx[a, k]]
            v = val[a, k]
            for j in range(N_H1):
                x[j] += v * row[j]
        for m in range(n2):
            y[m] = w[O_B2 + m]
        for j in range(N_H1):
            v = x[j]
            if v > 0.0:                  # ReLU: the units at or below zero add nothing
                row = w2[j]
                for m in range(n2):
                    y[m] += v * row[m]
        q = w[O_B3]
        for m in range(N_H2):
            if y[m] < 0.0:
                y[m] = 0.0
            q += y[m] * w[O_W3 + m]
        out[a] = q


def init_weights(rng: np.random.Generator, teacher: np.ndarray, hint_bonus: float = 0.0) -> np.ndarray:
    """Fresh weights (He initialisation of the hidden layers, small output layer) after which
    the ``teacher``'s parameter vector and the bonus of its choice are kept."""
    w = np.zeros(N_WEIGHTS, np.float32)
    w[O_TEACHER:O_HINT_BONUS] = teacher
    w[O_HINT_BONUS] = hint_bonus
    w[O_W1:O_B1] = rng.normal(0, np.sqrt(2.0 / 40.0), N_IN * N_H1)     # ~40 nonzero inputs
    w[O_W2:O_B2] = rng.normal(0, np.sqrt(2.0 / N_H1), N_H1 * N_H2)
    w[O_W3:O_B3] = rng.normal(0, 0.1 / np.sqrt(N_H2), N_H2)
    return w

