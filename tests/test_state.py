"""The hand as a resumable state (engine.hand, engine.play): one path for every driver.

A hand played decision by decision through legal_actions/apply from Python equals the same
hand in the batch kernel; a hand copied at a random decision and played out equals the
original played out (the copy is a complete state: nothing of the hand lives elsewhere).
"""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.engine import layout as L
from analyzer.engine.batch import seed_policies, write_record
from analyzer.engine.deals import deal_deck
from analyzer.engine.hand import apply, deal_into, decision, is_over, legal_actions, observe, scores, to_act
from analyzer.engine.play import is_legal, play_out
from analyzer.engine.state import copy_into, new_state
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.run.records import play_records, policy_arrays

CASES = [
    ("ordinary", {}, ("greedy", "hints")),
    ("ordinary", {"packs": 3, "hand_size": 9, "declare_all": True}, ("random", "greedy")),
    ("ordinary", {"meld_reuse": "american"}, ("hints", "random")),
    ("rubicon", {}, ("hints", "greedy")),
    ("rubicon", {"redeclare": "same_or_higher", "carte_blanche": "once"}, ("random", "random")),
]
SEED = 5


def setup(variant, opts, pols):
    rules = preset(variant, **opts)
    specs = [resolve_policy(p) for p in pols]
    players = policy_arrays(specs, rules.to_array())
    return rules, rules.to_array(), players, specs


def deal(rules, arr, hand, log=False):
    """A new state with hand ``hand`` of seed SEED dealt, as the batch kernel deals it."""
    st = new_state(log)
    deck = np.zeros(L.MAX_TALON, np.int32)
    deal_deck(rules.n_cards, np.uint64(SEED), hand, deck, np.zeros(1, np.uint64))
    deal_into(arr, st, deck, hand % rules.players)
    seed_policies(st.rngs, np.uint64(SEED), hand)
    return st


def step(arr, st, players):
    """One decision taken from Python: the policy of the seat to act (none if forced)."""
    nleg, plays = legal_actions(arr, st)
    if nleg == 1:
        a = int(st.legal[0])
    else:
        s = to_act(st)
        observe(arr, st, s)
        a = players.policies[s](st.obs[s], st.legal, nleg, arr, players.params[s], st.rngs[s], players.seats[s])
        assert is_legal(st.legal, nleg, plays, a)
    apply(arr, st, a)
    return a


def record(arr, st, dealer):
    rec = np.zeros(L.REC_W, np.int32)
    write_record(arr, st, dealer, 0, rec)
    return rec


@pytest.mark.parametrize("variant,opts,pols", CASES)
def test_a_hand_applied_step_by_step_equals_the_batch(variant, opts, pols):
    rules, arr, players, specs = setup(variant, opts, pols)
    hands = 12
    batch = play_records(arr, SEED, 0, hands, specs)
    for hand in range(hands):
        st = deal(rules, arr, hand)
        steps = 0
        while not is_over(st):
            assert 0 <= to_act(st) < rules.players and decision(st) >= 0
            step(arr, st, players)
            steps += 1
        assert steps > 20
        assert np.array_equal(record(arr, st, hand % rules.players), batch[hand]), hand
        assert list(scores(st)) == [batch[hand][L.REC_SEAT + s * L.REC_SEAT_W + L.RS_SCORE]
                                    for s in range(rules.players)]


@pytest.mark.parametrize("variant,opts,pols", CASES)
def test_a_copy_at_any_decision_plays_out_like_the_original(variant, opts, pols):
    rules, arr, players, _ = setup(variant, opts, pols)
    rng = np.random.default_rng(1)
    for hand in range(10):
        st = deal(rules, arr, hand, log=True)
        for _ in range(int(rng.integers(0, 120))):      # a random point of the hand
            if is_over(st):
                break
            step(arr, st, players)
        copy = new_state(True)
        copy_into(copy, st)
        assert play_out(arr, st, players) == L.ST_DONE
        assert play_out(arr, copy, players) == L.ST_DONE
        n = rules.players
        assert np.array_equal(copy.G, st.G) and np.array_equal(copy.talon, st.talon), hand
        assert np.array_equal(copy.ev, st.ev), hand
        for name in ("P", "T", "rngs"):              # the seats in play
            assert np.array_equal(getattr(copy, name)[:n], getattr(st, name)[:n]), (hand, name)
        assert np.array_equal(copy.obs[:n, :L.OBS_CORE], st.obs[:n, :L.OBS_CORE]), hand
        # a copy without an event log plays the same hand
        light = new_state(False)
        st2 = deal(rules, arr, hand)
        copy_into(light, st2)
        play_out(arr, light, players)
        assert np.array_equal(light.P, st.P) and np.array_equal(light.G[:L.G_NEV], st.G[:L.G_NEV])


def test_copy_into_allocates_nothing_and_keeps_the_scratch():
    rules, arr, players, _ = setup("rubicon", {}, ("greedy", "greedy"))
    st = deal(rules, arr, 3)
    for _ in range(30):
        step(arr, st, players)
    dst = new_state(False)
    before = [getattr(dst, name).ctypes.data for name in dst._fields]
    dst.legal[:] = 7
    copy_into(dst, st)
    assert [getattr(dst, name).ctypes.data for name in dst._fields] == before
    assert (dst.legal == 7).all() and np.array_equal(dst.P, st.P) and np.array_equal(dst.T, st.T)


def test_the_structured_record_names_the_same_fields_as_the_offsets():
    from analyzer.run.records import as_structured
    rules, arr, players, specs = setup("rubicon", {}, ("hints", "greedy"))
    rec = play_records(arr, SEED, 0, 200, specs)
    r = as_structured(rec)
    by_offset = {"score": L.RS_SCORE, "declared_points": L.RS_DECL, "seven": L.RS_SEVEN,
                 "brisques": L.RS_BRISQ, "last_trick": L.RS_LAST, "tricks": L.RS_TRICKS,
                 "bezique_max": L.RS_BEZ_MAX, "carte_blanche": L.RS_CARTE, "claims": L.RS_CLAIMS,
                 "cards_won": L.RS_WON}
    for s in range(rules.players):
        base = L.REC_SEAT + s * L.REC_SEAT_W
        for name, off in by_offset.items():
            assert np.array_equal(r["seats"][name][:, s], rec[:, base + off]), name
        assert np.array_equal(r["seats"]["declarations"][:, s], rec[:, base + L.RS_NDECL:base + L.RS_NDECL + 16])
    assert np.array_equal(r["last_winner"], rec[:, L.REC_LAST_WINNER])
    assert r["seats"]["cards_won"][:, :2].sum() == 128 * len(rec)


def test_docs_engine_example_runs():
    import re
    from pathlib import Path
    page = (Path(__file__).parent.parent / "docs" / "python-api.md").read_text()
    section = page.split("## The hand as a state", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    ns = {}
    exec(compile(code, "docs/python-api.md", "exec"), ns)
    assert ns["api"].is_over(ns["st"]) and ns["api"].is_over(ns["guess"])
    assert ns["guess"].G[L.G_STATUS] == L.ST_DONE
