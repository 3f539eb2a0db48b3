"""Playing a hand from a script of moves (replay files), with the rule each illegal move breaks.

The script's rows (layout S_*) are read one by one at each decision of the hand: a play, a
declaration, an exchange or a claim must be legal there, or the replay stops naming the move
and the rule. A declaration window ends when the next move is not one of the winner's
declarations; the carte-blanche shows of a round may be listed in any order.
"""
import numpy as np
from numba import njit, types

from ..rules import R_CLAIMS, R_DECLARE_ALL, R_FIXED_POINT, R_PANACHE, R_SEVEN, R_TRUMP_MODE, TRUMP_RUBICON
from .by_address import by_address
from .carte import carte_eligible, show_carte
from .codes import R2_3, R2_6, R2_9, R2_16, R2_18, R2_21, R3_4, R3_5, R3_7, SEVEN, V2, V3, V5
from .codes import card_of, claim_action, declare_action, is_four, play_action
from .hand import apply_once, claim_game, claim_named, decision, declare_named, is_over, legal_actions, to_act
from . import layout as L
from .melds import claim_cards_failure, combo_feasible, declare_failure, named_four, types_check
from .play import is_legal, report_error
from .state import STATE_TYPE
from .tricks import play_failure


# the engine's step by address (by_address.py): replay and replay_single would each generate its
# machine code again
apply_once_at = by_address(apply_once, types.int64[::1], STATE_TYPE, types.int64)


@njit(cache=True, _nrt=False)
def exchange_failure(rules, G, P, s):
    """Why seat ``s`` may not exchange the seven of trumps now: (rule code, detail code)."""
    if rules[R_TRUMP_MODE] == TRUMP_RUBICON:
        return R3_4, L.X_NO_EXCHANGE           # Rubicon: no exchange
    if G[L.G_STAGE] != 1:
        return R2_18, L.X_AFTER_LAST_DRAW
    if not rules[R_SEVEN] or G[L.G_TRUMP] < 0 or P[s, L.P_HAND + card_of(G[L.G_TRUMP], SEVEN)] == 0:
        return R2_9, L.X_NO_SEVEN
    if G[L.G_EXCHANGES] > 0:
        return R2_9, L.X_ALREADY_EXCHANGED
    return R2_9, L.X_TURNUP_SEVEN


@njit(cache=True, _nrt=False)
def _read_shows(rules, st, script, nscript, pos):
    """The carte-blanche shows listed at ``pos`` for the round now asked (R3.5), checked in
    the script's order: (bit set of the seats showing, position after them, -1 or the
    position of the first show that is not allowed)."""
    G = st.G
    n = G[L.G_NSEATS]
    first = G[L.G_CARTE_FIRST]
    shows = 0
    while pos < nscript and script[pos, 0] == L.S_CARTE:
        v = script[pos, 1]
        drawn = G[L.G_DRAWN + (v - first + n) % n] if v < n else -1
        if v >= n or (shows >> v) & 1 or not carte_eligible(st.P, v, drawn):
            return shows, pos, pos
        shows |= 1 << v
        pos += 1
    return shows, pos, -1


@njit(cache=True, _nrt=False)
def replay(rules, st, script, nscript):
    """Play the hand dealt into ``st`` with the moves ``script[:nscript]``. Returns ST_DONE,
    ST_INCOMPLETE (the moves ran out first: a declaration window still open is closed, as if
    the next move were a play; an S_HOLD row stops at the decision it reaches, a window
    included) or ST_ILLEGAL_SCRIPT (the move and the rule it breaks in G_ERR_*; a move after
    the last trick breaks R2.21)."""
    G, P = st.G, st.P
    pos = 0
    round_read = -1
    shows = 0
    while not is_over(st):
        nleg, plays = legal_actions(rules, st)
        s = to_act(st)
        dec = decision(st)
        if G[L.G_PHASE] == L.PH_CARTE:
            this_round = G[L.G_TRICK] * 256 + G[L.G_TALON_POS]
            if this_round != round_read:             # the round's first question: its shows
                round_read = this_round
                shows, pos, bad = _read_shows(rules, st, script, nscript, pos)
                if bad >= 0:
                    first = G[L.G_CARTE_FIRST]
                    n = G[L.G_NSEATS]
                    for v in range(n):                 # the shows listed before it stand
                        if (shows >> v) & 1:
                            show_carte(rules, G, P, st.ev, v, G[L.G_DRAWN + (v - first + n) % n])
                    return report_error(G, L.ST_ILLEGAL_SCRIPT, bad, script[bad, 1], R3_5,
                                        L.X_NO_CARTE_BLANCHE, L.A_CARTE_BLANCHE, L.D_CARTE)
            apply_once_at(rules, st, L.A_CARTE_BLANCHE if (shows >> s) & 1 else L.A_STOP)
            continue
        if pos >= nscript:
            if dec == L.D_MELD:
                apply_once_at(rules, st, L.A_STOP)
                continue
            G[L.G_STATUS] = L.ST_INCOMPLETE
            return L.ST_INCOMPLETE
        kind = script[pos, 0]
        if kind == L.S_HOLD:                   # stop at this decision, a window included
            G[L.G_STATUS] = L.ST_INCOMPLETE
            return L.ST_INCOMPLETE
        # as int64, the type the hands played by policies pass: the engine's move kernels then load
        # from the cache, not compile again for int32 (the script's type)
        seat = np.int64(script[pos, 1])
        c = np.int64(script[pos, 2])
        if kind == L.S_GAME_CLAIM:                    # V3: before a card, right or wrong
            if dec == L.D_MELD:
                apply_once_at(rules, st, L.A_STOP)
                continue
            if not rules[R_FIXED_POINT] or seat != s or (dec != L.D_CLAIM and G[L.G_PHASE] != L.PH_PLAY):
                return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, V3, L.X_NO_GAME_CLAIM, L.A_CLAIM_GAME, dec)
            pos += 1
            claim_game(rules, st)
            continue
        if dec == L.D_CLAIM:                          # the seat plays on
            apply_once_at(rules, st, L.A_STOP)
            continue
        if kind == L.S_PARTNER:                       # V5 option
            if dec != L.D_MELD or seat != s or not is_legal(st.legal, nleg, 0, L.A_PARTNER):
                return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, V5, L.X_NO_PARTNER, L.A_PARTNER, dec)
            pos += 1
            apply_once_at(rules, st, L.A_PARTNER)
            continue
        if kind == L.S_CARTE or kind == L.S_PLAY:
            if dec == L.D_MELD:                       # the window ends here
                apply_once_at(rules, st, L.A_STOP)
                continue
            if kind == L.S_CARTE:
                return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, R3_5, L.X_NO_CARTE_BLANCHE,
                                    L.A_CARTE_BLANCHE, dec)
            a = play_action(c, script[pos, 3])
            if seat != s:
                return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, R2_3, L.X_NOT_YOUR_TURN, a, dec)
            if not is_legal(st.legal, nleg, plays, a):
                rule, detail = play_failure(P, s, G[L.G_STAGE], G[L.G_LEAD], G[L.G_BEST], G[L.G_TRUMP], a)
                return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, rule, detail, a, dec)
            pos += 1
            apply_once_at(rules, st, a)
            continue
        if kind == L.S_EXCHANGE:
            a = L.A_EXCHANGE
        elif kind == L.S_CLAIM:
            a = claim_action(c) if c >= 0 else L.A_CLAIM_CARDS
        else:
            a = declare_action(c)
        if G[L.G_STAGE] != 1:
            return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, R2_18, L.X_AFTER_LAST_DRAW, a, dec)
        if dec != L.D_MELD or seat != s:
            return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, R2_6, L.X_NOT_WINNER, a, dec)
        if kind == L.S_EXCHANGE and c >= 0 and c != card_of(G[L.G_TRUMP], SEVEN):
            return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, R2_9, L.X_NO_SEVEN, a, dec)
        named = script[pos, L.S_CARDS:]
        req_t = st.work[L.W_REQ_T:L.W_REQ_T + L.REQ_W]
        req_n = st.work[L.W_REQ_N:L.W_REQ_N + L.REQ_W]
        # a four's cards as named (else -1), in the state's scratch: declare_failure compiles for it alone
        four = st.work[L.W_FOUR:L.W_FOUR + L.FOUR_W]
        for j in range(L.FOUR_W):
            four[j] = named[j] if kind == L.S_DECLARE and is_four(c) else -1
        if a == L.A_CLAIM_CARDS:                       # R3.7: the claim names its cards
            if not rules[R_CLAIMS] or G[L.G_PHASE] != L.PH_MELD or G[L.G_DECLARED] == 0:
                return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, R3_7, L.X_CLAIM_NOT_ALLOWED, a, dec)
            detail, card = claim_cards_failure(rules, G, P, st.T, s, named, req_t, req_n)
            if detail >= 0:
                return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, R3_7, detail, card, dec)
            pos += 1
            claim_named(rules, st, named)
            continue
        if not is_legal(st.legal, nleg, 0, a):
            if kind == L.S_EXCHANGE:
                rule, detail = exchange_failure(rules, G, P, s)
            elif kind == L.S_CLAIM:
                rule, detail = R3_7, L.X_CLAIM_NOT_ALLOWED
            elif G[L.G_DECLARED] > 0 and not rules[R_DECLARE_ALL] and combo_feasible(
                    rules, G, P, st.T, s, c, req_t, req_n):
                rule, detail = (R3_7 if rules[R_CLAIMS] else R2_16), L.X_ONE_PER_TRICK
            else:
                rule, detail = declare_failure(rules, st, s, c, four)
            return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, seat, rule, detail, a, dec)
        pos += 1
        if kind == L.S_DECLARE:
            if is_four(c) and four[0] >= 0:         # the four's cards are named
                nreq = named_four(four, req_t, req_n)
                if rules[R_PANACHE] and nreq < 4:   # V2: four different suits
                    return report_error(G, L.ST_ILLEGAL_SCRIPT, pos - 1, seat, V2, L.X_PANACHE, a, dec)
                if not types_check(rules, P, st.T, s, c, req_t, req_n, nreq)[0]:
                    rule, detail = declare_failure(rules, st, s, c, four)
                    return report_error(G, L.ST_ILLEGAL_SCRIPT, pos - 1, seat, rule, detail, a, dec)
            declare_named(rules, st, c, four)
        else:
            apply_once_at(rules, st, a)
    if pos < nscript and script[pos, 0] != L.S_HOLD:          # moves after the last trick
        return report_error(G, L.ST_ILLEGAL_SCRIPT, pos, np.int64(script[pos, 1]), R2_21, L.X_AFTER_END, -1, -1)
    G[L.G_STATUS] = L.ST_DONE
    return L.ST_DONE
