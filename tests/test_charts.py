"""Charts drawn from small synthetic tables: titles name the rule set, percentages read as
percentages on log axes, legends list only what was drawn, the heatmap marks its diagonal
and keeps its title off the colorbar."""
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from analyzer import plots
from analyzer.plots.figure import percent_text, rules_title
from analyzer.rules import preset


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
    legend = fig.axes[0].get_legend()
    assert legend_texts(legend) == ["a", "b"] and "◁" not in legend.get_title().get_text()
    fig = plots.combinations_chart(combinations({"a": [0.2, 0.001, 0.6], "b": [0.15, 0.0, 0.5]}), "t")
    assert legend_texts(fig.axes[0].get_legend()) == ["a", "b", "none seen: 95% upper bound"]


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
