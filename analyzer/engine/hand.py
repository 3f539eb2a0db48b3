"""One hand as a state machine (R2.1-R2.23, R3.1-R3.5).

:func:`deal_into` deals a hand into a HandState and stops at the first decision;
:func:`to_act`, :func:`decision` and :func:`legal_actions` say whose decision comes next,
of what kind and what may be done; :func:`apply` does one action and carries the hand on
(tricks resolved, draws, the second stage, the score) to the next decision. Between two
decisions everything the hand knows lives in the HandState, so a hand can be stopped,
copied (state.copy_into) and resumed. The drivers: play.play_out (policies) and
replay.replay (a script of moves).
"""
import numpy as np
from numba import njit

from ..rules import (
    R_CARTE_BLANCHE,
    R_CLAIMS,
    R_DECLARE_ALL,
    R_FIXED_POINT,
    R_HAND,
    R_LAST_TRICK,
    R_N_CARDS,
    R_PACKS,
    R_PARTNER_DECLARES,
    R_PLAYERS,
    R_SEVEN,
    R_SEVEN_POINTS,
    R_TURNUP,
)
from .bits import trailing_zeros
from .carte import carte_eligible, is_court, show_carte
from .codes import (
    JD,
    QS,
    SEVEN,
    card_of,
    card_rank,
    card_suit,
    claim_action,
    claimed_combo,
    declare_action,
    declared_combo,
    is_brisque,
    played_card,
    plays_from_table,
)
from .combos import ALL_COMBOS

from .deals import packet_seat
from . import layout as L
from .melds import (
    claim,
    claim_cards,
    claim_possible,
    combo_check,
    combo_screen_mask,
    declare,
    hand_combos,
    play_from_table,
)
from .observe import observe_public, observe_true
from .state import add_hand, card_mask, mark_played, record_event, rel_seat, take_table_back
from .tracking import on_play, on_receive, on_talon_out
from .variant_moves import claim_game, claim_is_right, count_brisques, pass_to_partner
from .tricks import beats, legal_play_bits, list_bits



# --- the deal -----------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def deal_into(rules, st, deck, dealer):
    """Deal ``deck`` in the deal order (engine.deals) with ``dealer`` dealing, and stop at the
    first decision."""
    G, P, obs, talon, ev = st.G, st.P, st.obs, st.talon, st.ev
    n = rules[R_PLAYERS]
    h = rules[R_HAND]
    G[:] = 0
    for s in range(n):                   # the seats in play; of the observations their core
        for j in range(P.shape[1]):      # (a public record is filled afresh when asked for)
            P[s, j] = 0
        for j in range(L.OBS_CORE):
            obs[s, j] = 0
        obs[s, L.OBS_FULL] = 0
        obs[s, L.OBS_TRUE] = 0             # what a ceiling saw last hand
    G[L.G_NSEATS] = n
    G[L.G_DEALER] = dealer
    G[L.G_TRUMP] = -1
    G[L.G_TRUMP_TRICK] = -1
    G[L.G_STAGE] = 1
    G[L.G_LAST_WINNER] = -1
    G[L.G_STATUS] = L.ST_INCOMPLETE
    G[L.G_WINDOW_SEAT] = -1
    G[L.G_CARTE_FIRST] = -1
    G[L.G_GAME_CLAIM] = -1
    for i in range(4):
        G[L.G_DRAWN + i] = -1
    _clear_trick(G, 4)
    for i in range(n):
        s = packet_seat(dealer, n, i)
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
        G[L.G_TRUMP] = card_suit(turnup)
        G[L.G_TRUMP_HOW] = L.TRUMP_BY_TURNUP
        G[L.G_TRUMP_TRICK] = 0
        record_event(ev, G, L.E_TURNUP, dealer, turnup, 0, 0, 0)
        if card_rank(turnup) == SEVEN and rules[R_SEVEN]:     # R2.2
            P[dealer, L.P_SEVEN] += rules[R_SEVEN_POINTS]
            P[dealer, L.P_SCORE] += rules[R_SEVEN_POINTS]
            record_event(ev, G, L.E_TURNUP_SEVEN, dealer, turnup, rules[R_SEVEN_POINTS], 0, 0)
    else:
        for j in range(k, total):
            talon[m] = deck[j]
            m += 1
    G[L.G_TALON_LEN] = m
    G[L.G_LEADER] = (dealer + 1) % n                    # R2.3: the eldest hand leads
    for s in range(n):
        obs[s, L.OBS_SEAT] = s                    # the fields that stay fixed for the hand
        obs[s, L.OBS_N_SEATS] = n
        obs[s, L.OBS_DEALER_REL] = rel_seat(dealer, s, n)
        obs[s, L.OBS_PACKS] = rules[R_PACKS]
        P[s, L.P_RECV_QS] = P[s, L.P_HAND + QS]
        P[s, L.P_RECV_JD] = P[s, L.P_HAND + JD]
        P[s, L.P_MELD_CAND] = ALL_COMBOS
        on_receive(G, P, s, -1)
    if rules[R_CARTE_BLANCHE]:                  # the round of the dealt hands (R3.5)
        _begin_carte(rules, st, G[L.G_LEADER])
    else:
        _begin_trick(rules, st)


# --- whose decision, of what kind, and what may be done ---------------------------------

@njit(cache=True, _nrt=False, inline="always")
def is_over(st):
    """Whether the hand has been played to its end."""
    return st.G[L.G_PHASE] == L.PH_OVER


@njit(cache=True, _nrt=False, inline="always")
def to_act(st):
    """The seat whose decision comes next."""
    return st.G[L.G_TO_ACT]


@njit(cache=True, _nrt=False, inline="always")
def decision(st):
    """The kind of the next decision: D_LEAD, D_FOLLOW, D_MELD or D_CARTE (-1: over)."""
    phase = st.G[L.G_PHASE]
    if phase == L.PH_PLAY:
        return L.D_LEAD if st.G[L.G_TRICK_POS] == 0 else L.D_FOLLOW
    if phase == L.PH_MELD:
        return L.D_MELD
    if phase == L.PH_CARTE:
        return L.D_CARTE
    if phase == L.PH_CLAIM:
        return L.D_CLAIM
    return -1


@njit(cache=True, _nrt=False)
def can_exchange(rules, G, P, talon, s):
    """R2.9: seat ``s`` holds the seven of trumps and may take the turn-up."""
    if not rules[R_SEVEN] or G[L.G_STAGE] != 1 or G[L.G_TRUMP] < 0 or G[L.G_EXCHANGES] > 0:
        return False
    if card_rank(talon[G[L.G_TALON_LEN] - 1]) == SEVEN:
        return False
    return P[s, L.P_HAND + card_of(G[L.G_TRUMP], SEVEN)] > 0


@njit(cache=True, _nrt=False)          # not inlined: a few calls a trick; inlined, it doubled play_out's compile
def _window_actions(rules, st):
    """R2.6/R2.16/R2.18, R3.7: what the trick winner may do in his declaration window, into
    ``st.legal``; A_STOP (end the window) last. Keeps the seat's set of combinations worth
    checking (P_MELD_CAND) up to date."""
    G, P, T, legal = st.G, st.P, st.T, st.legal
    s = G[L.G_WINDOW_SEAT]
    req_t = st.work[L.W_REQ_T:L.W_REQ_T + L.REQ_W]
    req_n = st.work[L.W_REQ_N:L.W_REQ_N + L.REQ_W]
    declared = G[L.G_DECLARED]
    nleg = 0
    cand = combo_screen_mask(P, s, P[s, L.P_MELD_CAND])
    if declared == 0 or rules[R_DECLARE_ALL]:
        found = 0
        rest = cand
        while rest != 0:                    # the candidates, lowest first
            c = trailing_zeros(rest)
            rest &= rest - 1
            if combo_check(rules, G, P, T, s, c, req_t, req_n)[0]:
                legal[nleg] = declare_action(c)
                nleg += 1
                found |= 1 << c
        P[s, L.P_MELD_CAND] = found
        cand = found
    winner = s == G[L.G_LEADER]
    if winner and can_exchange(rules, G, P, st.talon, s):       # the winner's (R2.9)
        legal[nleg] = L.A_EXCHANGE
        nleg += 1
    if winner and declared == 0 and rules[R_PARTNER_DECLARES]:  # V5 option
        legal[nleg] = L.A_PARTNER
        nleg += 1
    if declared > 0 and rules[R_CLAIMS]:                 # R3.7: combinations of a hand card
        rest = cand & hand_combos(P, s)
        while rest != 0:
            c = trailing_zeros(rest)
            rest &= rest - 1
            if claim_possible(rules, G, P, T, s, c, req_t, req_n):
                legal[nleg] = claim_action(c)
                nleg += 1
    legal[nleg] = L.A_STOP
    return nleg + 1


@njit(cache=True, _nrt=False, inline="always")
def legal_actions(rules, st):
    """Write the legal actions of the seat to act into ``st.legal``; return (how many, the
    same as a bit set over actions 0..63 for a play, else 0)."""
    G = st.G
    phase = G[L.G_PHASE]
    if phase == L.PH_PLAY:
        plays = legal_play_bits(st.P, G[L.G_TO_ACT], G[L.G_STAGE], G[L.G_LEAD], G[L.G_BEST], G[L.G_TRUMP])
        return list_bits(plays, st.legal), plays
    if phase == L.PH_MELD:
        return _window_actions(rules, st), 0
    if phase == L.PH_CARTE:
        st.legal[0] = L.A_CARTE_BLANCHE
        st.legal[1] = L.A_STOP
        return 2, 0
    if phase == L.PH_CLAIM:
        st.legal[0] = L.A_CLAIM_GAME
        st.legal[1] = L.A_STOP
        return 2, 0
    return 0, 0


@njit(cache=True, _nrt=False, inline="always")
def observe(rules, st, s):
    """Fill seat ``s``'s observation with the facts of the decision it faces (the rest of
    the observation is kept up to date as cards move), and its public record too when its
    bit of G_FULL_OBS is set (observe.observe_public)."""
    G, P = st.G, st.P
    n = G[L.G_NSEATS]
    o = st.obs[s]
    phase = G[L.G_PHASE]
    o[L.OBS_DECISION] = decision(st)
    o[L.OBS_TRUMP] = G[L.G_TRUMP]
    left = G[L.G_TALON_LEN] - G[L.G_TALON_POS]
    o[L.OBS_TALON_LEFT] = left
    o[L.OBS_TURNUP] = st.talon[G[L.G_TALON_LEN] - 1] if left > 0 and rules[R_TURNUP] else -1
    o[L.OBS_STAGE] = G[L.G_STAGE]
    o[L.OBS_TRICK] = G[L.G_TRICK]
    playing = phase == L.PH_PLAY or phase == L.PH_CLAIM
    best_seat = G[L.G_BEST_SEAT] if playing else -1
    o[L.OBS_LEAD_CARD] = G[L.G_LEAD] if playing else -1
    o[L.OBS_BEST_CARD] = G[L.G_BEST] if playing else -1
    o[L.OBS_BEST_REL] = rel_seat(best_seat, s, n) if best_seat >= 0 else -1
    o[L.OBS_DECLARED] = G[L.G_DECLARED] if phase == L.PH_MELD else 0
    o[L.OBS_EXCHANGED] = G[L.G_EXCHANGES]
    o[L.OBS_TRICK_POS] = G[L.G_TRICK_POS] if playing else 0
    for v in range(n):
        r = rel_seat(v, s, n)
        o[L.OBS_SCORE + r] = P[v, L.P_SCORE]
        o[L.OBS_BRISQUES + r] = P[v, L.P_BRISQ]
        o[L.OBS_GAME + r] = P[v, L.P_BASE]
    if (G[L.G_FULL_OBS] >> s) & 1:
        observe_public(rules, st, s)
    if (G[L.G_FULL_OBS] >> (L.SEE_HANDS_BIT + s)) & 1:
        observe_true(st, s, (G[L.G_FULL_OBS] >> (L.SEE_TALON_BIT + s)) & 1)


@njit(cache=True)
def scores(st):
    """Each seat's score so far (at the end: the hand score)."""
    return st.P[:st.G[L.G_NSEATS], L.P_SCORE].copy()


# --- applying an action ------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def apply(rules, st, a):
    """The seat to act does ``a`` (one of :func:`legal_actions`; not checked here), and the
    hand is carried on to the next decision."""
    phase = st.G[L.G_PHASE]
    if phase == L.PH_PLAY:
        _play(rules, st, a)
    elif phase == L.PH_MELD:
        if a == L.A_STOP:
            _draw_round(rules, st)
        elif a == L.A_EXCHANGE:
            _exchange(rules, st, st.G[L.G_WINDOW_SEAT])
        elif a == L.A_PARTNER:
            pass_to_partner(st)
        elif a >= L.A_CLAIM:
            claim(rules, st, st.G[L.G_WINDOW_SEAT], claimed_combo(a))
        else:
            four = st.work[L.W_FOUR:L.W_FOUR + L.FOUR_W]
            four[:] = -1
            declare_named(rules, st, declared_combo(a), four)
    elif phase == L.PH_CARTE:
        i = st.G[L.G_CARTE_I]
        if a == L.A_CARTE_BLANCHE:
            show_carte(rules, st.G, st.P, st.ev, st.G[L.G_TO_ACT], st.G[L.G_DRAWN + i])
        _next_carte(rules, st, i + 1)
    elif phase == L.PH_CLAIM:
        if a == L.A_CLAIM_GAME:
            claim_game(rules, st)
        else:
            st.G[L.G_PHASE] = L.PH_PLAY


@njit(cache=True, _nrt=False)
def declare_named(rules, st, c, four_cards):
    """The window's seat declares ``c``; ``four_cards`` names a four's cards (-1: the
    engine chooses the suits). Replays name them; :func:`apply` lets the engine choose."""
    declare(rules, st, st.G[L.G_WINDOW_SEAT], c, four_cards)
    st.G[L.G_DECLARED] += 1


@njit(cache=True, _nrt=False)
def claim_named(rules, st, cards):
    """R3.7: the window's seat lays the cards ``cards`` (-1 ends the list) for a claim."""
    claim_cards(rules, st, st.G[L.G_WINDOW_SEAT], cards)


@njit(cache=True, _nrt=False)
def apply_once(rules, st, a):
    """:func:`apply`, compiled once as a function of its own. ``apply`` is inlined
    (``inline="always"``) wherever it is called, and its body is most of a kernel's compile
    time: the replay, which calls it at eight places, calls this instead. The hot loop
    (``play.play_out``) keeps ``apply`` inlined: calling this from it played 67,300 greedy
    hands/s on one core against 97,800 (docs/performance.md, "The first compile")."""
    apply(rules, st, a)


@njit(cache=True, _nrt=False, inline="always")
def _clear_trick(G, n):
    """The trick is over: its fields at rest (a state is the same whoever made it)."""
    G[L.G_TRICK_POS] = 0
    G[L.G_LEAD] = -1
    G[L.G_BEST] = -1
    G[L.G_BEST_SEAT] = -1
    G[L.G_LEAD_TABLE] = 0
    for j in range(n):
        G[L.G_TRICK_CARDS + j] = -1


@njit(cache=True, _nrt=False, inline="always")
def _begin_trick(rules, st):
    """The leader's turn (the trick's fields are at rest)."""
    _turn(rules, st, st.G[L.G_LEADER])


@njit(cache=True, _nrt=False, inline="always")
def _turn(rules, st, s):
    """Seat ``s`` is to play a card; in a game limited to a fixed point, if it has reached
    the target (its game total, this hand's points and its brisques so far) it is first
    asked whether it claims the game (V3)."""
    G = st.G
    G[L.G_TO_ACT] = s
    G[L.G_PHASE] = L.PH_PLAY
    if rules[R_FIXED_POINT] > 0 and claim_is_right(rules, st, s):
        G[L.G_PHASE] = L.PH_CLAIM


@njit(cache=True, _nrt=False, inline="always")
def _play(rules, st, a):
    """The seat to act plays ``a`` to the trick; the trick is resolved when it is full."""
    G, P, obs, ev = st.G, st.P, st.obs, st.ev
    n = G[L.G_NSEATS]
    s = G[L.G_TO_ACT]
    i = G[L.G_TRICK_POS]
    stage = G[L.G_STAGE]
    trump = G[L.G_TRUMP]
    card = played_card(a)
    if plays_from_table(a):
        play_from_table(rules, P, st.T, obs, n, s, card)
    else:
        add_hand(P, obs, s, card, -1)
    mark_played(obs, n, card)
    G[L.G_TRICK_CARDS + i] = card
    on_play(P, s, card, stage)
    record_event(ev, G, L.E_PLAY, s, card, 1 if plays_from_table(a) else 0, G[L.G_TRICK], 0)
    if stage == 1 and rules[R_SEVEN] and card == card_of(trump, SEVEN):   # R2.10
        P[s, L.P_SEVEN] += rules[R_SEVEN_POINTS]
        P[s, L.P_SCORE] += rules[R_SEVEN_POINTS]
        record_event(ev, G, L.E_SEVEN, s, card, rules[R_SEVEN_POINTS], 0, 0)
    if i == 0:
        G[L.G_LEAD] = card
        G[L.G_LEAD_TABLE] = 1 if plays_from_table(a) else 0
        G[L.G_BEST] = card
        G[L.G_BEST_SEAT] = s
    elif beats(card, G[L.G_BEST], trump):
        G[L.G_BEST] = card
        G[L.G_BEST_SEAT] = s
    i += 1
    if i < n:
        G[L.G_TRICK_POS] = i
        nxt = s + 1                          # (s + 1) % n without a division
        _turn(rules, st, nxt - n if nxt >= n else nxt)
        return
    winner = G[L.G_BEST_SEAT]
    nb = 0
    for j in range(n):
        if is_brisque(G[L.G_TRICK_CARDS + j]):
            nb += 1
    P[winner, L.P_BRISQ] += nb
    P[winner, L.P_WON] += n
    P[winner, L.P_TRICKS] += 1
    record_event(ev, G, L.E_TRICK, winner, G[L.G_TRICK], nb, 0, 0)
    G[L.G_TRICK] += 1
    G[L.G_LEADER] = winner
    _clear_trick(G, n)
    if stage == 1:                           # R2.6: the winner's declaration window
        G[L.G_PHASE] = L.PH_MELD
        G[L.G_WINDOW_SEAT] = winner
        G[L.G_TO_ACT] = winner
        G[L.G_DECLARED] = 0
        return
    if card_mask(P, winner, L.P_HAND_MASK) != 0:
        _begin_trick(rules, st)
        return
    G[L.G_LAST_WINNER] = winner                # R2.21
    P[winner, L.P_LAST] += rules[R_LAST_TRICK]
    P[winner, L.P_SCORE] += rules[R_LAST_TRICK]
    record_event(ev, G, L.E_LAST_TRICK, winner, rules[R_LAST_TRICK], 0, 0, 0)
    count_brisques(rules, st)
    G[L.G_STATUS] = L.ST_DONE
    G[L.G_PHASE] = L.PH_OVER
    G[L.G_TO_ACT] = -1


@njit(cache=True, _nrt=False)
def _exchange(rules, st, s):
    """R2.9: seat ``s`` exchanges the seven of trumps for the turn-up and scores 10."""
    G, P, obs, talon = st.G, st.P, st.obs, st.talon
    seven = card_of(G[L.G_TRUMP], SEVEN)
    last = G[L.G_TALON_LEN] - 1
    taken = talon[last]
    talon[last] = seven
    add_hand(P, obs, s, seven, -1)
    add_hand(P, obs, s, taken, 1)
    P[s, L.P_KNOWN + taken] += 1             # everyone saw the turn-up taken
    on_receive(G, P, s, taken)             # the turn-up taken is a card received
    G[L.G_EXCHANGES] += 1
    P[s, L.P_SEVEN] += rules[R_SEVEN_POINTS]
    P[s, L.P_SCORE] += rules[R_SEVEN_POINTS]
    record_event(st.ev, G, L.E_EXCHANGE, s, seven, taken, rules[R_SEVEN_POINTS], 0)


@njit(cache=True, _nrt=False)          # not inlined: a few calls a trick; inlined, it doubled play_out's compile
def _draw_round(rules, st):
    """R2.8: the window is over; the winner draws first, then round the table; then the
    carte-blanche shows of the cards drawn (R3.5), the second stage once the talon is out."""
    G, P = st.G, st.P
    n = G[L.G_NSEATS]
    winner = G[L.G_LEADER]                     # (V5: his partner may hold the window)
    for i in range(n):
        s = winner + i
        if s >= n:
            s -= n
        card = st.talon[G[L.G_TALON_POS]]
        G[L.G_TALON_POS] += 1
        add_hand(P, st.obs, s, card, 1)
        on_receive(G, P, s, card)
        G[L.G_DRAWN + i] = card
        record_event(st.ev, G, L.E_DRAW, s, card, 0, 0, 0)
    showing = False
    for i in range(n):
        showing |= P[i, L.P_CARTE] == 1
    if rules[R_CARTE_BLANCHE] and showing:
        _begin_carte(rules, st, winner)
    else:
        _after_draws(rules, st)


@njit(cache=True, _nrt=False)          # not inlined: a few calls a trick; inlined, it doubled play_out's compile
def _after_draws(rules, st):
    """R2.18-R2.19: when the talon is out the second stage begins; then the next trick."""
    G = st.G
    G[L.G_WINDOW_SEAT] = -1                    # the window and the round of draws are over
    G[L.G_DECLARED] = 0
    if G[L.G_CARTE_FIRST] >= 0:
        G[L.G_CARTE_FIRST] = -1
        G[L.G_CARTE_I] = 0
    for i in range(G[L.G_NSEATS]):
        G[L.G_DRAWN + i] = -1
    if G[L.G_TALON_POS] == G[L.G_TALON_LEN]:
        n = G[L.G_NSEATS]
        on_talon_out(st.P, n)
        G[L.G_STAGE] = 2
        take_table_back(st.P, st.T, st.obs, n)              # R2.19
        record_event(st.ev, G, L.E_STAGE2, G[L.G_LEADER], 0, 0, 0, 0)
    _begin_trick(rules, st)


@njit(cache=True, _nrt=False)
def _begin_carte(rules, st, first):
    """R3.5: a round of carte-blanche shows, seats asked from ``first`` round the table:
    before the first card (G_DRAWN all -1) or after a round of draws (G_DRAWN[i]: the card
    seat first + i drew). The first court card drawn ends a seat's repeats."""
    G = st.G
    n = G[L.G_NSEATS]
    G[L.G_CARTE_FIRST] = first
    if G[L.G_DRAWN] >= 0:
        for i in range(n):
            if is_court(G[L.G_DRAWN + i]):
                st.P[(first + i) % n, L.P_CARTE] = 0
    _next_carte(rules, st, np.int64(0))     # typed, not a literal: one compiled signature


@njit(cache=True, _nrt=False)
def _next_carte(rules, st, i0):
    """Ask the next seat of the round that may show (from index ``i0``); after the last, go
    on with the play."""
    G = st.G
    n = G[L.G_NSEATS]
    first = G[L.G_CARTE_FIRST]
    for i in range(i0, n):
        s = (first + i) % n
        if carte_eligible(st.P, s, G[L.G_DRAWN + i]):
            G[L.G_PHASE] = L.PH_CARTE
            G[L.G_CARTE_I] = i
            G[L.G_TO_ACT] = s
            return
    if G[L.G_DRAWN] < 0:                      # the dealt hands' round: the first trick
        G[L.G_CARTE_FIRST] = -1
        G[L.G_CARTE_I] = 0
        _begin_trick(rules, st)
    else:
        _after_draws(rules, st)
