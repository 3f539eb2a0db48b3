"""bezique value: a dealt hand's expected margin and share of hands won, played out with the
rest of the deal dealt fairly, with intervals computed from the hands themselves."""
from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.given_deal import DealError
from analyzer.rules import preset
from analyzer.studies.play.compare import seat_points
from analyzer.studies.value.holding import holding_value
from analyzer.studies.play.simulate import simulate
from analyzer.tables.stats import Z95

ORD = preset("ordinary")


def test_the_margin_and_share_are_those_of_the_hands_played():
    v = holding_value(ORD, "QS JD", seat=1, hands=3000, seed=4, policy="greedy", threads=2)
    res = simulate(ORD, ["greedy", "greedy"], 3000, 4, threads=2, keep_records=True, hold="QS JD", seat=1)
    pts = seat_points(ORD, res.records)
    margin = (pts[:, 1] - pts[:, 0]).astype(float)
    mean, half = margin.mean(), Z95 * margin.std(ddof=1) / np.sqrt(len(margin))
    assert np.allclose(v.margin, (mean, mean - half, mean + half))
    assert v.won[0] == (margin > 0).mean() and v.tied == (margin == 0).mean()


def test_a_strong_hand_is_worth_more_than_a_weak_one():
    strong = holding_value(ORD, "AS AS AH AH TS QS JD", hands=2000, seed=2, policy="greedy", threads=2)
    weak = holding_value(ORD, "7C 8C 8H 9D 9C 7H 8D", hands=2000, seed=2, policy="greedy", threads=2)
    assert strong.margin[1] > weak.margin[2] and strong.won[1] > weak.won[2]


def test_the_command_prints_the_value_and_refuses_a_hand_it_cannot_deal():
    ok = CliRunner().invoke(main, ["value", "--hold", "QS JD", "--policy", "greedy", "--hands", "1000"])
    assert ok.exit_code == 0 and "expected margin" in ok.output and "hands won" in ok.output, ok.output
    bad = CliRunner().invoke(main, ["value", "--variant", "rubicon", "--hold", "QS", "--turn-up", "7S"])
    assert bad.exit_code == 1 and "no card is turned up in rubicon" in bad.output, bad.output
    none = CliRunner().invoke(main, ["value"])
    assert none.exit_code == 1 and "give the hand to value: --hold" in none.output, none.output
    with pytest.raises(DealError, match="give the hand to value"):
        holding_value(ORD, hands=10, policy="greedy")
