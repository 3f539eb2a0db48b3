"""Report: table builders on known tallies, and a small run writing every promised file."""

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from analyzer.tables import study_tables
from analyzer.tables.band_table import verdict
from analyzer.cli import main
from analyzer.policies.learned import shipped_players
from cli_examples import SMALL_REPORT, report_examples, report_variant, run_once
from analyzer.run.tallies import Tallies


def known_tallies():
    t = Tallies(2)
    t.hands = 1000
    t.declarations[0, 8] = 100          # 100 béziques by seat 0
    t.declarations[1, 12] = 50          # 50 four aces by seat 1
    t.decl_points[0, 8] = 4000
    t.decl_points[1, 12] = 5000
    t.cat_count[0, 4], t.cat_points[0, 4], t.cat_hands[0, 4] = 100, 4000, 80     # in 80 hands
    t.cat_count[1, 8], t.cat_points[1, 8], t.cat_hands[1, 8] = 50, 5000, 50
    t.bezique_level[0] = [850, 100, 50, 0, 0]     # 50 doubles by seat 0
    t.bezique_level[1] = [1000, 0, 0, 0, 0]
    t.held_bezique[:, 0, 0] = [920, 980]           # held a double: 80 and 20 hands
    t.held_bezique[:, 0, 5] = [80, 20]
    t.unscored_played[:] = [10, 15]
    t.unscored_talon[:] = [20, 5]
    t.received[:, 2] = [60, 40]
    t.first_bezique[0, 0, 0] = 950
    t.first_bezique[0, 0, 10] = 30
    t.first_bezique[0, 0, 20] = 20
    t.first_bezique[1, 0, 0] = 1000
    return t


def test_combinations_table_known():
    df = study_tables.combinations_table({"p": known_tallies()})
    assert list(df.combination) == ["bezique", "four_aces"]
    bez = df.set_index("combination").loc["bezique"]
    assert bez.per_hand == 100 / 2000 and bez.points_per_hand == 4000 / 2000
    assert bez.share_of_points == pytest.approx(4000 / 9000)
    assert bez.declared_share == 80 / 2000 and bez.declared_share_lo < 0.04 < bez.declared_share_hi


def test_double_bezique_table_known():
    df = study_tables.double_bezique_table({"p": known_tallies()}, {2: 0.05})
    r = df.iloc[0]
    assert r.seat_hands == 2000
    assert r.scored_double == 50 / 2000
    assert r.held_double == 100 / 2000
    assert r.held_not_scored == 50 / 2000
    assert r.held_not_scored_card_played == 25 / 2000 and r.held_not_scored_talon_ran_out == 25 / 2000
    assert r.received_double == 100 / 2000 and r.received_double_exact == 0.05


def test_bezique_by_trick_is_cumulative():
    bound = [0.01 * k for k in range(25)]
    df = study_tables.bezique_by_trick_table({"p": known_tallies()}, {2: bound})
    assert df.trick.tolist() == list(range(25)) and df.received_exact.tolist() == bound
    share = df.set_index("trick").scored
    assert share[0] == 0 and share[9] == 0 and share[10] == 30 / 2000 and share[19] == 30 / 2000
    assert share[20] == 50 / 2000 and share[24] == 50 / 2000
    held = df.set_index("trick").held          # first held with 4 tricks played (bin 5)
    assert held[3] == 0 and held[4] == 100 / 2000 and held[24] == 100 / 2000
    assert (np.diff(df.scored) >= 0).all() and (df.scored_lo <= df.scored).all()


def test_regression_known_slope():
    t = Tallies(2)
    x = np.array([-2, -1, 0, 1, 2, 3])
    y = 7 * x + 5
    t.hands = len(x)
    t.reg_sx, t.reg_sy, t.reg_sxx, t.reg_sxy, t.reg_syy = x.sum(), y.sum(), (x * x).sum(), (x * y).sum(), (y * y).sum()
    slope, lo, hi = study_tables.regression(t)
    assert slope == pytest.approx(7) and lo == pytest.approx(7) and hi == pytest.approx(7)
    y2 = y + np.array([1, -1, 1, -1, 1, -1])
    t.reg_sy, t.reg_sxy, t.reg_syy = y2.sum(), (x * y2).sum(), (y2 * y2).sum()
    slope, lo, hi = study_tables.regression(t)
    fit = np.polyfit(x, y2, 1)[0]
    assert slope == pytest.approx(fit) and lo < slope < hi


def test_loser_total_table_known():
    t = Tallies(2)
    t.hands = 100
    t.loser_hist[[2, 9, 10, 12]] = [60, 30, 6, 4]      # bins of 100: 200-299, 900-999, ...
    df = study_tables.loser_total_table({"p": t}, 100, 1000)
    assert df.bin.tolist()[-1] == "≥ 1200" and df.bin.tolist()[9] == "900–999"
    assert df.share.sum() == pytest.approx(1) and df.under_limit.iloc[0] == 0.9


def test_game_length_known():
    t = Tallies(2)
    t.game_length[0, 5] = 30
    t.game_length[0, 6] = 10
    df = study_tables.game_length_table({"p": t})
    r = df.iloc[0]
    assert r.target == 1000 and r.games == 40 and r.mean_hands == pytest.approx(5.25)
    assert r.median_hands == 5 and r.p90_hands == 6


REPORT_EXAMPLES = report_examples()     # the help's, the README's and docs/'s, small
EXTRA_FILES = {"ordinary": ["sevens", "game_length"], "rubicon": ["rubicon", "game_scores", "loser_totals"]}


@pytest.mark.slow
@pytest.mark.parametrize("args", REPORT_EXAMPLES, ids=" ".join)
def test_small_report_writes_every_file(tmp_path_factory, args):
    """Each report example of the help, the README and docs/, at 1,500 hands (Rubicon: 600 games,
    each four times an ordinary hand's work), writes every file. The same run is the one whose
    page tests/test_report_page.py reads (cli_examples.run_once)."""
    out, exit_code, output = run_once(tmp_path_factory, args)
    assert exit_code == 0, output
    variant = report_variant(args)
    extra = EXTRA_FILES[variant]
    hands, deals = SMALL_REPORT[variant]
    tables = ["odds", "summary", "combinations", "double_bezique", "double_bezique_by_trick", "brisques",
              "score_distribution", "seat_advantage", "pairwise", "hint_worth"] + extra
    for name in tables:
        assert (out / f"{name}.csv").stat().st_size > 0 and (out / f"{name}.parquet").exists(), name
    charts = {"double_bezique_by_trick": None, "score_distribution": (960, 540), "brisque_value": None,
              "combinations": None, "score_at_least": (960, 540), "odds": None, "pairwise": None,
              "hint_worth": None}
    charts.update({"rubicon_rates": None, "game_scores": (960, 540), "loser_totals": (960, 540)} if variant == "rubicon"
                  else {"game_length": (960, 540)})
    report = (out / "report.md").read_text()
    for name, size in charts.items():
        png = out / f"{name}.png"
        assert (out / f"{name}.svg").stat().st_size > 5000
        with Image.open(png) as im:
            assert im.size[0] >= 600 and im.size[1] >= 400
            if size:
                assert abs(im.size[0] - size[0]) < 80 and abs(im.size[1] - size[1]) < 80
            assert len(np.unique(np.asarray(im.convert("L")))) > 20      # not a blank image
        assert f"({name}.png)" in report
    assert "bezique report --variant" in report and f"{hands:,} hands" in report
    import pandas as pd
    odds = pd.read_csv(out / "odds.csv")
    assert (odds["sample"] > 0).all() and odds.simulated.notna().all()      # receive rows from the play
    pairs = pd.read_csv(out / "pairwise.csv")
    strong = pairs.policy_a == "learned"
    assert strong.sum() == 3 and len(pairs) == 6 and (pairs.games == 2 * pairs.deals).all()
    # each pair plays to its cap (``deals`` against the strong player, ``hands`` among the
    # heuristics) unless its difference settled sooner (interval within ±2.5 % of it)
    cap = np.where(strong, deals, hands)
    assert ((pairs.deals == cap) | pairs.settled).all() and (pairs.deals <= cap).all()
    half = (pairs.mean_diff_hi - pairs.mean_diff_lo) / 2
    assert (half[pairs.settled] <= 0.025 * pairs.mean_diff[pairs.settled].abs()).all()
    assert "until its difference was known to within ±2.5 %" in report
    summary = pd.read_csv(out / "summary.csv")
    players = ["learned"] + [f"learned:player={p}" for p in shipped_players(variant) if p > 1]
    assert len(players) >= 3                                          # the package's strong players
    assert list(dict.fromkeys(summary.pairing))[:len(players)] == [f"{p} vs {p}" for p in players]
    found = report.split("## What this study found")[1].split("\n## ")[0].splitlines()
    # by default the takeaways come first, under strong play, then the headline figures as a band
    assert any(line.startswith("3. Under strong play a player scores a double bézique") for line in found)
    headline = report.split("## The headline figures")[1].split("\n## ")[0]
    band = pd.read_csv(out / "strong_band.csv")
    assert list(dict.fromkeys(band.player)) == players and f"each of {len(players)} strong players" in headline
    assert len(band.figure.unique()) == (6 if variant == "rubicon" else 5)
    assert all(f"| {what} (" in headline for what in band.what.unique())
    assert "(strong_band.png)" in report and (out / "strong_band.svg").stat().st_size > 5000
    assert report.index("## The headline figures") < report.index("## How this study was made") \
        < report.index("(strong_band.png)")                      # the band's chart pictures the method
    assert len(pd.read_csv(out / "hint_worth.csv")) == 8 and "## The hints' worth against strong play" in report


def test_report_examples_cover_both_variants():
    variants = [report_variant(a) for a in REPORT_EXAMPLES]
    assert sorted(variants) == ["ordinary", "rubicon"]


def test_report_bad_input():
    res = CliRunner().invoke(main, ["report", "--hands", "0"])
    assert res.exit_code == 1 and "--hands must be from 1 to 2^63-1" in res.output


def test_bar_chart_error_bars_at_0_and_100_percent(tmp_path):
    """A share of exactly 100 % (or 0 %) can put the CI bound a rounding error inside the
    value; the chart must still draw (this once stopped the Rubicon report)."""
    import pandas as pd

    from analyzer.plots import rubicon_rate_chart, save_chart
    y = 1.0
    df = pd.DataFrame({"pairing": ["a vs a"], "rubicon_rate": [y], "rubicon_rate_lo": [0.99],
                       "rubicon_rate_hi": [y - 1e-16], "saved_by_brisques": [0.0],
                       "saved_by_brisques_lo": [1e-18], "saved_by_brisques_hi": [0.01]})
    paths = save_chart(rubicon_rate_chart(df, "t"), tmp_path, "rubicon_rates")
    assert all(p.stat().st_size > 1000 for p in paths)


def test_wilson_bounds_at_0_and_1_print_exactly():
    """No residue such as 2e-22 for a share never seen (or 0.9999999999999999 for one always
    seen), at the sample sizes of the committed study."""
    from analyzer.numbers import share as share_text
    from analyzer.tables.stats import wilson_ci
    n = 2_000_000
    share, lo, hi = wilson_ci(0, n)
    assert lo == 0.0 and f"{lo:.4g}" == "0" and 0 < hi < 1e-5
    share, lo, hi = wilson_ci(n, n)
    assert hi == 1.0 and f"{hi:.4g}" == "1" and 1 - 1e-5 < lo < 1
    row = dict(zip(["x", "x_lo", "x_hi"], wilson_ci(0, n)))
    assert share_text(row["x"], row["x_lo"], row["x_hi"]).startswith("0.0 % [0.0, ")
    share, lo, hi = wilson_ci(np.array([0, 5, 10]), np.array([10, 10, 10]))
    assert lo[0] == 0.0 and hi[2] == 1.0 and 0 < lo[1] < 0.5 < hi[1] < 1


def test_a_band_figure_is_the_games_only_when_every_two_players_surely_agree_within_5_percent():
    """band_table.verdict: the game's when every two players' difference, with its interval (the
    half-widths in quadrature), lies inside ±5 % of the figure; the players' when two surely
    differ by more; else not settled."""
    assert verdict([(100, 99, 101), (100.5, 99.5, 101.5), (99.8, 98.8, 100.8)]) == "game"
    assert verdict([(100, 99.5, 100.5), (110, 109.5, 110.5)]) == "players"
    assert verdict([(100, 95, 105), (104, 99, 109)]) == "open"          # 4 apart, but ±7: more hands would tell
    assert verdict([(100, 97, 103), (103, 100, 106)]) == "open"         # inside ±5 only by the estimate
    assert verdict([(100, 99.9, 100.1), (100.3, 100.2, 100.4)]) == "game"   # differ, but by under 5 %
    assert verdict([(0.04, 0.039, 0.041), (0.044, 0.043, 0.045)]) == "players"    # shares: 10 % apart
