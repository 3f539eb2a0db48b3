"""Comparison arithmetic (CI, Elo, SPRT, Bradley-Terry) and fair pairing."""
import math

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.studies.play.compare import PairResult, PairTally, compare, compare_pair
from analyzer.studies.play.ratings import bradley_terry, elo_from_score, score_from_elo, sprt_bounds, sprt_llr
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.tables.stats import mean_ci, wilson_ci
from helpers import assert_margin


def test_elo_known_values():
    assert elo_from_score(0.5) == pytest.approx(0.0)
    assert elo_from_score(0.75) == pytest.approx(190.848501, abs=1e-5)   # 400 log10(3)
    assert elo_from_score(0.25) == pytest.approx(-190.848501, abs=1e-5)
    assert score_from_elo(400) == pytest.approx(10 / 11)
    assert score_from_elo(elo_from_score(0.63)) == pytest.approx(0.63)


def test_wilson_known_interval():
    # 8 of 10: Wilson 95 % interval 0.4902 .. 0.9433 (textbook value)
    p, lo, hi = wilson_ci(8, 10)
    assert p == 0.8 and lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)


def test_wilson_is_statsmodels_to_the_last_bit():
    """wilson_ci writes out statsmodels' Wilson interval (to spare every command scipy.stats'
    import): every count of every size up to 60, and large ones, give its very bounds (bar
    the exact 0 and 1 at the ends, which wilson_ci sets)."""
    from statsmodels.stats.proportion import proportion_confint
    n = np.array([n for n in range(1, 61) for _ in range(n + 1)] + [10**6] * 4 + [123_457] * 3, float)
    k = np.array([k for n in range(1, 61) for k in range(n + 1)] + [0, 1, 40_000, 10**6, 7, 61_728, 123_450], float)
    share, lo, hi = wilson_ci(k, n)
    slo, shi = proportion_confint(k, n, alpha=0.05, method="wilson")
    inside = (k > 0) & (k < n)
    assert np.array_equal(lo[inside], slo[inside]) and np.array_equal(hi[inside], shi[inside])
    assert (lo[k == 0] == 0).all() and (hi[k == n] == 1).all() and np.array_equal(share, k / n)


def test_mean_ci_known_values():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    m, lo, hi = mean_ci(x.sum(), (x ** 2).sum(), len(x))
    half = 1.959963984540054 * math.sqrt(x.var(ddof=1) / 4)
    assert m == 2.5 and lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)


def test_sprt_llr_known_value():
    # 60 wins, 20 draws, 20 losses: s = 0.7, per-game variance 0.16;
    # s0 = 0.5 (0 Elo), s1 = 1/(1+10^(-10/400)) = 0.5143868;
    # LLR = 100 * (s1 - s0) * (2*0.7 - s0 - s1) / (2 * 0.16) = 1.73372
    assert sprt_llr(60, 20, 20, 0, 10) == pytest.approx(1.73372, abs=1e-4)
    assert sprt_llr(0, 0, 0, 0, 10) == 0.0
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19)) and upper == pytest.approx(math.log(19))


def test_sprt_sign():
    # results right at elo1 favour H1, at elo0 favour H0
    assert sprt_llr(5144, 0, 4856, 0, 10) > 0
    assert sprt_llr(5000, 0, 5000, 0, 10) < 0


def test_bradley_terry_recovers_known_ratings():
    truth = {"a": 200.0, "b": 100.0, "c": 0.0}
    results = []
    for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
        p = score_from_elo(truth[x] - truth[y])
        n = 1_000_000
        results.append(PairResult(x, y, PairTally(deals=n // 2, wins=round(n * p), losses=n - round(n * p))))
    df = bradley_terry(["a", "b", "c"], results).set_index("policy")
    assert list(df.index) == ["a", "b", "c"]
    assert df.bt_elo["a"] - df.bt_elo["b"] == pytest.approx(100, abs=1)
    assert df.bt_elo["b"] - df.bt_elo["c"] == pytest.approx(100, abs=1)


def test_identical_deterministic_policies_differ_by_exactly_zero():
    """Seats swapped on the same deals: greedy against greedy cancels hand by hand."""
    g = resolve_policy("greedy")
    r = compare_pair(preset("ordinary"), g, g, 3000, seed=2).row()
    assert r["mean_diff"] == 0 and r["mean_diff_lo"] == 0 and r["wins_a"] == r["wins_b"]


# greedy against random, 100,000 deals of seed 99 (points per hand; Rubicon: per game)
GREEDY_OVER_RANDOM = {"ordinary": 137.2, "rubicon": 2877.3}


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_compare_greedy_beats_random_by_its_measured_margin(variant):
    res = compare(preset(variant), ["greedy", "random"], 2000, seed=4)
    r = res.pairs.iloc[0]
    assert r.score_a_lo > 0.5 and r.elo_a_lo > 0
    assert_margin(r.to_dict(), GREEDY_OVER_RANDOM[variant])


def test_sprt_stops_early():
    a, b = resolve_policy("greedy"), resolve_policy("random")
    res = compare_pair(preset("ordinary"), a, b, 400_000, seed=5, sprt=(0, 10))
    assert res.sprt["sprt_result"].startswith("accept H1")
    assert res.tally.deals < 400_000


def test_a_pair_stops_once_its_difference_is_settled():
    """compare_pair(settle=…) stops after the first look (every 1,024 deals) at which the
    difference's interval lies within ±settle of it, the same on one thread and two; a pair
    whose difference does not settle plays to its cap."""
    rules, a, b = preset("ordinary"), resolve_policy("greedy"), resolve_policy("random")
    res = compare_pair(rules, a, b, 40_000, seed=5, threads=1, settle=0.025)
    t = res.tally
    assert res.row()["settled"] and t.deals % 1024 == 0 and t.deals < 40_000
    m, lo, hi = t.mean_diff()
    assert lo > 0 and (hi - lo) / 2 <= 0.025 * m
    shorter = compare_pair(rules, a, b, t.deals - 1024, seed=5, threads=1).tally     # the look before
    m, lo, hi = shorter.mean_diff()
    assert (hi - lo) / 2 > 0.025 * m
    assert compare_pair(rules, a, b, 40_000, seed=5, threads=2, settle=0.025).tally == t
    seen = []
    same = compare_pair(rules, a, a, 3_000, seed=5, threads=1, settle=0.025, progress=seen.append)
    assert same.tally.deals == 3_000 and not same.row()["settled"] and sum(seen) == 3_000


def test_compare_cli_writes_tables_and_heatmap(tmp_path):
    out = tmp_path / "cmp"
    res = CliRunner().invoke(main, ["compare", "greedy", "random", "greedy", "--hands", "1500",
                                    "--out", str(out), "--threads", "1"])
    assert res.exit_code == 0, res.output
    assert "ranking" in res.output
    assert (out / "pairs.csv").exists() and (out / "ranking.csv").exists()
    from PIL import Image
    with Image.open(out / "heatmap.png") as im:
        assert im.size[0] > 300 and im.size[1] > 300


@pytest.mark.parametrize("args,needle", [
    (["compare", "greedy"], "at least two"),
    (["compare", "greedy", "random", "--sprt", "10,0"], "ELO0 < ELO1"),
    (["compare", "greedy", "random", "--sprt", "x"], "ELO0,ELO1"),
    (["compare", "greedy", "nobody"], "unknown policy"),
])
def test_compare_bad_input(args, needle):
    res = CliRunner().invoke(main, args)
    assert res.exit_code != 0 and needle in res.output and "Traceback" not in res.output


def test_a_hints_worth_against_an_opponent_is_paired_deal_by_deal():
    """ablate(against=...): each hint's worth and its interval are those of the per-deal
    differences (the full hints' result minus the one without the hint, deal by deal, from the
    records of both seatings), not the two results' intervals added in quadrature; where the
    runs share most of their luck (H8, a second-stage hint) the paired interval is far narrower,
    and a hint that changes nothing in this game (H7, Rubicon's) is worth exactly 0 [0, 0]."""
    from analyzer.run.records import play_records
    from analyzer.studies.hints.worth import ablate
    from analyzer.studies.play.compare import seat_points
    rules, deals, seed = preset("ordinary"), 300, 11
    df = ablate(rules, deals, seed, threads=1, against="greedy").set_index("hint")
    arr = rules.to_array()

    def per_deal(policy):
        a, b = resolve_policy(policy), resolve_policy("greedy")
        first = seat_points(rules, play_records(arr, seed, 0, deals, [a, b]))
        second = seat_points(rules, play_records(arr, seed, 0, deals, [b, a]))
        return ((first[:, 0] - first[:, 1]) + (second[:, 1] - second[:, 0])) / 2

    full = per_deal("hints")
    for hint in ("H2", "H8"):
        d = full - per_deal(f"hints:no={hint}")
        half = 1.959964 * d.std(ddof=1) / np.sqrt(deals)
        row = df.loc[hint]
        assert (row.mean_diff, row.mean_diff_lo, row.mean_diff_hi) == \
            pytest.approx((d.mean(), d.mean() - half, d.mean() + half), rel=1e-6, abs=1e-9)
    h8 = df.loc["H8"]
    quadrature = np.hypot(h8.full_hi - h8.full_lo, h8.without_hi - h8.without_lo) / 2
    assert (h8.mean_diff_hi - h8.mean_diff_lo) / 2 < 0.5 * quadrature
    assert (df.loc["H7", ["mean_diff", "mean_diff_lo", "mean_diff_hi"]] == 0).all()


def test_ablate_switches_off_each_hint_the_base_plays():
    """ablate(base=...): a row for each hint the base plays (weight > 0) and no other, each the
    base against itself without that hint (``hints:tuned-x,no=H10``), on the same deals."""
    from analyzer.studies.hints.worth import ablate, hints_on, without_hint
    from analyzer.studies.play.compare import compare_pair
    rules, deals, seed = preset("ordinary"), 300, 12
    base = "hints:only=H2+H10+H11"
    assert hints_on(base) == ["H2", "H10", "H11"] and hints_on("hints") == [f"H{i}" for i in range(1, 9)]
    assert without_hint("hints", "H3") == "hints:no=H3" and without_hint(base, "H3") == base + ",no=H3"
    df = ablate(rules, deals, seed, threads=1, base=base).set_index("hint")
    assert list(df.index) == ["H2", "H10", "H11"]
    direct = compare_pair(rules, resolve_policy(base), resolve_policy(base + ",no=H11"), deals, seed, 1).row()
    assert df.loc["H11", "mean_diff"] == direct["mean_diff"]
    res = CliRunner().invoke(main, ["ablate", "--base", "greedy", "--hands", "10"])
    assert res.exit_code != 0 and "the base 'greedy' is not a hints policy" in res.output
