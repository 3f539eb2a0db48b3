"""R3.6 as the Portland Club's Laws 33-39 have it (``redeclare=portland``, the Rubicon preset):
which declarations are legal, which copies one uses, and the restorations a play gives.

A copy's level in a class (``T[s, k, T_M + cls]``) says all that R3.6 asks of its history.
Levels are reached only by scoring, and within a class each level of a card type is one
combination (the marriage or the sequence of its suit, the bézique of that level, the four of
its rank). So a copy may join a combination of its class at its own level or above ((b): never
an inferior one), and it has been in a scored instance of combination ``c`` exactly when its
level in ``c``'s class is ``c``'s level. A set of copies for ``c`` all below ``c``'s level is
*fresh*: a new combination, legal as it is. Any other set is ``c`` over again (c): it needs a
restoration of ``c`` (``P_RESTORE + c``, one gained for each card played from a whole scored
instance of ``c``) and spends it, and it must not be exactly the copies of a whole instance of
``c`` scored before (d). Cards may come from the table, the hand or both ((a), Law 39).

What a declaration asks for is one :class:`Requirement`, built once by the caller: the
combination ``c``, its class ``cls`` and level ``lvl``, and card types ``req_t[:nreq]`` with
counts ``req_n`` (all different types); a four whose suits are free is *pooled*: ``req_t`` holds
the rank in the four suits, and any four copies of the rank will do.

Which copies the engine chooses, in this order: a fresh set when there is one (it keeps the
restoration); as many table copies as the set can take (a hand card kept can still do
everything a table copy with its history can); the copies nearest to ``c``'s level (the fewest
raised past lower combinations of the class); the copies most used in the other classes (what
is used up stays on as few copies as possible); and, when that set is a whole instance scored
before, the best set that is not.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from .bits import trailing_zeros
from .codes import CLS_B, CLS_F, CLS_M, CLUBS, DIAMONDS, HEARTS, SPADES
from .codes import PACKED_MAX, card_of, card_rank, card_suit, is_bezique, is_suited, pack_count, packed_count
from .layout import MAX_INST, MAX_TABLE, P_HAND, P_INST_COMBO, P_INST_USED, P_NTABLE, P_RESTORE, T_CARD, T_F, T_INST, T_M
from .layout import REQ_W, SEL_CHOSEN, SEL_FROM_HAND, SEL_KEYS, SEL_KIND, SEL_LEFT
from .layout import X_INFERIOR, X_NO_RESTORATION, X_SCORED_SET


class Requirement(NamedTuple):
    """What a declaration of ``c`` asks for (module docstring); :func:`requirement` builds one."""

    c: int               # the combination
    cls: int             # its class (CLS_M, CLS_B, CLS_F)
    lvl: int             # its level in the class
    req_t: np.ndarray    # int64[REQ_W]: the card types (pooled: the rank in the four suits)
    req_n: np.ndarray    # int64[REQ_W]: the copies wanted of each
    nreq: int            # how many types
    pooled: bool         # a four whose suits are free: any four copies of the rank


@njit(cache=True, _nrt=False, inline="always")
def requirement(c, cls, lvl, req_t, req_n, nreq, pooled):
    """A :class:`Requirement`, of one numba type whatever its callers pass (a constant or a
    variable), so that each kernel taking it compiles once."""
    return Requirement(np.int64(c), np.int64(cls), np.int64(lvl), req_t, req_n, np.int64(nreq), bool(pooled))


@njit(cache=True, _nrt=False, inline="always")
def _index(card, req_t, nreq, pooled):
    """The requirement ``card`` meets: its index in ``req_t`` (pooled: its suit, if it has the
    four's rank), -1 if none."""
    if pooled:
        return card_suit(card) if card_rank(card) == card_rank(req_t[0]) else -1
    for i in range(nreq):
        if req_t[i] == card:
            return i
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _table_counts(P, T, s, cls, lvl, req_t, nreq, pooled):
    """Per requirement, 8 bits each: (table copies at or below level ``lvl`` of ``cls``, those
    below it)."""
    elig = 0
    fresh = 0
    for k in range(P[s, P_NTABLE]):
        i = _index(T[s, k, T_CARD], req_t, nreq, pooled)
        if i >= 0:
            have = T[s, k, T_M + cls]
            if have <= lvl:
                elig += pack_count(1, i)
                if have < lvl:
                    fresh += pack_count(1, i)
    return elig, fresh


@njit(cache=True, _nrt=False, inline="always")
def _enough(counts, hand, req_n, nreq, pooled):
    """(whether ``counts`` (packed) plus ``hand`` (packed) meet the requirements, whether
    ``counts`` alone fall short of one)."""
    if pooled:
        total = 0
        extra = 0
        for i in range(4):
            total += packed_count(counts, i)
            extra += packed_count(hand, i)
        return total + extra >= 4, total < 4
    ok = True
    short = False
    for i in range(nreq):
        have = packed_count(counts, i)
        ok &= have + packed_count(hand, i) >= req_n[i]
        short |= have < req_n[i]
    return ok, short


@njit(cache=True, _nrt=False, inline="always")
def _hand_counts(P, s, req_t, nreq):
    """The hand's copies of each required type, 8 bits each."""
    hand = 0
    for i in range(nreq):
        hand += pack_count(min(P[s, P_HAND + req_t[i]], PACKED_MAX), i)
    return hand


@njit(cache=True, _nrt=False, inline="always")
def _binomial(n, k):
    """n choose k (0 when k > n)."""
    r = 1
    for j in range(k):
        r = r * (n - j) // (j + 1)
    return r


@njit(cache=True, _nrt=False, inline="always")
def _combos_of(P, s, bits):
    """The bit set of the combinations of seat ``s``'s instances in ``bits``."""
    combos = 0
    rest = bits & ((1 << MAX_INST) - 1)
    while rest:
        combos |= 1 << P[s, P_INST_COMBO + trailing_zeros(rest)]
        rest &= rest - 1
    return combos


@njit(cache=True, _nrt=False)
def _instances_of(P, s, c):
    """The bit set of seat ``s``'s whole instances of combination ``c``."""
    out = 0
    rest = P[s, P_INST_USED] & ((1 << MAX_INST) - 1)
    while rest:
        p = trailing_zeros(rest)
        if P[s, P_INST_COMBO + p] == c:
            out |= 1 << p
        rest &= rest - 1
    return out


@njit(cache=True, _nrt=False)
def _table_sets_beyond_scored(P, T, s, req, elig):
    """Whether the table copies at or below ``lvl`` (``elig``, packed) form more sets for ``c``
    than there are whole instances of ``c`` among them: then one set is not a set that has
    scored ``c`` (d). Fixed requirements (a free four: :func:`_scored_fours`)."""
    c, cls, lvl, req_t, req_n, nreq = req.c, req.cls, req.lvl, req.req_t, req.req_n, req.nreq
    sets = 1
    wanted = 0
    for i in range(nreq):
        sets *= _binomial(packed_count(elig, i), req_n[i])
        wanted += pack_count(req_n[i], i)
    scored = 0
    mine = _instances_of(P, s, c)
    while mine:
        p = trailing_zeros(mine)
        counts = 0
        fits = True
        for k in range(P[s, P_NTABLE]):
            if (T[s, k, T_INST] >> p) & 1:
                i = _index(T[s, k, T_CARD], req_t, nreq, False)
                if i < 0 or T[s, k, T_M + cls] > lvl:
                    fits = False
                    break
                counts += pack_count(1, i)
        scored += fits and counts == wanted
        mine &= mine - 1
    return sets > scored


@njit(cache=True, _nrt=False, inline="always")
def _check_four(P, T, s, c, lvl, rank):
    """:func:`check` for a four whose suits are free (the window's commonest check)."""
    elig = 0
    fresh = 0
    for k in range(P[s, P_NTABLE]):
        if card_rank(T[s, k, T_CARD]) == rank:
            have = T[s, k, T_F]
            elig += have <= lvl
            fresh += have < lvl
    hand = (P[s, P_HAND + card_of(SPADES, rank)] + P[s, P_HAND + card_of(HEARTS, rank)]
            + P[s, P_HAND + card_of(DIAMONDS, rank)] + P[s, P_HAND + card_of(CLUBS, rank)])
    if fresh + hand >= 4:
        return True, fresh < 4, -1
    if elig + hand < 4:
        return False, False, X_INFERIOR
    if P[s, P_RESTORE + c] == 0:
        return False, False, X_NO_RESTORATION
    if elig < 4:
        return True, True, -1
    if _binomial(elig, 4) > _scored_fours(P, T, s, c, lvl):
        return True, False, -1
    if hand > 0:
        return True, True, -1
    return False, False, X_SCORED_SET


@njit(cache=True, _nrt=False)
def _scored_fours(P, T, s, c, lvl):
    """The whole instances of four ``c`` all of whose copies are at level ``lvl`` or below."""
    scored = 0
    mine = _instances_of(P, s, c)
    while mine:
        p = trailing_zeros(mine)
        fits = True
        for k in range(P[s, P_NTABLE]):
            if (T[s, k, T_INST] >> p) & 1 and T[s, k, T_F] > lvl:
                fits = False
        scored += fits
        mine &= mine - 1
    return scored


@njit(cache=True, _nrt=False, inline="always")
def check(P, T, s, req):
    """Whether seat ``s`` may declare ``req.c`` (a :class:`Requirement`) with cards it holds,
    on the table or in hand: (legal, whether :func:`select` then takes a hand card, the detail
    code of a refusal: X_INFERIOR, X_NO_RESTORATION or X_SCORED_SET). The caller has checked that
    the combination exists now and that the seat holds its cards."""
    c, cls, lvl, req_t, req_n, nreq, pooled = req
    if pooled:
        return _check_four(P, T, s, c, lvl, card_rank(req_t[0]))
    elig, fresh = _table_counts(P, T, s, cls, lvl, req_t, nreq, pooled)
    hand = _hand_counts(P, s, req_t, nreq)
    fresh_ok, fresh_short = _enough(fresh, hand, req_n, nreq, pooled)
    if fresh_ok:
        return True, fresh_short, -1
    elig_ok, elig_short = _enough(elig, hand, req_n, nreq, pooled)
    if not elig_ok:
        return False, False, X_INFERIOR
    if P[s, P_RESTORE + c] == 0:
        return False, False, X_NO_RESTORATION
    if elig_short:                       # a hand card in the set: never a set that scored
        return True, True, -1
    if _table_sets_beyond_scored(P, T, s, req, elig):
        return True, False, -1
    if hand != 0:
        return True, True, -1
    return False, False, X_SCORED_SET


@njit(cache=True, _nrt=False)
def claim_forms(P, T, s, req, laid):
    """R3.7: whether the table copies with the cards ``laid`` (-1 ends the list) beside them form
    ``req.c`` in a way seat ``s`` could score now, with a laid card in it (the laid cards are of
    its types; the caller checks that the combination exists now)."""
    c, cls, lvl, req_t, req_n, nreq, pooled = req
    extra = 0
    for j in range(laid.shape[0]):
        if laid[j] < 0:
            break
        i = _index(laid[j], req_t, nreq, pooled)
        if i >= 0:
            extra += pack_count(1, i)
    elig, fresh = _table_counts(P, T, s, cls, lvl, req_t, nreq, pooled)
    if _enough(fresh, extra, req_n, nreq, pooled)[0]:
        return True
    return P[s, P_RESTORE + c] > 0 and _enough(elig, extra, req_n, nreq, pooled)[0]


@njit(cache=True, _nrt=False, inline="always")
def _class_of(c):
    """combos.combo_class, inline."""
    return CLS_M if is_suited(c) else (CLS_B if is_bezique(c) else CLS_F)


@njit(cache=True, _nrt=False, inline="always")
def _slot_facts(P, T, s, k, cls, lvl):
    """What choosing table slot ``k`` for a level-``lvl`` combination of ``cls`` costs, packed:
    the levels it is raised by (bits 24-27), its levels in the other classes (16-23), and the
    whole instances of ``cls`` it is in (0-15; raised to ``lvl``, the copy can never form those
    sets again, so they no longer stand in the way of the copies left: :func:`_key`)."""
    other = 0
    for d in range(3):
        if d != cls:
            other += T[s, k, T_M + d]
    whole = 0
    rest = T[s, k, T_INST] & ((1 << MAX_INST) - 1)
    while rest:
        p = trailing_zeros(rest)
        if _class_of(P[s, P_INST_COMBO + p]) == cls:
            whole |= 1 << p
        rest &= rest - 1
    return ((lvl - T[s, k, T_M + cls]) << 24) | (min(other, 15) << 16) | whole


@njit(cache=True, _nrt=False, inline="always")
def _key(facts, touched):
    """The order of choice (lower first): the fewest levels raised; then, of copies raised, the
    one in the most whole instances of the class not yet touched by the copies chosen (each
    becomes a set that can never score again, rather than a set that stands in the way of the
    copies left); then the most used in the other classes (what is used up stays on as few
    copies as possible)."""
    raised = facts >> 24
    fresh = 0
    if raised > 0:
        rest = facts & 0xFFFF & ~touched
        while rest:
            rest &= rest - 1
            fresh += 1
    return (raised << 10) + ((16 - fresh) << 5) + 15 - ((facts >> 16) & 0xFF)


@njit(cache=True, _nrt=False)
def select(P, T, s, req, work):
    """The copies seat ``s`` uses to declare ``req.c`` (already legal; the order is the module's):
    fills ``work`` (layout SEL_*) with the table slots chosen (SEL_CHOSEN) and the hand cards
    taken per requirement (SEL_FROM_HAND). Returns (table slots chosen, hand cards taken). The
    rest of ``work`` is scratch."""
    c, cls, lvl, req_t, req_n, nreq, pooled = req
    chosen = work[SEL_CHOSEN:SEL_CHOSEN + REQ_W]
    from_hand = work[SEL_FROM_HAND:SEL_FROM_HAND + REQ_W]
    left = work[SEL_LEFT:SEL_LEFT + REQ_W]
    cost = work[SEL_KEYS:SEL_KEYS + MAX_TABLE]   # per table slot: its level, then _slot_facts
    kind = work[SEL_KIND:SEL_KIND + MAX_TABLE]   # per table slot: the requirement it meets (-1: none)
    ntable = P[s, P_NTABLE]
    elig = 0
    fresh = 0
    for k in range(ntable):              # one pass: the counts of _table_counts, kept per slot
        i = _index(T[s, k, T_CARD], req_t, nreq, pooled)
        kind[k] = i
        if i >= 0:
            have = T[s, k, T_M + cls]
            cost[k] = have
            if have <= lvl:
                elig += pack_count(1, i)
                if have < lvl:
                    fresh += pack_count(1, i)
    hand = _hand_counts(P, s, req_t, nreq)
    top = lvl - 1 if _enough(fresh, hand, req_n, nreq, pooled)[0] else lvl
    counts = fresh if top < lvl else elig
    for i in range(nreq):
        left[i] = req_n[i]
        from_hand[i] = 0
    if pooled:
        left[0] = 4
    choice = False                       # more candidates than wanted of some requirement
    if pooled:
        total = 0
        for i in range(4):
            total += packed_count(counts, i)
        choice = total > 4
    else:
        for i in range(nreq):
            choice |= packed_count(counts, i) > req_n[i]
    candidates = 0
    for k in range(ntable):
        if kind[k] >= 0 and cost[k] <= top:
            candidates |= 1 << k
    n_chosen = 0
    picked = 0
    if not choice:                       # every candidate is wanted
        picked = candidates
        rest = candidates
        while rest:
            k = trailing_zeros(rest)
            chosen[n_chosen] = k
            n_chosen += 1
            left[0 if pooled else kind[k]] -= 1
            rest &= rest - 1
    else:
        _fill_facts(P, T, s, cls, lvl, candidates, cost)
    touched = 0                          # whole instances of the class holding a copy chosen
    while choice:                        # the cheapest candidates still wanted
        best = -1
        best_key = 0
        for k in range(ntable):
            if (candidates >> k) & 1 and not (picked >> k) & 1 and left[0 if pooled else kind[k]] > 0:
                key = _key(cost[k], touched)
                if best < 0 or key < best_key:
                    best = k
                    best_key = key
        if best < 0:
            break
        picked |= 1 << best
        touched |= cost[best] & 0xFFFF
        chosen[n_chosen] = best
        n_chosen += 1
        left[0 if pooled else kind[best]] -= 1
    total_hand = 0
    for i in range(nreq):                # then the hand (a pooled four: suit by suit)
        want = left[0] if pooled else left[i]
        take = min(want, P[s, P_HAND + req_t[i]])
        from_hand[i] = take
        total_hand += take
        if pooled:
            left[0] -= take
    if top == lvl and total_hand == 0 and _scored_set(P, T, s, c, picked):
        if not choice:
            _fill_facts(P, T, s, cls, lvl, candidates, cost)
        picked = _best_unscored_set(P, T, s, req, candidates, picked, cost, kind)
        if picked < 0:                   # every table set has scored: one card from the hand
            n_chosen, total_hand = _with_a_hand_card(P, s, req, cost, kind, chosen, from_hand, n_chosen)
        else:
            n_chosen = 0
            for k in range(ntable):
                if (picked >> k) & 1:
                    chosen[n_chosen] = k
                    n_chosen += 1
    return n_chosen, total_hand


@njit(cache=True, _nrt=False)
def _fill_facts(P, T, s, cls, lvl, candidates, cost):
    """``cost[k]`` becomes :func:`_slot_facts` for each candidate slot ``k``."""
    rest = candidates
    while rest:
        k = trailing_zeros(rest)
        cost[k] = _slot_facts(P, T, s, k, cls, lvl)
        rest &= rest - 1


@njit(cache=True, _nrt=False, inline="always")
def _scored_set(P, T, s, c, slots):
    """Whether the table slots ``slots`` (a bit set) are exactly a whole instance of ``c``: all of
    them in one (an instance has as many copies as the combination)."""
    common = _instances_of(P, s, c)
    for k in range(P[s, P_NTABLE]):
        if (slots >> k) & 1:
            common &= T[s, k, T_INST]
    return common != 0


@njit(cache=True, _nrt=False)
def _best_unscored_set(P, T, s, req, candidates, picked, cost, kind):
    """The cheapest set of candidate slots with as many of each requirement as ``picked`` that is
    not a whole instance of ``req.c`` (-1: none). Only reached when the cheapest set is one, so the
    search over subsets of the (few) candidates is rare."""
    c, pooled = req.c, req.pooled
    want = 0
    size = 0
    for k in range(P[s, P_NTABLE]):
        if (picked >> k) & 1:
            want += pack_count(1, 0 if pooled else kind[k])
            size += 1
    best = -1
    best_cost = 0
    sub = candidates
    while sub > 0:
        n = 0
        counts = 0
        total = 0
        for k in range(P[s, P_NTABLE]):
            if (sub >> k) & 1:
                n += 1
                counts += pack_count(1, 0 if pooled else kind[k])
                total += _key(cost[k], 0)
        if n == size and counts == want and (best < 0 or total < best_cost) and not _scored_set(P, T, s, c, sub):
            best = sub
            best_cost = total
        sub = (sub - 1) & candidates
    return best


@njit(cache=True, _nrt=False)
def _with_a_hand_card(P, s, req, cost, kind, chosen, from_hand, n_chosen):
    """Replace the costliest chosen copy of a type the hand holds (a pooled four: of any suit) by a
    hand card: the set is then new as a set. Returns (table slots chosen, hand cards taken)."""
    req_t, pooled = req.req_t, req.pooled
    drop = -1
    for j in range(n_chosen):
        k = chosen[j]
        if (pooled or P[s, P_HAND + req_t[kind[k]]] > 0) and (
                drop < 0 or _key(cost[k], 0) > _key(cost[chosen[drop]], 0)):
            drop = j
    i = kind[chosen[drop]]
    if pooled:
        for suit in range(4):
            if P[s, P_HAND + req_t[suit]] > 0:
                i = suit
                break
    chosen[drop] = chosen[n_chosen - 1]
    from_hand[i] += 1
    return n_chosen - 1, 1


@njit(cache=True, _nrt=False)
def spends_restoration(T, s, chosen, n_chosen, cls, lvl):
    """Whether the table slots ``chosen[:n_chosen]`` (before they are used) make the declaration
    the same combination over again: a copy already at its level (R3.6 (c))."""
    for j in range(n_chosen):
        if T[s, chosen[j], T_M + cls] == lvl:
            return True
    return False


@njit(cache=True, _nrt=False)
def gain_restorations(P, T, s, k):
    """Seat ``s`` plays table slot ``k``: one restoration of each combination a whole instance of
    which it belongs to (one per card, however many instances of it; R3.6 (c), Law 34)."""
    combos = _combos_of(P, s, T[s, k, T_INST])
    while combos:
        P[s, P_RESTORE + trailing_zeros(combos)] += 1
        combos &= combos - 1


@njit(cache=True, _nrt=False)
def play_key(P, T, s, k):
    """The order in which a play from the table gives up copies of one card, highest first: the
    restorations it gives (combinations of the whole instances it is in), then the most used
    (sum of its levels)."""
    combos = _combos_of(P, s, T[s, k, T_INST])
    gains = 0
    while combos:
        combos &= combos - 1
        gains += 1
    return (gains << 8) | (T[s, k, T_M] + T[s, k, T_M + 1] + T[s, k, T_M + 2])
