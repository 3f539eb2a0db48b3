"""One hand as a state machine (R2.1-R2.23, R3.1-R3.5).

:func:`deal_into` deals a hand into a HandState and stops at the first decision;
:func:`to_act`, :func:`decision` and :func:`legal_actions` say whose decision comes next,
of what kind and what may be done; :func:`apply` does one action and carries the hand on
(tricks resolved, draws, the second stage, the score) to the next decision. Between two
decisions everything the hand knows lives in the HandState, so a hand can be stopped,
copied (state.copy_into) and resumed. The drivers: play.play_out (policies) and
replay.replay (a script of moves).
"""
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
from .layout import (
    A_CARTE_BLANCHE,
    A_CLAIM,
    A_CLAIM_GAME,
    A_EXCHANGE,
    A_PARTNER,
    A_STOP,
    D_CARTE,
    D_CLAIM,
    D_FOLLOW,
    D_LEAD,
    D_MELD,
    E_DRAW,
    E_EXCHANGE,
    E_LAST_TRICK,
    E_PLAY,
    E_SEVEN,
    E_STAGE2,
    E_TRICK,
    E_TURNUP,
    E_TURNUP_SEVEN,
    FOUR_W,
    G_BEST,
    G_BEST_SEAT,
    G_CARTE_FIRST,
    G_CARTE_I,
    G_DEALER,
    G_DECLARED,
    G_DRAWN,
    G_EXCHANGES,
    G_FULL_OBS,
    SEE_HANDS_BIT,
    SEE_TALON_BIT,
    G_GAME_CLAIM,
    G_LAST_WINNER,
    G_LEAD,
    G_LEADER,
    G_NSEATS,
    G_PHASE,
    G_STAGE,
    G_STATUS,
    G_TALON_LEN,
    G_TALON_POS,
    G_TO_ACT,
    G_TRICK,
    G_TRICK_CARDS,
    G_LEAD_TABLE,
    G_TRICK_POS,
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
    OBS_CORE,
    OBS_EXCHANGED,
    OBS_FULL,
    OBS_TRUE,
    OBS_GAME,
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
    P_BASE,
    P_BRISQ,
    P_CARTE,
    P_HAND,
    P_HAND_MASK,
    P_KNOWN,
    P_LAST,
    P_MELD_CAND,
    P_RECV_JD,
    P_RECV_QS,
    P_SCORE,
    P_SEVEN,
    P_TRICKS,
    P_WON,
    PH_CARTE,
    PH_CLAIM,
    PH_MELD,
    PH_OVER,
    PH_PLAY,
    REQ_W,
    ST_DONE,
    ST_INCOMPLETE,
    TRUMP_BY_TURNUP,
    W_FOUR,
    W_REQ_N,
    W_REQ_T,
)
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
        for j in range(OBS_CORE):
            obs[s, j] = 0
        obs[s, OBS_FULL] = 0
        obs[s, OBS_TRUE] = 0             # what a ceiling saw last hand
    G[G_NSEATS] = n
    G[G_DEALER] = dealer
    G[G_TRUMP] = -1
    G[G_TRUMP_TRICK] = -1
    G[G_STAGE] = 1
    G[G_LAST_WINNER] = -1
    G[G_STATUS] = ST_INCOMPLETE
    G[G_WINDOW_SEAT] = -1
    G[G_CARTE_FIRST] = -1
    G[G_GAME_CLAIM] = -1
    for i in range(4):
        G[G_DRAWN + i] = -1
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
        G[G_TRUMP] = card_suit(turnup)
        G[G_TRUMP_HOW] = TRUMP_BY_TURNUP
        G[G_TRUMP_TRICK] = 0
        record_event(ev, G, E_TURNUP, dealer, turnup, 0, 0, 0)
        if card_rank(turnup) == SEVEN and rules[R_SEVEN]:     # R2.2
            P[dealer, P_SEVEN] += rules[R_SEVEN_POINTS]
            P[dealer, P_SCORE] += rules[R_SEVEN_POINTS]
            record_event(ev, G, E_TURNUP_SEVEN, dealer, turnup, rules[R_SEVEN_POINTS], 0, 0)
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
        P[s, P_RECV_QS] = P[s, P_HAND + QS]
        P[s, P_RECV_JD] = P[s, P_HAND + JD]
        P[s, P_MELD_CAND] = ALL_COMBOS
        on_receive(G, P, s, -1)
    if rules[R_CARTE_BLANCHE]:                  # the round of the dealt hands (R3.5)
        _begin_carte(rules, st, G[G_LEADER])
    else:
        _begin_trick(rules, st)


# --- whose decision, of what kind, and what may be done ---------------------------------

@njit(cache=True, _nrt=False, inline="always")
def is_over(st):
    """Whether the hand has been played to its end."""
    return st.G[G_PHASE] == PH_OVER


@njit(cache=True, _nrt=False, inline="always")
def to_act(st):
    """The seat whose decision comes next."""
    return st.G[G_TO_ACT]


@njit(cache=True, _nrt=False, inline="always")
def decision(st):
    """The kind of the next decision: D_LEAD, D_FOLLOW, D_MELD or D_CARTE (-1: over)."""
    phase = st.G[G_PHASE]
    if phase == PH_PLAY:
        return D_LEAD if st.G[G_TRICK_POS] == 0 else D_FOLLOW
    if phase == PH_MELD:
        return D_MELD
    if phase == PH_CARTE:
        return D_CARTE
    if phase == PH_CLAIM:
        return D_CLAIM
    return -1


@njit(cache=True, _nrt=False)
def can_exchange(rules, G, P, talon, s):
    """R2.9: seat ``s`` holds the seven of trumps and may take the turn-up."""
    if not rules[R_SEVEN] or G[G_STAGE] != 1 or G[G_TRUMP] < 0 or G[G_EXCHANGES] > 0:
        return False
    if card_rank(talon[G[G_TALON_LEN] - 1]) == SEVEN:
        return False
    return P[s, P_HAND + card_of(G[G_TRUMP], SEVEN)] > 0


@njit(cache=True, _nrt=False)          # not inlined: a few calls a trick; inlined, it doubled play_out's compile
def _window_actions(rules, st):
    """R2.6/R2.16/R2.18, R3.7: what the trick winner may do in his declaration window, into
    ``st.legal``; A_STOP (end the window) last. Keeps the seat's set of combinations worth
    checking (P_MELD_CAND) up to date."""
    G, P, T, legal = st.G, st.P, st.T, st.legal
    s = G[G_WINDOW_SEAT]
    req_t = st.work[W_REQ_T:W_REQ_T + REQ_W]
    req_n = st.work[W_REQ_N:W_REQ_N + REQ_W]
    declared = G[G_DECLARED]
    nleg = 0
    cand = combo_screen_mask(P, s, P[s, P_MELD_CAND])
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
        P[s, P_MELD_CAND] = found
        cand = found
    winner = s == G[G_LEADER]
    if winner and can_exchange(rules, G, P, st.talon, s):       # the winner's (R2.9)
        legal[nleg] = A_EXCHANGE
        nleg += 1
    if winner and declared == 0 and rules[R_PARTNER_DECLARES]:  # V5 option
        legal[nleg] = A_PARTNER
        nleg += 1
    if declared > 0 and rules[R_CLAIMS]:                 # R3.7: combinations of a hand card
        rest = cand & hand_combos(P, s)
        while rest != 0:
            c = trailing_zeros(rest)
            rest &= rest - 1
            if claim_possible(rules, G, P, T, s, c, req_t, req_n):
                legal[nleg] = claim_action(c)
                nleg += 1
    legal[nleg] = A_STOP
    return nleg + 1


@njit(cache=True, _nrt=False, inline="always")
def legal_actions(rules, st):
    """Write the legal actions of the seat to act into ``st.legal``; return (how many, the
    same as a bit set over actions 0..63 for a play, else 0)."""
    G = st.G
    phase = G[G_PHASE]
    if phase == PH_PLAY:
        plays = legal_play_bits(st.P, G[G_TO_ACT], G[G_STAGE], G[G_LEAD], G[G_BEST], G[G_TRUMP])
        return list_bits(plays, st.legal), plays
    if phase == PH_MELD:
        return _window_actions(rules, st), 0
    if phase == PH_CARTE:
        st.legal[0] = A_CARTE_BLANCHE
        st.legal[1] = A_STOP
        return 2, 0
    if phase == PH_CLAIM:
        st.legal[0] = A_CLAIM_GAME
        st.legal[1] = A_STOP
        return 2, 0
    return 0, 0


@njit(cache=True, _nrt=False, inline="always")
def observe(rules, st, s):
    """Fill seat ``s``'s observation with the facts of the decision it faces (the rest of
    the observation is kept up to date as cards move), and its public record too when its
    bit of G_FULL_OBS is set (observe.observe_public)."""
    G, P = st.G, st.P
    n = G[G_NSEATS]
    o = st.obs[s]
    phase = G[G_PHASE]
    o[OBS_DECISION] = decision(st)
    o[OBS_TRUMP] = G[G_TRUMP]
    left = G[G_TALON_LEN] - G[G_TALON_POS]
    o[OBS_TALON_LEFT] = left
    o[OBS_TURNUP] = st.talon[G[G_TALON_LEN] - 1] if left > 0 and rules[R_TURNUP] else -1
    o[OBS_STAGE] = G[G_STAGE]
    o[OBS_TRICK] = G[G_TRICK]
    playing = phase == PH_PLAY or phase == PH_CLAIM
    best_seat = G[G_BEST_SEAT] if playing else -1
    o[OBS_LEAD_CARD] = G[G_LEAD] if playing else -1
    o[OBS_BEST_CARD] = G[G_BEST] if playing else -1
    o[OBS_BEST_REL] = rel_seat(best_seat, s, n) if best_seat >= 0 else -1
    o[OBS_DECLARED] = G[G_DECLARED] if phase == PH_MELD else 0
    o[OBS_EXCHANGED] = G[G_EXCHANGES]
    o[OBS_TRICK_POS] = G[G_TRICK_POS] if playing else 0
    for v in range(n):
        r = rel_seat(v, s, n)
        o[OBS_SCORE + r] = P[v, P_SCORE]
        o[OBS_BRISQUES + r] = P[v, P_BRISQ]
        o[OBS_GAME + r] = P[v, P_BASE]
    if (G[G_FULL_OBS] >> s) & 1:
        observe_public(rules, st, s)
    if (G[G_FULL_OBS] >> (SEE_HANDS_BIT + s)) & 1:
        observe_true(st, s, (G[G_FULL_OBS] >> (SEE_TALON_BIT + s)) & 1)


@njit(cache=True)
def scores(st):
    """Each seat's score so far (at the end: the hand score)."""
    return st.P[:st.G[G_NSEATS], P_SCORE].copy()


# --- applying an action ------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def apply(rules, st, a):
    """The seat to act does ``a`` (one of :func:`legal_actions`; not checked here), and the
    hand is carried on to the next decision."""
    phase = st.G[G_PHASE]
    if phase == PH_PLAY:
        _play(rules, st, a)
    elif phase == PH_MELD:
        if a == A_STOP:
            _draw_round(rules, st)
        elif a == A_EXCHANGE:
            _exchange(rules, st, st.G[G_WINDOW_SEAT])
        elif a == A_PARTNER:
            pass_to_partner(st)
        elif a >= A_CLAIM:
            claim(rules, st, st.G[G_WINDOW_SEAT], claimed_combo(a))
        else:
            four = st.work[W_FOUR:W_FOUR + FOUR_W]
            four[:] = -1
            declare_named(rules, st, declared_combo(a), four)
    elif phase == PH_CARTE:
        i = st.G[G_CARTE_I]
        if a == A_CARTE_BLANCHE:
            show_carte(rules, st.G, st.P, st.ev, st.G[G_TO_ACT], st.G[G_DRAWN + i])
        _next_carte(rules, st, i + 1)
    elif phase == PH_CLAIM:
        if a == A_CLAIM_GAME:
            claim_game(rules, st)
        else:
            st.G[G_PHASE] = PH_PLAY


@njit(cache=True, _nrt=False)
def declare_named(rules, st, c, four_cards):
    """The window's seat declares ``c``; ``four_cards`` names a four's cards (-1: the
    engine chooses the suits). Replays name them; :func:`apply` lets the engine choose."""
    declare(rules, st, st.G[G_WINDOW_SEAT], c, four_cards)
    st.G[G_DECLARED] += 1


@njit(cache=True, _nrt=False)
def claim_named(rules, st, cards):
    """R3.7: the window's seat lays the cards ``cards`` (-1 ends the list) for a claim."""
    claim_cards(rules, st, st.G[G_WINDOW_SEAT], cards)


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
    G[G_TRICK_POS] = 0
    G[G_LEAD] = -1
    G[G_BEST] = -1
    G[G_BEST_SEAT] = -1
    G[G_LEAD_TABLE] = 0
    for j in range(n):
        G[G_TRICK_CARDS + j] = -1


@njit(cache=True, _nrt=False, inline="always")
def _begin_trick(rules, st):
    """The leader's turn (the trick's fields are at rest)."""
    _turn(rules, st, st.G[G_LEADER])


@njit(cache=True, _nrt=False, inline="always")
def _turn(rules, st, s):
    """Seat ``s`` is to play a card; in a game limited to a fixed point, if it has reached
    the target (its game total, this hand's points and its brisques so far) it is first
    asked whether it claims the game (V3)."""
    G = st.G
    G[G_TO_ACT] = s
    G[G_PHASE] = PH_PLAY
    if rules[R_FIXED_POINT] > 0 and claim_is_right(rules, st, s):
        G[G_PHASE] = PH_CLAIM


@njit(cache=True, _nrt=False, inline="always")
def _play(rules, st, a):
    """The seat to act plays ``a`` to the trick; the trick is resolved when it is full."""
    G, P, obs, ev = st.G, st.P, st.obs, st.ev
    n = G[G_NSEATS]
    s = G[G_TO_ACT]
    i = G[G_TRICK_POS]
    stage = G[G_STAGE]
    trump = G[G_TRUMP]
    card = played_card(a)
    if plays_from_table(a):
        play_from_table(rules, P, st.T, obs, n, s, card)
    else:
        add_hand(P, obs, s, card, -1)
    mark_played(obs, n, card)
    G[G_TRICK_CARDS + i] = card
    on_play(P, s, card, stage)
    record_event(ev, G, E_PLAY, s, card, 1 if plays_from_table(a) else 0, G[G_TRICK], 0)
    if stage == 1 and rules[R_SEVEN] and card == card_of(trump, SEVEN):   # R2.10
        P[s, P_SEVEN] += rules[R_SEVEN_POINTS]
        P[s, P_SCORE] += rules[R_SEVEN_POINTS]
        record_event(ev, G, E_SEVEN, s, card, rules[R_SEVEN_POINTS], 0, 0)
    if i == 0:
        G[G_LEAD] = card
        G[G_LEAD_TABLE] = 1 if plays_from_table(a) else 0
        G[G_BEST] = card
        G[G_BEST_SEAT] = s
    elif beats(card, G[G_BEST], trump):
        G[G_BEST] = card
        G[G_BEST_SEAT] = s
    i += 1
    if i < n:
        G[G_TRICK_POS] = i
        nxt = s + 1                          # (s + 1) % n without a division
        _turn(rules, st, nxt - n if nxt >= n else nxt)
        return
    winner = G[G_BEST_SEAT]
    nb = 0
    for j in range(n):
        if is_brisque(G[G_TRICK_CARDS + j]):
            nb += 1
    P[winner, P_BRISQ] += nb
    P[winner, P_WON] += n
    P[winner, P_TRICKS] += 1
    record_event(ev, G, E_TRICK, winner, G[G_TRICK], nb, 0, 0)
    G[G_TRICK] += 1
    G[G_LEADER] = winner
    _clear_trick(G, n)
    if stage == 1:                           # R2.6: the winner's declaration window
        G[G_PHASE] = PH_MELD
        G[G_WINDOW_SEAT] = winner
        G[G_TO_ACT] = winner
        G[G_DECLARED] = 0
        return
    if card_mask(P, winner, P_HAND_MASK) != 0:
        _begin_trick(rules, st)
        return
    G[G_LAST_WINNER] = winner                # R2.21
    P[winner, P_LAST] += rules[R_LAST_TRICK]
    P[winner, P_SCORE] += rules[R_LAST_TRICK]
    record_event(ev, G, E_LAST_TRICK, winner, rules[R_LAST_TRICK], 0, 0, 0)
    count_brisques(rules, st)
    G[G_STATUS] = ST_DONE
    G[G_PHASE] = PH_OVER
    G[G_TO_ACT] = -1


@njit(cache=True, _nrt=False)
def _exchange(rules, st, s):
    """R2.9: seat ``s`` exchanges the seven of trumps for the turn-up and scores 10."""
    G, P, obs, talon = st.G, st.P, st.obs, st.talon
    seven = card_of(G[G_TRUMP], SEVEN)
    last = G[G_TALON_LEN] - 1
    taken = talon[last]
    talon[last] = seven
    add_hand(P, obs, s, seven, -1)
    add_hand(P, obs, s, taken, 1)
    P[s, P_KNOWN + taken] += 1             # everyone saw the turn-up taken
    on_receive(G, P, s, taken)             # the turn-up taken is a card received
    G[G_EXCHANGES] += 1
    P[s, P_SEVEN] += rules[R_SEVEN_POINTS]
    P[s, P_SCORE] += rules[R_SEVEN_POINTS]
    record_event(st.ev, G, E_EXCHANGE, s, seven, taken, rules[R_SEVEN_POINTS], 0)


@njit(cache=True, _nrt=False)          # not inlined: a few calls a trick; inlined, it doubled play_out's compile
def _draw_round(rules, st):
    """R2.8: the window is over; the winner draws first, then round the table; then the
    carte-blanche shows of the cards drawn (R3.5), the second stage once the talon is out."""
    G, P = st.G, st.P
    n = G[G_NSEATS]
    winner = G[G_LEADER]                     # (V5: his partner may hold the window)
    for i in range(n):
        s = winner + i
        if s >= n:
            s -= n
        card = st.talon[G[G_TALON_POS]]
        G[G_TALON_POS] += 1
        add_hand(P, st.obs, s, card, 1)
        on_receive(G, P, s, card)
        G[G_DRAWN + i] = card
        record_event(st.ev, G, E_DRAW, s, card, 0, 0, 0)
    showing = False
    for i in range(n):
        showing |= P[i, P_CARTE] == 1
    if rules[R_CARTE_BLANCHE] and showing:
        _begin_carte(rules, st, winner)
    else:
        _after_draws(rules, st)


@njit(cache=True, _nrt=False)          # not inlined: a few calls a trick; inlined, it doubled play_out's compile
def _after_draws(rules, st):
    """R2.18-R2.19: when the talon is out the second stage begins; then the next trick."""
    G = st.G
    G[G_WINDOW_SEAT] = -1                    # the window and the round of draws are over
    G[G_DECLARED] = 0
    if G[G_CARTE_FIRST] >= 0:
        G[G_CARTE_FIRST] = -1
        G[G_CARTE_I] = 0
    for i in range(G[G_NSEATS]):
        G[G_DRAWN + i] = -1
    if G[G_TALON_POS] == G[G_TALON_LEN]:
        n = G[G_NSEATS]
        on_talon_out(st.P, n)
        G[G_STAGE] = 2
        take_table_back(st.P, st.T, st.obs, n)              # R2.19
        record_event(st.ev, G, E_STAGE2, G[G_LEADER], 0, 0, 0, 0)
    _begin_trick(rules, st)


@njit(cache=True, _nrt=False)
def _begin_carte(rules, st, first):
    """R3.5: a round of carte-blanche shows, seats asked from ``first`` round the table:
    before the first card (G_DRAWN all -1) or after a round of draws (G_DRAWN[i]: the card
    seat first + i drew). The first court card drawn ends a seat's repeats."""
    G = st.G
    n = G[G_NSEATS]
    G[G_CARTE_FIRST] = first
    if G[G_DRAWN] >= 0:
        for i in range(n):
            if is_court(G[G_DRAWN + i]):
                st.P[(first + i) % n, P_CARTE] = 0
    _next_carte(rules, st, 0)


@njit(cache=True, _nrt=False)
def _next_carte(rules, st, i0):
    """Ask the next seat of the round that may show (from index ``i0``); after the last, go
    on with the play."""
    G = st.G
    n = G[G_NSEATS]
    first = G[G_CARTE_FIRST]
    for i in range(i0, n):
        s = (first + i) % n
        if carte_eligible(st.P, s, G[G_DRAWN + i]):
            G[G_PHASE] = PH_CARTE
            G[G_CARTE_I] = i
            G[G_TO_ACT] = s
            return
    if G[G_DRAWN] < 0:                      # the dealt hands' round: the first trick
        G[G_CARTE_FIRST] = -1
        G[G_CARTE_I] = 0
        _begin_trick(rules, st)
    else:
        _after_draws(rules, st)
