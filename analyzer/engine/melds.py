"""Declarations: which combinations are legal now, and scoring one.

Classes (R2.11): M = marriage(1) < sequence(2); B = bézique(1) < double(2) <
treble(3) < quadruple(4); F = a four (1), one class per rank. Each table slot
remembers the level its card reached in each class, which is all the re-use
rules (R2.12-R2.17, R3.6-R3.7) need.
"""
import numpy as np
from numba import njit

from ..rules import (
    R_AMERICAN,
    R_PACKS,
    R_PLAIN_SEQ,
    R_POINTS,
    R_REDECLARE_SAME,
    R_ROYAL_POINTS,
    R_TRUMP_MODE,
    R_TRUMP_SEQ_POINTS,
    TRUMP_RUBICON,
)
from .layout import (
    E_CLAIM,
    E_DECLARE,
    E_TRUMP,
    G_NEV,
    G_NSEATS,
    G_TRICK,
    G_TRUMP,
    G_TRUMP_HOW,
    G_TRUMP_TRICK,
    MAX_EVENTS,
    P_BEZ_MAX,
    P_CLAIMS,
    P_DECL,
    P_FIRST_B,
    P_HAND,
    P_HAND_MASK,
    P_MELD_CAND,
    P_NDECL,
    P_NTABLE,
    P_SCORE,
    P_TABLE,
    P_TABLE_MASK,
    T_B,
    T_CARD,
    T_F,
    T_M,
    T_SCORED,
    X_AMERICAN,
    X_NO_NEW_CARD,
    X_NOT_A_COMBINATION,
    X_NOT_HELD,
    X_NOT_WHOLE_FOUR,
    X_REUSE_CLASS,
    X_REUSE_FOUR,
)
from .state import add_hand, card_mask, table_add

CLS_M, CLS_B, CLS_F = 0, 1, 2
ALL_COMBOS = (1 << 16) - 1
SEQUENCES = 0xF0
QS, JD = 3, 20          # queen of spades, knave of diamonds
FOUR_RANKS = (0, 2, 3, 4)  # aces, kings, queens, knaves


def _combo_masks():
    """COMBO_MASK[t]: the combinations card type ``t`` belongs to."""
    masks = np.zeros(32, np.int64)
    for t in range(32):
        suit, rank = divmod(t, 8)
        if rank in (2, 3):
            masks[t] |= 1 << suit
        if rank <= 4:
            masks[t] |= 1 << (4 + suit)
        if t in (QS, JD):
            masks[t] |= 0xF00
        if rank in FOUR_RANKS:
            masks[t] |= 1 << (12 + FOUR_RANKS.index(rank))
    return masks


# A seat's feasible set can only grow when it receives a card (or trumps are fixed):
# declaring, claiming and playing never make a new combination feasible. So the set
# found at the last window, plus the combinations of every card received since, is a
# superset of what is feasible now, and only those need checking.
COMBO_MASK = _combo_masks()


@njit(cache=True, _nrt=False)
def combo_class(c):
    """Class of combination ``c``: CLS_M, CLS_B or CLS_F."""
    if c < 8:
        return CLS_M
    if c < 12:
        return CLS_B
    return CLS_F


@njit(cache=True, _nrt=False)
def combo_level(c):
    """Step of ``c`` within its class (marriage 1, sequence 2, bézique n = n)."""
    if c < 4:
        return 1
    if c < 8:
        return 2
    if c < 12:
        return c - 7
    return 1


@njit(cache=True, _nrt=False)
def combo_requirements(c, req_t, req_n):
    """Fill the card types and counts a fixed combination needs; return how many types.

    Fours (c >= 12) have free suits and return 0: see :func:`combo_check`.
    """
    if c < 4:
        req_t[0] = c * 8 + 2
        req_t[1] = c * 8 + 3
        req_n[0] = 1
        req_n[1] = 1
        return 2
    if c < 8:
        for i in range(5):
            req_t[i] = (c - 4) * 8 + i
            req_n[i] = 1
        return 5
    if c < 12:
        req_t[0] = QS
        req_t[1] = JD
        req_n[0] = c - 7
        req_n[1] = c - 7
        return 2
    return 0


@njit(cache=True, _nrt=False)
def combo_points(rules, trump, c):
    """Points ``c`` scores now (a marriage or sequence fixing trumps counts as trump)."""
    if c < 4 and (trump == c or trump < 0):
        return rules[R_ROYAL_POINTS]
    if 4 <= c < 8 and (trump == c - 4 or trump < 0):
        return rules[R_TRUMP_SEQ_POINTS]
    return rules[R_POINTS + c]


@njit(cache=True, _nrt=False)
def combo_allowed(rules, trump, c):
    """Whether ``c`` exists in this rule set right now (Table A / Table B)."""
    if 4 <= c < 8:
        suit = c - 4
        if trump == suit:
            return True
        if trump < 0:
            return rules[R_TRUMP_MODE] == TRUMP_RUBICON   # R3.2; V1 forbids it
        return rules[R_PLAIN_SEQ] > 0
    if 8 <= c < 12:
        return c - 7 <= rules[R_PACKS]
    return True


@njit(cache=True, _nrt=False)
def _slot_level(T, s, k, cls):
    if cls == CLS_M:
        return T[s, k, T_M]
    if cls == CLS_B:
        return T[s, k, T_B]
    return T[s, k, T_F]


@njit(cache=True, _nrt=False)
def slot_eligible(rules, T, s, k, cls, lvl):
    """Whether table slot ``k`` may join a class-``cls`` combination of level ``lvl``."""
    have = _slot_level(T, s, k, cls)
    if rules[R_REDECLARE_SAME]:
        if have > lvl:              # R3.6: never an inferior one
            return False
    elif have >= lvl:               # R2.14/R2.15: only a higher one
        return False
    if rules[R_AMERICAN] and cls != CLS_B and T[s, k, T_B] > 0:
        return False                # R2.17
    return True


@njit(cache=True, _nrt=False)
def _table_counts(rules, T, P, s, card, cls, lvl):
    """(eligible copies of ``card`` on the table, eligible ones never yet scored)."""
    elig = 0
    fresh = 0
    for k in range(P[s, P_NTABLE]):
        if T[s, k, T_CARD] == card and slot_eligible(rules, T, s, k, cls, lvl):
            elig += 1
            if T[s, k, T_SCORED] == 0:
                fresh += 1
    return elig, fresh


@njit(cache=True, _nrt=False)
def _req_table_counts(rules, T, P, s, req_t, nreq, cls, lvl):
    """:func:`_table_counts` for every required type ``req_t[:nreq]`` (all different) in one
    pass over the table: (eligible, never scored), each packed as 8 bits per requirement."""
    elig = 0
    fresh = 0
    for k in range(P[s, P_NTABLE]):
        card = T[s, k, T_CARD]
        for i in range(nreq):
            if req_t[i] == card:
                if slot_eligible(rules, T, s, k, cls, lvl):
                    one = np.int64(1) << (8 * i)
                    elig += one
                    if T[s, k, T_SCORED] == 0:
                        fresh += one
                break
    return elig, fresh


@njit(cache=True, _nrt=False, inline="always")
def _four_table_counts(rules, T, P, s, rank):
    """:func:`_table_counts` for the four suits of ``rank`` in one pass over the table:
    (eligible, never scored), each packed as 8 bits per suit (suit 0 lowest)."""
    elig = 0
    fresh = 0
    for k in range(P[s, P_NTABLE]):
        card = T[s, k, T_CARD]
        if card & 7 == rank and slot_eligible(rules, T, s, k, CLS_F, 1):
            one = np.int64(1) << (8 * (card >> 3))
            elig += one
            if T[s, k, T_SCORED] == 0:
                fresh += one
    return elig, fresh


@njit(cache=True, _nrt=False)
def _held(P, s, card):
    return P[s, P_HAND + card] + P[s, P_TABLE + card]


@njit(cache=True, _nrt=False, inline="always")
def combo_screen_mask(P, s, cand):
    """The bits c of ``cand`` whose cards seat ``s`` holds, on the table or in hand, in the
    numbers ``c`` needs: a cheap necessary condition for declaring ``c``.

    Marriages and sequences come from the held-card bitmask; béziques and fours, which
    need counts, are only counted when ``cand`` asks for them."""
    held = card_mask(P, s, P_HAND_MASK) | card_mask(P, s, P_TABLE_MASK)
    married = (held >> 2) & (held >> 3)                 # bit 8 * suit: K and Q held
    sequence = married & held & (held >> 1) & (held >> 4)
    m = 0
    for suit in range(4):
        m |= ((married >> (8 * suit)) & 1) << suit
        m |= ((sequence >> (8 * suit)) & 1) << (4 + suit)
    if cand & 0xF00:
        q = min(_held(P, s, QS), _held(P, s, JD))
        for lvl in range(1, 5):
            if q >= lvl:
                m |= 1 << (7 + lvl)
    for i in range(4):
        if (cand >> (12 + i)) & 1:
            rank = 0 if i == 0 else i + 1          # FOUR_RANKS[i]
            if (_held(P, s, rank) + _held(P, s, 8 + rank) + _held(P, s, 16 + rank)
                    + _held(P, s, 24 + rank)) >= 4:
                m |= 1 << (12 + i)
    return m & cand


@njit(cache=True, _nrt=False, inline="always")
def combo_check(rules, G, P, T, s, c, req_t, req_n):
    """(whether seat ``s`` may declare ``c`` now (R2.12-R2.17, R3.2, R3.6-R3.7), whether
    :func:`_select` then takes a card from the hand).

    _select uses eligible table copies first, never-scored ones before scored ones, so it
    needs the hand when the table is short of a card, or when no table copy is new (R2.12).
    The declaration window screens with :func:`combo_screen_mask` first."""
    if not combo_allowed(rules, G[G_TRUMP], c):
        return False, False
    if c >= 12:
        rank = FOUR_RANKS[c - 12]
        elig, fresh = _four_table_counts(rules, T, P, s, rank)
        total = 0
        new = 0
        on_table = 0
        for suit in range(4):
            in_hand = P[s, P_HAND + suit * 8 + rank]
            e = (elig >> (8 * suit)) & 0xFF
            total += e + in_hand
            new += ((fresh >> (8 * suit)) & 0xFF) + in_hand
            on_table += e
        return total >= 4 and new >= 1, fresh == 0 or on_table < 4
    nreq = combo_requirements(c, req_t, req_n)
    for i in range(nreq):       # cheap reject on counts first
        if P[s, P_HAND + req_t[i]] + P[s, P_TABLE + req_t[i]] < req_n[i]:
            return False, False
    elig, fresh = _req_table_counts(rules, T, P, s, req_t, nreq, combo_class(c), combo_level(c))
    any_fresh = False
    table_short = False
    table_fresh = False
    for i in range(nreq):
        card = req_t[i]
        e = (elig >> (8 * i)) & 0xFF
        f = (fresh >> (8 * i)) & 0xFF
        if e + P[s, P_HAND + card] < req_n[i]:
            return False, False
        if f + P[s, P_HAND + card] > 0:
            any_fresh = True
        table_short |= e < req_n[i]
        table_fresh |= f > 0
    return any_fresh, table_short or not table_fresh


@njit(cache=True, _nrt=False, inline="always")
def combo_feasible(rules, G, P, T, s, c, req_t, req_n):
    """Whether seat ``s`` may declare ``c`` now (see :func:`combo_check`)."""
    return (combo_screen_mask(P, s, np.int64(1) << c) != 0
            and combo_check(rules, G, P, T, s, c, req_t, req_n)[0])


@njit(cache=True, _nrt=False)
def declare_failure(rules, G, P, T, s, c, req_t, req_n):
    """Why ``c`` cannot be declared: (rule code, detail code); rule 299 = Table A."""
    if not combo_allowed(rules, G[G_TRUMP], c):
        return (399 if rules[R_REDECLARE_SAME] else 299), X_NOT_A_COMBINATION
    cls = combo_class(c)
    if c >= 12:
        rank = FOUR_RANKS[c - 12]
        held = 0
        from_hand = 0
        for suit in range(4):
            held += P[s, P_HAND + suit * 8 + rank] + P[s, P_TABLE + suit * 8 + rank]
            from_hand += P[s, P_HAND + suit * 8 + rank]
        if held < 4:
            return 211, X_NOT_WHOLE_FOUR
        if from_hand == 0:
            return (307 if rules[R_REDECLARE_SAME] else 212), X_NO_NEW_CARD
        if rules[R_AMERICAN]:
            for k in range(P[s, P_NTABLE]):
                if T[s, k, T_CARD] % 8 == rank and T[s, k, T_B] > 0:
                    return 217, X_AMERICAN
        return (306 if rules[R_REDECLARE_SAME] else 215), X_REUSE_FOUR
    nreq = combo_requirements(c, req_t, req_n)
    from_hand = 0
    for i in range(nreq):
        if P[s, P_HAND + req_t[i]] + P[s, P_TABLE + req_t[i]] < req_n[i]:
            return 211, X_NOT_HELD
        from_hand += P[s, P_HAND + req_t[i]]
    if from_hand == 0:
        return (307 if rules[R_REDECLARE_SAME] else 212), X_NO_NEW_CARD
    if rules[R_AMERICAN]:
        for k in range(P[s, P_NTABLE]):
            if T[s, k, T_B] > 0 and cls != CLS_B:
                for i in range(nreq):
                    if T[s, k, T_CARD] == req_t[i]:
                        return 217, X_AMERICAN
    return (306 if rules[R_REDECLARE_SAME] else 214), X_REUSE_CLASS


@njit(cache=True, _nrt=False)
def _record_event(ev, G, kind, seat, a, b, c, d):
    k = G[G_NEV]
    if k < MAX_EVENTS and ev.shape[0] > 1:
        ev[k, 0] = kind
        ev[k, 1] = seat
        ev[k, 2] = a
        ev[k, 3] = b
        ev[k, 4] = c
        ev[k, 5] = d
        G[G_NEV] = k + 1


@njit(cache=True, _nrt=False)
def _use_slot(T, s, k, cls, lvl):
    if cls == CLS_M:
        T[s, k, T_M] = lvl
    elif cls == CLS_B:
        T[s, k, T_B] = lvl
    else:
        T[s, k, T_F] = lvl
    T[s, k, T_SCORED] = 1


@njit(cache=True, _nrt=False)
def _choose_cards(rules, P, T, s, req_t, nreq, cls, lvl, chosen, from_hand):
    """Pick the copies of each required type ``req_t[i]`` (all different), ``from_hand[i]``
    of them on entry: eligible table slots first (never-scored ones before scored ones,
    lowest slot first), then the hand. Table picks go into ``chosen`` as slot numbers;
    ``from_hand[i]`` is left with the copies still to take from the hand. Returns the number
    of slots chosen."""
    n_chosen = 0
    for want_fresh in (True, False):
        for k in range(P[s, P_NTABLE]):
            card = T[s, k, T_CARD]
            for i in range(nreq):
                if req_t[i] == card:
                    if (from_hand[i] > 0 and (T[s, k, T_SCORED] == 0) == want_fresh
                            and slot_eligible(rules, T, s, k, cls, lvl)):
                        chosen[n_chosen] = k
                        n_chosen += 1
                        from_hand[i] -= 1
                    break
    return n_chosen


@njit(cache=True, _nrt=False)
def _select(rules, P, T, s, c, four_cards, req_t, req_n, work):
    """Choose the copies for ``c`` (already feasible): eligible table slots first,
    then the hand, with at least one new card (R2.12/R3.7). Fills ``req_t/req_n``
    with the card types, ``work[0:8]`` with the chosen table slots and
    ``work[8:16]`` with the copies of each type taken from the hand.
    Returns (number of types, number of table slots chosen, cards from the hand)."""
    cls = combo_class(c)
    lvl = combo_level(c)
    if c >= 12:
        rank = FOUR_RANKS[c - 12]
        nreq = 0
        if four_cards[0] >= 0:
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
        else:
            # one card from the hand first unless a never-scored table copy is new
            # enough (R2.12, R3.7), then table copies, then the hand, suit by suit
            first = -1
            elig, fresh = _four_table_counts(rules, T, P, s, rank)
            if fresh == 0:
                for suit in range(4):
                    if first < 0 and P[s, P_HAND + suit * 8 + rank] > 0:
                        first = suit
            left = 4
            for suit in range(4):
                req_t[suit] = suit * 8 + rank
                req_n[suit] = 0
            if first >= 0:
                req_n[first] = 1
                left = 3
            for fresh_only in (1, 0):   # never-scored table copies before scored ones
                for suit in range(4):
                    e = (elig >> (8 * suit)) & 0xFF
                    f = (fresh >> (8 * suit)) & 0xFF
                    take = min(f if fresh_only else e - f, left)
                    req_n[suit] += take
                    left -= take
            for suit in range(4):
                spare = P[s, P_HAND + suit * 8 + rank] - (1 if suit == first else 0)
                take = min(spare, left)
                req_n[suit] += take
                left -= take
            k = 0
            for i in range(4):          # drop the suits not used
                if req_n[i] > 0:
                    req_t[k] = req_t[i]
                    req_n[k] = req_n[i]
                    k += 1
            nreq = k
    else:
        nreq = combo_requirements(c, req_t, req_n)
    chosen = work[0:8]
    from_hand = work[8:16]
    for i in range(nreq):
        from_hand[i] = req_n[i]
    n_chosen = _choose_cards(rules, P, T, s, req_t, nreq, cls, lvl, chosen, from_hand)
    total_hand = 0
    for i in range(nreq):
        total_hand += from_hand[i]
    any_fresh = False
    for j in range(n_chosen):
        any_fresh |= T[s, chosen[j], T_SCORED] == 0
    if total_hand == 0 and not any_fresh:
        # R2.12: swap one table copy for a copy from the hand
        for i in range(nreq):
            if P[s, P_HAND + req_t[i]] > 0:
                for j in range(n_chosen):
                    if T[s, chosen[j], T_CARD] == req_t[i]:
                        chosen[j] = chosen[n_chosen - 1]
                        n_chosen -= 1
                        break
                from_hand[i] += 1
                total_hand += 1
                break
    return nreq, n_chosen, total_hand


@njit(cache=True, _nrt=False)
def claim_possible(rules, G, P, T, s, c, req_t, req_n):
    """R3.7: ``c`` could be laid down now as a claim (feasible, and it needs hand cards)."""
    feasible, from_hand = combo_check(rules, G, P, T, s, c, req_t, req_n)
    return feasible and from_hand


@njit(cache=True, _nrt=False)
def claim(rules, G, P, T, obs, ev, n, s, c, req_t, req_n, work):
    """R3.7 "and - to score": lay the hand cards of ``c`` on the table, unscored."""
    four = work[20:24]
    four[:] = -1
    nreq, n_chosen, total_hand = _select(rules, P, T, s, c, four, req_t, req_n, work)
    from_hand = work[8:16]
    for i in range(nreq):
        for _ in range(from_hand[i]):
            add_hand(P, obs, s, req_t[i], -1)
            table_add(P, T, obs, n, s, req_t[i])
    P[s, P_CLAIMS] += 1
    _record_event(ev, G, E_CLAIM, s, c, total_hand, 0, 0)


@njit(cache=True, _nrt=False)
def declare(rules, G, P, T, obs, ev, n, s, c, four_cards, req_t, req_n, work):
    """Seat ``s`` declares ``c`` (already checked feasible) and scores it.

    ``four_cards`` names the four cards of a four (replays); -1 lets the
    engine choose. ``work`` is int64 scratch of 16. Returns the points scored.
    """
    cls = combo_class(c)
    lvl = combo_level(c)
    nreq, n_chosen, total_hand = _select(rules, P, T, s, c, four_cards, req_t, req_n, work)
    chosen = work[0:8]
    from_hand = work[8:16]
    for j in range(n_chosen):
        _use_slot(T, s, chosen[j], cls, lvl)
    for i in range(nreq):
        for _ in range(from_hand[i]):
            add_hand(P, obs, s, req_t[i], -1)
            k = table_add(P, T, obs, n, s, req_t[i])
            _use_slot(T, s, k, cls, lvl)
    trump = G[G_TRUMP]
    pts = combo_points(rules, trump, c)
    P[s, P_SCORE] += pts
    P[s, P_DECL] += pts
    P[s, P_NDECL + c] += 1
    if cls == CLS_B and lvl > P[s, P_BEZ_MAX]:
        for k in range(max(P[s, P_BEZ_MAX] + 1, 2), lvl + 1):
            P[s, P_FIRST_B + k - 2] = G[G_TRICK]
        P[s, P_BEZ_MAX] = lvl
    suits = 0
    if c >= 12:
        for i in range(nreq):
            suits += req_n[i] << (4 * (req_t[i] // 8))
    _record_event(ev, G, E_DECLARE, s, c, pts, suits, 0)
    if trump < 0 and c < 8:      # R3.2: the first marriage (or a sequence) fixes trumps
        for v in range(G[G_NSEATS]):
            P[v, P_MELD_CAND] |= SEQUENCES
        G[G_TRUMP] = c % 4
        G[G_TRUMP_TRICK] = G[G_TRICK]
        G[G_TRUMP_HOW] = 1 if c < 4 else 2
        _record_event(ev, G, E_TRUMP, s, c % 4, G[G_TRUMP_HOW], G[G_TRICK], 0)
    return pts
