"""One hand from the deal to the brisques: the trick loop (R2.1-R2.23, R3.1-R3.4).

Every decision goes through :func:`_decide`: either a policy (a first-class
numba function of :data:`layout.POLICY_SIG`) or, for replays, the next move of
a script, which is checked and, if illegal, reported with the rule it breaks.
"""
from numba import njit

from ..rules import (
    R_BRISQUES_SCORED,
    R_CARTE_BLANCHE,
    R_CARTE_POINTS,
    R_CLAIMS,
    R_DECLARE_ALL,
    R_HAND,
    R_LAST_TRICK,
    R_N_CARDS,
    R_PACKS,
    R_PLAYERS,
    R_REDECLARE,
    R_SEVEN,
    R_TRUMP_MODE,
    R_TURNUP,
    TRUMP_RUBICON,
)
from .bits import trailing_zeros
from .layout import (
    A_CARTE_BLANCHE,
    A_CLAIM,
    A_CLAIM_CARDS,
    A_DECLARE,
    A_EXCHANGE,
    A_PLAY_TABLE,
    A_STOP,
    D_CARTE,
    D_FOLLOW,
    D_LEAD,
    D_MELD,
    E_BRISQUES,
    E_CARTE,
    E_DRAW,
    E_EXCHANGE,
    E_LAST_TRICK,
    E_PLAY,
    E_SEVEN,
    E_STAGE2,
    E_TRICK,
    E_TURNUP,
    E_TURNUP_SEVEN,
    G_DEALER,
    G_ERR_ACTION,
    G_ERR_DECISION,
    G_ERR_DETAIL,
    G_ERR_MOVE,
    G_ERR_RULE,
    G_ERR_SEAT,
    G_EXCHANGES,
    G_LAST_WINNER,
    G_LEADER,
    G_NSCRIPT,
    G_NSEATS,
    G_SCRIPT_POS,
    G_STAGE,
    G_STATUS,
    G_TALON_LEN,
    G_TALON_POS,
    G_TRICK,
    G_TRUMP,
    G_TRUMP_HOW,
    G_TRUMP_TRICK,
    G_WINDOW_SEAT,
    OBS_BEST_CARD,
    OBS_BEST_REL,
    OBS_BRISQUES,
    OBS_DEALER_REL,
    OBS_DECISION,
    OBS_DECLARED,
    OBS_EXCHANGED,
    OBS_LEAD_CARD,
    OBS_N_SEATS,
    OBS_PACKS,
    OBS_SCORE,
    OBS_SEAT,
    OBS_STAGE,
    OBS_TALON_LEFT,
    OBS_TRICK,
    OBS_TRICK_POS,
    OBS_TRUMP,
    OBS_TURNUP,
    P_BEZ_MAX,
    P_BRISQ,
    P_CARTE,
    P_CARTE_PTS,
    P_DBL_MISS,
    P_HAND,
    P_HELD_B,
    P_LAST,
    P_MELD_CAND,
    P_RECV_JD,
    P_RECV_QS,
    P_SCORE,
    P_SEVEN,
    P_TABLE,
    P_TRICKS,
    P_WON,
    S_CARTE,
    S_CLAIM,
    S_DECLARE,
    S_EXCHANGE,
    S_CARDS,
    S_PLAY,
    ST_DONE,
    ST_ILLEGAL_POLICY,
    ST_ILLEGAL_SCRIPT,
    ST_INCOMPLETE,
    X_AFTER_LAST_DRAW,
    X_ALREADY_EXCHANGED,
    X_CLAIM_NOT_ALLOWED,
    X_ILLEGAL_ACTION,
    X_NO_CARTE_BLANCHE,
    X_NO_EXCHANGE,
    X_NO_SEVEN,
    X_NOT_WINNER,
    X_NOT_YOUR_TURN,
    X_ONE_PER_TRICK,
    X_TURNUP_SEVEN,
)
from .combos import ALL_COMBOS, COMBO_MASK, combo_class, combo_level
from .copies import REDECLARE_REPLACE, table_slot_to_play
from .melds import (
    claim,
    claim_cards,
    claim_cards_failure,
    claim_possible,
    combo_check,
    combo_feasible,
    combo_screen_mask,
    declare,
    declare_failure,
    named_four,
    record_event,
    types_check,
)
from .state import (
    add_hand,
    mark_played,
    rel_seat,
    table_remove,
    take_table_back,
)
from .tricks import beats, legal_play_bits, list_bits, play_failure


WORK_SIZE = 88


@njit(cache=True, _nrt=False, inline="always")
def _fill_obs(rules, G, P, obs, talon, n, s, decision, lead, best, best_seat, trick_pos, declared):
    o = obs[s]
    o[OBS_DECISION] = decision
    o[OBS_TRUMP] = G[G_TRUMP]
    left = G[G_TALON_LEN] - G[G_TALON_POS]
    o[OBS_TALON_LEFT] = left
    o[OBS_TURNUP] = talon[G[G_TALON_LEN] - 1] if left > 0 and rules[R_TURNUP] else -1
    o[OBS_STAGE] = G[G_STAGE]
    o[OBS_TRICK] = G[G_TRICK]
    o[OBS_LEAD_CARD] = lead
    o[OBS_BEST_CARD] = best
    o[OBS_BEST_REL] = rel_seat(best_seat, s, n) if best_seat >= 0 else -1
    o[OBS_DECLARED] = declared
    o[OBS_EXCHANGED] = G[G_EXCHANGES]
    o[OBS_TRICK_POS] = trick_pos
    for v in range(n):
        r = rel_seat(v, s, n)
        o[OBS_SCORE + r] = P[v, P_SCORE]
        o[OBS_BRISQUES + r] = P[v, P_BRISQ]


@njit(cache=True, _nrt=False)
def can_exchange(rules, G, P, talon, s):
    """R2.9: seat ``s`` holds the seven of trumps and may take the turn-up."""
    if not rules[R_SEVEN] or G[G_STAGE] != 1 or G[G_TRUMP] < 0 or G[G_EXCHANGES] > 0:
        return False
    if talon[G[G_TALON_LEN] - 1] % 8 == 7:
        return False
    return P[s, P_HAND + G[G_TRUMP] * 8 + 7] > 0


@njit(cache=True, _nrt=False)
def _exchange_failure(rules, G, P, talon, s):
    if rules[R_TRUMP_MODE] == TRUMP_RUBICON:
        return 304, X_NO_EXCHANGE           # Rubicon: no exchange
    if G[G_STAGE] != 1:
        return 218, X_AFTER_LAST_DRAW
    if not rules[R_SEVEN] or G[G_TRUMP] < 0 or P[s, P_HAND + G[G_TRUMP] * 8 + 7] == 0:
        return 209, X_NO_SEVEN
    if G[G_EXCHANGES] > 0:
        return 209, X_ALREADY_EXCHANGED
    return 209, X_TURNUP_SEVEN


@njit(cache=True, _nrt=False)
def _error(G, status, move, seat, rule, detail, action, decision):
    G[G_STATUS] = status
    G[G_ERR_MOVE] = move
    G[G_ERR_SEAT] = seat
    G[G_ERR_RULE] = rule
    G[G_ERR_DETAIL] = detail
    G[G_ERR_ACTION] = action
    G[G_ERR_DECISION] = decision
    return -1


@njit(cache=True, _nrt=False)
def _in(legal, nleg, a):
    found = False                  # no early exit: a short branch-free scan is faster
    for i in range(nleg):
        found |= legal[i] == a
    return found


@njit(cache=True, _nrt=False)
def _script_action(rules, G, P, T, talon, s, decision, legal, nleg, lead, best,
                   declared, script, req_t, req_n):
    pos = G[G_SCRIPT_POS]
    if pos >= G[G_NSCRIPT]:
        if decision == D_MELD:
            return A_STOP
        G[G_STATUS] = ST_INCOMPLETE
        return -1
    kind = script[pos, 0]
    seat = script[pos, 1]
    if kind == S_CARTE:
        if decision == D_MELD:
            return A_STOP                  # the shows come after the draw
        return _error(G, ST_ILLEGAL_SCRIPT, pos, seat, 305, X_NO_CARTE_BLANCHE, A_CARTE_BLANCHE,
                      decision)
    if kind == S_PLAY:
        if decision == D_MELD:
            return A_STOP
        a = script[pos, 2] + A_PLAY_TABLE * script[pos, 3]
        if seat != s:
            return _error(G, ST_ILLEGAL_SCRIPT, pos, seat, 203, X_NOT_YOUR_TURN, a, decision)
        if not _in(legal, nleg, a):
            rule, detail = play_failure(P, s, G[G_STAGE], lead, best, G[G_TRUMP], a)
            return _error(G, ST_ILLEGAL_SCRIPT, pos, seat, rule, detail, a, decision)
        G[G_SCRIPT_POS] = pos + 1
        return a
    c = script[pos, 2]
    if kind == S_EXCHANGE:
        a = A_EXCHANGE
    elif kind == S_CLAIM:
        a = A_CLAIM + c if c >= 0 else A_CLAIM_CARDS
    else:
        a = A_DECLARE + c
    if G[G_STAGE] != 1:
        return _error(G, ST_ILLEGAL_SCRIPT, pos, seat, 218, X_AFTER_LAST_DRAW, a, decision)
    if decision != D_MELD or seat != s:
        return _error(G, ST_ILLEGAL_SCRIPT, pos, seat, 206, X_NOT_WINNER, a, decision)
    if kind == S_EXCHANGE and c >= 0 and c != G[G_TRUMP] * 8 + 7:
        return _error(G, ST_ILLEGAL_SCRIPT, pos, seat, 209, X_NO_SEVEN, a, decision)
    named = script[pos, S_CARDS:]
    if a == A_CLAIM_CARDS:                       # R3.7: the claim names its cards
        if not rules[R_CLAIMS] or declared == 0:
            return _error(G, ST_ILLEGAL_SCRIPT, pos, seat, 307, X_CLAIM_NOT_ALLOWED, a, decision)
        detail, card = claim_cards_failure(rules, G, P, T, s, named, req_t, req_n)
        if detail >= 0:
            return _error(G, ST_ILLEGAL_SCRIPT, pos, seat, 307, detail, card, decision)
        G[G_SCRIPT_POS] = pos + 1
        return a
    if not _in(legal, nleg, a):
        if kind == S_EXCHANGE:
            rule, detail = _exchange_failure(rules, G, P, talon, s)
        elif kind == S_CLAIM:
            rule, detail = 307, X_CLAIM_NOT_ALLOWED
        elif declared > 0 and not rules[R_DECLARE_ALL] and combo_feasible(
                rules, G, P, T, s, c, req_t, req_n):
            rule, detail = (307 if rules[R_CLAIMS] else 216), X_ONE_PER_TRICK   # R2.16, R3.7
        else:
            rule, detail = declare_failure(rules, G, P, T, s, c, named, req_t, req_n)
        return _error(G, ST_ILLEGAL_SCRIPT, pos, seat, rule, detail, a, decision)
    if kind == S_DECLARE and c >= 12 and named[0] >= 0:     # the four's cards are named
        nreq = named_four(named, req_t, req_n)
        if not types_check(rules, P, T, s, combo_class(c), combo_level(c), req_t, req_n, nreq)[0]:
            rule, detail = declare_failure(rules, G, P, T, s, c, named, req_t, req_n)
            return _error(G, ST_ILLEGAL_SCRIPT, pos, seat, rule, detail, a, decision)
    G[G_SCRIPT_POS] = pos + 1
    return a


@njit(cache=True, _nrt=False, inline="always")
def _decide(rules, G, P, T, obs, talon, s, decision, legal, nleg, plays, lead, best, best_seat,
            trick_pos, declared, p0, p1, p2, p3, params, rngs, script, req_t, req_n):
    """Ask seat ``s`` (its policy, or the script) for one of ``legal[:nleg]``; -1 stops.

    ``plays``: for a play, the same actions as a bit set (see tricks.legal_play_bits),
    which checks the policy's answer in one step; 0 for other decisions."""
    if G[G_NSCRIPT] >= 0:
        return _script_action(rules, G, P, T, talon, s, decision, legal, nleg, lead, best,
                              declared, script, req_t, req_n)
    if nleg == 1:
        return legal[0]
    n = G[G_NSEATS]
    _fill_obs(rules, G, P, obs, talon, n, s, decision, lead, best, best_seat, trick_pos, declared)
    policy = p0 if s == 0 else (p1 if s == 1 else (p2 if s == 2 else p3))
    a = policy(obs[s], legal, nleg, rules, params[s], rngs[s])
    if plays != 0:
        ok = 0 <= a < 64 and (plays >> a) & 1 == 1
    else:
        ok = _in(legal, nleg, a)
    if not ok:
        return _error(G, ST_ILLEGAL_POLICY, G[G_TRICK], s, 0, X_ILLEGAL_ACTION, a, decision)
    return a


@njit(cache=True, _nrt=False)
def _exchange(G, P, obs, ev, talon, s):
    seven = G[G_TRUMP] * 8 + 7
    last = G[G_TALON_LEN] - 1
    taken = talon[last]
    talon[last] = seven
    add_hand(P, obs, s, seven, -1)
    add_hand(P, obs, s, taken, 1)
    _track_double(G, P, s, taken)          # the turn-up taken is a card received
    G[G_EXCHANGES] += 1
    P[s, P_SEVEN] += 10
    P[s, P_SCORE] += 10
    record_event(ev, G, E_EXCHANGE, s, seven, taken, 10, 0)


@njit(cache=True, _nrt=False, inline="always")
def _meld_window(rules, G, P, T, obs, ev, talon, s, legal, p0, p1, p2, p3, params, rngs,
                 script, req_t, req_n, work):
    """R2.6/R2.16/R2.18: the trick winner declares (and may exchange). -1 stops the hand."""
    n = G[G_NSEATS]
    declared = 0
    G[G_WINDOW_SEAT] = s
    four = work[20:24]
    while True:
        nleg = 0
        cand = combo_screen_mask(P, s, P[s, P_MELD_CAND])
        if declared == 0 or rules[R_DECLARE_ALL]:
            found = 0
            rest = cand
            while rest != 0:                    # the candidates, lowest first
                c = trailing_zeros(rest)
                rest &= rest - 1
                if combo_check(rules, G, P, T, s, c, req_t, req_n)[0]:
                    legal[nleg] = A_DECLARE + c
                    nleg += 1
                    found |= 1 << c
            P[s, P_MELD_CAND] = found
            cand = found
        if can_exchange(rules, G, P, talon, s):
            legal[nleg] = A_EXCHANGE
            nleg += 1
        if declared > 0 and rules[R_CLAIMS]:                 # R3.7
            rest = cand
            while rest != 0:
                c = trailing_zeros(rest)
                rest &= rest - 1
                if claim_possible(rules, G, P, T, s, c, req_t, req_n):
                    legal[nleg] = A_CLAIM + c
                    nleg += 1
        if nleg == 0 and G[G_NSCRIPT] < 0:
            return 0
        legal[nleg] = A_STOP
        nleg += 1
        a = _decide(rules, G, P, T, obs, talon, s, D_MELD, legal, nleg, 0, -1, -1, -1, 0,
                    declared, p0, p1, p2, p3, params, rngs, script, req_t, req_n)
        if a < 0:
            return -1
        if a == A_STOP:
            return 0
        if a == A_EXCHANGE:
            _exchange(G, P, obs, ev, talon, s)
        elif a == A_CLAIM_CARDS:
            claim_cards(rules, G, P, T, obs, ev, n, s, script[G[G_SCRIPT_POS] - 1, S_CARDS:])
        elif a >= A_CLAIM:
            claim(rules, G, P, T, obs, ev, n, s, a - A_CLAIM, req_t, req_n, four, work[28:84])
        else:
            four[:] = -1
            if G[G_NSCRIPT] >= 0:
                for j in range(4):
                    four[j] = script[G[G_SCRIPT_POS] - 1, S_CARDS + j]
            declare(rules, G, P, T, obs, ev, n, s, a - A_DECLARE, four, req_t, req_n, work[28:84])
            declared += 1


@njit(cache=True, _nrt=False)
def _track_double(G, P, s, card):
    """Section 5 statistics: when seat ``s`` first holds a double (treble, quadruple) bézique
    (2 (3, 4) Q♠ and as many J♦ in hand or on the table). ``card`` was just received (counted
    as Q♠/J♦ received) or is -1 (the dealt hand)."""
    if card >= 0:
        P[s, P_MELD_CAND] |= COMBO_MASK[card]
    if card == 3:
        P[s, P_RECV_QS] += 1
    elif card == 20:
        P[s, P_RECV_JD] += 1
    elif card >= 0:
        return                       # what is held changes only with a Q♠ or J♦
    pairs = min(P[s, P_HAND + 3] + P[s, P_TABLE + 3], P[s, P_HAND + 20] + P[s, P_TABLE + 20])
    for k in range(min(pairs, 4) - 1):
        if P[s, P_HELD_B + k] == 0:
            P[s, P_HELD_B + k] = G[G_TRICK] + 1


@njit(cache=True, _nrt=False)
def _carte_eligible(P, s, drawn):
    """R3.5: seat ``s`` may show carte blanche: a dealt hand (``drawn`` < 0) without K, Q
    or J, or, having shown it, a drawn card that is not a court card."""
    if drawn < 0:
        for suit in range(4):
            for rank in range(2, 5):
                if P[s, P_HAND + suit * 8 + rank] > 0:
                    return False
        return True
    return P[s, P_CARTE] == 1 and not 2 <= drawn % 8 <= 4


@njit(cache=True, _nrt=False)
def _show_carte(rules, G, P, ev, s, drawn):
    pts = rules[R_CARTE_POINTS]
    P[s, P_SCORE] += pts
    P[s, P_CARTE_PTS] += pts
    P[s, P_CARTE] = 1 if rules[R_CARTE_BLANCHE] == 2 else 0
    record_event(ev, G, E_CARTE, s, pts, drawn, 0, 0)


@njit(cache=True, _nrt=False)
def _carte_round(rules, G, P, T, obs, ev, talon, first, drawn, legal, p0, p1, p2, p3, params,
                 rngs, script, req_t, req_n):
    """R3.5: the carte-blanche shows before the first card (``drawn[0]`` < 0) or after a
    round of draws (``drawn[i]``: the card seat ``(first + i) % n`` drew). Policies are
    asked in draw order; in a replay the shows may come in any order. -1 stops the hand."""
    n = G[G_NSEATS]
    if drawn[0] >= 0:
        for i in range(n):                     # the first court card ends it for the hand
            if 2 <= drawn[i] % 8 <= 4:
                P[(first + i) % n, P_CARTE] = 0
    if G[G_NSCRIPT] >= 0:
        shown = 0
        while G[G_SCRIPT_POS] < G[G_NSCRIPT] and script[G[G_SCRIPT_POS], 0] == S_CARTE:
            pos = G[G_SCRIPT_POS]
            s = script[pos, 1]
            d = drawn[(s - first + n) % n] if drawn[0] >= 0 else -1
            if s >= n or (shown >> s) & 1 or not _carte_eligible(P, s, d):
                return _error(G, ST_ILLEGAL_SCRIPT, pos, s, 305, X_NO_CARTE_BLANCHE,
                              A_CARTE_BLANCHE, D_CARTE)
            shown |= 1 << s
            G[G_SCRIPT_POS] = pos + 1
            _show_carte(rules, G, P, ev, s, d)
        return 0
    for i in range(n):
        s = (first + i) % n
        d = drawn[i] if drawn[0] >= 0 else -1
        if not _carte_eligible(P, s, d):
            continue
        legal[0] = A_CARTE_BLANCHE
        legal[1] = A_STOP
        a = _decide(rules, G, P, T, obs, talon, s, D_CARTE, legal, 2, 0, -1, -1, -1, 0, 0,
                    p0, p1, p2, p3, params, rngs, script, req_t, req_n)
        if a < 0:
            return -1
        if a == A_CARTE_BLANCHE:
            _show_carte(rules, G, P, ev, s, d)
    return 0


@njit(cache=True, _nrt=False)
def reset_hand(rules, deck, dealer, G, P, T, obs, talon, ev):
    """Deal ``deck`` (eldest's cards first, then round the table, then turn-up and talon)."""
    n = rules[R_PLAYERS]
    h = rules[R_HAND]
    G[:] = 0
    P[:] = 0
    obs[:] = 0
    G[G_NSEATS] = n
    G[G_DEALER] = dealer
    G[G_TRUMP] = -1
    G[G_TRUMP_TRICK] = -1
    G[G_STAGE] = 1
    G[G_NSCRIPT] = -1
    G[G_LAST_WINNER] = -1
    for i in range(n):
        s = (dealer + 1 + i) % n
        for j in range(h):
            add_hand(P, obs, s, deck[i * h + j], 1)
    k = n * h
    total = rules[R_N_CARDS]
    m = 0
    if rules[R_TURNUP]:
        turnup = deck[k]
        for j in range(k + 1, total):
            talon[m] = deck[j]
            m += 1
        talon[m] = turnup           # R2.1: the turn-up is the last card drawn
        m += 1
        G[G_TRUMP] = turnup // 8
        G[G_TRUMP_HOW] = 0
        G[G_TRUMP_TRICK] = 0
        record_event(ev, G, E_TURNUP, dealer, turnup, 0, 0, 0)
        if turnup % 8 == 7 and rules[R_SEVEN]:     # R2.2
            P[dealer, P_SEVEN] += 10
            P[dealer, P_SCORE] += 10
            record_event(ev, G, E_TURNUP_SEVEN, dealer, turnup, 10, 0, 0)
    else:
        for j in range(k, total):
            talon[m] = deck[j]
            m += 1
    G[G_TALON_LEN] = m
    G[G_LEADER] = (dealer + 1) % n                    # R2.3: the eldest hand leads
    for s in range(n):
        obs[s, OBS_SEAT] = s                    # the fields that stay fixed for the hand
        obs[s, OBS_N_SEATS] = n
        obs[s, OBS_DEALER_REL] = rel_seat(dealer, s, n)
        obs[s, OBS_PACKS] = rules[R_PACKS]
        P[s, P_RECV_QS] = P[s, P_HAND + 3]
        P[s, P_RECV_JD] = P[s, P_HAND + 20]
        P[s, P_MELD_CAND] = ALL_COMBOS
        _track_double(G, P, s, -1)


@njit(cache=True, _nrt=False)
def play_hand(rules, G, P, T, obs, talon, legal, ev, p0, p1, p2, p3, params, rngs, script, work):
    """Play the dealt hand (see :func:`reset_hand`) to its end; return the status.

    ST_DONE, ST_INCOMPLETE (the script ran out), ST_ILLEGAL_SCRIPT or
    ST_ILLEGAL_POLICY (details in G's G_ERR_* slots). ``work``: int64 scratch of WORK_SIZE:
    the required cards of a combination [0:16], the trick [16:20], a four's cards [20:24],
    the cards drawn [24:28], and the choice of copies [28:84] (copies.select_copies).
    """
    n = G[G_NSEATS]
    req_t = work[0:8]
    req_n = work[8:16]
    trick_cards = work[16:20]
    seven_scores = rules[R_SEVEN]
    drawn = work[24:28]
    if rules[R_CARTE_BLANCHE] and G[G_TRICK] == 0:
        drawn[0] = -1
        if _carte_round(rules, G, P, T, obs, ev, talon, G[G_LEADER], drawn, legal, p0, p1, p2,
                        p3, params, rngs, script, req_t, req_n) < 0:
            return G[G_STATUS]
    while True:
        leader = G[G_LEADER]
        stage = G[G_STAGE]
        trump = G[G_TRUMP]
        lead = -1
        best = -1
        best_seat = -1
        for i in range(n):
            s = leader + i                   # (leader + i) % n without a division
            if s >= n:
                s -= n
            plays = legal_play_bits(P, s, stage, lead, best, trump)
            nleg = list_bits(plays, legal)
            dec = D_LEAD if i == 0 else D_FOLLOW
            a = _decide(rules, G, P, T, obs, talon, s, dec, legal, nleg, plays, lead, best, best_seat,
                        i, 0, p0, p1, p2, p3, params, rngs, script, req_t, req_n)
            if a < 0:
                return G[G_STATUS]
            card = a & 31
            if a >= A_PLAY_TABLE:
                table_remove(P, T, obs, n, s, table_slot_to_play(rules, T, P, s, card))
                if rules[R_REDECLARE] == REDECLARE_REPLACE:
                    P[s, P_MELD_CAND] |= COMBO_MASK[card]   # R3.6: it may free an instance
            else:
                add_hand(P, obs, s, card, -1)
            mark_played(obs, n, card)
            trick_cards[i] = card
            if (stage == 1 and (card == 3 or card == 20) and P[s, P_HELD_B] > 0
                    and P[s, P_BEZ_MAX] < 2 and P[s, P_DBL_MISS] == 0
                    and P[s, P_HAND + card] + P[s, P_TABLE + card] < 2):
                P[s, P_DBL_MISS] = 1               # a card of the double was played
            record_event(ev, G, E_PLAY, s, card, 1 if a >= A_PLAY_TABLE else 0, G[G_TRICK], 0)
            if stage == 1 and seven_scores and card == trump * 8 + 7:   # R2.10
                P[s, P_SEVEN] += 10
                P[s, P_SCORE] += 10
                record_event(ev, G, E_SEVEN, s, card, 10, 0, 0)
            if i == 0:
                lead = card
                best = card
                best_seat = s
            elif beats(card, best, trump):
                best = card
                best_seat = s
        winner = best_seat
        nb = 0
        for i in range(n):
            if trick_cards[i] & 7 <= 1:
                nb += 1
        P[winner, P_BRISQ] += nb
        P[winner, P_WON] += n
        P[winner, P_TRICKS] += 1
        record_event(ev, G, E_TRICK, winner, G[G_TRICK], nb, 0, 0)
        G[G_TRICK] += 1
        G[G_LEADER] = winner
        if stage == 1:
            if _meld_window(rules, G, P, T, obs, ev, talon, winner, legal, p0, p1, p2, p3,
                            params, rngs, script, req_t, req_n, work) < 0:
                return G[G_STATUS]
            for i in range(n):                               # R2.8: winner draws first
                s = winner + i
                if s >= n:
                    s -= n
                card = talon[G[G_TALON_POS]]
                G[G_TALON_POS] += 1
                add_hand(P, obs, s, card, 1)
                _track_double(G, P, s, card)
                drawn[i] = card
                record_event(ev, G, E_DRAW, s, card, 0, 0, 0)
            showing = G[G_NSCRIPT] >= 0          # a replay may hold a (wrong) show here
            for i in range(n):
                showing |= P[i, P_CARTE] == 1
            if rules[R_CARTE_BLANCHE] and showing:
                if _carte_round(rules, G, P, T, obs, ev, talon, winner, drawn, legal, p0, p1,
                                p2, p3, params, rngs, script, req_t, req_n) < 0:
                    return G[G_STATUS]
            if G[G_TALON_POS] == G[G_TALON_LEN]:
                for s in range(n):
                    if P[s, P_HELD_B] > 0 and P[s, P_BEZ_MAX] < 2 and P[s, P_DBL_MISS] == 0:
                        P[s, P_DBL_MISS] = 2       # held to the end of the talon, never scored
                G[G_STAGE] = 2
                take_table_back(P, T, obs, n)              # R2.19
                record_event(ev, G, E_STAGE2, winner, 0, 0, 0, 0)
        else:
            left = 0
            for t in range(32):
                left += P[winner, P_HAND + t]
            if left == 0:                                    # R2.21
                G[G_LAST_WINNER] = winner
                P[winner, P_LAST] += rules[R_LAST_TRICK]
                P[winner, P_SCORE] += rules[R_LAST_TRICK]
                record_event(ev, G, E_LAST_TRICK, winner, rules[R_LAST_TRICK], 0, 0, 0)
                break
    if rules[R_BRISQUES_SCORED]:                             # R2.22
        for s in range(n):
            P[s, P_SCORE] += 10 * P[s, P_BRISQ]
            record_event(ev, G, E_BRISQUES, s, P[s, P_BRISQ], 10 * P[s, P_BRISQ], 0, 0)
    G[G_STATUS] = ST_DONE
    return ST_DONE
