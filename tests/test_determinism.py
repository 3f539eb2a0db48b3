"""A run's result depends only on the seed and the hand index (docs/ARCHITECTURE.md, "From hands to tables")."""
import numpy as np
import pandas as pd
import pytest

from analyzer.run.driver import CHUNK
from analyzer.engine import api
from analyzer.engine import layout as L
from analyzer.policies.spec import resolve_policy
from analyzer.run.records import play_records, policy_arrays
from analyzer.rules import preset
from analyzer.studies.play.simulate import simulate


def test_threads_1_and_2_give_identical_tables():
    rules = preset("ordinary")
    hands = 2 * CHUNK + 1234        # several chunks, the last one partial
    one = simulate(rules, ["greedy", "random"], hands, seed=42, threads=1)
    two = simulate(rules, ["greedy", "random"], hands, seed=42, threads=2)
    for name in one.tables:
        pd.testing.assert_frame_equal(one.tables[name], two.tables[name])


def test_records_depend_only_on_hand_index():
    rules = preset("ordinary")
    full = simulate(rules, ["random", "random"], 3000, seed=9, threads=1, keep_records=True).records
    head = simulate(rules, ["random", "random"], 1000, seed=9, threads=2, keep_records=True).records
    np.testing.assert_array_equal(full[:1000], head)


def test_other_seed_other_hands():
    rules = preset("ordinary")
    a = simulate(rules, ["random", "random"], 500, seed=1, threads=1, keep_records=True).records
    b = simulate(rules, ["random", "random"], 500, seed=2, threads=1, keep_records=True).records
    assert not np.array_equal(a, b)


PAIRINGS = [("random", "random"), ("hints", "greedy"), ("expert:plain,samples=2", "random")]


def deal_as_played(rules, pairing, seed, hand):
    """Hand ``hand`` of a run seeded ``seed``, dealt as simulate deals it (api.deal) and played
    to the end by ``pairing``: (each seat's cards at the deal, the turn-up, the face-down talon
    in the order the hand drew it, the cards played), read from the state and its events. The
    hand's record is checked to be the one simulate's kernel writes for it."""
    arr = rules.to_array()
    specs = [resolve_policy(p) for p in pairing]
    players = policy_arrays(specs, arr)
    st = api.deal(arr, seed, hand, log_events=True)
    dealt = [sorted(np.repeat(np.arange(32), st.P[s, L.P_HAND:L.P_HAND + 32]).tolist())
             for s in range(rules.players)]
    assert api.play_out(arr, st, players) == L.ST_DONE
    record = np.zeros(L.REC_W, np.int32)
    api.write_record(arr, st, hand % rules.players, L.ST_DONE, record)
    assert np.array_equal(record, play_records(arr, seed, hand, 1, specs)[0])
    ev = st.ev[:st.G[L.G_NEV]]
    turn_up = [int(e[2]) for e in ev if e[0] == L.E_TURNUP]
    drawn = [int(e[2]) for e in ev if e[0] == L.E_DRAW]
    if turn_up:             # the last card drawn is the turn-up, or the seven exchanged for it
        drawn = drawn[:-1]
    played = [(int(e[1]), int(e[2])) for e in ev if e[0] == L.E_PLAY]
    return (dealt, turn_up, drawn), played


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_policies_see_the_same_deals(variant):
    """Common random numbers: hand i of a seed is dealt alike whoever plays it. Three pairings
    play hands of one seed, each differently, and their hands, turn-up and talon, as drawn in
    the play, are the same; another seed deals other cards."""
    rules = preset(variant)
    for hand in (0, 1, 17):
        played = [deal_as_played(rules, p, 5, hand) for p in PAIRINGS]
        deal = played[0][0]
        assert [len(h) for h in deal[0]] == [rules.hand_size] * 2
        assert len(deal[2]) == rules.n_cards - 2 * rules.hand_size - len(deal[1])
        assert all(p[0] == deal for p in played[1:]), hand
        assert len({tuple(p[1]) for p in played}) == len(PAIRINGS), "the pairings played alike"
        assert deal_as_played(rules, PAIRINGS[0], 6, hand)[0] != deal


def test_remainder_without_division_is_exact():
    """rng.mod_small (Barrett reduction) equals ``x % n`` for every n the engine draws with,
    on random words and on the words next to multiples of n, where an off-by-one would show."""
    from numba import njit

    from analyzer.engine.rng import RECIP_MAX, mod_small

    @njit
    def mismatches(xs):
        bad = 0
        for x in xs:
            for n in range(1, RECIP_MAX + 1):
                bad += mod_small(x, n) != x % np.uint64(n)
        return bad

    top = 2**64 - 1
    edges = [m for n in range(1, RECIP_MAX + 1) for m in (top // n * n, top // n * n - 1)]
    xs = np.concatenate([np.random.default_rng(5).integers(0, top, 20_000, np.uint64, endpoint=True),
                         np.array(edges + [0, 1, top, 2**63, 2**63 - 1], np.uint64)])
    assert mismatches(xs) == 0
