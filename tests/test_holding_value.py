"""bezique value: a dealt hand's expected margin and share of hands won, played out with the
rest of the deal dealt fairly, with intervals computed from the hands themselves."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.given_deal import DealError
from analyzer.rules import preset
from analyzer.studies.play.compare import seat_points
from analyzer.studies.play.simulate import simulate
from analyzer.studies.value.holding import holding_value, value_record
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


def test_the_command_prints_json_and_writes_the_files_quietly(tmp_path):
    """value --json --out DIR -q: the figures with their intervals, the hand given, the policy,
    hands and seed on stdout (nothing else), the same in value.csv/.parquet and run.json."""
    out = tmp_path / "value"
    res = CliRunner().invoke(main, ["value", "--hold", "QS JD", "--turn-up", "7S", "--policy", "greedy",
                                    "--hands", "600", "--seed", "3", "--json", "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    assert [line for line in res.stderr.splitlines() if not line.startswith("compiling")] == []
    data = json.loads(res.stdout)
    v = holding_value(ORD, "QS JD", turn_up="7S", hands=600, seed=3, policy="greedy")
    assert data == {"rules": ORD.describe(), **json.loads(json.dumps(value_record(v)))}
    assert data["given"] == {"hold": "QS JD", "seat": 0, "turn_up": "7S"}
    assert (data["policy"], data["hands"], data["seed"]) == ("greedy", 600, 3)
    assert list(data["margin"]) == ["mean", "lo", "hi"] and list(data["won"]) == ["share", "lo", "hi"]
    table = pd.read_csv(out / "value.csv", index_col="figure")
    assert list(table.index) == ["margin", "won", "tied"]
    assert np.allclose(table.loc["margin", ["value", "lo", "hi"]].astype(float), v.margin)
    assert np.allclose(table.loc["won", ["value", "lo", "hi"]].astype(float), v.won)
    assert pd.read_parquet(out / "value.parquet").loc["tied", "value"] == v.tied
    run = json.loads((out / "run.json").read_text())
    assert run["value"] == {k: data[k] for k in data if k != "rules"} and run["rules"] == ORD.describe()
    assert run["given"] == data["given"]
    assert sorted(json.loads((out / ".bezique-files.json").read_text())["files"]) == \
        ["run.json", "value.csv", "value.parquet"]
    loud = CliRunner().invoke(main, ["value", "--hold", "QS JD", "--turn-up", "7S", "--policy", "greedy",
                                     "--hands", "600", "--seed", "3", "--out", str(out)])     # the same: rewritten
    assert loud.exit_code == 0 and "expected margin" in loud.stdout and f"wrote 3 files to {out}" in loud.stderr
    other = CliRunner().invoke(main, ["value", "--hold", "QS JD", "--policy", "greedy", "--hands", "600",
                                      "--out", str(out)])                                       # another hand
    error = other.output.splitlines()[-1]
    assert other.exit_code == 1 and error.startswith(f"Error: {out} holds the files of `bezique value") and "--force" in error
