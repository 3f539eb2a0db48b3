"""A hand reviewed from one seat (analyzer.studies.position.review, ``bezique review``, issue 57):
each decision's loss is analyze's "behind the best" for the move played, the grades' thresholds,
the result told as its parts (which add up), the command's text, JSON and pages, and where the
project's players stand."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.hands.view import load_record
from analyzer.studies.position.analysis import analyze_position, analyze_record, behind_the_choice
from analyzer.studies.position.review import BASELINES, grade, review_record

REPLAYS = Path(__file__).parent / "replays"
EXAMPLE = REPLAYS / "example_hand.json"
ORDINARY_VIEW = REPLAYS / "example_view.txt"


def first_moves(path, n):
    spec = load_record(path)
    return dataclasses.replace(spec, moves=spec.moves[:n], move_text=spec.move_text[:n])


def test_each_loss_is_analyzes_behind_the_best_for_the_move_played():
    """Same position, samples and seed: the review's best, loss and its interval are analyze's."""
    spec = first_moves(EXAMPLE, 30)
    review = review_record(spec, 0, samples=12, seed=4)
    assert len(review.decisions) >= 5
    for d in review.decisions:
        a = analyze_position(spec, d.move, samples=12, seed=4, skip=d.skip)
        played = next(r for r in a.actions if r.code == a.played)
        assert (d.best, d.played) == (a.actions[0].words, played.words)
        assert (d.loss, d.loss_lo, d.loss_hi) == (played.behind, played.behind_lo, played.behind_hi)
        assert (d.cost, d.best_value, d.played_value) == (played.cost, played.mean + played.cost, played.mean)


def test_a_views_review_is_its_analysis_too():
    """A seat's view (no hidden card given): its decisions, each as `analyze` of the view gives it."""
    view = load_record(ORDINARY_VIEW)
    review = review_record(view, samples=8, seed=2)
    assert review.seat == 0 and review.decisions and review.result is None     # the view ends mid-hand
    for d in review.decisions[:4]:
        a = analyze_record(view, d.move, samples=8, seed=2, skip=d.skip)
        played = next(r for r in a.actions if r.code == a.played)
        assert d.loss == played.behind and d.best == a.actions[0].words


def test_the_cli_review_and_analyze_agree():
    run = CliRunner().invoke(main, ["review", str(EXAMPLE), "--seat", "1", "--samples", "8", "--seed", "3",
                                    "--json", "-q"])
    assert run.exit_code == 0, run.output
    out = json.loads(run.output)
    d = next(d for d in out["decisions"] if d["skip"] == 1)      # a lead after a window closed
    one = CliRunner().invoke(main, ["analyze", str(EXAMPLE), "--at", str(d["move"]), "--skip", "1",
                                    "--samples", "8", "--seed", "3", "--json"])
    a = json.loads(one.output)
    played = next(r for r in a["actions"] if r["code"] == a["played_code"])
    assert d["loss"] == played["behind"] and d["played"] == played["words"] and a["skip"] == 1


def test_the_shortfall_is_measured_apart_from_the_samples_that_choose_the_best():
    """Eight actions of equal worth: measured on the samples that chose the best, every action
    would look about 0.07 behind it (the winner's curse); cross-checked, the shortfalls average
    zero, so a hand's losses add up without it."""
    rng = np.random.default_rng(57)
    behind = np.mean([behind_the_choice(rng.normal(size=(400, 8)))[0] for _ in range(400)])
    assert abs(behind) < 0.01
    # by hand, a sample a fold: leaving out a [10, 9] the rest choose the second action, leaving
    # out an [8, 10.5] they choose the first; both lose to the choice made without them
    values = np.array([[10.0, 9.0]] * 3 + [[8.0, 10.5]] * 2)
    mean, lo, hi = behind_the_choice(values, folds=5)
    assert mean.tolist() == pytest.approx([-0.6, -1.0]) and lo[0] < -0.6 < hi[0]


def test_grades_and_their_thresholds():
    """Ordinary, in points of the margin: from 5 an inaccuracy, 20 a mistake, 50 a blunder;
    Rubicon ten times as many (net game points); never graded where the interval holds zero."""
    assert [grade(1.0, x, False) for x in (4.9, 5.0, 19.9, 20.0, 49.9, 50.0)] == \
        ["good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder"]
    assert [grade(1.0, x, True) for x in (49.0, 50.0, 200.0, 500.0)] == ["good", "inaccuracy", "mistake", "blunder"]
    assert grade(0.0, 80.0, False) == grade(-3.0, 80.0, False) == "good"


@pytest.mark.parametrize("variant_file,seat", [(EXAMPLE, 0), (EXAMPLE, 1)])
def test_the_result_is_what_the_deal_gave_plus_between_less_the_cost_plus_what_is_left(variant_file, seat):
    review = review_record(load_record(variant_file), seat, samples=6, seed=9)
    assert review.result is not None and len(review.decisions) > 5
    parts = review.deal + review.between - review.cost + review.left
    assert parts == pytest.approx(review.result, abs=1e-9)
    assert review.cost == pytest.approx(sum(d.cost for d in review.decisions))
    assert review.deal == review.decisions[0].best_value


def test_rubicon_hand_reviewed_with_its_claims(tmp_path):
    """A Rubicon hand of learned self-play with a claim (R3.7) and re-declarations (R3.6):
    reviewed from its view, in net game points, its result the game's (R3.9)."""
    from analyzer.published.review import record
    from analyzer.hands.view import view_of, view_text
    spec = record("rubicon", "learned", 20261257, 1)
    path = tmp_path / "rubicon.txt"
    path.write_text(view_text(view_of(spec, 0)), encoding="utf-8")
    run = CliRunner().invoke(main, ["review", str(path), "--samples", "4", "-q", "--json"])
    assert run.exit_code == 0, run.output
    out = json.loads(run.output)
    assert out["unit"] == "net game points" and out["result"] is not None
    parts = out["parts"]
    assert parts["deal"] + parts["between"] - parts["cost"] + parts["left"] == pytest.approx(out["result"])
    assert any("claim" in d["played"] or "claim" in d["best"] for d in out["decisions"])


def test_the_review_command_writes_its_pages_and_refuses_bad_input(tmp_path):
    run = CliRunner().invoke(main, ["review", str(EXAMPLE), "--seat", "0", "--samples", "4", "-q",
                                    "--out", str(tmp_path / "r")])
    assert run.exit_code == 0, run.output
    assert "lost per decision" in run.output and "the result, +70.0 points: the deal gave" in run.output
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == ["review.html", "review.json", "review.md"]
    page = (tmp_path / "r" / "review.md").read_text(encoding="utf-8")
    assert "## Every decision" in page and "marriage_" not in page and "the marriage in ♦" in page
    for args, message in ((["--seat", "2"], "--seat must be 0 or 1"), ([], "say which to review, --seat 0 or --seat 1"),
                          (["--seat", "0", "--samples", "1"], "--samples must be from 2")):
        bad = CliRunner().invoke(main, ["review", str(EXAMPLE), "-q", *args])
        assert bad.exit_code == 1 and message in bad.output and "Traceback" not in bad.output, bad.output
    bad = CliRunner().invoke(main, ["review", str(ORDINARY_VIEW), "--seat", "1", "-q"])
    assert bad.exit_code == 1 and "a view of seat 0 reviews seat 0" in bad.output


def test_the_shipped_baselines_rank_the_players_as_head_to_head_play_does():
    """The ordinary game: greedy loses more per decision than the tuned hints, and they more than
    learned, each interval apart (bezique study review, shipped with the package). Rubicon: greedy
    loses more than either, each interval apart; the tuned hints and learned are not told apart
    there (40.7 [27.8, 53.6] and 40.1 [31.4, 48.8] net game points a decision, 12 hands each),
    which results/review/README.md says."""
    shipped = json.loads(BASELINES.read_text(encoding="utf-8"))
    greedy, hints, learned = (shipped[f"ordinary|{p}|all"] for p in ("greedy", "hints:tuned-ordinary", "learned"))
    assert greedy[2] > hints[3] and hints[2] > learned[3], (greedy, hints, learned)
    greedy, hints, learned = (shipped[f"rubicon|{p}|all"] for p in ("greedy", "hints:tuned-rubicon", "learned"))
    assert greedy[2] > max(hints[3], learned[3]), (greedy, hints, learned)
