"""R3.9: Rubicon game scores (the Portland Club's Laws 56-61 of Rubicon Bézique).

Every expected value is worked out from the laws: trunc drops the fractions of 100; the winner
of a game not rubiconed scores max(trunc(W) - trunc(L), 100) + 500 (Law 57); of a game whose
loser is rubiconed, trunc(W) + max(trunc(L), 100) + 1300 (Laws 58-59); brisques only break a
tie (Law 61) or save the rubicon (Law 60); a tie after adding them is null and void (Law 61).
"""
import itertools

import numpy as np
import pytest

from analyzer.rubicon_score import rubicon_result, rubicon_results, truncate
from analyzer.rules import RuleError, preset


def game(totals, brisques=(0, 0), rules=None):
    r = rubicon_result(list(totals), list(brisques), rules=rules)
    return r["winner"], r["points"], r["rubicon"]


# --- the code's worked examples ("How the score is dealt with") --------------------------------

def test_R3_9_code_example_1510_against_1240_scores_800():
    assert game([1510, 1240]) == (0, 1500 - 1200 + 500, False)
    assert game([1240, 1510]) == (1, 800, False)


def test_R3_9_code_example_1550_against_1520_scores_600_not_500():
    # Law 57: the difference 1500 - 1500 is under 100, so it counts as 100
    assert game([1550, 1520]) == (0, 100 + 500, False)


def test_R3_9_code_example_1320_against_620_rubicons_and_scores_3200():
    assert game([1320, 620]) == (0, 1300 + 600 + 1000 + 300, True)


def test_R3_9_code_example_1200_against_700_scores_3200():
    assert game([1200, 700], [100, 100]) == (0, 1200 + 700 + 1300, True)
    assert game([1200, 1000], [100, 100]) == (0, 200 + 500, False)


# --- the minimums of Laws 57 and 59 ----------------------------------------------------------

def test_R3_9_a_difference_under_100_counts_as_100():
    assert game([1290, 1210]) == (0, 100 + 500, False)        # trunc: 1200 - 1200
    assert game([1010, 1000]) == (0, 100 + 500, False)
    assert game([1100, 1000]) == (0, 100 + 500, False)        # exactly 100: no change


def test_R3_9_a_rubiconed_loser_under_100_counts_as_100():
    assert game([1200, 40]) == (0, 1200 + 100 + 1300, True)
    assert game([0, 1050]) == (1, 1000 + 100 + 1300, True)     # a loser of 0
    assert game([50, 0], [320, 0]) == (0, 0 + 100 + 1300, True)   # the winner's trunc is 0 too


def test_R3_9_the_minimums_are_data_of_the_rule_set():
    assert game([1550, 1520], rules=preset("rubicon", game_minimum=0)) == (0, 500, False)
    assert game([1200, 40], rules=preset("rubicon", rubicon_minimum=0)) == (0, 1200 + 1300, True)
    assert game([1200, 40], rules=preset("rubicon", rubicon_minimum=300)) == (0, 1200 + 300 + 1300, True)
    arr = preset("rubicon").to_array()
    from analyzer.rules import R_GAME_MINIMUM, R_RUBICON_MINIMUM
    assert (arr[R_GAME_MINIMUM], arr[R_RUBICON_MINIMUM]) == (100, 100)
    for key in ("game_minimum", "rubicon_minimum"):
        for bad in (-1, 100_001, True, 1.5):
            with pytest.raises(RuleError, match=f"^{key}="):
                preset("rubicon", **{key: bad})


def test_R3_9_fractions_of_100_disregarded():
    assert truncate(1290) == 1200
    assert game([1290, 1090])[1] == 1200 - 1000 + 500
    assert game([1290, 650])[1] == 1200 + 600 + 1300


# --- Law 58: a loser under 1000 even with his brisques is rubiconed ---------------------------

def test_R3_9_rubicon_even_when_winner_under_1000():
    assert game([800, 500], [200, 100]) == (0, 800 + 500 + 1300, True)


# --- Law 60: brisques that bring the loser to 1000 save the rubicon ---------------------------

def test_R3_9_brisques_save_the_rubicon():
    # loser 950 + 80 brisques = 1030: both add brisques, 1400 + 240 = 1640 against 1030
    r = rubicon_result([1400, 950], [240, 80])
    assert r["brisques_saved"] and not r["rubicon"] and not r["brisques_broke_tie"]
    assert (r["winner"], r["points"]) == (0, 1600 - 1000 + 500)
    # with brisques 1020 against 1000: the difference counts as 100 (Law 57)
    assert game([1000, 990], [20, 10]) == (0, 100 + 500, False)


def test_R3_9_brisques_can_turn_the_game():
    # 980 v 960: the loser (960) reaches 1000 only with brisques; with brisques the former
    # winner (980 + 10) is now behind 960 + 200 and under 1000: rubiconed, on the totals
    # without brisques
    r = rubicon_result([980, 960], [10, 200])
    assert (r["winner"], r["points"], r["rubicon"], r["brisques_saved"]) == (1, 900 + 900 + 1300, True, True)
    # the former winner reaches 1000 with his brisques: not rubiconed, Law 57 on the totals
    # with brisques, 990 + 320 = 1310 against 1000 + 0
    assert game([1000, 990], [0, 320]) == (1, 1300 - 1000 + 500, False)


# --- Law 61: ties ------------------------------------------------------------------------------

def test_R3_9_equal_totals_and_brisques_are_a_draw():
    for last in (0, 1):
        r = rubicon_result([1100, 1100], [160, 160], last_trick_winner=last)
        assert r == {"winner": None, "points": 0, "rubicon": False, "brisques_saved": False,
                     "brisques_broke_tie": False}
    # a tie under the limit too: null and void, nobody is rubiconed
    assert game([600, 600], [160, 160]) == (None, 0, False)


def test_R3_9_a_tie_after_the_brisques_saved_the_rubicon_is_a_draw():
    # 990 v 980: the loser reaches 1000 only with his brisques; then 990 + 20 = 980 + 30 = 1010:
    # a tie after adding the brisques, null and void (not a second look at the brisques)
    r = rubicon_result([990, 980], [20, 30])
    assert (r["winner"], r["points"], r["rubicon"], r["brisques_saved"]) == (None, 0, False, True)
    assert not r["brisques_broke_tie"]
    assert game([980, 960], [20, 40]) == (None, 0, False)      # 1000 v 1000
    assert game([1300, 990], [0, 310]) == (None, 0, False)     # 1300 v 1300


def test_R3_9_tie_broken_by_brisques_is_scored_on_the_totals_with_brisques():
    # Law 61, the loser not rubiconed: 1150 + 60 = 1210 against 1150 + 260 = 1410
    r = rubicon_result([1150, 1150], [60, 260])
    assert (r["winner"], r["points"], r["rubicon"]) == (1, 1400 - 1200 + 500, False)
    assert r["brisques_broke_tie"] and not r["brisques_saved"]
    # 1250 v 1270: 1200 - 1200, under 100: 100 + 500
    assert game([1100, 1100], [150, 170]) == (1, 100 + 500, False)


def test_R3_9_tie_broken_by_brisques_with_the_loser_rubiconed_adds_no_brisques():
    # Law 61, the loser rubiconed (900 + 60 < 1000): Law 58 on the totals without brisques
    r = rubicon_result([900, 900], [100, 60])
    assert (r["winner"], r["points"], r["rubicon"]) == (0, 900 + 900 + 1300, True)
    assert r["brisques_broke_tie"]
    # the loser reaches 1000 with his brisques (950 + 60): saved, both add, 1050 v 1010
    r = rubicon_result([950, 950], [100, 60])
    assert (r["winner"], r["points"], r["rubicon"]) == (0, 100 + 500, False)
    assert r["brisques_broke_tie"] and r["brisques_saved"]


def test_R3_9_arrays_mark_a_draw_with_winner_minus_one():
    got = rubicon_results([[1100, 1100], [1510, 1240], [990, 980]], [[160, 160], [0, 0], [20, 30]])
    assert got["winner"].tolist() == [-1, 0, -1] and got["points"].tolist() == [0, 800, 0]
    assert got["brisques_saved"].tolist() == [False, False, True]


# --- the engine against an independent whole-array reading of the laws -----------------------

def numpy_reference(totals, brisques):
    """Laws 56-61 written independently, as whole-array numpy operations (the engine scores
    one game at a time with branches); winner -1 for a drawn game."""
    t = np.asarray(totals, dtype=np.int64)
    b = np.asarray(brisques, dtype=np.int64)
    tb = t + b

    def tr(x):
        return x // 100 * 100

    def law57(w, l):
        return np.maximum(tr(w) - tr(l), 100) + 500

    def law58(w, l):
        return tr(w) + np.maximum(tr(l), 100) + 1300

    tie, btie = t[:, 0] == t[:, 1], b[:, 0] == b[:, 1]
    first = np.where(tie, b[:, 1] > b[:, 0], t[:, 1] > t[:, 0]).astype(np.int64)  # winner on totals
    other = 1 - first
    idx = np.arange(len(t))
    w, l, wb, lb = t[idx, first], t[idx, other], tb[idx, first], tb[idx, other]
    drawn_plain = tie & btie
    rubicon_plain = ~drawn_plain & (lb < 1000)
    fine = ~drawn_plain & (l >= 1000)                            # the loser reached 1000 alone
    saved = ~drawn_plain & (l < 1000) & (lb >= 1000)
    drawn_saved = saved & (wb == lb)
    turned = saved & (lb > wb)
    turned_rubicon = turned & (wb < 1000)
    points = np.select(
        [drawn_plain | drawn_saved, rubicon_plain, fine & tie, fine, turned_rubicon, turned, saved],
        [0, law58(w, l), law57(wb, lb), law57(w, l), law58(l, w), law57(lb, wb), law57(wb, lb)])
    winner = np.select([drawn_plain | drawn_saved, turned], [-1, other], first)
    return {"winner": winner, "points": points, "rubicon": rubicon_plain | turned_rubicon,
            "brisques_saved": saved, "brisques_broke_tie": tie & ~btie}


def test_R3_9_engine_scorer_matches_numpy_reference():
    """Random games and a grid around every boundary (999/1000, 90/100, ties, equal totals
    with brisques)."""
    rng = np.random.default_rng(3)
    n = 20000
    totals = rng.integers(0, 260, size=(n, 2)) * 10
    brisques = rng.integers(0, 33, size=(n, 2)) * 10
    grid = np.array(list(itertools.product([0, 40, 500, 890, 900, 960, 980, 990, 999, 1000, 1090,
                                            1100, 1290], repeat=2)))
    for b0, b1 in itertools.product([0, 10, 20, 30, 100, 110, 320], repeat=2):
        totals = np.concatenate([totals, grid])
        brisques = np.concatenate([brisques, np.tile([b0, b1], (len(grid), 1))])
    got = rubicon_results(totals, brisques)
    want = numpy_reference(totals, brisques)
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)
    # every branch is met: both kinds of draw, a turned game with and without a rubicon
    drawn = want["winner"] == -1
    assert (drawn & want["brisques_saved"]).sum() > 0 and (drawn & ~want["brisques_saved"]).sum() > 0
    assert (want["brisques_broke_tie"] & want["rubicon"]).sum() > 0
    assert (want["brisques_saved"] & want["rubicon"]).sum() > 0
    assert ((want["points"] == 600) & ~drawn).sum() > 0
    i = 12345
    one = rubicon_result(list(totals[i]), list(brisques[i]))
    assert one == {key: got[key][i] for key in want}
    i = int(np.flatnonzero(drawn)[0])
    assert rubicon_result(list(totals[i]), list(brisques[i]))["winner"] is None
