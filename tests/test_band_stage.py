"""The report's band of strong players in two stages (issue 59): the band's other players first
play a quarter of the headline player's deals, and all of them only where a figure that the
quarter leaves open could still be settled by them (band_table.band_needs_more)."""
from __future__ import annotations

import pandas as pd
import pytest

from analyzer.rules import preset
from analyzer.studies.report import study as report
from analyzer.studies.report.strong import StrongPlay
from analyzer.tables.band_table import band_needs_more, open_at


def band(*figures) -> pd.DataFrame:
    """A strong_band-like table: each figure a list of (value, lo, hi), the headline player first."""
    return pd.DataFrame([{"figure": f"f{k}", "player": f"p{i}", "value": v, "value_lo": lo, "value_hi": hi}
                         for k, est in enumerate(figures) for i, (v, lo, hi) in enumerate(est)])


def test_an_open_figure_that_more_hands_would_settle_asks_for_them():
    # 0.5 apart, ±1 and ±6: open (the difference's half-width 6.1 against 5 % of 100, 5.0); with
    # the second's interval halved, as four times its deals would, ±3.2: the same for both
    near_settled = [(100, 99, 101), (100.5, 94.5, 106.5)]
    assert open_at(near_settled, [1.0, 1.0])
    assert not open_at(near_settled, [1.0, 0.5])
    assert band_needs_more(band(near_settled), hands=16_000, first=4_000)
    assert not band_needs_more(band(near_settled), hands=16_000, first=15_000)   # nearly all played already


def test_a_figure_settled_or_left_open_by_more_hands_asks_for_none():
    settled = [(100, 99.5, 100.5), (110, 107, 113)]                 # surely apart by more than 5 %
    hopeless = [(0.053, 0.0508, 0.0557), (0.0552, 0.0503, 0.0601)]  # a double bézique's share: open at 4x too
    assert not band_needs_more(band(settled, hopeless), hands=16_000, first=4_000)
    nan = [(float("nan"),) * 3, (3.6, 3.5, 3.7)]                     # no game finished: no estimate
    assert not band_needs_more(band(nan), hands=16_000, first=4_000)


def tiny_study(monkeypatch, needs_more: bool, progress: list):
    """A small report study with a band of the package's three ordinary players, the band stage's
    verdict forced to ``needs_more``."""
    monkeypatch.setattr(report, "band_needs_more", lambda *a: needs_more)
    strong = StrongPlay("learned", 400, 50, 0, ("learned:player=2", "learned:player=3"))
    return report.study(preset("ordinary"), 200, 5, threads=2, pairings=[("greedy", "greedy")],
                        head_to_head=("greedy",), strong=strong, progress=progress.append), strong


@pytest.mark.parametrize("needs_more", [False, True])
def test_the_band_plays_a_quarter_first_and_all_its_deals_only_where_needed(monkeypatch, needs_more):
    played = []
    st, strong = tiny_study(monkeypatch, needs_more, played)
    sizes = {p: st.results[f"{p} vs {p}"].hands for p in strong.players}
    band_deals = strong.hands if needs_more else strong.band_first
    assert strong.band_first == 100
    assert sizes == {"learned": 400, "learned:player=2": band_deals, "learned:player=3": band_deals}
    assert set(st.tables["strong_band"].deals) == {400, band_deals}
    # the progress bar ends full either way: the hands not needed are counted when the band stops
    assert sum(played) == report.hands_played(200, (), 2, [("greedy", "greedy")], ("greedy",), strong)
    if needs_more:
        assert st.band_hands() == "400 deals each"
    else:
        assert st.band_hands() == f"learned 400 deals, the others 100 each, since {report.BAND_STOPPED}"
        assert st.band_hands(why=False) == "learned 400 deals, the others 100 each"


def test_the_band_played_in_full_is_the_band_played_straight(monkeypatch):
    """Played again in full, a band player's self-play is the one a study of it alone plays."""
    st, _strong = tiny_study(monkeypatch, True, [])
    alone = report.study(preset("ordinary"), 400, 5, threads=1, head_to_head=(),
                         pairings=[("learned:player=2", "learned:player=2")])
    pairing = "learned:player=2 vs learned:player=2"
    ours, theirs = (t[t.pairing == pairing].reset_index(drop=True) for t in (st.tables["summary"], alone.tables["summary"]))
    assert ours.hands.tolist() == [400, 400]
    pd.testing.assert_frame_equal(ours, theirs)
