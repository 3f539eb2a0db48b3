"""The strong study (analyzer/published/strong.py, issue 33): which statistics it calls the same
for every strong player and which differ between them, and a run at a tiny scale that writes
every table."""
from __future__ import annotations

import pandas as pd

from analyzer.published import strong


def _row(player, total, half, rate=0.04, rate_half=0.002):
    return {"game": "ordinary", "player": player, "mean_total": total, "mean_total_lo": total - half,
            "mean_total_hi": total + half, "double_bezique_rate": rate, "double_bezique_rate_lo": rate - rate_half,
            "double_bezique_rate_hi": rate + rate_half}


def test_a_statistic_is_the_games_only_where_the_independent_player_agrees_with_learned():
    """The totals differ by 10 with half-widths of 2: the difference's interval [7.2, 12.8] lies
    inside ±5 % of 270 (±13.5), the game's to within 5 %; by 20, the players'; by 1, the game's.
    The double-bézique rates differ by 0.001 with half-widths 0.002: the game's. Players that are not independent and at the top (expert, the independent round 1) are
    shown nowhere in the verdict."""

    def verdict(total):
        stats = pd.DataFrame([_row("learned", 270, 2), _row("independent, round 2", total, 2, 0.041),
                              _row("independent, round 1", 150, 2, 0.3), _row("expert", 400, 2, 0.2),
                              _row("hints:tuned-ordinary", 226, 2, 0.044)])
        return strong.agreement(stats).set_index("statistic")

    agree = verdict(280)
    assert agree.loc["mean total per seat", "whose"] == f"{strong.SAME_ALL}, within 5 %"
    assert verdict(290).loc["mean total per seat", "whose"] == strong.DIFFERS_ALL
    assert verdict(271).loc["mean total per seat", "whose"] == strong.SAME_ALL
    assert agree.loc["double bézique %", "whose"] == strong.SAME_ALL
    assert "expert" not in agree.loc["mean total per seat", "independent"]
    assert "round 1" not in agree.loc["mean total per seat", "independent"]
    assert agree.loc["mean total per seat", "hints"].startswith("226")


def test_the_study_runs_at_a_tiny_scale(tmp_path):
    """Every table written, every player at the top of the ordinary game present, and the
    markdown names the study's seed."""
    out = tmp_path / "strong"
    assert strong.main(["--scale", "0.001", "--games", "ordinary", "--no-readme", "--out", str(out)]) == 0
    names, players = pd.read_csv(out / "names.csv"), pd.read_csv(out / "players.csv")
    stats = pd.read_csv(out / "statistics.csv")
    assert list(names.policy_a)[:2] == ["expert", "expert:samples=16"]
    assert {"learned", "expert", "hints:tuned-ordinary"} <= set(stats.player)
    assert (players.policy_b == "hints:tuned-ordinary").sum() == len(strong.models("ordinary"))
    assert (names.seed == strong.STUDY_SEED).all()
