"""The exact chance of having received a double (treble) bézique's cards by each trick:
brute force on small packs, and the engine's own deals and draws."""
from fractions import Fraction
from itertools import combinations
from math import sqrt
from types import SimpleNamespace

import numba
import numpy as np
import pytest

from analyzer.cards import DIAMONDS, KNAVE, QUEEN, SPADES, card_id
from analyzer.engine import api
from analyzer.engine import layout as L
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.run.records import policy_arrays
from analyzer.studies.odds.deal_odds import first_stage_tricks, p_receives_bezique, p_receives_bezique_by_trick

QS, JD = card_id(SPADES, QUEEN), card_id(DIAMONDS, KNAVE)


@pytest.mark.parametrize("packs,hand_size,others", [(2, 2, 8), (3, 2, 6)])
def test_by_trick_against_brute_force(packs, hand_size, others):
    """Every subset of the cards received so far counted: Q♠ = 0, J♦ = 1, the rest 2."""
    deck = [0] * packs + [1] * packs + [2] * others
    rules = SimpleNamespace(n_cards=len(deck), packs=packs, hand_size=hand_size, players=2)
    tricks = first_stage_tricks(rules)
    assert tricks == (len(deck) - 2 * hand_size) // 2
    for level in range(1, packs + 1):
        for k in range(tricks + 2):                    # past the first stage nothing is drawn
            size = hand_size + min(k, tricks)
            subsets = list(combinations(range(len(deck)), size))
            hits = sum(1 for sub in subsets
                       if sum(deck[i] == 0 for i in sub) >= level and sum(deck[i] == 1 for i in sub) >= level)
            assert p_receives_bezique_by_trick(rules, level, k) == Fraction(hits, len(subsets))


def test_by_trick_ends_at_the_whole_hand_bound():
    for name in ("ordinary", "rubicon"):
        rules = preset(name)
        last = first_stage_tricks(rules)
        for level in range(2, rules.packs + 1):
            assert p_receives_bezique_by_trick(rules, level, last) == p_receives_bezique(rules, level)
            steps = [p_receives_bezique_by_trick(rules, level, k) for k in range(last + 1)]
            assert all(a < b for a, b in zip(steps, steps[1:]))


def received_by_trick(rules, hands: int, seed: int) -> np.ndarray:
    """[seat-hand, trick k, (Q♠, J♦)]: the cards received once k tricks are played, from the
    event logs of greedy against random."""
    tricks = first_stage_tricks(rules)
    arr = rules.to_array()
    players = policy_arrays([resolve_policy("greedy"), resolve_policy("random")], arr)
    out = np.zeros((hands, 2, tricks + 1, 2), np.int64)
    play_out = None
    for i in range(hands):
        st = api.deal(arr, seed, i, log_events=True)       # as play_spec deals and plays it, without its text
        got = np.stack([st.P[:2, L.P_HAND + QS], st.P[:2, L.P_HAND + JD]], axis=1).astype(np.int64)
        play_out = play_out or compiled(api.play_out, arr, st, players)
        play_out(arr, st, players)
        record_tricks(out[i], got, st.ev[:int(st.G[L.G_NEV])], tricks)
    return out.reshape(-1, tricks + 1, 2)


def compiled(kernel, *args):
    """``kernel``'s machine code for the types of ``args``: called directly, it skips the
    dispatcher's typing of every argument at each call (for the players' tuple of functions,
    most of a hand's time)."""
    return kernel.compile(tuple(numba.typeof(a) for a in args))


def record_tricks(out: np.ndarray, got: np.ndarray, ev: np.ndarray, tricks: int) -> None:
    """Fill ``out`` [seat, trick k, (Q♠, J♦)] with the dealt cards ``got`` [seat, (Q♠, J♦)] plus
    those each seat drew before the event log ``ev`` ends trick k."""
    kind, seat, card = ev[:, 0], ev[:, 1], ev[:, 2]
    hit = ((kind == L.E_DRAW)[None, :, None] & (seat[None, :, None] == np.arange(2)[:, None, None])
           & (card[None, :, None] == np.array([QS, JD])))
    drawn = hit.cumsum(axis=1)                              # [seat, event, (Q♠, J♦)]
    rows = np.flatnonzero((kind == L.E_TRICK) & (card < tricks + 1))
    out[:, card[rows]] = got[:, None] + drawn[:, rows]


@pytest.mark.parametrize("name,hands,levels", [("ordinary", 6000, (1, 2)), ("rubicon", 1200, (2, 3))])
def test_by_trick_against_the_engine(name, hands, levels):
    """The engine's deals and draws (the seat that wins a trick draws first) agree with the
    hypergeometric bound at every trick, within 4.5 standard errors (about 100 comparisons)."""
    rules = preset(name)
    got = received_by_trick(rules, hands, seed=7)
    n = len(got)
    for level in levels:
        for k in range(got.shape[1]):
            p = float(p_receives_bezique_by_trick(rules, level, k))
            share = ((got[:, k] >= level).all(1)).mean()
            assert abs(share - p) <= 4.5 * sqrt(p * (1 - p) / n) + 1e-12, (level, k, share, p)
