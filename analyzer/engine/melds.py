"""Declarations and claims: which are legal now (R2.12-R2.17, R3.2, R3.6, R3.7), why one is
not, and scoring one. Which copies a declaration uses is :mod:`copies`' business."""
import numpy as np
from numba import njit

from ..rules import R_AMERICAN, R_PANACHE, R_REDECLARE
from .codes import R2_11, R2_12, R2_14, R2_15, R2_17, R3_6, TABLE_A, TABLE_B, V2
from .codes import (
    ACE,
    BEZIQUES,
    CLUBS,
    DIAMONDS,
    HEARTS,
    KING,
    KNAVE,
    MARRIAGE,
    QUEEN,
    SPADES,
    TEN,
    bezique_of,
    card_of,
    card_suit,
    combo_suit,
    four_of,
    is_four,
    is_marriage,
    is_suited,
    pack_count,
    packed_count,
    sequence_of,
)
from .combos import (
    CLS_B,
    CLS_F,
    COMBO_MASK,
    JD,
    QS,
    SEQUENCES,
    combo_allowed,
    combo_class,
    combo_level,
    combo_points,
    combo_requirements,
    four_rank,
    panache_requirements,
)
from .copies import (
    REDECLARE_HIGHER,
    REDECLARE_PORTLAND,
    REDECLARE_REPLACE,
    four_table_counts,
    new_instance,
    req_index,
    req_table_counts,
    select_copies,
    table_slot_to_play,
    use_slot,
)
from . import layout as L
from . import portland
from .portland import requirement
from .bits import trailing_zeros
from .state import add_hand, card_mask, record_event, table_add, table_remove
from .tracking import on_bezique_scored

# A seat's feasible set can only grow when it receives a card, when trumps are fixed, or
# (R3.6 replace, portland) when a card of a whole declared instance is played: declaring and claiming
# never make a new combination feasible. So the set found at the last window, plus the
# combinations of every card received or played from the table since, is a superset of what
# is feasible now, and only those need checking.


@njit(cache=True, _nrt=False)
def _held(P, s, card):
    return P[s, L.P_HAND + card] + P[s, L.P_TABLE + card]


@njit(cache=True, _nrt=False, inline="always")
def combo_screen_mask(P, s, cand):
    """The bits c of ``cand`` whose cards seat ``s`` holds, on the table or in hand, in the
    numbers ``c`` needs: a cheap necessary condition for declaring ``c``.

    Marriages and sequences come from the held-card bitmask; béziques and fours, which
    need counts, are only counted when ``cand`` asks for them."""
    held = card_mask(P, s, L.P_HAND_MASK) | card_mask(P, s, L.P_TABLE_MASK)
    married = (held >> KING) & (held >> QUEEN)          # bit of the suit's ace: K and Q held
    sequence = married & (held >> ACE) & (held >> TEN) & (held >> KNAVE)
    m = 0
    for suit in range(4):
        m |= ((married >> card_of(suit, ACE)) & 1) << (MARRIAGE + suit)
        m |= ((sequence >> card_of(suit, ACE)) & 1) << sequence_of(suit)
    if cand & BEZIQUES:
        q = min(_held(P, s, QS), _held(P, s, JD))
        for lvl in range(1, 5):
            if q >= lvl:
                m |= 1 << bezique_of(lvl)
    for i in range(4):
        c = four_of(i)
        if (cand >> c) & 1:
            rank = four_rank(c)
            if (_held(P, s, card_of(SPADES, rank)) + _held(P, s, card_of(HEARTS, rank))
                    + _held(P, s, card_of(DIAMONDS, rank)) + _held(P, s, card_of(CLUBS, rank))) >= 4:
                m |= 1 << c
    return m & cand


@njit(cache=True, _nrt=False)          # not inlined: off the per-card path; inlined it cost 20 s of compile
def types_check(rules, P, T, s, c, req_t, req_n, nreq):
    """(whether seat ``s`` may declare ``c`` made of ``req_n[i]`` copies of each type
    ``req_t[i]`` (all different), whether :func:`copies.select_copies` then takes a card from
    the hand).

    It needs enough eligible copies, table or hand, and one of them new (R2.12, R3.6-R3.7).
    select_copies needs the hand when the table is short of a card, or when no eligible
    table copy is new. Under ``redeclare=portland`` the Laws' reading (:func:`portland.check`)."""
    for i in range(nreq):       # cheap reject on counts first
        if P[s, L.P_HAND + req_t[i]] + P[s, L.P_TABLE + req_t[i]] < req_n[i]:
            return False, False
    cls = combo_class(c)
    lvl = combo_level(c)
    if rules[R_REDECLARE] == REDECLARE_PORTLAND:
        legal, from_hand, _why = portland.check(P, T, s, requirement(c, cls, lvl, req_t, req_n, nreq, False))
        return legal, from_hand
    elig, fresh = req_table_counts(rules, T, P, s, req_t, nreq, cls, lvl)
    any_fresh = False
    table_short = False
    table_fresh = False
    for i in range(nreq):
        card = req_t[i]
        e = packed_count(elig, i)
        f = packed_count(fresh, i)
        if e + P[s, L.P_HAND + card] < req_n[i]:
            return False, False
        if f + P[s, L.P_HAND + card] > 0:
            any_fresh = True
        table_short |= e < req_n[i]
        table_fresh |= f > 0
    return any_fresh, table_short or not table_fresh


@njit(cache=True, _nrt=False, inline="always")
def four_suits(c, req_t):
    """A four with free suits: ``req_t`` gets its rank in the four suits; returns 4."""
    rank = four_rank(c)
    for suit in range(4):
        req_t[suit] = card_of(suit, rank)
    return 4


@njit(cache=True, _nrt=False)          # not inlined: off the per-card path; inlined it cost 20 s of compile
def combo_check(rules, G, P, T, s, c, req_t, req_n):
    """(whether seat ``s`` may declare ``c`` now, whether :func:`copies.select_copies` then
    takes a card from the hand); a four's suits are free. See :func:`types_check`.
    The declaration window screens with :func:`combo_screen_mask` first."""
    if not combo_allowed(rules, G[L.G_TRUMP], c):
        return False, False
    nreq = panache_requirements(rules, c, req_t, req_n)     # V2: one four per suit
    if nreq:
        return types_check(rules, P, T, s, c, req_t, req_n, nreq)
    if is_four(c) and rules[R_REDECLARE] == REDECLARE_PORTLAND:
        req = requirement(c, CLS_F, 1, req_t, req_n, four_suits(c, req_t), True)
        legal, from_hand, _why = portland.check(P, T, s, req)
        return legal, from_hand
    if is_four(c):
        rank = four_rank(c)
        elig, fresh = four_table_counts(rules, T, P, s, rank)
        total = 0
        new = 0
        on_table = 0
        for suit in range(4):
            in_hand = P[s, L.P_HAND + card_of(suit, rank)]
            e = packed_count(elig, suit)
            total += e + in_hand
            new += packed_count(fresh, suit) + in_hand
            on_table += e
        return total >= 4 and new >= 1, fresh == 0 or on_table < 4
    nreq = combo_requirements(c, req_t, req_n)
    return types_check(rules, P, T, s, c, req_t, req_n, nreq)


@njit(cache=True, _nrt=False)          # not inlined: off the per-card path; inlined it cost 20 s of compile
def combo_feasible(rules, G, P, T, s, c, req_t, req_n):
    """Whether seat ``s`` may declare ``c`` now (see :func:`combo_check`)."""
    return (combo_screen_mask(P, s, np.int64(1) << c) != 0
            and combo_check(rules, G, P, T, s, c, req_t, req_n)[0])


@njit(cache=True, _nrt=False)
def named_four(four_cards, req_t, req_n):
    """The types and counts of the four cards a replay names; returns the number of types."""
    nreq = 0
    for i in range(4):
        found = False
        for j in range(nreq):
            if req_t[j] == four_cards[i]:
                req_n[j] += 1
                found = True
        if not found:
            req_t[nreq] = four_cards[i]
            req_n[nreq] = 1
            nreq += 1
    return nreq


@njit(cache=True, _nrt=False, inline="always")
def _four_total(packed):
    """The sum of the four fields of a packed count (a four's suits pooled)."""
    return packed_count(packed, 0) + packed_count(packed, 1) + packed_count(packed, 2) + packed_count(packed, 3)


@njit(cache=True, _nrt=False)
def _low_counts(rules, P, T, s, req_t, nreq, cls, lvl):
    """For every required type ``req_t[:nreq]`` (all different): the table copies of a low enough
    level for a class-``cls`` combination of level ``lvl`` (R2.14, R3.6's first condition, R2.17),
    eligible or not under R3.6's second condition, packed as 8 bits per requirement (a refusal's
    reason: the inferior combination)."""
    low = 0
    for k in range(P[s, L.P_NTABLE]):
        i = req_index(req_t, nreq, T[s, k, L.T_CARD])
        if i < 0:
            continue
        have = T[s, k, L.T_M + cls]
        ok = have < lvl if rules[R_REDECLARE] == REDECLARE_HIGHER else have <= lvl
        if ok and not (rules[R_AMERICAN] and cls != CLS_B and T[s, k, L.T_B] > 0):
            low += pack_count(np.int64(1), i)
    return low


@njit(cache=True, _nrt=False)
def declare_failure(rules, st, s, c, four_cards):
    """Why seat ``s`` cannot declare ``c`` (with the four's cards named in ``four_cards``, or -1):
    (rule id, detail code), from the counts :func:`combo_check` and :func:`types_check` decide on
    (:func:`copies.req_table_counts`, :func:`copies.four_table_counts`, :func:`portland.check`).
    Works in the state's scratch (W_REQ_T, W_REQ_N)."""
    G, P, T = st.G, st.P, st.T
    req_t = st.work[L.W_REQ_T:L.W_REQ_T + L.REQ_W]
    req_n = st.work[L.W_REQ_N:L.W_REQ_N + L.REQ_W]
    rubicon = rules[R_REDECLARE] != REDECLARE_HIGHER
    if not combo_allowed(rules, G[L.G_TRUMP], c):
        return (TABLE_B if rubicon else TABLE_A), L.X_NOT_A_COMBINATION
    cls = combo_class(c)
    lvl = combo_level(c)
    free = is_four(c) and four_cards[0] < 0 and not rules[R_PANACHE]
    if free:                    # the four suits pooled: four cards of the rank in all
        nreq = four_suits(c, req_t)
    elif is_four(c) and four_cards[0] < 0:
        nreq = panache_requirements(rules, c, req_t, req_n)
    elif is_four(c):
        nreq = named_four(four_cards, req_t, req_n)
        if rules[R_PANACHE] and nreq < 4:
            return V2, L.X_PANACHE
    else:
        nreq = combo_requirements(c, req_t, req_n)
    if free:
        elig, fresh = four_table_counts(rules, T, P, s, four_rank(c))
    else:
        elig, fresh = req_table_counts(rules, T, P, s, req_t, nreq, cls, lvl)
    low = _low_counts(rules, P, T, s, req_t, nreq, cls, lvl)
    short_held = False
    inferior = False
    whole = False
    new = 0
    hand_cards = 0
    held = 0
    for i in range(nreq):
        hand = P[s, L.P_HAND + req_t[i]]
        held += hand + P[s, L.P_TABLE + req_t[i]]
        new += hand + packed_count(fresh, i)
        hand_cards += hand
        if not free:
            short_held |= hand + P[s, L.P_TABLE + req_t[i]] < req_n[i]
            inferior |= hand + packed_count(low, i) < req_n[i]
            whole |= hand + packed_count(elig, i) < req_n[i]
    if free:                    # four of the rank in all
        short_held = held < 4
        inferior = hand_cards + _four_total(low) < 4
        whole = hand_cards + _four_total(elig) < 4
    if short_held and is_four(c) and rules[R_PANACHE]:
        return V2, L.X_PANACHE
    if short_held:
        return R2_11, (L.X_NOT_WHOLE_FOUR if is_four(c) else L.X_NOT_HELD)
    if rules[R_REDECLARE] == REDECLARE_PORTLAND:
        return R3_6, portland.check(P, T, s, requirement(c, cls, lvl, req_t, req_n, nreq, free))[2]
    if not rubicon:             # the ordinary game: R2.12, then R2.17, R2.14, R2.15
        if hand_cards == 0:
            return R2_12, L.X_NO_NEW_CARD
        if rules[R_AMERICAN] and cls != CLS_B:
            for k in range(P[s, L.P_NTABLE]):
                if T[s, k, L.T_B] > 0 and req_index(req_t, nreq, T[s, k, L.T_CARD]) >= 0:
                    return R2_17, L.X_AMERICAN
        return (R2_15, L.X_REUSE_FOUR) if is_four(c) else (R2_14, L.X_REUSE_CLASS)
    if inferior:
        return R3_6, L.X_INFERIOR
    if whole:
        return R3_6, (L.X_NEW_AND_WHOLE if new == 0 else L.X_STILL_WHOLE)
    return R3_6, L.X_NO_NEW_CARD


@njit(cache=True, _nrt=False, inline="always")
def hand_combos(P, s):
    """The combinations a card in seat ``s``'s hand belongs to (a claim lays hand cards)."""
    out = 0
    rest = card_mask(P, s, L.P_HAND_MASK)
    while rest:
        out |= COMBO_MASK[trailing_zeros(rest)]
        rest &= rest - 1
    return out


@njit(cache=True, _nrt=False)
def claim_possible(rules, G, P, T, s, c, req_t, req_n):
    """R3.7: ``c`` could be laid down now as a claim (legal, and it needs hand cards)."""
    feasible, from_hand = combo_check(rules, G, P, T, s, c, req_t, req_n)
    return feasible and from_hand


@njit(cache=True, _nrt=False)
def _lay(st, s, card):
    add_hand(st.P, st.obs, s, card, -1)
    table_add(st.P, st.T, st.obs, st.G[L.G_NSEATS], s, card)
    record_event(st.ev, st.G, L.E_LAID, s, card, 0, 0, 0)


@njit(cache=True, _nrt=False)
def claim(rules, st, s, c):
    """R3.7 "and - to score": seat ``s`` lays on the table, never scored, the hand cards that
    ``c`` needs beside the table cards it can use."""
    four = st.work[L.W_FOUR:L.W_FOUR + L.FOUR_W]
    four[:] = -1
    nreq, n_chosen, total_hand = select_copies(rules, st, s, c, four)
    req_t = st.work[L.W_REQ_T:L.W_REQ_T + L.REQ_W]
    work = st.work[L.W_SELECT:L.W_SELECT + L.SEL_W]
    from_hand = work[L.SEL_FROM_HAND:L.SEL_FROM_HAND + L.REQ_W]
    st.P[s, L.P_CLAIMS] += 1
    record_event(st.ev, st.G, L.E_CLAIM, s, c, total_hand, 0, 0)
    for i in range(nreq):
        for _ in range(from_hand[i]):
            _lay(st, s, req_t[i])


@njit(cache=True, _nrt=False)
def _count(cards, card):
    n = 0
    for j in range(cards.shape[0]):
        if cards[j] < 0:
            break
        n += cards[j] == card
    return n


@njit(cache=True, _nrt=False)
def claim_cards_failure(rules, G, P, T, s, cards, req_t, req_n):
    """R3.7 for a claim naming its cards (``cards``, -1 ends the list): (-1, -1) when every card
    is in the hand and belongs to a combination that the cards on the table, these laid beside
    them, would form and that seat ``s`` could score now under R3.6; else (the detail code,
    the first card at fault)."""
    for j in range(cards.shape[0]):
        t = cards[j]
        if t < 0:
            break
        if _count(cards, t) > P[s, L.P_HAND + t]:
            return L.X_NOT_HELD, t
    for j in range(cards.shape[0]):
        t = cards[j]
        if t < 0:
            break
        found = False
        combos = COMBO_MASK[t]
        for c in range(L.N_COMBOS):
            if found or (combos >> c) & 1 == 0 or not combo_allowed(rules, G[L.G_TRUMP], c):
                continue
            cls = combo_class(c)
            lvl = combo_level(c)
            if rules[R_REDECLARE] == REDECLARE_PORTLAND:
                pooled = is_four(c) and not rules[R_PANACHE]
                if pooled:
                    nreq = four_suits(c, req_t)
                elif is_four(c):
                    nreq = panache_requirements(rules, c, req_t, req_n)
                else:
                    nreq = combo_requirements(c, req_t, req_n)
                found = portland.claim_forms(P, T, s, requirement(c, cls, lvl, req_t, req_n, nreq, pooled), cards)
            elif is_four(c):
                rank = four_rank(c)
                elig = four_table_counts(rules, T, P, s, rank)[0]
                have = 0
                suits = 0
                for suit in range(4):
                    k = _count(cards, card_of(suit, rank)) + packed_count(elig, suit)
                    have += k
                    suits += k > 0
                found = suits == 4 if rules[R_PANACHE] else have >= 4
            else:
                nreq = combo_requirements(c, req_t, req_n)
                elig = req_table_counts(rules, T, P, s, req_t, nreq, cls, lvl)[0]
                found = True
                for i in range(nreq):
                    found &= _count(cards, req_t[i]) + packed_count(elig, i) >= req_n[i]
        if not found:
            return L.X_CLAIM_CARD, t
    return -1, -1


@njit(cache=True, _nrt=False)
def claim_cards(rules, st, s, cards):
    """R3.7: seat ``s`` lays the cards named (checked by :func:`claim_cards_failure`) on the
    table."""
    count = 0
    for j in range(cards.shape[0]):
        if cards[j] >= 0:
            count += 1
    st.P[s, L.P_CLAIMS] += 1
    record_event(st.ev, st.G, L.E_CLAIM, s, -1, count, 0, 0)
    for j in range(count):
        _lay(st, s, cards[j])


@njit(cache=True, _nrt=False)
def declare(rules, st, s, c, four_cards):
    """Seat ``s`` declares ``c`` (already checked legal) and scores it.

    ``four_cards`` names the four cards of a four (replays); -1 lets the
    engine choose. Returns the points scored.
    """
    G, P, T, obs, ev = st.G, st.P, st.T, st.obs, st.ev
    n = G[L.G_NSEATS]
    cls = combo_class(c)
    lvl = combo_level(c)
    nreq, n_chosen, total_hand = select_copies(rules, st, s, c, four_cards)
    req_t = st.work[L.W_REQ_T:L.W_REQ_T + L.REQ_W]
    req_n = st.work[L.W_REQ_N:L.W_REQ_N + L.REQ_W]
    work = st.work[L.W_SELECT:L.W_SELECT + L.SEL_W]
    chosen = work[L.SEL_CHOSEN:L.SEL_CHOSEN + L.REQ_W]
    from_hand = work[L.SEL_FROM_HAND:L.SEL_FROM_HAND + L.REQ_W]
    mode = rules[R_REDECLARE]
    inst = new_instance(P, s) if mode == REDECLARE_REPLACE or mode == REDECLARE_PORTLAND else -1
    if mode == REDECLARE_PORTLAND:
        if inst >= 0:
            P[s, L.P_INST_COMBO + inst] = c
        if portland.spends_restoration(T, s, chosen, n_chosen, cls, lvl):
            P[s, L.P_RESTORE + c] -= 1          # R3.6 (c): the same combination over again
    for j in range(n_chosen):
        use_slot(T, s, chosen[j], cls, lvl, inst)
    for i in range(nreq):
        for _ in range(from_hand[i]):
            add_hand(P, obs, s, req_t[i], -1)
            k = table_add(P, T, obs, n, s, req_t[i])
            use_slot(T, s, k, cls, lvl, inst)
    trump = G[L.G_TRUMP]
    pts = combo_points(rules, trump, c)
    P[s, L.P_SCORE] += pts
    P[s, L.P_DECL] += pts
    P[s, L.P_NDECL + c] += 1
    P[s, L.P_TABLE_DECL] += total_hand == 0
    if cls == CLS_B:
        on_bezique_scored(G, P, s, lvl)
    suits = 0                    # a four's copies per suit, 4 bits each (the event's record)
    if is_four(c):
        for i in range(nreq):
            suits += req_n[i] << (4 * card_suit(req_t[i]))
    record_event(ev, G, L.E_DECLARE, s, c, pts, suits, total_hand)
    if trump < 0 and is_suited(c):   # R3.2: the first marriage (or a sequence) fixes trumps
        for v in range(G[L.G_NSEATS]):
            P[v, L.P_MELD_CAND] |= SEQUENCES
        G[L.G_TRUMP] = combo_suit(c)
        G[L.G_TRUMP_TRICK] = G[L.G_TRICK]
        G[L.G_TRUMP_HOW] = L.TRUMP_BY_MARRIAGE if is_marriage(c) else L.TRUMP_BY_SEQUENCE
        record_event(ev, G, L.E_TRUMP, s, combo_suit(c), G[L.G_TRUMP_HOW], G[L.G_TRICK], 0)
    return pts


@njit(cache=True, _nrt=False, inline="always")
def play_from_table(rules, P, T, obs, n, s, card):
    """Seat ``s`` plays a ``card`` from its table (R2.7): the copy given up
    (:func:`copies.table_slot_to_play`) leaves the table, breaking the whole instances it was in;
    under ``redeclare=portland`` each gives a restoration (R3.6 (c), Law 34). Returns the slot."""
    k = table_slot_to_play(rules, T, P, s, card)
    mode = rules[R_REDECLARE]
    if mode == REDECLARE_PORTLAND:
        portland.gain_restorations(P, T, s, k)
    table_remove(P, T, obs, n, s, k)
    if mode == REDECLARE_REPLACE or mode == REDECLARE_PORTLAND:
        P[s, L.P_MELD_CAND] |= COMBO_MASK[card]     # R3.6: it may free an instance
    return k
