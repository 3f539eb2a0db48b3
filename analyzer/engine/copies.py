"""Table copies: which may join a combination, which ones a declaration spends, which one a
play from the table gives up, and the declared instances R3.6 looks at.

Copies of one card are identical (R1.2) but their histories differ: the level each reached in
classes M, B, F (R2.11), whether it was ever part of a scored combination (R3.7: a copy that
never was is "new"), and, under ``redeclare=replace`` (R3.6), the instance of its latest
declaration in each class while that instance still lies whole on the table. The engine
chooses copies for the player so as to keep open every later declaration it can:

- a declaration spends copies already scored before never-scored ones (those, like hand
  cards, supply the new card), and among those first the copy that loses least: the highest
  rank in the class declared, then the one most used in the other classes, so that what is
  used up stays on as few copies as possible;
- a never-scored table copy supplies the new card before a card from the hand, because a
  card kept in the hand can still do everything the table copy could;
- a play from the table gives up the most used copy (R2.7), which also breaks the most
  whole instances.
"""
import numpy as np
from numba import njit

from ..rules import R_AMERICAN, R_REDECLARE
from .codes import card_of, card_rank, card_suit, is_four, pack_count
from .combos import CLS_B, CLS_F, combo_class, combo_level, combo_requirements, four_rank, panache_requirements
from .portland import play_key, requirement
from .portland import select as portland_select
from . import layout as L

REDECLARE_HIGHER, REDECLARE_SAME, REDECLARE_REPLACE, REDECLARE_PORTLAND = 0, 1, 2, 3
BARRED = 15             # class rank of a copy R2.17 bars from the class


@njit(cache=True, _nrt=False)
def slot_eligible(rules, T, s, k, cls, lvl):
    """Whether table slot ``k`` may join a class-``cls`` combination of level ``lvl``."""
    have = T[s, k, L.T_M + cls]
    mode = rules[R_REDECLARE]
    if mode == REDECLARE_HIGHER:
        if have >= lvl:             # R2.14/R2.15: only a higher one
            return False
    else:
        if have > lvl:              # R3.6: never an inferior one
            return False
        if mode == REDECLARE_REPLACE and have == lvl and T[s, k, L.T_IM + cls] > 0:
            return False            # R3.6: the same one while its earlier instance is whole
    if rules[R_AMERICAN] and cls != CLS_B and T[s, k, L.T_B] > 0:
        return False                # R2.17
    return True


@njit(cache=True, _nrt=False, inline="always")
def class_rank(rules, T, s, k, cls):
    """How far table slot ``k`` is used up in class ``cls``: a copy of higher rank can join
    no combination of the class that a copy of lower rank cannot."""
    lvl = T[s, k, L.T_M + cls]
    if rules[R_AMERICAN] and cls != CLS_B and T[s, k, L.T_B] > 0:
        return BARRED
    mode = rules[R_REDECLARE]
    if mode == REDECLARE_HIGHER or mode == REDECLARE_PORTLAND:
        return lvl                  # joins only levels above its own (portland: fresh below it)
    if mode == REDECLARE_SAME:
        return max(lvl, 1)          # level 0 and 1 join the same combinations (all levels >= 1)
    # replace: at its own level only once its instance is broken
    return max(2 * lvl + (T[s, k, L.T_IM + cls] > 0), 2)


@njit(cache=True, _nrt=False, inline="always")
def _popcount16(x):
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@njit(cache=True, _nrt=False, inline="always")
def spend_key(rules, T, s, k, cls):
    """Order in which eligible table copies are spent on a class-``cls`` declaration, highest
    first: scored before never-scored, then the highest rank in ``cls``, then the highest
    ranks in the other classes, then (R3.6 replace) the most whole instances."""
    other = 0
    for d in range(3):
        if d != cls:
            other += class_rank(rules, T, s, k, d)
    key = (T[s, k, L.T_SCORED] << 16) | (class_rank(rules, T, s, k, cls) << 10) | (other << 5)
    if rules[R_REDECLARE] == REDECLARE_REPLACE:
        key |= _popcount16(T[s, k, L.T_INST])
    return key


@njit(cache=True, _nrt=False)
def table_slot_to_play(rules, T, P, s, card):
    """The copy of ``card`` played from the table: the most used one (lowest slot on ties).

    In the ordinary game that is the highest sum of class levels (never-scored copies last);
    in Rubicon the highest sum of class ranks, then the most whole instances it breaks; under
    ``redeclare=portland`` the one whose play gives the most restorations, then the highest
    sum of levels (portland.play_key)."""
    best = -1
    best_use = -1
    mode = rules[R_REDECLARE]
    for k in range(P[s, L.P_NTABLE]):
        if T[s, k, L.T_CARD] == card:
            if mode == REDECLARE_PORTLAND:
                use = play_key(P, T, s, k)
            elif mode == REDECLARE_HIGHER:
                use = T[s, k, L.T_M] + T[s, k, L.T_B] + T[s, k, L.T_F] + T[s, k, L.T_SCORED]
            else:
                ranks = 0
                for d in range(3):
                    ranks += class_rank(rules, T, s, k, d)
                use = (T[s, k, L.T_SCORED] << 16) | (ranks << 5)
                if mode == REDECLARE_REPLACE:
                    use |= _popcount16(T[s, k, L.T_INST])
            if use > best_use:
                best = k
                best_use = use
    return best


@njit(cache=True, _nrt=False)
def req_table_counts(rules, T, P, s, req_t, nreq, cls, lvl):
    """For every required type ``req_t[:nreq]`` (all different), in one pass over the table:
    (table copies eligible for a class-``cls`` combination of level ``lvl``, the never-scored
    ones among them), each packed as 8 bits per requirement."""
    elig = 0
    fresh = 0
    for k in range(P[s, L.P_NTABLE]):
        card = T[s, k, L.T_CARD]
        for i in range(nreq):
            if req_t[i] == card:
                if slot_eligible(rules, T, s, k, cls, lvl):
                    one = pack_count(np.int64(1), i)
                    elig += one
                    if T[s, k, L.T_SCORED] == 0:
                        fresh += one
                break
    return elig, fresh


@njit(cache=True, _nrt=False, inline="always")
def four_table_counts(rules, T, P, s, rank):
    """For the four suits of ``rank``, in one pass over the table: (table copies eligible for a
    four, the never-scored ones among them), each packed as 8 bits per suit (suit 0 lowest)."""
    elig = 0
    fresh = 0
    for k in range(P[s, L.P_NTABLE]):
        card = T[s, k, L.T_CARD]
        if card_rank(card) == rank and slot_eligible(rules, T, s, k, CLS_F, 1):
            one = pack_count(np.int64(1), card_suit(card))
            elig += one
            if T[s, k, L.T_SCORED] == 0:
                fresh += one
    return elig, fresh


@njit(cache=True, _nrt=False)
def new_instance(P, s):
    """A free instance number for a declaration of seat ``s`` (-1 if none: under
    ``redeclare=replace`` this cannot happen, as every whole instance holds a table card that
    was new to it and no other; under ``portland`` it would take more than MAX_INST whole
    combinations on a table of at most nine cards)."""
    used = P[s, L.P_INST_USED]
    for p in range(L.MAX_INST):
        if (used >> p) & 1 == 0:
            P[s, L.P_INST_USED] = used | (1 << p)
            return p
    return -1


@njit(cache=True, _nrt=False)
def use_slot(T, s, k, cls, lvl, inst):
    """Table slot ``k`` joins instance ``inst`` of a class-``cls`` combination of level ``lvl``."""
    T[s, k, L.T_M + cls] = lvl
    T[s, k, L.T_SCORED] = 1
    if inst >= 0:
        T[s, k, L.T_IM + cls] = inst + 1
        T[s, k, L.T_INST] |= 1 << inst


@njit(cache=True, _nrt=False, inline="always")
def req_index(req_t, nreq, card):
    """The index of ``card`` among the required types ``req_t[:nreq]`` (-1: not one of them)."""
    for i in range(nreq):
        if req_t[i] == card:
            return i
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _requirements(rules, P, s, c, four_cards, req_t, req_n):
    """Fill the types and counts ``c`` needs; a four with free suits gets its four suits with
    count 0 (4 cards in all; under panache, V2, one of each). Returns (number of types,
    whether the suits are free)."""
    if not is_four(c):
        return combo_requirements(c, req_t, req_n), False
    if four_cards[0] < 0 and panache_requirements(rules, c, req_t, req_n):
        return 4, False
    if four_cards[0] >= 0:
        nreq = 0
        for i in range(4):
            j = req_index(req_t, nreq, four_cards[i])
            if j >= 0:
                req_n[j] += 1
            else:
                req_t[nreq] = four_cards[i]
                req_n[nreq] = 1
                nreq += 1
        return nreq, False
    rank = four_rank(c)
    for suit in range(4):
        req_t[suit] = card_of(suit, rank)
        req_n[suit] = 0
    return 4, True


@njit(cache=True, _nrt=False)
def select_copies(rules, st, s, c, four_cards):
    """Choose the copies seat ``s`` declares ``c`` with (already legal; see the module docstring
    for the order).

    ``four_cards`` names the four cards of a four (replays); -1 leaves the suits free. Fills the
    state's scratch: ``req_t/req_n`` (W_REQ_T, W_REQ_N) with the card types and counts used, and
    the select's work (W_SELECT, layout SEL_*) with the chosen table slots (SEL_CHOSEN) and the
    copies of each type taken from the hand (SEL_FROM_HAND). Returns (number of types, number of
    table slots chosen, cards from the hand)."""
    P, T = st.P, st.T
    req_t = st.work[L.W_REQ_T:L.W_REQ_T + L.REQ_W]
    req_n = st.work[L.W_REQ_N:L.W_REQ_N + L.REQ_W]
    work = st.work[L.W_SELECT:L.W_SELECT + L.SEL_W]
    cls = combo_class(c)
    lvl = combo_level(c)
    nreq, free = _requirements(rules, P, s, c, four_cards, req_t, req_n)
    chosen = work[L.SEL_CHOSEN:L.SEL_CHOSEN + L.REQ_W]
    from_hand = work[L.SEL_FROM_HAND:L.SEL_FROM_HAND + L.REQ_W]
    if rules[R_REDECLARE] == REDECLARE_PORTLAND:
        n_chosen, total_hand = portland_select(P, T, s, requirement(c, cls, lvl, req_t, req_n, nreq, free), work)
        if free:
            nreq = _suits_used(T, s, req_t, req_n, chosen, n_chosen, from_hand)
        return nreq, n_chosen, total_hand
    left = work[L.SEL_LEFT:L.SEL_LEFT + L.REQ_W]        # copies still wanted, per type (free four: left[0] in all)
    keys = work[L.SEL_KEYS:L.SEL_KEYS + L.MAX_TABLE]    # per table slot: spend_key, -1 never scored, -2 of no use
    kind = work[L.SEL_KIND:L.SEL_KIND + L.MAX_TABLE]    # per table slot: the index of its type in req_t
    for i in range(nreq):
        left[i] = req_n[i]
        from_hand[i] = 0          # first: eligible scored copies per type (free four: in all)
    if free:
        left[0] = 4
    rank = card_rank(req_t[0])
    ntable = P[s, L.P_NTABLE]
    for k in range(ntable):
        keys[k] = -2
        card = T[s, k, L.T_CARD]
        if free:
            i = card_suit(card) if card_rank(card) == rank else -1
        else:
            i = req_index(req_t, nreq, card)
        kind[k] = i
        if i >= 0 and slot_eligible(rules, T, s, k, cls, lvl):
            if T[s, k, L.T_SCORED]:
                keys[k] = 0
                from_hand[0 if free else i] += 1
            else:
                keys[k] = -1
    choice = False                # more scored copies of a type than wanted: order them
    for i in range(1 if free else nreq):
        choice |= from_hand[i] > left[i]
    n_chosen = 0
    if choice:                    # copies already scored, the one that loses least first
        for k in range(ntable):
            if keys[k] == 0:
                keys[k] = spend_key(rules, T, s, k, cls)
        while True:
            best = -1
            best_key = -1
            for k in range(ntable):
                if keys[k] > best_key and left[0 if free else kind[k]] > 0:
                    best = k
                    best_key = keys[k]
            if best < 0:
                break
            chosen[n_chosen] = best
            n_chosen += 1
            keys[best] = -2
            left[0 if free else kind[best]] -= 1
    else:                         # every scored copy is taken
        for k in range(ntable):
            if keys[k] == 0:
                chosen[n_chosen] = k
                n_chosen += 1
                keys[k] = -2
                left[0 if free else kind[k]] -= 1
    # then never-scored table copies (all alike), then the hand
    any_new = False
    for k in range(ntable):
        if keys[k] == -1:
            i = 0 if free else kind[k]
            if left[i] > 0:
                chosen[n_chosen] = k
                n_chosen += 1
                keys[k] = -2
                left[i] -= 1
                any_new = True
    total_hand = 0
    for i in range(nreq):
        from_hand[i] = 0
    for i in range(nreq):
        want = left[0] if free else left[i]
        take = min(want, P[s, L.P_HAND + req_t[i]])
        from_hand[i] = take
        total_hand += take
        if free:
            left[0] -= take
    if total_hand == 0 and not any_new:
        # R2.12/R3.6: one card must be new: give back the chosen copy most worth keeping
        # (lowest key) of a type that has a new copy, a never-scored table copy before the hand
        for pass_ in range(2):
            drop = -1
            drop_key = 1 << 30
            add = -1
            for i in range(nreq):
                extra = -1
                if pass_ == 0:
                    for k in range(ntable):
                        if keys[k] == -1 and T[s, k, L.T_CARD] == req_t[i]:
                            extra = k
                            break
                    if extra < 0:
                        continue
                elif P[s, L.P_HAND + req_t[i]] == 0:
                    continue
                for j in range(n_chosen):
                    k = chosen[j]
                    if free or T[s, k, L.T_CARD] == req_t[i]:
                        key = spend_key(rules, T, s, k, cls)
                        if key < drop_key:
                            drop = j
                            drop_key = key
                            add = extra if pass_ == 0 else i
            if drop >= 0:
                if pass_ == 0:
                    chosen[drop] = add
                else:
                    chosen[drop] = chosen[n_chosen - 1]
                    n_chosen -= 1
                    from_hand[add] += 1
                    total_hand += 1
                break
    if free:
        nreq = _suits_used(T, s, req_t, req_n, chosen, n_chosen, from_hand)
    return nreq, n_chosen, total_hand


@njit(cache=True, _nrt=False, inline="always")
def _suits_used(T, s, req_t, req_n, chosen, n_chosen, from_hand):
    """A four with free suits, its copies chosen: ``req_t/req_n/from_hand`` become the suits used
    with their counts (table and hand); returns how many suits."""
    for i in range(4):
        req_n[i] = from_hand[i]
    for j in range(n_chosen):
        req_n[card_suit(T[s, chosen[j], L.T_CARD])] += 1
    k = 0
    for i in range(4):
        if req_n[i] > 0:
            req_t[k] = req_t[i]
            req_n[k] = req_n[i]
            from_hand[k] = from_hand[i]
            k += 1
    return k
