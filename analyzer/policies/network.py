"""The learned player's network: the action value Q(s, a) of a small dense network over the
features of :mod:`.features`, in numba.

``x = [state features (N_STATE); action features (N_ACTION)]``, two hidden layers of ReLU units
(N_H1, N_H2) and one output, the expected change of the seat's result from now to the end of the
hand (points per hand / 100; Rubicon: the game score / 1000). Every weight lives in one flat
float32 vector (offsets ``O_*``), followed by the teacher's settings (TEACHER_W floats: the
hints' fields of its settings record at fixed slots, :func:`teacher_vector`) and the bonus of
its choice, so a model file is one array and training updates it in place.

A model may end with a **late network** (from N_WEIGHTS: LATE_MAGIC, the cards left to draw at
or below which it plays, its two hidden sizes, then its weights laid out as the main network's):
a larger network of the same inputs for the last decisions of the first stage, where the search
gains most (docs/learned.md, "The late network"). A network is addressed by its offset in the
vector and its two hidden sizes (:func:`net_of`); a model without the late block plays every
decision with the main network, as before.

The state's share of the first layer (:func:`hidden_state`) is computed once per decision; the
actions of a decision are then valued together (:func:`action_values`), BLOCK at a time, the
second layer's rows read once per block. Every sum runs in the same order as a plain loop over
one action would run it (over the inputs, then the hidden units), so the values do not depend
on how the actions are blocked.
"""
import numpy as np
from numba import njit

from ..engine.policy_data import N_HINTS, new_params
from .features import N_ACTION, N_STATE

N_IN = N_STATE + N_ACTION
N_H1 = 64
N_H2 = 32
O_W1 = 0                          # [N_IN, N_H1]
O_B1 = O_W1 + N_IN * N_H1
O_W2 = O_B1 + N_H1                # [N_H1, N_H2]
O_B2 = O_W2 + N_H1 * N_H2
O_W3 = O_B2 + N_H2
O_B3 = O_W3 + N_H2
N_NET = O_B3 + 1                  # the network's weights; then the teacher's settings
O_TEACHER = N_NET                 # [TEACHER_W]: the hints' settings, whose choice is input AF_HINT
TEACHER_W = 32
O_HINT_BONUS = O_TEACHER + TEACHER_W   # added to the teacher's choice: deviate only for more
N_WEIGHTS = O_HINT_BONUS + 1
FORMAT_VERSION = 1
BLOCK = 16                        # actions valued together
# the late network's block, after N_WEIGHTS: a marker no weight takes, the cards left to draw at
# or below which it plays, its hidden sizes (at most LATE_MAX_H1, LATE_MAX_H2), then its weights
LATE_MAGIC = -7777.0
LATE_HEADER = 4
LATE_MAX_H1, LATE_MAX_H2 = 128, 64
LATE_H1, LATE_H2 = 128, 64        # the size bezique train gives a new late network

# where the teacher's settings lie in its TEACHER_W floats (the model files' format): the
# hints' weights by HINT_* index, then its constants
TEACHER_HINT_SLOTS = np.array((0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 30))
TEACHER_DEFER_TALON, TEACHER_RUBICON_RATE, TEACHER_RUBICON_GAP, TEACHER_ENDGAME = 8, 9, 10, 11
assert len(TEACHER_HINT_SLOTS) == N_HINTS

# the unit of the network's values: 100 points per hand, in Rubicon 1000 game points (the
# winner's game score, R3.9: half of compare's net game points)
UNIT_ORDINARY, UNIT_RUBICON = 100.0, 1000.0


@njit(cache=True, _nrt=False, inline="always")
def value_unit(packs):
    """The points one unit of the network's values stands for (four packs: Rubicon)."""
    return UNIT_RUBICON if packs == 4 else UNIT_ORDINARY


@njit(cache=True, _nrt=False, inline="always")
def net_size(h1, h2):
    """The weights of a network of hidden sizes ``h1``, ``h2``."""
    return N_IN * h1 + h1 + h1 * h2 + h2 + h2 + 1


@njit(cache=True, _nrt=False, inline="always")
def late_block(w):
    """(offset of the late network's weights, cards left at or below which it plays, its hidden
    sizes) of the model ``w``; (-1, -1, 0, 0) when it has none."""
    if w.shape[0] >= N_WEIGHTS + LATE_HEADER and w[N_WEIGHTS] == LATE_MAGIC:
        return N_WEIGHTS + LATE_HEADER, int(w[N_WEIGHTS + 1]), int(w[N_WEIGHTS + 2]), int(w[N_WEIGHTS + 3])
    return -1, -1, 0, 0


@njit(cache=True, _nrt=False, inline="always")
def net_of(w, late):
    """(offset, h1, h2) of the network that plays a decision: the late network where ``late``
    (the decision has at most its cards left to draw) and the model has one, else the main."""
    o, _cards, h1, h2 = late_block(w)
    if late and o >= 0:
        return o, h1, h2
    return 0, N_H1, N_H2


@njit(cache=True, _nrt=False, inline="always")
def plays_late(w, talon_left):
    """Whether the late network of ``w`` plays a first-stage decision with ``talon_left`` cards
    left to draw."""
    _o, cards, _h1, _h2 = late_block(w)
    return talon_left <= cards


@njit(cache=True, _nrt=False, inline="always")
def layer_offsets(o, n1, n2):
    """The offsets in the model of the network at ``o`` (hidden sizes ``n1``, ``n2``): its first
    bias, second layer, second bias and output weights (the output bias follows them); its first
    layer [N_IN, n1] starts at ``o``."""
    b1 = o + N_IN * n1
    w2 = b1 + n1
    b2 = w2 + n1 * n2
    return b1, w2, b2, b2 + n2


@njit(cache=True, _nrt=False, inline="always")
def _layers(w, o, n1, n2):
    """The network at ``o``'s first-layer rows of the action features [N_ACTION, n1], its
    second layer [n1, n2], and the offsets of its second bias and its output weights."""
    b1, w2, b2, w3 = layer_offsets(o, n1, n2)
    return w[o + N_STATE * n1:b1].reshape((N_ACTION, n1)), w[w2:b2].reshape((n1, n2)), b2, w3


@njit(cache=True, _nrt=False)
def hidden_state(w, o, n1, xs, h0):
    """``h0`` = the first layer's input sum of the state features (bias included) of the
    network at ``o`` with ``n1`` first hidden units: shared by every action of a decision."""
    b1 = layer_offsets(o, n1, 0)[0]
    for j in range(n1):
        h0[j] = w[b1 + j]
    w1 = w[o:o + N_STATE * n1].reshape((N_STATE, n1))
    for i in range(N_STATE):
        v = xs[i]
        if v != 0.0:
            row = w1[i]
            for j in range(n1):
                h0[j] += v * row[j]


# 10 arguments: the network's place and sizes (w, o, n1, n2), the decision's shared sum, one
# action's sparse features and the caller's scratch, kept apart so the hot path allocates nothing
@njit(cache=True, _nrt=False)
def q_value(w, o, n1, n2, h0, idx, val, nz, h1, h2):
    """Q of one action under the network at ``o`` (hidden sizes ``n1``, ``n2``) from the shared
    ``h0`` and its nonzero features (``nz`` of them); ``h1``/``h2`` are scratch, left holding
    the hidden layers' activations (training's backward pass reads them)."""
    w1a, w2, b2, w3 = _layers(w, o, n1, n2)
    for j in range(n1):
        h1[j] = h0[j]
    for k in range(nz):
        row = w1a[idx[k]]
        v = val[k]
        for j in range(n1):
            h1[j] += v * row[j]
    for j in range(n1):
        if h1[j] < 0.0:
            h1[j] = 0.0
    for m in range(n2):
        h2[m] = w[b2 + m]
    for j in range(n1):
        v = h1[j]
        if v != 0.0:
            row = w2[j]
            for m in range(n2):
                h2[m] += v * row[m]
    q = w[w3 + n2]
    for m in range(n2):
        if h2[m] < 0.0:
            h2[m] = 0.0
        q += h2[m] * w[w3 + m]
    return q


# 11 arguments: as q_value's, for every action of the decision at once, with its output array
@njit(cache=True, _nrt=False)
def action_values(w, o, n1, n2, h0, idx, val, nz, n, hidden, out):
    """Q of ``n`` (at most BLOCK) actions at once under the network at ``o`` (hidden sizes
    ``n1``, ``n2``): action ``a``'s nonzero features are ``idx[a, :nz[a]]``/``val[a, :nz[a]]``;
    ``hidden`` [BLOCK, at least n1 + n2] is scratch (each action's two hidden layers); ``out[a]``
    gets its Q, the same float as :func:`q_value` gives (the same sums in the same order)."""
    w1a, w2, b2, w3 = _layers(w, o, n1, n2)
    for a in range(n):
        x = hidden[a, :n1]
        y = hidden[a, n1:n1 + n2]
        for j in range(n1):
            x[j] = h0[j]
        for k in range(nz[a]):
            row = w1a[idx[a, k]]
            v = val[a, k]
            for j in range(n1):
                x[j] += v * row[j]
        for m in range(n2):
            y[m] = w[b2 + m]
        for j in range(n1):
            v = x[j]
            if v > 0.0:                  # ReLU: the units at or below zero add nothing
                row = w2[j]
                for m in range(n2):
                    y[m] += v * row[m]
        q = w[w3 + n2]
        for m in range(n2):
            if y[m] < 0.0:
                y[m] = 0.0
            q += y[m] * w[w3 + m]
        out[a] = q


@njit(cache=True, _nrt=False)
def read_teacher(w, params):
    """Fill the hints' fields of the settings record ``params`` with the teacher's that the
    model ``w`` keeps (its other fields are left as they are: the hints read none)."""
    for k in range(N_HINTS):
        params.hint[k] = w[O_TEACHER + TEACHER_HINT_SLOTS[k]]
    params.defer_talon = w[O_TEACHER + TEACHER_DEFER_TALON]
    params.rubicon_rate = w[O_TEACHER + TEACHER_RUBICON_RATE]
    params.rubicon_gap = w[O_TEACHER + TEACHER_RUBICON_GAP]
    params.endgame = w[O_TEACHER + TEACHER_ENDGAME] > 0


def teacher_vector(params: np.void) -> np.ndarray:
    """The hints' settings of ``params`` as a model keeps its teacher's (float32[TEACHER_W])."""
    v = np.zeros(TEACHER_W, np.float32)
    v[TEACHER_HINT_SLOTS] = params["hint"]
    v[[TEACHER_DEFER_TALON, TEACHER_RUBICON_RATE, TEACHER_RUBICON_GAP, TEACHER_ENDGAME]] = (
        params["defer_talon"], params["rubicon_rate"], params["rubicon_gap"], float(params["endgame"]))
    return v


def stored_teacher(params: np.void) -> np.void:
    """The hints' settings of ``params`` as the teacher plays them from a model file (through
    float32): the teacher's choices are then the same in training and in play."""
    w = np.zeros(O_HINT_BONUS, np.float32)
    w[O_TEACHER:] = teacher_vector(params)
    return model_teacher(w)


def model_teacher(w: np.ndarray) -> np.void:
    """The settings record of the teacher that the model ``w`` keeps (its hints' fields filled,
    the rest new_params' defaults): the teacher whose choice the model's network sees in play."""
    params = new_params()
    read_teacher(w, params)
    return params


def init_weights(rng: np.random.Generator, teacher: np.void, hint_bonus: float = 0.0) -> np.ndarray:
    """Fresh weights (He initialisation of the hidden layers, small output layer) after which
    the ``teacher``'s settings (a hints settings record) and the bonus of its choice are kept."""
    w = np.zeros(N_WEIGHTS, np.float32)
    w[O_TEACHER:O_HINT_BONUS] = teacher_vector(teacher)
    w[O_HINT_BONUS] = hint_bonus
    w[O_W1:O_B1] = rng.normal(0, np.sqrt(2.0 / 40.0), N_IN * N_H1)     # ~40 nonzero inputs
    w[O_W2:O_B2] = rng.normal(0, np.sqrt(2.0 / N_H1), N_H1 * N_H2)
    w[O_W3:O_B3] = rng.normal(0, 0.1 / np.sqrt(N_H2), N_H2)
    return w



def with_late_net(w: np.ndarray, cards: int, rng: np.random.Generator, h1: int = LATE_H1,
                  h2: int = LATE_H2) -> np.ndarray:
    """The model ``w`` (without a late network) with one added for the decisions with at most
    ``cards`` left to draw: the main network widened to ``h1``, ``h2`` hidden units (its own
    weights kept in the first units; the new units' incoming weights small and random, their
    outgoing weights zero), so that the late network starts out valuing every action as the
    main network does and its new units learn from there."""
    if late_block(w)[0] >= 0:
        raise ValueError("the model has a late network already")
    if not (N_H1 <= h1 <= LATE_MAX_H1 and N_H2 <= h2 <= LATE_MAX_H2):
        raise ValueError(f"a late network has {N_H1} to {LATE_MAX_H1} and {N_H2} to {LATE_MAX_H2} hidden units")
    w1 = np.zeros((N_IN, h1), np.float32)
    w1[:, :N_H1] = w[O_W1:O_B1].reshape(N_IN, N_H1)
    w1[:, N_H1:] = rng.normal(0, 0.1 * np.sqrt(2.0 / 40.0), (N_IN, h1 - N_H1))
    b1 = np.zeros(h1, np.float32)
    b1[:N_H1] = w[O_B1:O_W2]
    w2 = np.zeros((h1, h2), np.float32)
    w2[:N_H1, :N_H2] = w[O_W2:O_B2].reshape(N_H1, N_H2)
    w2[:, N_H2:] = rng.normal(0, 0.1 * np.sqrt(2.0 / h1), (h1, h2 - N_H2))
    b2 = np.zeros(h2, np.float32)
    b2[:N_H2] = w[O_B2:O_W3]
    w3 = np.zeros(h2, np.float32)
    w3[:N_H2] = w[O_W3:O_B3]
    late = np.concatenate([[LATE_MAGIC, cards, h1, h2], w1.ravel(), b1, w2.ravel(), b2, w3, w[O_B3:O_B3 + 1]])
    return np.concatenate([w[:N_WEIGHTS], late]).astype(np.float32)


def model_size(w: np.ndarray) -> int:
    """The length of the model at the start of ``w`` (its late network included, if any)."""
    o, _cards, h1, h2 = late_block(w)
    return N_WEIGHTS if o < 0 else o + net_size(h1, h2)
