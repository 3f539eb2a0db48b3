"""Charts drawn from small synthetic tables: titles name the rule set, percentages read as
percentages on log axes, legends list only what was drawn, the heatmap marks its diagonal
and keeps its title off the colorbar; and every chart the report draws (from the committed
tables), the hints' chart and the figures against strength: no two texts overlap, none runs off
the figure, no machine name is shown, each series says its own sample, and an axis that does
not start at 0 says so."""
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from analyzer import plots
from analyzer.plots.figure import CUT, percent_text, rules_title
from analyzer.rules import preset

RESULTS = Path(__file__).resolve().parent.parent / "results"


def drawn(fig):
    """``fig`` drawn on an Agg canvas (so tick labels and extents are final); the renderer."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def tick_texts(labels) -> list[str]:
    return [t.get_text() for t in labels if t.get_visible() and t.get_text()]


def legend_texts(legend) -> list[str]:
    return [t.get_text() for t in legend.get_texts()]


def combinations(shares: dict) -> pd.DataFrame:
    """A combinations table: policy -> the declared share of each of three combinations."""
    rows = []
    for policy, values in shares.items():
        for combo, v in zip(["bezique", "double_bezique", "four_aces"], values):
            rows.append({"combination": combo, "policy": policy, "declared_share": v,
                         "declared_share_lo": v * 0.8, "declared_share_hi": v * 1.2 + 1e-4})
    return pd.DataFrame(rows)


# 1. the rule set in the title

def test_rules_title_names_the_preset_and_the_changes():
    assert rules_title(preset("ordinary")) == "ordinary bézique"
    assert rules_title(preset("rubicon")) == "rubicon bézique"
    assert rules_title(preset("ordinary", hand_size=9)) == "ordinary bézique, hand_size=9"
    two = rules_title(preset("ordinary", trump="first_marriage"))      # seven_scores follows the trump
    assert two == "ordinary bézique, trump=first_marriage, seven_scores=false"
    many = rules_title(preset("ordinary", hand_size=9, last_trick=20, target=1500, seven_points=20,
                              brisque_points=0))
    assert many.endswith("+2 more options") and "hand_size=9" in many


def test_report_charts_are_titled_with_the_changed_rules():
    """Every chart of a report is drawn with a title naming hand_size=9 (its title is the
    last argument its chart function is given: no simulation, nothing drawn)."""
    from analyzer.studies.report import study as report

    st = report.Study(preset("ordinary", hand_size=9), 10, 1, {}, None)
    st.__dict__["tables"] = dict.fromkeys(["odds", "double_bezique_by_trick", "score_distribution", "brisques",
                                           "combinations", "game_length"])
    titles = {name: args[-1] for name, (_function, args) in report.chart_jobs(st).items()}
    assert len(titles) == 7
    assert all(t.startswith("ordinary bézique, hand_size=9: ") for t in titles.values()), titles


def test_charts_drawn_side_by_side_are_those_drawn_one_after_the_other(tmp_path):
    """save_charts in processes writes the same files, byte for byte, as one after the other."""
    jobs = {f"c{i}": (plots.combinations_chart, (combinations({"a": [0.2, 0.001 * i, 0.6]}), f"t{i}"))
            for i in range(1, 4)}
    apart = plots.save_charts(jobs, tmp_path / "apart", processes=3)
    alone = plots.save_charts(jobs, tmp_path / "alone", processes=1)
    assert list(apart) == list(alone) == ["c1", "c2", "c3"]
    for name in jobs:
        for a, b in zip(apart[name], alone[name]):
            assert a.name == b.name and a.read_bytes() == b.read_bytes()


# 2. percentages: linear when the range allows, log ticks reading like 0.1 %, 1 %, 10 %

def test_percent_text():
    assert [percent_text(v) for v in (100, 10, 1, 0.1, 0.01, 0.002)] == \
        ["100 %", "10 %", "1 %", "0.1 %", "0.01 %", "0.002 %"]
    assert percent_text(1e-5) == "$10^{-5}$ %" and percent_text(2e-7) == r"$2\times10^{-7}$ %"


def test_combinations_log_axis_reads_as_percentages():
    fig = plots.combinations_chart(combinations({"a": [0.2, 0.001, 0.6], "b": [0.15, 0.002, 0.5]}), "t")
    drawn(fig)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    labels = tick_texts(ax.get_xticklabels())
    assert {"0.1 %", "1 %", "10 %"} <= set(labels), labels
    assert all(t.endswith(" %") and "10^" not in t for t in labels), labels
    assert ax.get_xlabel().endswith("(log scale)")


def test_combinations_narrow_range_is_linear():
    fig = plots.combinations_chart(combinations({"a": [0.2, 0.1, 0.6]}), "t")
    drawn(fig)
    ax = fig.axes[0]
    assert ax.get_xscale() == "linear" and ax.get_xlabel().endswith("(%)")


def test_odds_and_score_tail_log_axes_read_as_percentages():
    odds = pd.DataFrame({"event": ["dealt_bezique", "dealt_double_bezique"], "sample": [1000, 1000],
                         "simulated": [0.05, 0.0], "simulated_lo": [0.04, 0.0], "simulated_hi": [0.06, 0.003],
                         "exact_decimal": [0.05, 1e-4]})
    fig = plots.odds_chart(odds, "t")
    drawn(fig)
    labels = tick_texts(fig.axes[0].get_xticklabels())
    assert "1 %" in labels and all(t.endswith(" %") for t in labels), labels
    score = np.arange(0, 500, 10)
    tail = pd.DataFrame({"policy": "p", "score": score, "at_least": np.exp(-score / 40)})
    tail = tail.assign(at_least_lo=tail.at_least * 0.9, at_least_hi=tail.at_least * 1.1)
    fig = plots.score_at_least_chart(tail, "t")
    drawn(fig)
    labels = tick_texts(fig.axes[0].get_yticklabels())
    assert {"100 %", "1 %", "0.01 %"} <= set(labels), labels


# 3. legends only for marks that appear

def test_combinations_legend_explains_the_triangle_only_when_drawn():
    fig = plots.combinations_chart(combinations({"a": [0.2, 0.001, 0.6], "b": [0.15, 0.002, 0.5]}), "t")
    legend = fig.legends[0]
    assert legend_texts(legend) == ["a", "b"] and "◁" not in legend.get_title().get_text()
    fig = plots.combinations_chart(combinations({"a": [0.2, 0.001, 0.6], "b": [0.15, 0.0, 0.5]}), "t")
    assert legend_texts(fig.legends[0]) == ["a", "b", "none seen: 95% upper bound"]


def test_bezique_by_trick_legend_leaves_out_lines_never_drawn():
    tricks = np.arange(10)
    rows = []
    for policy, scored in (("p", 0.001 * tricks), ("q", 0.0 * tricks)):       # q never scores one
        rows.append(pd.DataFrame({"level": "double", "policy": policy, "trick": tricks, "scored": scored,
                                  "scored_lo": scored * 0.5, "scored_hi": scored * 2 + 1e-4,
                                  "held": 0.002 * tricks, "held_lo": 0.001 * tricks, "held_hi": 0.003 * tricks,
                                  "received_exact": 0.003 * tricks + 1e-4}))
    fig = plots.bezique_by_trick_chart(pd.concat(rows, ignore_index=True), "t")
    texts = legend_texts(fig.legends[0])
    assert "q: scored" not in texts
    assert {"p: scored", "p: held all its cards", "q: held all its cards",
            "received all its cards (exact)"} <= set(texts)


# 4. the heatmap: its diagonal marked, its title clear of the colorbar label

def pairs_table():
    return pd.DataFrame({"policy_a": ["hints", "hints", "greedy"], "policy_b": ["greedy", "random", "random"],
                         "score_a": [0.59, 0.96, 0.93], "score_a_lo": [0.58, 0.95, 0.92],
                         "score_a_hi": [0.60, 0.97, 0.94]})


def test_heatmap_marks_the_diagonal():
    fig = plots.pairwise_chart(pairs_table(), ["hints", "greedy", "random"], "hands", "t")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.texts].count("same policy") == 3
    cells = [p for p in ax.patches if p.get_label() == "same policy"]
    assert sorted(p.get_xy() for p in cells) == [(-0.5, -0.5), (0.5, 0.5), (1.5, 1.5)]
    assert all(p.get_hatch() and p.get_facecolor()[:3] != (1.0, 1.0, 1.0) for p in cells)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_heatmap_title_clears_the_colorbar_label(k):
    names = [f"policy{i}" for i in range(k)]
    pairs = pd.DataFrame([{"policy_a": a, "policy_b": b, "score_a": 0.6, "score_a_lo": 0.55, "score_a_hi": 0.65}
                          for i, a in enumerate(names) for b in names[i + 1:]])
    title = "ordinary bézique, hand_size=9: head to head\n(3,000 deals per pair, each played twice; seed 1)"
    fig = plots.pairwise_chart(pairs, names, "hands", title)
    renderer = drawn(fig)
    heat, bar = fig.axes
    heading = fig._suptitle if fig.get_suptitle() else heat.title        # wherever the chart puts it
    assert heading.get_text().startswith("ordinary bézique, hand_size=9")
    box = heading.get_window_extent(renderer)
    assert not box.overlaps(bar.yaxis.label.get_window_extent(renderer))
    assert not box.overlaps(bar.get_window_extent(renderer))


# 5. no two texts overlap, none runs off the figure, names in words

def shown_texts(fig) -> list:
    """(text, its box in pixels) of every text ``fig`` shows once drawn: the titles, the axis
    labels, the tick labels drawn (those inside the view), the annotations, the legends'
    titles and entries, the figure's own texts."""
    renderer = drawn(fig)
    texts = [fig._suptitle, fig._supxlabel, fig._supylabel, *fig.texts]
    for legend in [*fig.legends, *(ax.get_legend() for ax in fig.axes)]:
        if legend is not None:
            texts += [legend.get_title(), *legend.get_texts()]
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        texts += [ax.title, ax._left_title, ax._right_title, *ax.texts]
        for axis in (ax.xaxis, ax.yaxis):
            texts += [axis.label, axis.offsetText]
            for tick in axis._update_ticks():        # the ticks drawn: those inside the view
                texts += [tick.label1, tick.label2]
    texts = list({id(t): t for t in texts if t is not None}.values())
    return [(t, t.get_window_extent(renderer)) for t in texts if t.get_visible() and t.get_text().strip()]


def overlapping_texts(fig, pad: float = 1.0) -> list[tuple[str, str]]:
    """The pairs of texts ``fig`` shows whose boxes overlap by more than ``pad`` pixels."""
    texts = shown_texts(fig)
    return [(a.get_text(), b.get_text()) for i, (a, box_a) in enumerate(texts) for b, box_b in texts[i + 1:]
            if box_a.padded(-pad).overlaps(box_b.padded(-pad))]


def texts_off_the_figure(fig, pad: float = 1.0) -> list[str]:
    """The texts ``fig`` shows that run off its edges by more than ``pad`` pixels."""
    edge = fig.bbox.padded(pad)
    return [t.get_text() for t, box in shown_texts(fig)
            if box.x0 < edge.x0 or box.y0 < edge.y0 or box.x1 > edge.x1 or box.y1 > edge.y1]


def assert_readable(fig, name: str = "") -> None:
    """No two texts of ``fig`` overlap and none runs off it."""
    assert not overlapping_texts(fig), (name, overlapping_texts(fig))
    assert not texts_off_the_figure(fig), (name, texts_off_the_figure(fig))


def test_the_overlap_check_finds_texts_that_overlap():
    fig, ax = plots.figure.new_figure()
    ax.set_xticks([0, 1e-3], ["a long tick label", "another long one"])
    assert overlapping_texts(fig) == [("a long tick label", "another long one")]
    ax.set_xticks([0, 1], ["a", "b"])
    ax.set_title("x" * 300)
    assert not overlapping_texts(fig) and texts_off_the_figure(fig) == ["x" * 300]


def committed_study(variant: str):
    """A report's Study of ``variant`` whose tables are the committed results/VARIANT tables,
    with a band over three of its self-play players and the hints' worth of
    results/learned/ablation-VARIANT: every chart the report draws, drawn from real tables
    without playing a hand."""
    from analyzer.studies.report import study as report
    from analyzer.studies.report.strong import StrongPlay
    from analyzer.tables.band_table import band_table

    tables = {p.stem: pd.read_csv(p, index_col=0) for p in sorted((RESULTS / variant).glob("*.csv"))}
    players = ["learned", f"hints:tuned-{variant}", "hints"]
    tables["strong_band"] = band_table(tables, players, variant == "rubicon")
    tables["hint_worth"] = pd.read_csv(RESULTS / "learned" / f"ablation-{variant}" / "ablation.csv", index_col=0)
    st = report.Study(preset(variant), 100_000, 1, {}, None,
                      strong=StrongPlay("learned", 16_000, 4_000, 3_000, tuple(players[1:])))
    st.__dict__["tables"] = tables
    return st


def report_figures(variant: str) -> dict:
    """Every chart of the report of ``variant`` (study.chart_jobs) drawn from the committed tables."""
    from analyzer.studies.report import study as report

    return {name: function(*args) for name, (function, args) in report.chart_jobs(committed_study(variant)).items()}


@pytest.fixture(scope="module", params=["ordinary", "rubicon"])
def report_charts(request) -> dict:
    return report_figures(request.param)


MACHINE_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b|^H\d+\b|\bsequence [SHDC]\b")    # marriage_H, H4 alone


def test_no_text_of_a_report_chart_overlaps_another_or_runs_off(report_charts):
    assert len(report_charts) >= 10
    for name, fig in report_charts.items():
        assert_readable(fig, name)


def test_report_charts_name_things_in_words(report_charts):
    """No chart shows a machine name (``dealt_sequence_S``, ``four_aces``, a bare ``H4``)."""
    for name, fig in report_charts.items():
        shown = [t.get_text() for t, _box in shown_texts(fig)]
        assert not [t for t in shown if MACHINE_NAME.search(t)], (name, [t for t in shown if MACHINE_NAME.search(t)])
    odds = [t.get_text() for t in report_charts["odds"].axes[0].get_yticklabels()]
    assert any(t.startswith("four aces in a dealt hand (n = ") for t in odds), odds
    hints = [t.get_text() for t in report_charts["hint_worth"].axes[0].get_yticklabels()]
    assert any(t.startswith("counting the cards (H4): ") for t in hints), hints


def test_the_figures_against_strength_are_readable():
    """figures_by_strength_GAME.png (published/generations.strength_figure) from the committed
    tables: every player named once, with its own hands; no text overlaps."""
    from analyzer.published.generations import strength_figure

    figs, gens = (pd.read_csv(RESULTS / "learned" / f"{name}.csv", index_col=0)
                  for name in ("figures_by_strength", "generations"))
    for game in ("ordinary", "rubicon"):
        fig = strength_figure(figs, gens, game)
        assert_readable(fig, game)
        labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        assert len(labels) == figs[figs.game == game].player.nunique()
        assert any(t.startswith("expert (the search over learned): +") and t.endswith(" hands") for t in labels)


def test_the_generations_charts_are_readable():
    """generations_GAME.png (published/generations.generations_figure) from the committed table:
    every run named under its point, and no two names overlap (Rubicon has 14 runs)."""
    from analyzer.published.generations import generations_figure

    gens = pd.read_csv(RESULTS / "learned" / "generations.csv", index_col=0)
    for game in ("ordinary", "rubicon"):
        fig = generations_figure(gens, game)
        assert_readable(fig, game)
        assert len(fig.axes[0].get_xticklabels()) >= 10


def test_the_hints_chart_names_every_hint_in_words_and_is_readable():
    from analyzer.plots.hints import hints_chart

    rows = [{"hint": f"H{k}", "stage": "all", "applies": 1000 * k, "agree": 0.6, "agree_lo": 0.5, "agree_hi": 0.7,
             "cost_of_following": 2.0, "cost_of_following_lo": 1.0, "cost_of_following_hi": 3.0,
             "gain": 1.0, "gain_lo": -1.0, "gain_hi": 3.0} for k in range(1, 14)]
    fig = hints_chart(pd.DataFrame(rows), "ordinary bézique: the hints against strong play", "points")
    assert_readable(fig)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels[3] == "counting the cards (H4)\n(4,000 decisions)" and len(labels) == 13


# 6. each series its own sample; an axis that leaves 0 out says so

def test_each_series_says_its_own_hands():
    fig = plots.combinations_chart(combinations({"learned": [0.2, 0.01, 0.6], "hints": [0.15, 0.02, 0.5]}), "t",
                                   sizes={"learned": 16_000, "hints": 100_000})
    assert legend_texts(fig.legends[0]) == ["learned (16,000 hands)", "hints (100,000 hands)"]
    df = pd.DataFrame({"pairing": ["learned vs learned", "hints vs hints"], "margin_per_brisque": [25.0, 23.0],
                       "margin_per_brisque_lo": [24.0, 22.5], "margin_per_brisque_hi": [26.0, 23.5],
                       "winner_changes": [0.08, 0.13], "winner_changes_lo": [0.07, 0.12],
                       "winner_changes_hi": [0.09, 0.14]})
    fig = plots.brisque_chart(df, False, "t", sizes={"learned vs learned": 16_000, "hints vs hints": 100_000})
    assert_readable(fig)
    assert tick_texts(fig.axes[0].get_yticklabels()) == ["learned vs learned (16,000 hands)",
                                                         "hints vs hints (100,000 hands)"]


def test_an_axis_that_leaves_0_out_says_so(report_charts):
    panels = [ax for ax in report_charts["strong_band"].axes if ax.get_visible()]
    assert all((CUT in ax.get_ylabel()) == (min(ax.get_ylim()) > 0 or max(ax.get_ylim()) < 0) for ax in panels)
    assert any(CUT in ax.get_ylabel() for ax in panels)
    fig = plots.combinations_chart(combinations({"a": [0.2, 0.1, 0.6]}), "t")       # linear: from 0
    assert fig.axes[0].get_xlim()[0] == 0 and CUT not in fig.axes[0].get_xlabel()
    if "rubicon_rates" in report_charts:
        rate = report_charts["rubicon_rates"].axes[0]
        assert rate.get_xlim()[0] > 0 and CUT in rate.get_xlabel()


def test_report_charts_say_each_pairings_own_hands():
    """Where the strong players' pairings played 16,000 hands and the rest 100,000, no title says
    "100,000 hands per pairing": each series says its own (study.chart_jobs, sample_sizes)."""
    from types import SimpleNamespace

    from analyzer.studies.report import study as report

    st = committed_study("ordinary")
    st.results = {"learned vs learned": SimpleNamespace(hands=16_000), "hints vs hints": SimpleNamespace(hands=100_000),
                  "hints vs greedy": SimpleNamespace(hands=100_000)}
    jobs = report.chart_jobs(st)
    assert not [name for name, (_f, args) in jobs.items() if "100,000 hands per pairing" in args[-1]]
    function, args = jobs["combinations"]
    labels = legend_texts(function(*args).legends[0])
    assert "learned (16,000 hands)" in labels and "hints (100,000 hands)" in labels
    function, args = jobs["brisque_value"]
    fig = function(*args)
    assert_readable(fig)
    assert "learned vs learned (16,000 hands)" in tick_texts(fig.axes[0].get_yticklabels())


def test_a_heatmap_of_a_models_long_name_keeps_its_layout():
    """A policy named by a model's path (``learned:weights=…``, 70 characters) wraps on the
    heatmap's axes: the figure keeps its layout (matplotlib otherwise warns that the axes
    collapsed, on the terminal of ``bezique compare``) and the name is all there."""
    import warnings

    from analyzer.plots.pairs import pairs_heatmap
    names = ["learned:weights=/work/main/results/train/ordinary-late8/model.npz,rules=any", "hints"]
    pairs = pd.DataFrame([{"policy_a": names[0], "policy_b": names[1], "mean_diff": 87.4, "mean_diff_lo": 85.5,
                           "mean_diff_hi": 89.3}])
    fig = pairs_heatmap(pairs, names, "mean_diff", "points per hand")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels[0].replace("\n", "") == names[0] and max(len(line) for line in labels[0].split("\n")) <= 28
