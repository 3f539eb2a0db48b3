"""The learned player's network: features of a seat's observation and of an action, and the
action value Q(s, a) of a small dense network, in numba.

Inputs are the seat's own observation only (``obs[:OBS_CORE]``: its hand, every table, the
cards played, the trick, the scores and brisques, the talon's size and turn-up; and the game
totals ``OBS_GAME``): nothing that the seat cannot see. Suits are rotated so that trumps are suit 0 (the bézique's Q♠ and
J♦ keep features of their own), which lets one weight serve every trump suit.

The network: ``x = [state features (N_STATE); action features (N_ACTION)]``, two hidden
layers of ReLU units (N_H1, N_H2) and one output, the expected change of the seat's result
from now to the end of the hand (points per hand / VALUE_SCALE; Rubicon: net game points).
Every weight lives in one flat float32 vector (offsets ``O_*``), so a policy kernel can read
it from an address (:func:`weights_at`) and training can update it in place.
"""
import numpy as np
from numba import njit, types
from numba.extending import intrinsic
from numba.np.numpy_support import carray

from ..engine.combos import combo_points
from ..engine.codes import (
    ACE,
    BEZIQUE,
    FIRST_SEQUENCE,
    JD,
    MARRIAGE,
    KING,
    KNAVE,
    QS,
    QUEEN,
    card_of,
    card_rank,
    card_suit,
    claimed_combo,
    declared_combo,
    is_brisque,
    is_claim,
    is_declare,
    is_marriage,
)
from ..engine.layout import (
    A_CARTE_BLANCHE,
    A_EXCHANGE,
    A_PARTNER,
    A_PLAY_TABLE,
    A_STOP,
    MAX_LEGAL,
    OBS_BEST_CARD,
    OBS_BRISQUES,
    OBS_DEALER_REL,
    OBS_DECISION,
    OBS_DECLARED,
    OBS_EXCHANGED,
    OBS_GAME,
    OBS_HAND,
    OBS_LEAD_CARD,
    OBS_PACKS,
    OBS_PLAYED,
    OBS_SCORE,
    OBS_STAGE,
    OBS_TABLE,
    OBS_TALON_LEFT,
    OBS_TRUMP,
    OBS_TURNUP,
    POLICY_PARAMS,
)
from ..engine.tricks import beats
from .hints import hints_policy
from ..rules import R_HAND, R_N_CARDS

# --- the state features -----------------------------------------------------------------------
S_HAND, S_MINE, S_THEIRS, S_PLAYED, S_UNSEEN, S_LEAD, S_TURNUP = 0, 32, 64, 96, 128, 160, 192
S_BEZ = 224           # 10: Q♠ and J♦ counts in hand, my table, opponent's table, unseen, played
S_TRUMP = 234         # 4: trump suit one-hot (not rotated); 238: no trump yet
S_NO_TRUMP = 238
S_STAGE2 = 239
S_TALON = 240         # share of the talon left
S_SCORE = 241         # my score, the opponent's, the difference (/ 1000)
S_BRISQ = 244         # my brisques, the opponent's (/ 8 per pack)
S_DECISION = 246      # 5: decision kind one-hot (lead, follow, meld, carte blanche, claim)
S_DECLARED = 251
S_EXCHANGED = 252
S_DEALER = 253
S_PACKS = 254
S_HAND_SIZE = 255
S_GAME = 256          # 2: game totals before this hand (/ 1000), mine and the opponent's
N_STATE = 258

# --- the action features ----------------------------------------------------------------------
X_CARD = 0            # 32: the card played (rotated)
X_FROM_TABLE = 32
X_QS, X_JD = 33, 34
X_WINS = 35           # following: the card beats the card winning the trick so far
X_BRISQUE = 36
X_DECLARE = 37        # 16: the combination declared (marriages and sequences rotated)
X_POINTS = 53         # its points / 100
X_CLAIM = 54          # 16: the combination claimed (Rubicon, R3.7)
X_EXCHANGE, X_STOP, X_CARTE, X_PARTNER, X_CLAIM_GAME = 70, 71, 72, 73, 74
X_HINT = 75           # the action the teacher (hints with the model's hint weights) would take
# a card played, in the context of the hand (what giving it up may cost):
X_TRUMP_CARD = 76     # it is a trump
X_RANK = 77           # its rank (0 ace .. 1 seven)
X_HELD_SAME = 78      # copies of it held (hand and table) / packs
X_MARRIAGE = 79       # a king or queen whose marriage partner is held
X_BEZ_PARTNER = 80    # Q♠ or J♦ with the other held
X_FOUR_COUNT = 81     # an ace, king, queen or knave: the cards of its rank held / (4 packs)
X_SEQUENCE = 82       # a trump ace .. knave: the sequence's ranks held / 5
X_UNSEEN_SAME = 83    # its copies unseen / packs
X_HIGHER_UNSEEN = 84  # unseen cards of its suit that beat it / (7 packs)
X_TAKES_BRISQUE = 85  # it wins a trick that holds a brisque
N_ACTION = 86
MAX_ACTION_NZ = 16    # nonzero action features, at most

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


@njit(cache=True, _nrt=False, inline="always")
def rotate(card, trump):
    """Card ``card`` with suits rotated so that trumps are suit 0 (as is before trumps are set)."""
    if trump < 0:
        return card
    return ((card_suit(card) - trump) & 3) * 8 + card_rank(card)


@njit(cache=True, _nrt=False, inline="always")
def rotate_combo(combo, trump):
    """Combination ``combo`` with the suit of a marriage or sequence rotated like the cards."""
    if trump < 0 or combo >= BEZIQUE:          # béziques and fours belong to no suit
        return combo
    first = MARRIAGE if is_marriage(combo) else FIRST_SEQUENCE
    return first + ((combo - first - trump) & 3)


@njit(cache=True, _nrt=False)
def state_features(obs, rules, xs):
    """Fill ``xs`` (float32[N_STATE]) from the seat's own observation ``obs``, two-handed."""
    xs[:] = 0.0
    trump = obs[OBS_TRUMP]
    packs = obs[OBS_PACKS]
    bez = (QS, JD)
    for t in range(32):
        r = rotate(t, trump)
        hand = obs[OBS_HAND + t]
        mine = obs[OBS_TABLE + t]
        theirs = obs[OBS_TABLE + 32 + t]
        played = obs[OBS_PLAYED + t]
        unseen = packs - hand - mine - theirs - played - (1 if obs[OBS_TURNUP] == t else 0)
        xs[S_HAND + r] = hand
        xs[S_MINE + r] = mine
        xs[S_THEIRS + r] = theirs
        xs[S_PLAYED + r] = played
        xs[S_UNSEEN + r] = max(unseen, 0)
        for k in range(2):
            if t == bez[k]:
                xs[S_BEZ + k] = hand
                xs[S_BEZ + 2 + k] = mine
                xs[S_BEZ + 4 + k] = theirs
                xs[S_BEZ + 6 + k] = max(unseen, 0)
                xs[S_BEZ + 8 + k] = played
    if obs[OBS_LEAD_CARD] >= 0:
        xs[S_LEAD + rotate(obs[OBS_LEAD_CARD], trump)] = 1.0
    if obs[OBS_TURNUP] >= 0:
        xs[S_TURNUP + rotate(obs[OBS_TURNUP], trump)] = 1.0
    if trump >= 0:
        xs[S_TRUMP + trump] = 1.0
    else:
        xs[S_NO_TRUMP] = 1.0
    xs[S_STAGE2] = 1.0 if obs[OBS_STAGE] == 2 else 0.0
    dealt = rules[R_N_CARDS] - 2 * rules[R_HAND]
    xs[S_TALON] = obs[OBS_TALON_LEFT] / max(dealt, 1)
    xs[S_SCORE] = obs[OBS_SCORE] / 1000.0
    xs[S_SCORE + 1] = obs[OBS_SCORE + 1] / 1000.0
    xs[S_SCORE + 2] = (obs[OBS_SCORE] - obs[OBS_SCORE + 1]) / 1000.0
    xs[S_BRISQ] = obs[OBS_BRISQUES] / (8.0 * packs)
    xs[S_BRISQ + 1] = obs[OBS_BRISQUES + 1] / (8.0 * packs)
    xs[S_DECISION + obs[OBS_DECISION]] = 1.0
    xs[S_DECLARED] = min(obs[OBS_DECLARED], 3) / 3.0
    xs[S_EXCHANGED] = 1.0 if obs[OBS_EXCHANGED] > 0 else 0.0
    xs[S_DEALER] = 1.0 if obs[OBS_DEALER_REL] == 0 else 0.0
    xs[S_PACKS] = packs / 4.0
    xs[S_HAND_SIZE] = rules[R_HAND] / 10.0
    xs[S_GAME] = obs[OBS_GAME] / 1000.0
    xs[S_GAME + 1] = obs[OBS_GAME + 1] / 1000.0


@njit(cache=True, _nrt=False, inline="always")
def _held(obs, t):
    """Copies of card ``t`` in the seat's hand and on its table."""
    return obs[OBS_HAND + t] + obs[OBS_TABLE + t]


@njit(cache=True, _nrt=False, inline="always")
def _put(idx, val, n, i, v):
    """Append feature ``i`` = ``v`` when it is not zero; returns the new count."""
    if v != 0.0:
        idx[n] = i
        val[n] = v
        return n + 1
    return n


@njit(cache=True, _nrt=False)
def _card_context(obs, card, trump, idx, val, n):
    """The features of giving up ``card``: what it may still make with the cards held, and
    what the unseen cards can do against it."""
    packs = obs[OBS_PACKS]
    rank = card_rank(card)
    suit = card_suit(card)
    n = _put(idx, val, n, X_TRUMP_CARD, 1.0 if suit == trump else 0.0)
    n = _put(idx, val, n, X_RANK, rank / 7.0)
    n = _put(idx, val, n, X_HELD_SAME, _held(obs, card) / packs)
    if rank == KING or rank == QUEEN:
        partner = card_of(suit, QUEEN if rank == KING else KING)
        n = _put(idx, val, n, X_MARRIAGE, 1.0 if _held(obs, partner) > 0 else 0.0)
    if card == QS or card == JD:
        n = _put(idx, val, n, X_BEZ_PARTNER, 1.0 if _held(obs, JD if card == QS else QS) > 0 else 0.0)
    if rank == ACE or rank == KING or rank == QUEEN or rank == KNAVE:
        c = 0
        for s in range(4):
            c += _held(obs, card_of(s, rank))
        n = _put(idx, val, n, X_FOUR_COUNT, c / (4.0 * packs))
    if suit == trump and rank <= KNAVE:
        c = 0
        for r in range(KNAVE + 1):
            c += 1 if _held(obs, card_of(suit, r)) > 0 else 0
        n = _put(idx, val, n, X_SEQUENCE, c / 5.0)
    unseen = obs[OBS_PACKS] - _held(obs, card) - obs[OBS_TABLE + 32 + card] - obs[OBS_PLAYED + card]
    n = _put(idx, val, n, X_UNSEEN_SAME, max(unseen, 0) / packs)
    higher = 0
    for r in range(rank):
        t = card_of(suit, r)
        higher += max(packs - _held(obs, t) - obs[OBS_TABLE + 32 + t] - obs[OBS_PLAYED + t], 0)
    return _put(idx, val, n, X_HIGHER_UNSEEN, higher / (7.0 * packs))


@njit(cache=True, _nrt=False)
def action_features(obs, rules, a, hint, idx, val):
    """The nonzero features of action ``a`` (indices into the action block, values) in
    ``idx``/``val``, ``hint`` being the teacher's choice; returns how many there are (at most
    MAX_ACTION_NZ)."""
    trump = obs[OBS_TRUMP]
    n = 0
    if a == hint:
        idx[0] = X_HINT
        val[0] = 1.0
        n = 1
    if a < 64:
        card = a - A_PLAY_TABLE if a >= A_PLAY_TABLE else a
        idx[n] = X_CARD + rotate(card, trump)
        val[n] = 1.0
        n += 1
        if a >= A_PLAY_TABLE:
            idx[n] = X_FROM_TABLE
            val[n] = 1.0
            n += 1
        if card == QS or card == JD:
            idx[n] = X_QS if card == QS else X_JD
            val[n] = 1.0
            n += 1
        best = obs[OBS_BEST_CARD]
        wins = best >= 0 and beats(card, best, trump)
        n = _put(idx, val, n, X_WINS, 1.0 if wins else 0.0)
        n = _put(idx, val, n, X_BRISQUE, 1.0 if is_brisque(card) else 0.0)
        n = _put(idx, val, n, X_TAKES_BRISQUE, 1.0 if wins and (is_brisque(best) or
                                                                   is_brisque(obs[OBS_LEAD_CARD])) else 0.0)
        n = _card_context(obs, card, trump, idx, val, n)
    elif is_declare(a):
        c = declared_combo(a)
        n = _put(idx, val, n, X_DECLARE + rotate_combo(c, trump), 1.0)
        n = _put(idx, val, n, X_POINTS, combo_points(rules, trump, c) / 100.0)
    elif is_claim(a):
        n = _put(idx, val, n, X_CLAIM + rotate_combo(claimed_combo(a), trump), 1.0)
    else:
        n = _put(idx, val, n, X_EXCHANGE if a == A_EXCHANGE else X_STOP if a == A_STOP else
                 X_CARTE if a == A_CARTE_BLANCHE else X_PARTNER if a == A_PARTNER else X_CLAIM_GAME, 1.0)
    return n


@njit(cache=True, _nrt=False)
def hidden_state(w, xs, h0):
    """``h0`` = the first layer's input sum of the state features (bias included): shared by
    every action of a decision."""
    for j in range(N_H1):
        h0[j] = w[O_B1 + j]
    for i in range(N_STATE):
        v = xs[i]
        if v != 0.0:
            row = O_W1 + i * N_H1
            for j in range(N_H1):
                h0[j] += v * w[row + j]


@njit(cache=True, _nrt=False)
def q_value(w, h0, idx, val, nz, h1, h2):
    """Q of one action from the shared ``h0`` and its nonzero features; ``h1``/``h2`` are
    scratch (left holding the hidden layers' activations)."""
    for j in range(N_H1):
        h1[j] = h0[j]
    for k in range(nz):
        row = O_W1 + (N_STATE + idx[k]) * N_H1
        v = val[k]
        for j in range(N_H1):
            h1[j] += v * w[row + j]
    for j in range(N_H1):
        if h1[j] < 0.0:
            h1[j] = 0.0
    for m in range(N_H2):
        h2[m] = w[O_B2 + m]
    for j in range(N_H1):
        v = h1[j]
        if v != 0.0:
            row = O_W2 + j * N_H2
            for m in range(N_H2):
                h2[m] += v * w[row + m]
    q = w[O_B3]
    for m in range(N_H2):
        if h2[m] < 0.0:
            h2[m] = 0.0
        q += h2[m] * w[O_W3 + m]
    return q


@njit(cache=True)
def teacher_action(w, obs, rules, legal, n_legal, rng):
    """The teacher's choice: hints with the parameter vector stored after the network."""
    params = np.empty(POLICY_PARAMS, np.float64)
    for k in range(POLICY_PARAMS):
        params[k] = w[O_TEACHER + k]
    return hints_policy(obs, legal, n_legal, rules, params, rng)


@njit(cache=True)
def best_action(w, obs, rules, legal, n_legal, scratch, idx, rng):
    """The index in ``legal`` of the action of highest Q (the first of equals); every legal
    action's Q (the teacher's choice with its bonus) is left in ``scratch[Q_AT + i]`` (the
    search's prior reads it). ``scratch`` (float32[SCRATCH]) holds the features and
    activations, ``idx`` (int64[MAX_ACTION_NZ]) an action's feature indices; ``rng`` is the
    seat's stream (for the teacher's call)."""
    xs = scratch[:N_STATE]
    h0 = scratch[N_STATE:N_STATE + N_H1]
    h1 = scratch[N_STATE + N_H1:N_STATE + 2 * N_H1]
    h2 = scratch[N_STATE + 2 * N_H1:N_STATE + 2 * N_H1 + N_H2]
    val = scratch[N_STATE + 2 * N_H1 + N_H2:Q_AT]
    state_features(obs, rules, xs)
    hidden_state(w, xs, h0)
    hint = teacher_action(w, obs, rules, legal, n_legal, rng)
    best = 0
    best_q = -1e30
    for i in range(n_legal):
        nz = action_features(obs, rules, legal[i], hint, idx, val)
        q = q_value(w, h0, idx, val, nz, h1, h2)
        if legal[i] == hint:
            q += w[O_HINT_BONUS]
        scratch[Q_AT + i] = q
        if q > best_q:
            best_q = q
            best = i
    return best


# the unit of the network's values: 100 points per hand, in Rubicon 1000 game points (the
# winner's game score, R3.9: half of compare's net game points)
UNIT_ORDINARY, UNIT_RUBICON = 100.0, 1000.0


@njit(cache=True, _nrt=False, inline="always")
def value_unit(packs):
    """The points one unit of the network's values stands for (four packs: Rubicon)."""
    return UNIT_RUBICON if packs == 4 else UNIT_ORDINARY


Q_AT = N_STATE + 2 * N_H1 + N_H2 + MAX_ACTION_NZ   # where best_action leaves each action's Q
SCRATCH = Q_AT + MAX_LEGAL


@intrinsic
def _float32_pointer(typingctx, address):
    """The int64 ``address`` as a float32 pointer (the weights of a policy kernel)."""
    sig = types.CPointer(types.float32)(types.int64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.float32)))

    return sig, codegen


@njit(cache=True, _nrt=False, inline="always")
def weights_at(address):
    """The flat weight vector (N_WEIGHTS float32) at ``address``: the learned policy's
    parameter slot holds the address of an array the Python side keeps alive."""
    return carray(_float32_pointer(address), (N_WEIGHTS,))


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

