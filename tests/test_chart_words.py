"""The charts say what the report's text says: the band's verdict on each headline figure and each
hint's worth come from one function each (analyzer.tables.band_table: figure_verdict,
worth_verdict), and a chart drawn from a table reads, in its titles and its legend, the verdicts
the text writes for the same table."""
import re
from types import SimpleNamespace

import pandas as pd
from matplotlib.colors import to_rgba
from matplotlib.container import BarContainer
from test_charts import assert_readable, shown_texts

from analyzer import plots
from analyzer.studies.report.findings import _hint_worth, band_sentences
from analyzer.tables.band_table import (
    COSTING,
    DIFFERS,
    NEVER,
    OPEN,
    SAME,
    UNTOLD,
    VERDICTS,
    WORTH,
    figure_verdict,
    verdict,
    worth_verdict,
)
from analyzer.words import hint_name

PLAYERS = ("learned", "learned:player=2", "learned:player=3")
# (figure, what, unit, each player's (value, lo, hi), the verdict): a 16,000-hand report's
BAND = [
    # every two within 5 % of ~282 (14.1 points), though player 3's interval is clear of the others'
    ("mean_total", "mean total per seat", "points",
     [(280.0, 277.8, 282.2), (279.8, 277.7, 281.9), (285.4, 283.2, 287.6)], SAME),
    ("received_double", "receives the cards of a double bézique", "share of seat-hands",
     [(0.0525, 0.0501, 0.0550), (0.0552, 0.0527, 0.0577), (0.0543, 0.0519, 0.0568)], OPEN),
    ("margin_per_brisque", "margin per brisque won", "points",
     [(28.7, 27.0, 30.4), (20.8, 19.2, 22.4), (25.5, 23.8, 27.1)], DIFFERS),
]


def band_rows() -> pd.DataFrame:
    """A strong_band table (band_table's columns) of BAND."""
    rows = []
    for key, what, unit, values, _said in BAND:
        v = verdict(values)
        for player, (value, lo, hi) in zip(PLAYERS, values):
            rows.append({"figure": key, "what": what, "unit": unit, "player": player, "value": value, "value_lo": lo,
                         "value_hi": hi, "band_lo": min(x[0] for x in values),
                         "band_hi": max(x[0] for x in values), "verdict": v, "verdict_text": VERDICTS[v]})
    return pd.DataFrame(rows)


def test_the_band_chart_draws_the_verdict_the_text_writes():
    band = band_rows()
    st = SimpleNamespace(tables={"strong_band": band}, strong=SimpleNamespace(hands=16_000),
                         band_hands=lambda why=True: "16,000 deals each")
    written = [re.findall(r"\*\*([^*]+)\*\* \(", s)[-1] for s in band_sentences(st)[1:]]
    fig = plots.band_chart(band, "ordinary bézique: the headline figures over 3 strong players")
    assert_readable(fig)
    drawn = [ax.get_title().split("\n")[-1] for ax in fig.axes if ax.get_visible()]
    table = [figure_verdict(band[band.figure == key]) for key, *_rest in BAND]
    assert drawn == written == table == [said for *_rest, said in BAND]
    assert list(band.drop_duplicates("figure").verdict_text) == table
    words = " ".join([*band_sentences(st), *(t.get_text() for t, _box in shown_texts(fig))])
    assert "the game's" not in words and "the players'" not in words


def test_the_band_chart_says_what_the_grey_band_and_5_percent_are():
    fig = plots.band_chart(band_rows(), "t")
    legend = fig.legends[0]
    labels = [t.get_text() for t in legend.get_texts()]
    assert "the band: lowest to highest estimate" in labels
    assert any(label.startswith("5 % of the figure") for label in labels)
    assert SAME in legend.get_title().get_text() and "5 %" in legend.get_title().get_text()


# each hint: (value, lo, hi), its verdict; H9 to H13 too: the chart shows every hint its table holds
HINTS = {
    "H1": ((6.0, 2.0, 10.0), WORTH),
    "H2": ((2.0, -1.0, 5.0), UNTOLD),
    "H3": ((-6.0, -10.0, -2.0), COSTING),
    "H4": ((17.2, 11.1, 23.4), WORTH),
    "H5": ((0.0, 0.0, 0.0), NEVER),
    "H6": ((3.0, 0.0, 6.0), UNTOLD),          # the interval touches zero
    "H9": ((-1.0, -3.0, -0.5), COSTING),
    "H10": ((1.0, -0.5, 2.5), UNTOLD),
    "H13": ((4.0, 1.0, 7.0), WORTH),
}


def text_verdicts(sentence: str) -> dict[str, str]:
    """hint -> the part of the hints' worth sentence that names it ("worth having: H1 ...; costing: ...")."""
    body = sentence[sentence.index(") are ") + len(") are "):sentence.rindex(" (")]
    return {hint: label for part in body.split("; ") for label, _, rest in [part.partition(": ")]
            for hint in re.findall(r"\bH\d+\b", rest)}


def bar_patches(ax) -> list:
    """The bars of ``ax``, in the order drawn (its BarContainer's)."""
    return next(c for c in ax.containers if isinstance(c, BarContainer)).patches


def test_the_hint_worth_chart_colours_each_hint_by_the_verdict_the_text_writes():
    df = pd.DataFrame([{"hint": h, "advice": "", "deals": 1000, "mean_diff": m, "mean_diff_lo": lo, "mean_diff_hi": hi}
                       for h, ((m, lo, hi), _said) in HINTS.items()])
    (sentence,) = _hint_worth(SimpleNamespace(ablation=df, strong=SimpleNamespace(policy="learned")), "points per hand")
    fig = plots.ablation_chart(df, "points per hand", "ordinary bézique: each hint's worth against learned")
    assert_readable(fig)
    legend = fig.legends[0]
    by_colour = {to_rgba(h.get_facecolor()): t.get_text() for h, t in zip(legend.legend_handles, legend.get_texts())}
    ax = fig.axes[0]
    drawn = {h: by_colour[to_rgba(bar.get_facecolor())] for h, bar in zip(df.hint, bar_patches(ax))}
    assert drawn == text_verdicts(sentence) == {h: worth_verdict(lo, hi) for h, ((_m, lo, hi), _s) in HINTS.items()}
    assert drawn == {h: said for h, (_v, said) in HINTS.items()}
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[3] == f"{hint_name('H4')}: +17.2 [+11.1, +23.4]" == "counting the cards (H4): +17.2 [+11.1, +23.4]"
    assert [label.split(": ")[0] for label in labels] == [hint_name(h) for h in HINTS]
