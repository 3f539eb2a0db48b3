"""A position and a hand: ``analyze`` values every legal action of the seat to act by the search;
``review`` values every decision of a seat in a hand and grades what each move lost."""
from __future__ import annotations

import json

import click

from ..hands.view import load_record
from ..run.checks import check_seed
from ..studies.position.analysis import DEFAULT_ROLLOUT, DEFAULT_SAMPLES, ROLLOUTS, analyze_file, format_analysis
from ..studies.position.review import REVIEW_SAMPLES, decisions_of, format_review, review_record, write_review
from . import console
from .console import notice, progress_bar


@click.command("analyze")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--at", "at", type=int, default=None, metavar="MOVE",
              help="Analyse the position after the first MOVE moves of the file (default: after all).")
@click.option("--samples", default=DEFAULT_SAMPLES, show_default=True,
              help="Assignments of the unseen cards each action is played out on (first stage).")
@click.option("--rollout", type=click.Choice(ROLLOUTS), default=DEFAULT_ROLLOUT,
              show_default=True, help="The policy that plays each sample to the end at both seats (tuned: the "
                                      "tuned hints of the game; learned, the default, is the strongest: "
                                      "docs/search.md). In the first stage's last window each sample is solved "
                                      "exactly instead.")
@click.option("--skip", default=0, show_default=True, metavar="N",
              help="Pass N declaration windows (or carte-blanche questions) first, as the record passed them: "
                   "e.g. --skip 1 for the lead after a window the seat closed without declaring.")
@click.option("--seed", default=1, show_default=True, help="Seed of the samples.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
def analyze_command(file, at, samples, rollout, skip, seed, as_json):
    """Value every legal action of the seat to act in the position of FILE.

    FILE is a replay file (docs/commands.md, "Replay file format"; a prefix of a hand is enough) or a
    seat's view: what one seat saw, typed as short text or JSON (docs/commands.md, "A seat's view").
    It prints the position (the hand and the tables in card symbols, the trumps, the scores,
    the stage), then every legal action in words with its expected final margin for the seat
    to act (ordinary: points; Rubicon: net game points) and a 95 % interval over the samples,
    its chance of winning, and how far it is behind the best (paired), best first; it marks the
    move the record played and says whether the best can be told apart from the next. In a
    two-handed second stage every card is known and the values are exact.

    Example:

    \b
        bezique analyze tests/replays/example_hand.json --at 12 --samples 200
    """
    check_seed(seed, "--seed")
    result = analyze_file(file, at, samples, seed, rollout, skip)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1, ensure_ascii=False))
    else:
        click.echo(format_analysis(result))


@click.command("review")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seat", type=int, default=None, metavar="S",
              help="The seat whose decisions to review (a full record needs it; a view is its own seat's).")
@click.option("--samples", default=REVIEW_SAMPLES, show_default=True,
              help="Assignments of the unseen cards each decision's actions are played out on.")
@click.option("--rollout", type=click.Choice(ROLLOUTS), default=DEFAULT_ROLLOUT, show_default=True,
              help="The policy that plays each sample out (as `analyze`).")
@click.option("--seed", default=1, show_default=True, help="Seed of the samples.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Also write review.md and review.html (a page as report.html) and review.json here.")
@click.option("--quiet", "-q", is_flag=True, help="No progress line.")
def review_command(file, seat, samples, rollout, seed, as_json, out, quiet):
    """Review every decision of one seat in a played hand: what each move lost against the best.

    FILE is a replay file (every card) or a seat's view (what the seat saw; docs/commands.md,
    "A seat's view"). Each decision with a choice is valued by the search as `analyze` values it;
    the move played is graded by what it lost (inaccuracy from 5 points, mistake from 20, blunder
    from 50; Rubicon ten times as many; only where the samples tell it from the best). The summary
    gives the loss per decision and per hand, the three costliest decisions, where the play stands
    against the project's players, and the result told as what the cards gave, what the play
    cost and what is left.

    Example:

    \b
        bezique review tests/replays/example_hand.json --seat 0 --samples 200
    """
    check_seed(seed, "--seed")
    console.QUIET["on"] = quiet
    record = load_record(file)
    with progress_bar(decisions_of(record, seat), "decision", "review") as progress:
        result = review_record(record, seat, samples, seed, rollout, progress=progress)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1, ensure_ascii=False))
    else:
        click.echo(format_review(result))
    if out:
        notice(f"wrote {len(write_review(result, out))} files to {out}")
