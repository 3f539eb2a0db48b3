"""The hints against strong play (studies/hints/study.py, verdicts.py, report.py; bezique hints).

The agreement measure on players whose answer is known by construction: the tuned hints
themselves agree with every hint wherever it applies, and the tuned hints without H2 break H2
wherever it applies. The table's shares and means against a direct count on hand-made rows; the
verdicts claim agreement, disagreement or a cost only where the intervals do.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.rules import preset
from analyzer.studies.hints.verdicts import verdict
from analyzer.policies.params import HINT_NAMES
from analyzer.studies.hints.worth import hints_on
from analyzer.studies.hints.study import HintStudy, decision_rows, hint_table
from analyzer.tables.stats import wilson_ci


@pytest.fixture(scope="module")
def by_construction():
    study = HintStudy(pairings=(("hints:tuned-ordinary", "hints:tuned-ordinary,no=H2"),), hands=6, seed=5,
                      samples=4, base="hints:tuned-ordinary")
    return decision_rows(preset("ordinary"), study)


def test_the_tuned_hints_agree_with_every_hint_and_without_h2_break_it(by_construction):
    rows = by_construction
    assert rows.attrs["decisions"] > 100
    played = hints_on("hints:tuned-ordinary")         # the hints its weights switch on (not H6)
    tuned = rows[rows.player == "hints:tuned-ordinary"]
    full = tuned[tuned.hint.isin(played)]
    assert len(full) > 30 and full.agrees.all() and not full.breaks.any()
    assert (full.cost == 0).all()                     # its choice is the hint's: nothing to cost
    unplayed = tuned[~tuned.hint.isin(played)]        # asked at weight 1, a hint it plays off
    assert unplayed.breaks.all() and not unplayed.agrees.any()
    without = rows[rows.player == "hints:tuned-ordinary,no=H2"]
    h2 = without[without.hint == "H2"]
    assert len(h2) > 10 and h2.breaks.all() and not h2.agrees.any()
    assert np.allclose(h2.cost, -h2.gain)             # its choice is the one without H2
    assert set(rows.hint) <= set(HINT_NAMES)


def test_the_table_counts_and_averages_as_a_direct_computation():
    rows = pd.DataFrame(dict(hint=["H2"] * 6 + ["H5"] * 2, stage=[1, 1, 1, 2, 2, 2, 1, 1],
                             kind=["follow"] * 3 + ["lead"] * 3 + ["lead"] * 2,
                             agrees=[True, False, False, True, True, False, True, True],
                             breaks=[False, True, False, False, False, True, False, False],
                             gain=[4.0, 2.0, -6.0, 0.0, 8.0, 10.0, 1.0, 3.0],
                             cost=[0.0, 10.0, 20.0, 0.0, 0.0, 30.0, 0.0, 0.0]))
    t = hint_table(rows, decisions=40)
    h2 = t[(t.hint == "H2") & (t.stage == "all")].iloc[0]
    assert h2.applies == 6 and h2.applies_share == pytest.approx(6 / 40)
    share, lo, hi = wilson_ci(3, 6)
    assert (h2.agree, h2.agree_lo, h2.agree_hi) == pytest.approx((share, lo, hi))
    assert h2["break"] == pytest.approx(2 / 6)
    assert h2.gain == pytest.approx(np.mean([4, 2, -6, 0, 8, 10]))
    costs = np.array([10.0, 20.0, 30.0])               # the decisions it was not followed at
    half = 1.959964 * costs.std(ddof=1) / np.sqrt(3)
    assert (h2.cost_of_following, h2.cost_of_following_lo, h2.cost_of_following_hi) == \
        pytest.approx((20.0, 20.0 - half, 20.0 + half), rel=1e-4)
    split = t[(t.hint == "H2") & (t.stage == "1") & (t.kind == "follow")].iloc[0]
    assert split.applies == 3 and split.agree == pytest.approx(1 / 3)
    assert t[(t.hint == "H1") & (t.stage == "all")].iloc[0].applies == 0


def _table(agree, agree_lo, agree_hi, cost, cost_lo, cost_hi, n=200, split=None, gain=(1.0, -2.0, 4.0)):
    base = dict(hint="H2", applies=n, applies_share=0.3, agree=agree, agree_lo=agree_lo, agree_hi=agree_hi,
                cost_of_following=cost, cost_of_following_lo=cost_lo, cost_of_following_hi=cost_hi,
                cost_of_following_n=n // 2, gain=gain[0], gain_lo=gain[1], gain_hi=gain[2], gain_n=n)
    rows = [dict(base, stage="all", kind="all")]
    if split:
        rows.append(dict(base, stage="1", kind="follow", applies=60, agree=0.3, **split))
    return pd.DataFrame(rows)


def test_the_verdicts_claim_only_what_the_intervals_support():
    assert verdict(_table(0.8, 0.7, 0.9, 2.0, -1.0, 5.0), "H2", "points").startswith("strong play agrees:")
    # agreement straddling one half and a cost straddling zero: nothing claimed
    assert verdict(_table(0.55, 0.46, 0.64, 14.0, -0.2, 28.0), "H2", "points").startswith("not told apart")
    assert verdict(_table(0.2, 0.1, 0.3, 12.0, 4.0, 20.0), "H2", "points").startswith("strong play disagrees")
    told = verdict(_table(0.2, 0.1, 0.3, 12.0, -4.0, 20.0), "H2", "points")
    assert "no cost told apart" in told
    costly = dict(cost_of_following=9.0, cost_of_following_lo=3.0, cost_of_following_hi=15.0,
                  cost_of_following_n=40)
    text = verdict(_table(0.8, 0.7, 0.9, 2.0, -1.0, 5.0, split=costly), "H2", "points")
    assert text.startswith("strong play agrees except when following a lead in the first stage")
    small = dict(costly, cost_of_following_n=5)         # too few decisions to name the split
    assert verdict(_table(0.8, 0.7, 0.9, 2.0, -1.0, 5.0, split=small), "H2", "points").startswith(
        "strong play agrees:")
    divided = verdict(_table(0.55, 0.46, 0.64, 2.0, -1.0, 5.0, split=costly), "H2", "points")
    assert divided.startswith("strong play is divided") and "following a lead in the first stage" in divided
    agrees = _table(0.8, 0.7, 0.9, 2.0, -1.0, 5.0)
    assert "Following it and ignoring it are not told apart" in verdict(agrees, "H2", "points")
    assert "following it gains +6.0" in verdict(_table(0.8, 0.7, 0.9, 2.0, -1.0, 5.0, gain=(6.0, 1.0, 11.0)),
                                                 "H2", "points")
    assert "following it loses" in verdict(_table(0.8, 0.7, 0.9, 2.0, -1.0, 5.0, gain=(-6.0, -11.0, -1.0)),
                                           "H2", "points")
    assert "never changes" in verdict(_table(np.nan, np.nan, np.nan, np.nan, np.nan, np.nan, n=0), "H2", "points")


@pytest.mark.parametrize("args,message", [
    (["--pairing", "learned"], "two policies"),
    (["--pairing", "learned,nosuch"], "nosuch"),
    (["--variant", "three_handed"], "two-handed"),
    (["--samples", "1"], "--samples"),
    (["--hints", "greedy"], "--hints"),
])
def test_bad_input_is_one_clear_line(tmp_path, args, message):
    res = CliRunner().invoke(main, ["hints", "--hands", "1", "--out", str(tmp_path / "h"), *args])
    assert res.exit_code != 0 and message in res.output and "Traceback" not in res.output


def test_an_action_is_named_by_its_kind():
    """action_class on hand-made observations: a lead by suit and rank, a follow by whether it
    takes the trick (a trump over a plain ace; a lower card of the suit led does not), a card
    from the table, the bézique cards by name, a declaration by its combination."""
    from analyzer.cards import COMBO_NAMES
    from analyzer.engine import layout as L
    from analyzer.cards import ACE, HEARTS, NINE, SPADES, TEN
    from analyzer.engine.codes import JD, card_of
    from analyzer.studies.hints.patterns import action_class
    obs = np.zeros(L.OBS_SIZE, np.int32)
    obs[L.OBS_TRUMP] = HEARTS
    obs[L.OBS_DECISION] = L.D_LEAD
    assert action_class(obs, card_of(HEARTS, NINE)) == "lead a trump low card"
    assert action_class(obs, card_of(SPADES, TEN)) == "lead a plain brisque"
    assert action_class(obs, L.A_PLAY_TABLE + JD) == "lead the J♦ from the table"
    obs[L.OBS_DECISION] = L.D_FOLLOW
    obs[L.OBS_BEST_CARD] = obs[L.OBS_LEAD_CARD] = card_of(SPADES, ACE)
    assert action_class(obs, card_of(HEARTS, NINE)) == "win with a trump low card"
    assert action_class(obs, card_of(SPADES, TEN)) == "lose with a plain brisque"
    obs[L.OBS_DECISION] = L.D_MELD
    assert action_class(obs, L.A_STOP) == "declare nothing more"
    assert action_class(obs, L.A_DECLARE + 3) == f"declare {COMBO_NAMES[3]}"


def test_the_patterns_group_and_sum_as_a_direct_computation():
    from analyzer.studies.hints.patterns import pattern_table
    rows = pd.DataFrame(dict(stage=[1, 1, 1, 2], kind=["lead"] * 4,
                             tuned=["lead a plain low card"] * 3 + ["lead a trump brisque"],
                             strong=["lead a trump low card"] * 3 + ["lead a plain brisque"],
                             gain=[10.0, 20.0, 60.0, -5.0]))
    t = pattern_table(rows, seat_hands=10)
    top = t.iloc[0]
    assert (top.tuned, top.strong, top.decisions) == ("lead a plain low card", "lead a trump low card", 3)
    assert top.share == pytest.approx(0.75) and top.gain == pytest.approx(30.0)
    assert top.per_seat_hand == pytest.approx(9.0)
    half = 1.959964 * np.std([10, 20, 60], ddof=1) / np.sqrt(3)
    assert (top.gain_lo, top.gain_hi) == pytest.approx((30 - half, 30 + half), rel=1e-4)
    assert t.iloc[1].per_seat_hand == pytest.approx(-0.5)


def test_policies_whose_settings_hold_commas_are_taken(tmp_path):
    """``--pairing "A vs B"`` and ``--hints`` with settings separated by commas run the study and
    name what they played."""
    out = tmp_path / "h"
    res = CliRunner().invoke(main, ["hints", "--hands", "1", "--samples", "2", "--out", str(out),
                                    "--pairing", "hints:h2=0.5,h5=2 vs learned", "--hints", "hints:h2=0.5,h5=2"])
    assert res.exit_code == 0, res.output
    text = (out / "hints.md").read_text()
    assert "(hints:h2=0.5,h5=2 vs learned)" in text and "`hints:h2=0.5,h5=2`" in text
