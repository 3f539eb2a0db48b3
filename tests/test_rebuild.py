"""A hand rebuilt from one seat's view (engine.observe): every public fact in the observation.

At random decisions of random hands, the seat to act's observation (with its public record)
and the true hidden cards rebuild the true state: the same G, table slots, counters and
observation cores, the same talon still to draw, the same decision facts, and played out
with the same policies the same hand to the end. With the hidden cards drawn at random
instead (observe.sample_hidden) the rebuilt state is a legal hand that plays to its end,
and the draw never places a card the seat can see elsewhere.
"""
from __future__ import annotations

import numpy as np
import pytest
from test_state import deal, setup, step

from analyzer.engine import layout as L
from analyzer.engine.hand import is_over, observe, to_act
from analyzer.engine.observe import PRIVATE_STATS, rebuild, sample_hidden, unseen_cards
from analyzer.engine.play import play_out
from analyzer.engine.state import new_state
from analyzer.run.records import policy_arrays
from analyzer.policies.spec import resolve_policy

CASES = [
    ("ordinary", {}, ("greedy", "hints")),
    ("ordinary", {"packs": 3, "hand_size": 10}, ("random", "greedy")),
    ("rubicon", {}, ("hints", "random")),
    ("rubicon", {"redeclare": "same_or_higher"}, ("random", "greedy")),
]
ALL_SEATS = 0b1111
OBS_KEPT = np.r_[L.OBS_HAND:L.OBS_PLAYED + 32, L.OBS_SEAT, L.OBS_N_SEATS, L.OBS_DEALER_REL, L.OBS_PACKS]


def positions(rules, arr, players, hands, rng):
    """(hand, state) at a random decision of each hand, every seat's public record asked for."""
    for hand in range(hands):
        st = deal(rules, arr, hand)
        st.G[L.G_FULL_OBS] = ALL_SEATS
        for _ in range(int(rng.integers(0, 110))):
            if is_over(st):
                break
            step(arr, st, players)
        if not is_over(st):
            yield hand, st


def true_hidden(rules, st):
    """The true hidden cards: each seat's hand, the talon still to draw, the last draws."""
    n = rules.players
    hidden = np.zeros((L.MAX_SEATS, 32), np.int32)
    hidden[:n] = st.P[:n, L.P_HAND:L.P_HAND + 32]
    talon = st.talon[st.G[L.G_TALON_POS]:st.G[L.G_TALON_LEN]].copy()
    drawn = np.full(L.MAX_SEATS, -1, np.int64)
    if st.G[L.G_PHASE] == L.PH_CARTE:
        first = st.G[L.G_CARTE_FIRST]
        for i in range(n):
            drawn[(first + i) % n] = st.G[L.G_DRAWN + i]
    return hidden, talon, drawn


def game_fields(rules, st, me):
    """The state as a player could know it, plus the hidden cards: everything but the event
    log, the drivers' fields, the other seats' private statistics and the P_MELD_CAND cache."""
    n = rules.players
    G = st.G.copy()
    G[[L.G_NEV, L.G_FULL_OBS]] = 0
    P = st.P[:n].copy()
    P[:, L.P_MELD_CAND] = 0
    for v in range(n):
        if v != me:
            P[v, [L.P_REC + j for j in PRIVATE_STATS]] = 0
    talon = st.talon[st.G[L.G_TALON_POS]:st.G[L.G_TALON_LEN]]
    return G, P, st.T[:n], st.obs[:n][:, OBS_KEPT], talon


@pytest.mark.parametrize("variant,opts,pols", CASES)
def test_rebuilt_from_the_true_hidden_cards_is_the_true_state(variant, opts, pols):
    rules, arr, players, _ = setup(variant, opts, pols)
    rng = np.random.default_rng(3)
    checked = 0
    for hand, st in positions(rules, arr, players, 18, rng):
        me = to_act(st)
        observe(arr, st, me)
        o = st.obs[me].copy()
        assert o[L.OBS_FULL] == 1
        dst = new_state(False)
        rebuild(arr, o, *true_hidden(rules, st), dst)
        for a, b, name in zip(game_fields(rules, dst, me), game_fields(rules, st, me), "G P T obs talon".split()):
            assert np.array_equal(a, b), (hand, name, np.argwhere(a != b)[:5])
        dst.G[L.G_FULL_OBS] = ALL_SEATS
        observe(arr, dst, me)
        assert np.array_equal(dst.obs[me], o), hand          # the same decision, the same facts
        dst.rngs[:] = st.rngs
        assert play_out(arr, st, players) == play_out(arr, dst, players) == L.ST_DONE
        n = rules.players
        assert np.array_equal(dst.P[:n, L.P_REC:L.P_REC + L.REC_SEAT_W][:, :2],
                              st.P[:n, L.P_REC:L.P_REC + L.REC_SEAT_W][:, :2]), hand   # scores
        assert dst.G[L.G_LAST_WINNER] == st.G[L.G_LAST_WINNER] and np.array_equal(dst.P[:n, L.P_BRISQ], st.P[:n, L.P_BRISQ])
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("variant,opts,pols", CASES)
def test_rebuilt_from_sampled_hidden_cards_is_a_legal_hand(variant, opts, pols):
    rules, arr, players, _ = setup(variant, opts, pols)
    rand_players = policy_arrays([resolve_policy("random")], arr)
    rng = np.random.default_rng(4)
    n = rules.players
    stream = np.array([7], np.uint64)
    hidden = np.zeros((L.MAX_SEATS, 32), np.int32)
    talon = np.zeros(L.MAX_TALON, np.int32)
    drawn = np.full(L.MAX_SEATS, -1, np.int64)
    pool = np.zeros(L.MAX_TALON, np.int32)
    sizes = np.zeros(4, np.int64)
    unseen = np.zeros(32, np.int64)
    checked = 0
    for hand, st in positions(rules, arr, players, 18, rng):
        me = to_act(st)
        observe(arr, st, me)
        o = st.obs[me]
        for _ in range(3):
            hidden[:] = 0
            placed = sample_hidden(arr, o, stream, hidden, talon, drawn, pool, sizes)
            assert placed == unseen_cards(arr, o, unseen)
            # the right sizes, and no card the seat can see elsewhere
            left = st.G[L.G_TALON_LEN] - st.G[L.G_TALON_POS]
            for v in range(n):
                if v != me:
                    assert hidden[v].sum() == st.P[v, L.P_HAND:L.P_HAND + 32].sum()
                    assert (hidden[v] >= st.P[v, L.P_KNOWN:L.P_KNOWN + 32]).all()
            counts = np.bincount(talon[:left], minlength=32) + hidden[:n].sum(0) - hidden[me]
            counts += st.P[me, L.P_HAND:L.P_HAND + 32] + st.P[:n, L.P_TABLE:L.P_TABLE + 32].sum(0)
            counts += o[L.OBS_PLAYED:L.OBS_PLAYED + 32]
            assert (counts == rules.packs).all(), hand
            if left and rules.trump == "turn_up":
                assert talon[left - 1] == st.talon[st.G[L.G_TALON_LEN] - 1]     # the turn-up stays
            dst = new_state(False)
            rebuild(arr, o, hidden, talon, drawn, dst)
            assert play_out(arr, dst, rand_players) == L.ST_DONE
            won = dst.P[:n, L.P_WON].sum()
            assert won == rules.n_cards and (dst.P[:n, :L.P_HAND + 64] == 0).all()
            assert dst.P[:n, L.P_BRISQ].sum() == 8 * rules.packs
        checked += 1
    assert checked >= 10
