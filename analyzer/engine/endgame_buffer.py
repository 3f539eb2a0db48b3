"""The exact solver's buffer (:mod:`.endgame`): one int64 array (:data:`SOLVER_TYPE`) that holds
the solver's scalars, the numbering of its root's cards and their bit sets, Rubicon's final
scores and the transposition table, in the regions ``O_*``; made by :func:`new_solver`, or kept
in a seat's working memory (:func:`init_solver`, :func:`solver_in`).

:func:`set_position` sets a position into it: the cards of the two hands are numbered at a root
(each seat's cards strongest first, identical copies next to each other; :func:`_prepare`), and
a later position below that root keeps the root's numbering and table, so that the decisions of
one second stage share what the first solved.
"""
import numpy as np
from numba import njit, types

from ..rules import R_BRISQUE_POINTS, R_BRISQUES_SCORED, R_LAST_TRICK
from .bits import popcount
from .codes import card_of, card_rank, card_suit, is_brisque
from .game_score import game_value

MAX_IDX = 24             # card numbers of the two hands (at most 10 + 10 cards)
MAX_B = 24               # brisque counts 0 .. MAX_B - 1 (at most 20 in the hands, 1 led)

# meta: bit sets over card numbers
M_SEAT = 0               # 2: the cards of each seat
M_DUP = 2                # cards whose next lower number is an identical card of the same seat
M_BRISQ = 3              # aces and tens
M_SUIT = 4               # 4: the cards of each suit
M_HIGHER = 8             # 32: per card type, the cards of its suit that beat it
META = 40
# par: scalars of the position being solved, and of the root its numbering was made for
PAR_TRUMP, PAR_RUBICON, PAR_BP, PAR_LAST, PAR_GEN, PAR_BITS, PAR_NODES = range(7)
PAR_ROOT = 7             # 1 while the numbering and the table belong to a root (see set_position)
PAR_ROOT_SCORE = 8       # 2: the scores at the root (Rubicon: fterm was made for them)
PAR_ROOT_BRISQ = 10      # 2: the brisques won at the root
PAR_ROOT_R = 12          # the brisques still to be won at the root (in the hands and the lead)
PAR_REUSED = 13          # 1 when the last solve reused the table of an earlier root
PAR = 16
ROOT_W = 64              # root: the count of each card type in each seat's hand at the root


SOLVER_TYPE = types.int64[::1]
"""An exact solver is one int64 buffer (:func:`new_solver`, or a region of a seat's working
memory, :func:`solver_in`): its scalars (``PAR_*``; ``PAR_NODES``: the search nodes of the last
solve), the numbering of the root's cards, bit sets, Rubicon's final scores and a transposition
table of ``2**bits`` entries of four words each (key, bounds lo and hi for seat 0, best lead),
reused across solves without clearing (entries of an earlier root carry an older generation in
their key). One buffer, passed down the recursion as one array: a record of eleven arrays cost
more to pass than a node's work. One per thread (a seat's own)."""

# the solver's regions in its buffer: the fixed part, then the table (four words an entry)
O_PAR = 0
O_CT = O_PAR + PAR                 # card type of each card number
O_META = O_CT + MAX_IDX            # bit sets (M_*)
O_FMIN = O_META + META             # Rubicon: least final score, a brisques won and r still out: [a * MAX_B + r]
O_FMAX = O_FMIN + MAX_B * MAX_B    # the greatest
O_FTERM = O_FMAX + MAX_B * MAX_B   # Rubicon: the final score with b brisques won and last trick L: [b * 2 + L]
O_ROOT = O_FTERM + MAX_B * 2       # [seat * 32 + card type]: the root's cards
O_TABLE = O_ROOT + ROOT_W
T_KEY, T_LO, T_HI, T_MOVE = range(4)     # an entry of the table (the key is endgame._search's)
SOLVER_BITS = 13         # plenty for a full second stage of 8 or 9 cards a hand (median 1,200 nodes)
POS_W = 69               # the solvers' scratch: the two hands, the scores, the brisques, the best card


@njit(cache=True, _nrt=False)
def solver_words(bits):
    """The int64 words of a solver with a table of ``2**bits`` entries (32 bytes an entry)."""
    return O_TABLE + 4 * (np.int64(1) << bits)


@njit(cache=True, _nrt=False)
def init_solver(work, offset, bits):
    """Make ``work[offset:offset + solver_words(bits)]`` (zeros) a solver of ``2**bits`` entries."""
    work[offset + O_PAR + PAR_BITS] = bits


@njit(cache=True, _nrt=False, inline="always")
def solver_in(work, offset):
    """The solver kept in ``work`` from ``offset`` (a view; made by :func:`init_solver`): its
    table and its root outlive the call, so the decisions of one second stage share what the
    first one solved."""
    return work[offset:offset + solver_words(work[offset + O_PAR + PAR_BITS])]


@njit(cache=True)
def new_solver(bits):
    """A solver with a table of ``2**bits`` entries, in a buffer of its own."""
    work = np.zeros(solver_words(bits), np.int64)
    init_solver(work, 0, bits)
    return work


@njit(cache=True, _nrt=False)
def _prepare(rules, trump, hands, lead_card, scores, brisques, sv):
    """Number the cards of ``hands`` into ``sv`` and fill its tables for one position, which
    becomes the root; start a new generation of the table. Returns (bit set of the cards held,
    the value already made: the ordinary game's margin so far, 0 in Rubicon)."""
    ct, meta, par = sv[O_CT:O_CT + MAX_IDX], sv[O_META:O_META + META], sv[O_PAR:O_PAR + PAR]
    for j in range(META):
        meta[j] = 0
    for s in range(2):
        for t in range(32):
            sv[O_ROOT + s * 32 + t] = hands[s, t]
    n = 0
    for s in range(2):
        for rank in range(8):
            for suit in range(4):
                t = card_of(suit, rank)
                for c in range(hands[s, t]):
                    bit = np.int64(1) << n
                    ct[n] = t
                    meta[M_SEAT + s] |= bit
                    meta[M_SUIT + suit] |= bit
                    if c > 0:
                        meta[M_DUP] |= bit
                    if is_brisque(t):
                        meta[M_BRISQ] |= bit
                    n += 1
    for t in range(32):
        m = 0
        for i in range(n):
            if card_suit(ct[i]) == card_suit(t) and card_rank(ct[i]) < card_rank(t):
                m |= np.int64(1) << i
        meta[M_HIGHER + t] = m
    rubicon = rules[R_BRISQUES_SCORED] == 0
    bp = rules[R_BRISQUE_POINTS]
    par[PAR_TRUMP] = trump
    par[PAR_RUBICON] = rubicon
    par[PAR_BP] = 0 if rubicon else bp
    par[PAR_LAST] = rules[R_LAST_TRICK]
    par[PAR_GEN] += 1
    par[PAR_NODES] = 0
    par[PAR_REUSED] = 0
    mask = (np.int64(1) << n) - 1
    r = popcount(meta[M_BRISQ])
    if lead_card >= 0 and is_brisque(lead_card):
        r += 1
    par[PAR_ROOT] = 1
    for k in range(2):
        par[PAR_ROOT_SCORE + k] = scores[k]
        par[PAR_ROOT_BRISQ + k] = brisques[k]
    par[PAR_ROOT_R] = r
    if not rubicon:
        return mask, np.int64(scores[0] - scores[1]) + bp * np.int64(brisques[0] - brisques[1])
    for b in range(r + 1):
        for w in range(2):
            last = rules[R_LAST_TRICK]
            t0 = np.int64(scores[0]) + (last if w == 0 else 0)
            t1 = np.int64(scores[1]) + (last if w == 1 else 0)
            sv[O_FTERM + b * 2 + w] = game_value(rules, t0, t1, bp * (np.int64(brisques[0]) + b),
                                                 bp * (np.int64(brisques[1]) + r - b))
    for a in range(r + 1):
        lo = min(sv[O_FTERM + a * 2], sv[O_FTERM + a * 2 + 1])
        hi = max(sv[O_FTERM + a * 2], sv[O_FTERM + a * 2 + 1])
        for d in range(r - a + 1):
            f0 = sv[O_FTERM + (a + d) * 2]
            f1 = sv[O_FTERM + (a + d) * 2 + 1]
            lo = min(lo, min(f0, f1))
            hi = max(hi, max(f0, f1))
            sv[O_FMIN + a * MAX_B + d] = lo
            sv[O_FMAX + a * MAX_B + d] = hi
    return mask, np.int64(0)


@njit(cache=True, _nrt=False)
def set_position(rules, trump, hands, lead_card, scores, brisques, sv):
    """The position in ``sv``'s numbering: (bit set of the cards held, the value already made,
    the brisques seat 0 has won since the root). When it lies below the root ``sv`` was last
    prepared for (the same trump and rules, each hand a part of the root's, the scores and
    brisques consistent with the cards gone), the numbering and the table are kept, so what
    earlier solves of this second stage found is reused (the values are exact either way);
    else it becomes a new root (:func:`_prepare`)."""
    par = sv[O_PAR:O_PAR + PAR]
    rubicon = rules[R_BRISQUES_SCORED] == 0
    bp = rules[R_BRISQUE_POINTS]
    same = (par[PAR_ROOT] == 1 and par[PAR_TRUMP] == trump and par[PAR_RUBICON] == rubicon
            and par[PAR_BP] == (0 if rubicon else bp) and par[PAR_LAST] == rules[R_LAST_TRICK])
    r = 0
    for s in range(2):
        for t in range(32):
            h = hands[s, t]
            same &= h <= sv[O_ROOT + s * 32 + t]
            if is_brisque(t):
                r += h
    if lead_card >= 0 and is_brisque(lead_card):
        r += 1
    won = (brisques[0] - par[PAR_ROOT_BRISQ]) + (brisques[1] - par[PAR_ROOT_BRISQ + 1])
    same &= won >= 0 and brisques[0] >= par[PAR_ROOT_BRISQ] and won + r == par[PAR_ROOT_R]
    if rubicon:
        same &= scores[0] == par[PAR_ROOT_SCORE] and scores[1] == par[PAR_ROOT_SCORE + 1]
    if not same:
        mask, base = _prepare(rules, trump, hands, lead_card, scores, brisques, sv)
        return mask, base, np.int64(0)
    # the root's numbering: each card type's copies of a seat are consecutive numbers, and of
    # the copies still held the highest numbers (the lowest is the one played first)
    mask = np.int64(0)
    n = 0
    for s in range(2):
        for rank in range(8):
            for suit in range(4):
                t = card_of(suit, rank)
                c = sv[O_ROOT + s * 32 + t]
                for k in range(c - hands[s, t], c):
                    mask |= np.int64(1) << (n + k)
                n += c
    par[PAR_NODES] = 0
    par[PAR_REUSED] = 1
    if rubicon:
        return mask, np.int64(0), np.int64(brisques[0] - par[PAR_ROOT_BRISQ])
    return mask, np.int64(scores[0] - scores[1]) + bp * np.int64(brisques[0] - brisques[1]), np.int64(0)
