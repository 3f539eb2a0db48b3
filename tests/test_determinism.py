"""A run's result depends only on the seed and the hand index (DESIGN.md)."""
import numpy as np
import pandas as pd

from analyzer.rules import preset
from analyzer.driver import CHUNK
from analyzer.simulate import simulate


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


def test_policies_see_the_same_deals():
    """Common random numbers: the deal of hand i does not depend on the policies."""
    from analyzer.handlog import dealt_spec
    rules = preset("ordinary")
    assert dealt_spec(rules, 5, 17).hands == dealt_spec(rules, 5, 17).hands
    assert dealt_spec(rules, 5, 17).hands != dealt_spec(rules, 5, 18).hands


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
