"""What a dealt card is worth (studies/deal_value.py, bezique study deal_value): the features of a
hand made by hand, the least squares recovering known worths with honest intervals, and the
study writing its table, chart and page."""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.cards import N_TYPES, parse_card, suit_of
from analyzer.studies.value.deal import FEATURES, TERMS, Normal, holding_features
from analyzer.published import deal_value as study


def test_the_features_of_a_hand_made_by_hand():
    counts = np.zeros((1, N_TYPES), np.int8)
    for card in "AS AS QS JD KH 7S TS 9C".split():
        counts[0, parse_card(card)] += 1
    f = dict(zip(FEATURES, holding_features(counts, np.array([suit_of(parse_card("AS"))]))[0]))
    assert (f["trump A"], f["trump 10"], f["trump Q"], f["trump 7"], f["trump K"]) == (2, 1, 1, 1, 0)
    assert (f["plain K"], f["plain J"], f["plain 9"]) == (1, 1, 1)
    assert (f["Q♠"], f["J♦"], f["bézique"], f["trump marriage"], f["sequence ranks"]) == (1, 1, 1, 0, 3)
    assert (f["pair of A"], f["three of A"], f["pair of K"]) == (1, 0, 0)
    no_trump = dict(zip(FEATURES, holding_features(counts, np.array([-1]))[0]))
    assert no_trump["plain A"] == 2 and no_trump["trump A"] == 0 and no_trump["sequence ranks"] == 0


def test_least_squares_gathered_in_chunks_recovers_known_worths():
    rng = np.random.default_rng(3)
    k = len(TERMS)
    beta = rng.normal(0, 10, k)
    normal = Normal()
    covered = 0
    for _ in range(4):                              # four chunks, as the study gathers them
        x = np.column_stack([np.ones(5000), rng.normal(0, 1, (5000, k - 1))])
        normal.add(x, x @ beta + rng.normal(0, 100, 5000))
    fit, se, r2 = normal.fit()
    covered = np.mean(np.abs(fit - beta) <= 1.959964 * se)
    assert covered >= 0.85 and np.all(np.abs(fit - beta) <= 5 * se)
    expected = beta[1:] @ beta[1:] / (beta[1:] @ beta[1:] + 100 ** 2)
    assert abs(r2 - expected) < 0.05 and normal.n == 20_000


def test_the_study_writes_its_table_chart_and_page(tmp_path):
    assert study.main(["--scale", "0.002", "--games", "ordinary", "--no-readme", "--out", str(tmp_path)]) == 0
    table = pd.read_csv(tmp_path / "deal_value_ordinary.csv")
    assert list(table.term) == TERMS and (table.lo <= table.worth).all() and (table.worth <= table.hi).all()
    assert (tmp_path / "deal_value_ordinary.png").stat().st_size > 0
    text = (tmp_path / "README.md").read_text()
    assert "of the variance of the margin" in text and "bezique study deal_value --scale 0.002" in text
