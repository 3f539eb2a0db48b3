"""A position: ``analyze`` values every legal action of the seat to act by the search."""
from __future__ import annotations

import json

import click

from ..run.checks import check_seed
from ..studies.position.analysis import DEFAULT_ROLLOUT, DEFAULT_SAMPLES, ROLLOUTS, analyze_file, format_analysis


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
@click.option("--seed", default=1, show_default=True, help="Seed of the samples.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
def analyze_command(file, at, samples, rollout, seed, as_json):
    """Value every legal action of the seat to act in the position of FILE.

    FILE is a replay file (docs/commands.md, "Replay file format"; a prefix of a hand is enough). Each
    action gets its expected final margin for the seat to act (ordinary: points;
    Rubicon: net game points) with a 95% interval over the samples, and its chance
    of winning the hand, best first. In a two-handed second stage every card is
    known and the values are exact.

    Example:

    \b
        bezique analyze tests/replays/example_hand.json --at 12 --samples 200
    """
    check_seed(seed, "--seed")
    result = analyze_file(file, at, samples, seed, rollout)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1, ensure_ascii=False))
    else:
        click.echo(format_analysis(result))
