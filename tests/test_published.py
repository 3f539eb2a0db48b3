"""The published studies (analyzer/studies/published/): what they share (common.py: the marked
sections of results/README.md, tables, the reproducing command), ``bezique study NAME``, and the
ladder, search and generations studies at a tiny scale (the strong study:
test_published_strong.py)."""
from __future__ import annotations

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.run.output import update_marked_section
from analyzer.published import STUDIES, common, generations, ladder, run_study, search
from analyzer.tables.markdown import md_table


def test_a_section_between_markers_is_replaced_and_the_rest_kept(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# Results\n\nbefore\n<!-- x:start -->\nold\n<!-- x:end -->\nafter\n")
    update_marked_section(readme, "x", "new\ntext", "X")
    assert readme.read_text() == "# Results\n\nbefore\n<!-- x:start -->\nnew\ntext\n<!-- x:end -->\nafter\n"
    update_marked_section(readme, "y", "more", "Y")         # absent markers: a new section at the end
    assert readme.read_text().endswith("after\n\n## Y\n\n<!-- y:start -->\nmore\n<!-- y:end -->\n")


def test_a_table_of_rows_or_of_a_frame():
    """A table of a list of rows (an empty heading written "| |") and of a DataFrame; md_table
    is one such table of formatted columns."""
    rows = [("a", 1.5), ("b", -2.0)]
    assert common.table(rows, [("", lambda r: r[0]), ("x", lambda r: f"{r[1]:+.1f}")]) == \
        ["| | x |", "|---|---|", "| a | +1.5 |", "| b | -2.0 |"]
    df = pd.DataFrame({"game": ["ordinary"], "mean_diff": [1.25], "mean_diff_lo": [0.5], "mean_diff_hi": [2.0]})
    assert common.table(df, [("game", lambda r: r.game), ("advantage", common.ci)]) == \
        ["| game | advantage |", "|---|---|", "| ordinary | +1.2 [+0.5, +2.0] |"]
    assert md_table(df, ["game", "mean_diff"]) == "| game | mean_diff |\n|---|---|\n| ordinary | 1.25 |\n"


def test_a_study_writes_down_the_command_that_reproduces_it():
    assert common.command("portland", "--games", "10") == "bezique study portland --games 10"
    assert common.scaled_command("ladder", 1.0) == "bezique study ladder"
    assert common.scaled_command("ladder", 0.5) == "bezique study ladder --scale 0.5"


def test_bezique_study_names_every_study_and_refuses_an_unknown_one():
    """``bezique study --help`` lists every study; an unknown name is one line and exit code 1;
    a study's own --help passes through (argparse's, exit code 0)."""
    runner = CliRunner()
    text = runner.invoke(main, ["study", "--help"]).output
    assert all(f"  {name} " in text for name in STUDIES)
    res = runner.invoke(main, ["study", "nope"])
    assert res.exit_code == 1
    assert res.output.strip().splitlines() == [
        f"Error: unknown study 'nope'; the studies: {', '.join(STUDIES)}"]
    res = runner.invoke(main, ["study", "portland", "--help"])
    assert res.exit_code == 0 and "usage: bezique study portland" in res.output and "--markdown-only" in res.output
    with pytest.raises(KeyError):
        run_study("nope", [])


def test_the_studies_run_at_a_small_scale(tmp_path):
    """The ladder, search and generations studies at a tiny scale: every table written, the
    clairvoyant's share of its own gap 100 %, the reference's advantage 0."""
    for module, args in ((ladder, ["--scale", "0.0005", "--games", "ordinary"]),
                         (search, ["--scale", "0.002", "--games", "rubicon", "--samples", "8"]),
                         (generations, ["--scale", "0.0005", "--games", "ordinary"])):
        name = module.__name__.rsplit(".", 1)[1]
        assert module.main([*args, "--no-readme", "--out", str(tmp_path / name)]) == 0
    lad = pd.read_csv(tmp_path / "ladder" / "ladder.csv")
    assert lad.set_index("player").loc["ceiling: clairvoyant", "share_clairvoyant"] == pytest.approx(1.0)
    assert lad.set_index("player").loc["hints:tuned-ordinary", "mean_diff"] == 0
    assert (tmp_path / "ladder" / "ladder_ordinary.png").exists()
    stats = pd.read_csv(tmp_path / "ladder" / "statistics.csv")
    assert len(stats) == len(lad) and (stats.mean_total > 0).all()
    for table in ("variance", "diagnosis", "configs"):
        assert len(pd.read_csv(tmp_path / "search" / f"{table}.csv")) > 0
    gens = pd.read_csv(tmp_path / "generations" / "generations.csv")
    assert {"learned (shipped)", "expert (the search over learned)"} <= set(gens.player)
    best = pd.read_csv(tmp_path / "generations" / "best_by_name.csv")
    assert (best.policy_a == "learned").all() and len(best) >= 5       # every network trained for the game
    figs = pd.read_csv(tmp_path / "generations" / "figures_by_strength.csv")
    assert set(figs.figure) == {"mean_total", "received_double", "scored_double", "margin_per_brisque",
                                "hands_to_1000"}
    for chart in ("generations_ordinary", "figures_by_strength_ordinary"):
        assert (tmp_path / "generations" / f"{chart}.png").exists()


def test_a_run_of_one_game_keeps_the_others_rows_in_the_games_order(tmp_path):
    """A study run for the ordinary game after a Rubicon one keeps Rubicon's rows, and its page
    still lists the ordinary game first (with_other_games)."""
    from analyzer.published.common import with_other_games
    path = tmp_path / "t.csv"
    pd.DataFrame({"game": ["ordinary", "rubicon", "rubicon"], "x": [0, 1, 2]}).to_csv(path)
    got = with_other_games(pd.DataFrame({"game": ["ordinary"], "x": [3]}), path, ["ordinary"])
    assert got.game.tolist() == ["ordinary", "rubicon", "rubicon"] and got.x.tolist() == [3, 1, 2]
