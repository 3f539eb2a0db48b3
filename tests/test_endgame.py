"""The exact second-stage solver (analyzer.engine.endgame) against plain minimax over the engine,
against endgames worked out by hand, and its wrappers against each other.

Rules: R2.20 (follow, win, trump; R3.3 no duty to trump when trumps were never fixed), R2.5
(identical cards: the first played wins), R2.21 last trick, R2.22 brisques (ordinary), R3.8-R3.9
(Rubicon: brisques break ties and save rubicons; the game score).
"""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.cards import parse_card
from analyzer.engine import layout as L
from analyzer.engine.endgame import (
    best_obs,
    final_value,
    POS_W,
    Position,
    new_solver,
    solve_actions,
    solve_cards,
    solve_obs,
    solve_state,
    solve_window,
)
from analyzer.engine.endgame_reference import minimax_state, random_position
from analyzer.engine.hand import apply, is_over, legal_actions, observe
from analyzer.engine.state import add_hand, copy_into, new_state
from analyzer.rules import R_PACKS, preset

ORD = preset("ordinary").to_array()
RUB = preset("rubicon").to_array()
FULL = {"ordinary": 8, "rubicon": 9}
ARR = {"ordinary": ORD, "rubicon": RUB}


def positions(arr, full, count, seed, min_cards, max_cards, first_hand=0):
    """``count`` second-stage play decisions of real dealt hands played at random, with
    ``min_cards``..``max_cards`` cards left in the hand of the seat to act (a trick in
    progress as often as not)."""
    rng = np.random.default_rng(seed)
    out = []
    hand = first_hand
    while len(out) < count:
        extra = int(rng.integers(2 * (full - max_cards), 2 * (full - min_cards) + 2))
        st = new_state(False)
        if random_position(arr, st, seed, hand, extra):
            out.append(st)
        hand += 1
    return out


def check_against_minimax(arr, sts):
    mid = 0
    for st in sts:
        assert st.G[L.G_STAGE] == 2 and st.G[L.G_PHASE] == L.PH_PLAY
        v = solve_state(arr, st, 0)
        assert solve_state(arr, st, 1) == -v
        assert v == minimax_state(arr, st, 0), (st.P[:2, L.P_HAND:L.P_HAND + 32], st.G[L.G_LEAD])
        mid += st.G[L.G_TRICK_POS] == 1
    return mid


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_R2_20_R2_22_R3_9_solver_equals_minimax_on_2000_random_positions(variant):
    """Exact values (R2.20 play, R2.21-R2.22 score; Rubicon R3.9 game score) on 2,000 random
    second-stage positions of 1 to 5 cards a hand, half of them inside a trick."""
    arr = ARR[variant]
    sts = positions(arr, FULL[variant], 2000, 1, 1, 5)
    mid = check_against_minimax(arr, sts)
    assert 600 < mid < 1400
    sizes = {int(st.P[st.G[L.G_TO_ACT], L.P_HAND:L.P_HAND + 32].sum()) for st in sts}
    assert sizes == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_R2_20_solver_equals_minimax_with_six_cards(variant):
    arr = ARR[variant]
    check_against_minimax(arr, positions(arr, FULL[variant], 80, 2, 6, 6))


def test_R2_20_solver_equals_minimax_on_full_second_stages():
    """Whole second stages of 8 cards a hand (ordinary; chosen where minimax is affordable)."""
    for hand in (3, 7):
        st = new_state(False)
        assert random_position(ORD, st, 21, hand, 0)
        assert st.P[0, L.P_HAND:L.P_HAND + 32].sum() == 8
        assert solve_state(ORD, st, 0) == minimax_state(ORD, st, 0)


def test_R3_3_no_duty_to_trump_when_trumps_were_never_fixed():
    """Rubicon positions with trumps never fixed (G_TRUMP -1): only following suit and winning
    are obliged; the solver agrees with minimax over the engine."""
    sts = positions(RUB, 9, 200, 3, 1, 5)
    for st in sts:
        st.G[L.G_TRUMP] = -1
        for s in range(2):
            st.obs[s, L.OBS_TRUMP] = -1
    check_against_minimax(RUB, sts)


# --- endgames worked out by hand --------------------------------------------------------------

def build(arr, trump, hands, leader, scores, brisques, lead=None):
    """A second-stage state with the given hands (lists of card names per seat), trumps,
    leader, scores and brisques so far; ``lead``: the card the leader has already led."""
    st = new_state(False)
    assert random_position(arr, st, 5, 0, 0)      # a real second-stage state, then overwritten
    G, P, obs = st.G, st.P, st.obs
    for s in range(2):
        for t in range(32):
            add_hand(P, obs, s, t, -int(P[s, L.P_HAND + t]))
        for name in hands[s]:
            add_hand(P, obs, s, parse_card(name), 1)
        P[s, L.P_SCORE] = scores[s]
        P[s, L.P_BRISQ] = brisques[s]
    G[L.G_TRUMP] = trump
    G[L.G_LEADER] = leader
    G[L.G_TO_ACT] = leader
    if lead is not None:
        c = parse_card(lead)
        G[L.G_TRICK_POS] = 1
        G[L.G_LEAD] = G[L.G_BEST] = G[L.G_TRICK_CARDS] = c
        G[L.G_BEST_SEAT] = leader
        G[L.G_TO_ACT] = 1 - leader
    packs = arr[R_PACKS]
    for s in range(2):          # every copy not in a hand has been played (the obs agree)
        for t in range(32):
            obs[s, L.OBS_PLAYED + t] = packs - P[0, L.P_HAND + t] - P[1, L.P_HAND + t]
    return st


def core(arr, trump, hands, leader, scores, brisques, lead=-1):
    h = np.zeros((2, 32), np.int64)
    for s in range(2):
        for name in hands[s]:
            h[s, parse_card(name)] += 1
    best = np.zeros(1, np.int64)
    v = solve_cards(arr, Position(trump, h, leader, lead, np.array(scores, np.int64),
                                  np.array(brisques, np.int64)), new_solver(12), best)
    return v, int(best[0])


def action_values(arr, st):
    vals = np.zeros(L.MAX_LEGAL, np.int64)
    n = solve_actions(arr, st, vals)
    return {int(st.legal[k]): int(vals[k]) for k in range(n)}


S, H, D, C = range(4)


def test_R2_21_R2_22_one_card_each():
    """AS led, TS must follow and cannot win (R2.20): the leader takes both brisques (+20) and
    the last trick (+10) on top of a margin of 50 + 10 x (3 - 1) = 70."""
    assert core(ORD, H, (["AS"], ["TS"]), 0, (100, 50), (3, 1)) == (100, parse_card("AS"))
    st = build(ORD, H, (["AS"], ["TS"]), 0, (100, 50), (3, 1))
    assert solve_state(ORD, st, 0) == minimax_state(ORD, st, 0) == 100
    assert solve_state(ORD, st, 1) == -100
    # 7S led, 7H the only card of the other seat: it must trump (R2.20) and wins the last trick
    assert core(ORD, H, (["7S"], ["7H"]), 0, (100, 50), (3, 1)) == (60, parse_card("7S"))


def test_R2_5_identical_card_does_not_win():
    """KS led, the other KS played after it: the first played wins (R2.5), so the leader takes
    the last trick (+10)."""
    assert core(ORD, C, (["KS"], ["KS"]), 0, (0, 0), (0, 0)) == (10, parse_card("KS"))
    st = build(ORD, C, (["KS"], ["KS"]), 1, (0, 0), (0, 0))
    assert solve_state(ORD, st, 1) == minimax_state(ORD, st, 1) == 10
    st = build(ORD, C, ([], ["KS"]), 0, (0, 0), (0, 0), lead="KS")
    assert action_values(ORD, st) == {parse_card("KS"): -10}


def test_R2_20_leading_the_low_card_first_keeps_the_last_trick():
    """AS 9H against 7S TH, no trumps held: cashing AS (+10) lets TH win 9H with the last trick
    (-20): -10; leading 9H first gives TH (-10) but AS then wins 7S and the last trick (+20):
    +10."""
    hands = (["AS", "9H"], ["7S", "TH"])
    assert core(ORD, C, hands, 0, (0, 0), (0, 0)) == (10, parse_card("9H"))
    st = build(ORD, C, hands, 0, (0, 0), (0, 0))
    assert action_values(ORD, st) == {parse_card("AS"): -10, parse_card("9H"): 10}
    assert minimax_state(ORD, st, 0) == 10


def test_R2_20_the_follower_must_win_if_he_can():
    """KS led to TS 7S: only TS is legal (R2.20: win if you can). TS takes the trick (+10 for
    seat 1), then 7S falls to AS with the last trick (+20 for seat 0): -10 for seat 1."""
    st = build(ORD, C, (["AS"], ["TS", "7S"]), 0, (0, 0), (0, 0), lead="KS")
    assert action_values(ORD, st) == {parse_card("TS"): -10}
    assert solve_state(ORD, st, 1) == minimax_state(ORD, st, 1) == -10


def test_R3_9_one_more_brisque_saves_the_rubicon():
    """Rubicon, spades trumps, seat 0 1500 (10 brisques), seat 1 960 (3 brisques). Seat 0 holds
    AS 7H, seat 1 TH 8H. 7H led: seat 1 must win (R2.20) and chooses. With TH it takes a 4th
    brisque, 960 + 40 reaches 1000: not rubiconed, both add brisques, seat 0 scores
    1600 - 1000 + 500 = 1100. With 8H its TH later falls to AS: 990, rubiconed, seat 0 scores
    1500 + 900 + 1300 = 3700. Leading AS first lets seat 1 keep TH for the last trick
    (1010): 1500 - 1000 + 500 = 1000. So seat 0 leads 7H and the game is worth 1100."""
    hands = (["AS", "7H"], ["TH", "8H"])
    assert core(RUB, S, hands, 0, (1500, 960), (10, 3)) == (1100, parse_card("7H"))
    st = build(RUB, S, hands, 0, (1500, 960), (10, 3))
    assert action_values(RUB, st) == {parse_card("AS"): 1000, parse_card("7H"): 1100}
    assert minimax_state(RUB, st, 0) == 1100
    st = build(RUB, S, (["AS"], ["TH", "8H"]), 0, (1500, 960), (10, 3), lead="7H")
    assert action_values(RUB, st) == {parse_card("TH"): -1100, parse_card("8H"): -3700}
    assert core(RUB, S, (["AS"], ["TH", "8H"]), 0, (1500, 960), (10, 3),
                lead=parse_card("7H")) == (1100, parse_card("TH"))


def test_R3_9_a_drawn_game_is_worth_0_and_beats_a_lost_one():
    """Rubicon, spades trumps, seat 0 1150 (15 brisques), seat 1 1200 (15 brisques); seat 0
    holds AS 7H, seat 1 TH 8H. 7H led: seat 1 must win (R2.20) and chooses. With TH each takes
    one brisque, AS takes the last trick (+50): 1200 all and 160 brisques each, a draw worth 0
    (Law 61). With 8H AS takes TH too: 1200 all, brisques 170 to 150, seat 0 wins on brisques
    and scores on the totals with brisques, 1370 to 1350: the difference 0 counts as 100,
    600 (Laws 57, 61). Leading AS lets seat 1 win the last trick: 1150 to 1250, seat 1 scores
    1200 - 1100 + 500 = 600. So seat 0 leads 7H, seat 1 answers TH, and the game is drawn."""
    hands = (["AS", "7H"], ["TH", "8H"])
    assert core(RUB, S, hands, 0, (1150, 1200), (15, 15)) == (0, parse_card("7H"))
    st = build(RUB, S, hands, 0, (1150, 1200), (15, 15))
    assert action_values(RUB, st) == {parse_card("AS"): -600, parse_card("7H"): 0}
    assert minimax_state(RUB, st, 0) == 0
    st = build(RUB, S, (["AS"], ["TH", "8H"]), 0, (1150, 1200), (15, 15), lead="7H")
    assert action_values(RUB, st) == {parse_card("TH"): 0, parse_card("8H"): -600}
    # the draw once played out: final_value is 0 for both seats
    child = new_state(False)
    copy_into(child, st)
    apply(RUB, child, parse_card("TH"))
    while not is_over(child):
        legal_actions(RUB, child)
        apply(RUB, child, child.legal[0])
    assert list(child.P[:2, L.P_SCORE]) == [1200, 1200] and list(child.P[:2, L.P_BRISQ]) == [16, 16]
    assert final_value(RUB, child, 0) == final_value(RUB, child, 1) == 0


def test_R3_3_trumps_never_fixed_any_card_when_void():
    """Trumps never fixed: void in spades, seat 1 may throw either card (R3.3)."""
    st = build(RUB, -1, (["7H"], ["AD", "7C"]), 0, (1200, 700), (0, 0), lead="AS")
    v = action_values(RUB, st)
    assert set(v) == {parse_card("AD"), parse_card("7C")}
    for a, val in v.items():
        child = new_state(False)
        copy_into(child, st)
        apply(RUB, child, a)
        assert val == solve_state(RUB, child, 1) == minimax_state(RUB, child, 1)


# --- the wrappers agree ------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_R2_20_solve_actions_equals_each_child_and_solve_obs_agrees(variant):
    """solve_actions gives each legal action the value of the position it leads to (solved
    again, or the finished hand's value); solve_obs, from the seat's observation only, gives
    the same values and picks a best one; best_obs, with the root's alpha-beta window, picks the
    same one (the first of equals) with a fresh solver and with the one solve_obs filled."""
    arr = ARR[variant]
    sts = positions(arr, FULL[variant], 150, 4, 1, FULL[variant])
    child = new_state(False)
    vals = np.zeros(L.MAX_LEGAL, np.int64)
    ovals = np.zeros(L.MAX_LEGAL, np.int64)
    for st in sts:
        seat = int(st.G[L.G_TO_ACT])
        n = solve_actions(arr, st, vals)
        assert n == legal_actions(arr, st)[0]
        for k in range(n):
            copy_into(child, st)
            apply(arr, child, st.legal[k])
            want = final_value(arr, child, seat) if is_over(child) else solve_state(arr, child, seat)
            assert vals[k] == want
        assert vals[:n].max() == solve_state(arr, st, seat)
        observe(arr, st, seat)
        shared = new_solver(12)
        best = solve_obs(arr, st.obs[seat], st.legal, n, ovals, shared, np.zeros(POS_W, np.int64))
        assert np.array_equal(ovals[:n], vals[:n])
        assert ovals[best] == ovals[:n].max()
        assert best == int(np.argmax(ovals[:n]))
        for sv in (new_solver(12), shared):
            assert best_obs(arr, st.obs[seat], st.legal, n, sv, np.zeros(POS_W, np.int64)) == best


def test_solve_cards_best_card_has_the_best_value():
    """The card solve_cards names is one of the best actions of solve_actions."""
    sv = new_solver(16)
    vals = np.zeros(L.MAX_LEGAL, np.int64)
    best = np.zeros(1, np.int64)
    for variant in ("ordinary", "rubicon"):
        arr = ARR[variant]
        for st in positions(arr, FULL[variant], 60, 6, 1, FULL[variant]):
            seat = int(st.G[L.G_TO_ACT])
            n = solve_actions(arr, st, vals)
            hands = st.P[:2, L.P_HAND:L.P_HAND + 32].astype(np.int64)
            lead = int(st.G[L.G_LEAD]) if st.G[L.G_TRICK_POS] == 1 else -1
            at = Position(int(st.G[L.G_TRUMP]), hands, int(st.G[L.G_LEADER]), lead,
                          st.P[:2, L.P_SCORE].astype(np.int64), st.P[:2, L.P_BRISQ].astype(np.int64))
            v = solve_cards(arr, at, sv, best)
            assert (v if seat == 0 else -v) == vals[:n].max()
            k = list(st.legal[:n]).index(best[0])
            assert vals[k] == vals[:n].max()


def test_solve_window_is_exact_inside_its_window_and_a_bound_outside():
    """Fail-soft alpha-beta at the root (what the last window's minimax asks of each leaf): with
    the value v inside (alpha, beta) it returns v; with v <= alpha a bound in [v, alpha]; with
    v >= beta a bound in [beta, v]. The windows are placed around v found with the full window;
    each search starts from an empty table (a table of the same root would hold v itself)."""
    best = np.zeros(1, np.int64)
    outside = 0
    for variant in ("ordinary", "rubicon"):
        arr = ARR[variant]
        for st in positions(arr, FULL[variant], 150, 7, 1, FULL[variant]):
            hands = st.P[:2, L.P_HAND:L.P_HAND + 32].astype(np.int64)
            lead = int(st.G[L.G_LEAD]) if st.G[L.G_TRICK_POS] == 1 else -1
            at = Position(int(st.G[L.G_TRUMP]), hands, int(st.G[L.G_LEADER]), lead,
                          st.P[:2, L.P_SCORE].astype(np.int64), st.P[:2, L.P_BRISQ].astype(np.int64))
            v = int(solve_cards(arr, at, new_solver(12), best))
            assert solve_window(arr, at, new_solver(12), best, v - 1, v + 1) == v
            assert solve_window(arr, at, new_solver(12), best, v - 30, v + 5) == v
            for lo, hi in ((v + 10, v + 40), (v + 100, v + 200), (v, v + 1), (v - 40, v - 10),
                           (v - 200, v - 100), (v - 1, v)):
                w = int(solve_window(arr, at, new_solver(12), best, lo, hi))
                if v <= lo:
                    assert v <= w <= lo, (variant, v, lo, hi, w)
                else:
                    assert hi <= w <= v, (variant, v, lo, hi, w)
                outside += w != v
    assert outside > 0          # some bound was not the value itself: the windows did cut
