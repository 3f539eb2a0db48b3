"""R3.9: Rubicon game scores."""
import itertools

import numpy as np

from analyzer.game import rubicon_result, rubicon_results, truncate


def test_R3_9_seed_examples():
    # A 1200, B 700: B is rubiconed; A scores 1200 + 700 + 1300 = 3200 (seed 002).
    r = rubicon_result([1200, 700], [100, 100], last_trick_winner=0)
    assert (r["winner"], r["points"], r["rubicon"]) == (0, 3200, True)
    # A 1200, B 1000: A scores 200 + 500 = 700.
    r = rubicon_result([1200, 1000], [100, 100], last_trick_winner=1)
    assert (r["winner"], r["points"], r["rubicon"]) == (0, 700, False)


def test_R3_9_fractions_of_100_disregarded():
    assert truncate(1290) == 1200
    r = rubicon_result([1290, 1090], [0, 0], last_trick_winner=0)
    assert r["points"] == 1200 - 1000 + 500
    r = rubicon_result([1290, 650], [0, 0], last_trick_winner=0)
    assert r["points"] == 1200 + 600 + 1300


def test_R3_9_rubicon_even_when_winner_under_1000():
    r = rubicon_result([800, 500], [200, 100], last_trick_winner=1)
    assert r["rubicon"] and r["winner"] == 0 and r["points"] == 800 + 500 + 1300


def test_R3_9_brisques_save_the_rubicon():
    # loser 950 + 80 brisques = 1030: both add brisques, 1400+240 vs 1030
    r = rubicon_result([1400, 950], [240, 80], last_trick_winner=0)
    assert r["brisques_saved"] and not r["rubicon"]
    assert r["winner"] == 0 and r["points"] == 1600 - 1000 + 500


def test_R3_9_brisques_can_turn_the_game():
    # 980 v 960: the loser (960) reaches 1000 only with brisques; with brisques
    # the former winner (980+10) is now behind 960+200 and under 1000: rubiconed.
    r = rubicon_result([980, 960], [10, 200], last_trick_winner=1)
    assert r["winner"] == 1 and r["rubicon"]
    assert r["points"] == 900 + 900 + 1300
    # the player who lost on totals (960) is not rubiconed once brisques count: saved
    assert r["brisques_saved"]


def test_R3_9_tie_after_both_add_brisques_is_broken_by_brisques_then_last_trick():
    # 990 v 980: the loser reaches 1000 only with brisques; 990+20 = 980+30 = 1010, a tie on
    # the totals with brisques: the higher brisques (30) win, not the last trick (seat 0)
    r = rubicon_result([990, 980], [20, 30], last_trick_winner=0)
    assert r["winner"] == 1 and not r["rubicon"] and r["brisques_saved"]
    assert r["points"] == 1000 - 1000 + 500 and r["brisques_broke_tie"]
    # a tie in both (totals with brisques and brisques): the last trick decides
    r = rubicon_result([990, 990], [20, 20], last_trick_winner=1)
    assert r["winner"] == 1 and r["brisques_saved"] and not r["rubicon"]
    r = rubicon_result([980, 960], [20, 40], last_trick_winner=0)     # 1000 v 1000, brisques 20 v 40
    assert r["winner"] == 1 and r["brisques_broke_tie"] and r["points"] == 500


def test_R3_8_brisques_break_a_tie():
    r = rubicon_result([1100, 1100], [150, 170], last_trick_winner=0)
    assert r["winner"] == 1 and r["brisques_broke_tie"]
    r = rubicon_result([1100, 1100], [160, 160], last_trick_winner=0)
    assert r["winner"] == 0 and not r["brisques_broke_tie"]


def numpy_reference(totals, brisques, last):
    """R3.9 written independently, as whole-array numpy operations (the engine scores one
    game at a time with branches)."""
    t = np.asarray(totals, dtype=np.int64)
    b = np.asarray(brisques, dtype=np.int64)
    last = np.asarray(last, dtype=np.int64)
    idx = np.arange(len(t))
    tie = t[:, 0] == t[:, 1]
    btie = b[:, 0] == b[:, 1]
    winner = np.where(~tie, (t[:, 1] > t[:, 0]).astype(np.int64),
                      np.where(~btie, (b[:, 1] > b[:, 0]).astype(np.int64), last))
    loser = 1 - winner
    w, l = t[idx, winner], t[idx, loser]
    wb, lb = w + b[idx, winner], l + b[idx, loser]
    rubicon = lb < 1000
    saved = ~rubicon & (l < 1000)
    # with brisques added: a tie goes to the higher brisques, then to the last trick
    bw, bl = b[idx, winner], b[idx, loser]
    flip = saved & ((lb > wb) | ((lb == wb) & (bl > bw)) | ((lb == wb) & (bl == bw) & (last == loser)))
    broke_tie = (tie & ~btie) | (saved & (lb == wb) & (bl != bw))
    flip_rubicon = flip & (wb < 1000)

    def tr(x):
        return x // 100 * 100

    points = np.where(rubicon | flip_rubicon, tr(w) + tr(l) + 1300,
                      np.where(saved, np.abs(tr(wb) - tr(lb)) + 500, tr(w) - tr(l) + 500))
    points = np.where(saved & ~flip_rubicon & flip, tr(lb) - tr(wb) + 500, points)
    return {"winner": np.where(flip, loser, winner), "points": points,
            "rubicon": rubicon | flip_rubicon, "brisques_saved": saved,
            "brisques_broke_tie": broke_tie}


def test_engine_scorer_matches_numpy_reference():
    """Random games and a grid around every boundary (999/1000, 90/100, ties)."""
    rng = np.random.default_rng(3)
    n = 20000
    totals = rng.integers(0, 260, size=(n, 2)) * 10
    brisques = rng.integers(0, 33, size=(n, 2)) * 10
    last = rng.integers(0, 2, size=n)
    grid = np.array(list(itertools.product([0, 500, 890, 900, 990, 999, 1000, 1090, 1100, 1290],
                                           repeat=2)))
    for b0, b1, lw in itertools.product([0, 10, 100, 110, 320], [0, 10, 100, 320], (0, 1)):
        totals = np.concatenate([totals, grid])
        brisques = np.concatenate([brisques, np.tile([b0, b1], (len(grid), 1))])
        last = np.concatenate([last, np.full(len(grid), lw)])
    got = rubicon_results(totals, brisques, last)
    want = numpy_reference(totals, brisques, last)
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)
    i = 12345
    one = rubicon_result(list(totals[i]), list(brisques[i]), int(last[i]))
    assert one == {key: got[key][i] for key in want}
