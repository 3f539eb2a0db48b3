"""The learned player's inputs: features of a seat's observation (the state) and of each legal
action, in numba.

Inputs are the seat's own observation only (``obs[:OBS_CORE]``: its hand, every table, the
cards played, the trick, the scores and brisques, the talon's size and turn-up; and the game
totals ``OBS_GAME``): nothing that the seat cannot see. Suits are rotated so that trumps are
suit 0 (the bézique's Q♠ and J♦ keep features of their own), which lets one weight serve every
trump suit. The network that reads them is :mod:`.network`.

A decision's features are made in two steps: :func:`state_features` fills the state's (dense)
vector and a table of per-card counts (:data:`CTX_W` ints), from which :func:`action_features`
reads each action's (sparse) features without scanning the observation again.
"""
from numba import njit

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
from ..engine import layout as L
from ..engine.tricks import beats
from ..rules import R_HAND, R_N_CARDS

# --- the state features -----------------------------------------------------------------------
SF_HAND, SF_MINE, SF_THEIRS, SF_PLAYED, SF_UNSEEN, SF_LEAD, SF_TURNUP = 0, 32, 64, 96, 128, 160, 192
SF_BEZ = 224           # 10: Q♠ and J♦ counts in hand, my table, opponent's table, unseen, played
SF_TRUMP = 234         # 4: trump suit one-hot (not rotated); 238: no trump yet
SF_NO_TRUMP = 238
SF_STAGE2 = 239
SF_TALON = 240         # share of the talon left
SF_SCORE = 241         # my score, the opponent's, the difference (/ 1000)
SF_BRISQ = 244         # my brisques, the opponent's (/ 8 per pack)
SF_DECISION = 246      # 5: decision kind one-hot (lead, follow, meld, carte blanche, claim)
SF_DECLARED = 251
SF_EXCHANGED = 252
SF_DEALER = 253
SF_PACKS = 254
SF_HAND_SIZE = 255
SF_GAME = 256          # 2: game totals before this hand (/ 1000), mine and the opponent's
N_STATE = 258

# --- the action features ----------------------------------------------------------------------
AF_CARD = 0            # 32: the card played (rotated)
AF_FROM_TABLE = 32
AF_QS, AF_JD = 33, 34
AF_WINS = 35           # following: the card beats the card winning the trick so far
AF_BRISQUE = 36
AF_DECLARE = 37        # 16: the combination declared (marriages and sequences rotated)
AF_POINTS = 53         # its points / 100
AF_CLAIM = 54          # 16: the combination claimed (Rubicon, R3.7)
AF_EXCHANGE, AF_STOP, AF_CARTE, AF_PARTNER, AF_CLAIM_GAME = 70, 71, 72, 73, 74
AF_HINT = 75           # the action the teacher (hints with the model's hint weights) would take
# a card played, in the context of the hand (what giving it up may cost):
AF_TRUMP_CARD = 76     # it is a trump
AF_RANK = 77           # its rank (0 ace .. 1 seven)
AF_HELD_SAME = 78      # copies of it held (hand and table) / packs
AF_MARRIAGE = 79       # a king or queen whose marriage partner is held
AF_BEZ_PARTNER = 80    # Q♠ or J♦ with the other held
AF_FOUR_COUNT = 81     # an ace, king, queen or knave: the cards of its rank held / (4 packs)
AF_SEQUENCE = 82       # a trump ace .. knave: the sequence's ranks held / 5
AF_UNSEEN_SAME = 83    # its copies unseen / packs
AF_HIGHER_UNSEEN = 84  # unseen cards of its suit that beat it / (7 packs)
AF_TAKES_BRISQUE = 85  # it wins a trick that holds a brisque
N_ACTION = 86
MAX_ACTION_NZ = 16    # nonzero action features, at most

# --- a decision's per-card counts (state_features fills them, action_features reads them) ----
C_HELD = 0            # 32: copies of each card in the hand and on the seat's table
C_UNSEEN = 32         # 32: copies neither held, on the other table nor played (the turn-up counts)
C_HIGHER = 64         # 32: those unseen copies of the card's suit that beat it
C_FOUR = 96           # 8: the cards of each rank held, over the suits
C_SEQUENCE = 104      # the trump ranks ace .. knave held
CTX_W = 105


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
def state_features(obs, rules, xs, ctx):
    """Fill ``xs`` (float32[N_STATE]) from the seat's own observation ``obs``, two-handed, and
    the decision's per-card counts ``ctx`` (int64[CTX_W]) that :func:`action_features` reads."""
    xs[:] = 0.0
    trump = obs[L.OBS_TRUMP]
    packs = obs[L.OBS_PACKS]
    turnup = obs[L.OBS_TURNUP]
    for t in range(32):
        r = rotate(t, trump)
        hand = obs[L.OBS_HAND + t]
        mine = obs[L.OBS_TABLE + t]
        theirs = obs[L.OBS_TABLE + 32 + t]
        played = obs[L.OBS_PLAYED + t]
        other = packs - hand - mine - theirs - played
        unseen = max(other - (1 if turnup == t else 0), 0)
        xs[SF_HAND + r] = hand
        xs[SF_MINE + r] = mine
        xs[SF_THEIRS + r] = theirs
        xs[SF_PLAYED + r] = played
        xs[SF_UNSEEN + r] = unseen
        ctx[C_HELD + t] = hand + mine
        ctx[C_UNSEEN + t] = max(other, 0)
        if t == QS or t == JD:
            k = 0 if t == QS else 1
            xs[SF_BEZ + k] = hand
            xs[SF_BEZ + 2 + k] = mine
            xs[SF_BEZ + 4 + k] = theirs
            xs[SF_BEZ + 6 + k] = unseen
            xs[SF_BEZ + 8 + k] = played
    for rank in range(8):
        c = 0
        for s in range(4):
            c += ctx[C_HELD + card_of(s, rank)]
        ctx[C_FOUR + rank] = c
    for s in range(4):
        higher = 0
        for rank in range(8):
            t = card_of(s, rank)
            ctx[C_HIGHER + t] = higher
            higher += ctx[C_UNSEEN + t]
    seq = 0
    if trump >= 0:
        for rank in range(KNAVE + 1):
            seq += 1 if ctx[C_HELD + card_of(trump, rank)] > 0 else 0
    ctx[C_SEQUENCE] = seq
    if obs[L.OBS_LEAD_CARD] >= 0:
        xs[SF_LEAD + rotate(obs[L.OBS_LEAD_CARD], trump)] = 1.0
    if turnup >= 0:
        xs[SF_TURNUP + rotate(turnup, trump)] = 1.0
    if trump >= 0:
        xs[SF_TRUMP + trump] = 1.0
    else:
        xs[SF_NO_TRUMP] = 1.0
    xs[SF_STAGE2] = 1.0 if obs[L.OBS_STAGE] == 2 else 0.0
    dealt = rules[R_N_CARDS] - 2 * rules[R_HAND]
    xs[SF_TALON] = obs[L.OBS_TALON_LEFT] / max(dealt, 1)
    xs[SF_SCORE] = obs[L.OBS_SCORE] / 1000.0
    xs[SF_SCORE + 1] = obs[L.OBS_SCORE + 1] / 1000.0
    xs[SF_SCORE + 2] = (obs[L.OBS_SCORE] - obs[L.OBS_SCORE + 1]) / 1000.0
    xs[SF_BRISQ] = obs[L.OBS_BRISQUES] / (8.0 * packs)
    xs[SF_BRISQ + 1] = obs[L.OBS_BRISQUES + 1] / (8.0 * packs)
    xs[SF_DECISION + obs[L.OBS_DECISION]] = 1.0
    xs[SF_DECLARED] = min(obs[L.OBS_DECLARED], 3) / 3.0
    xs[SF_EXCHANGED] = 1.0 if obs[L.OBS_EXCHANGED] > 0 else 0.0
    xs[SF_DEALER] = 1.0 if obs[L.OBS_DEALER_REL] == 0 else 0.0
    xs[SF_PACKS] = packs / 4.0
    xs[SF_HAND_SIZE] = rules[R_HAND] / 10.0
    xs[SF_GAME] = obs[L.OBS_GAME] / 1000.0
    xs[SF_GAME + 1] = obs[L.OBS_GAME + 1] / 1000.0


@njit(cache=True, _nrt=False, inline="always")
def _put(idx, val, n, i, v):
    """Append feature ``i`` = ``v`` when it is not zero; returns the new count."""
    if v != 0.0:
        idx[n] = i
        val[n] = v
        return n + 1
    return n


@njit(cache=True, _nrt=False)
def _card_context(ctx, packs, card, trump, idx, val, n):
    """The features of giving up ``card``: what it may still make with the cards held, and
    what the unseen cards can do against it (from the decision's counts ``ctx``)."""
    rank = card_rank(card)
    suit = card_suit(card)
    n = _put(idx, val, n, AF_TRUMP_CARD, 1.0 if suit == trump else 0.0)
    n = _put(idx, val, n, AF_RANK, rank / 7.0)
    n = _put(idx, val, n, AF_HELD_SAME, ctx[C_HELD + card] / packs)
    if rank == KING or rank == QUEEN:
        partner = card_of(suit, QUEEN if rank == KING else KING)
        n = _put(idx, val, n, AF_MARRIAGE, 1.0 if ctx[C_HELD + partner] > 0 else 0.0)
    if card == QS or card == JD:
        n = _put(idx, val, n, AF_BEZ_PARTNER, 1.0 if ctx[C_HELD + (JD if card == QS else QS)] > 0 else 0.0)
    if rank == ACE or rank == KING or rank == QUEEN or rank == KNAVE:
        n = _put(idx, val, n, AF_FOUR_COUNT, ctx[C_FOUR + rank] / (4.0 * packs))
    if suit == trump and rank <= KNAVE:
        n = _put(idx, val, n, AF_SEQUENCE, ctx[C_SEQUENCE] / 5.0)
    n = _put(idx, val, n, AF_UNSEEN_SAME, ctx[C_UNSEEN + card] / packs)
    return _put(idx, val, n, AF_HIGHER_UNSEEN, ctx[C_HIGHER + card] / (7.0 * packs))


@njit(cache=True, _nrt=False)
def action_features(obs, rules, ctx, a, hint, idx, val):
    """The nonzero features of action ``a`` (indices into the action block, values) in
    ``idx``/``val``, ``hint`` being the teacher's choice and ``ctx`` the decision's counts
    (:func:`state_features`); returns how many there are (at most MAX_ACTION_NZ)."""
    trump = obs[L.OBS_TRUMP]
    n = 0
    if a == hint:
        idx[0] = AF_HINT
        val[0] = 1.0
        n = 1
    if a < 64:
        card = a - L.A_PLAY_TABLE if a >= L.A_PLAY_TABLE else a
        idx[n] = AF_CARD + rotate(card, trump)
        val[n] = 1.0
        n += 1
        if a >= L.A_PLAY_TABLE:
            idx[n] = AF_FROM_TABLE
            val[n] = 1.0
            n += 1
        if card == QS or card == JD:
            idx[n] = AF_QS if card == QS else AF_JD
            val[n] = 1.0
            n += 1
        best = obs[L.OBS_BEST_CARD]
        wins = best >= 0 and beats(card, best, trump)
        n = _put(idx, val, n, AF_WINS, 1.0 if wins else 0.0)
        n = _put(idx, val, n, AF_BRISQUE, 1.0 if is_brisque(card) else 0.0)
        n = _put(idx, val, n, AF_TAKES_BRISQUE, 1.0 if wins and (is_brisque(best) or
                                                                   is_brisque(obs[L.OBS_LEAD_CARD])) else 0.0)
        n = _card_context(ctx, obs[L.OBS_PACKS], card, trump, idx, val, n)
    elif is_declare(a):
        c = declared_combo(a)
        n = _put(idx, val, n, AF_DECLARE + rotate_combo(c, trump), 1.0)
        n = _put(idx, val, n, AF_POINTS, combo_points(rules, trump, c) / 100.0)
    elif is_claim(a):
        n = _put(idx, val, n, AF_CLAIM + rotate_combo(claimed_combo(a), trump), 1.0)
    else:
        n = _put(idx, val, n, AF_EXCHANGE if a == L.A_EXCHANGE else AF_STOP if a == L.A_STOP else
                 AF_CARTE if a == L.A_CARTE_BLANCHE else AF_PARTNER if a == L.A_PARTNER else AF_CLAIM_GAME, 1.0)
    return n
