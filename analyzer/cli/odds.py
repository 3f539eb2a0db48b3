"""Odds and the value of a hand: ``odds`` (the deal-time odds, exact beside simulated; given the
cards a seat holds with --hold) and ``value`` (a dealt hand's worth under strong play)."""
from __future__ import annotations

import click

from ..given_deal import active_given
from ..studies.odds.deal_odds import format_odds
from ..studies.odds.given_odds import format_given_odds, odds, write_odds
from ..studies.value.holding import (
    format_value,
    holding_value,
    value_hands,
    value_record,
    write_value,
)
from .console import notice, progress_bar
from .options import (
    JSON_OPTION,
    POLICY_FORMS,
    deal_options,
    echo_json,
    out_options,
    records,
    rule_options,
    rules_from,
    run_options,
)


@click.command("odds")
@rule_options
@deal_options
@run_options(hands=200_000, hands_help="Deals simulated beside the exact values.", out=None,
             out_help="Also write odds.csv/.parquet here.",
             seed_help="Master seed of the simulated deals.")
@JSON_OPTION
def odds_command(variant, rule_items, hands, seed, threads, out, as_json):
    """Exact deal-time probabilities, as fractions and decimals, beside simulated frequencies.

    Bézique, double (Rubicon: treble, quadruple) bézique, each four, a sequence and a
    marriage in spades, carte blanche (Rubicon), the turn-up a seven (ordinary) in a
    dealt hand; and the chance that one player receives a double bézique over the hand.

    Example:

    \b
        bezique odds --variant rubicon --hands 400000 --seed 2
    """
    rules = rules_from(variant, rule_items)
    with progress_bar(hands, "deal", "odds") as progress:
        df = odds(rules, hands, seed, threads=threads, progress=progress)
    if as_json:
        echo_json({"rules": rules.describe(), "hands": hands, "seed": seed, "odds": records(df)})
    elif active_given() is not None:
        click.echo(format_given_odds(df, rules, active_given(), hands, seed))
    else:
        click.echo(format_odds(df, rules, hands, seed))
    if out:
        notice(f"wrote {len(write_odds(df, rules, out, hands, seed, threads))} files to {out}")


@click.command("value")
@rule_options
@deal_options
@click.option("--policy", default="learned", show_default=True, metavar="NAME",
              help="The player at every seat: " + POLICY_FORMS + ".")
@click.option("--hands", type=click.IntRange(min=1), default=None, metavar="N",
              help="Hands played with the hand given (default: 20,000 ordinary, 5,000 Rubicon games).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=1, show_default=True, help="Master seed.")
@click.option("--threads", type=click.IntRange(min=1), default=None, help="Worker threads (default: one per core).")
@out_options("Also write value.csv/.parquet and run.json here.")
@JSON_OPTION
def value_command(variant, rule_items, policy, hands, seed, threads, out, as_json):
    """A dealt hand's value under strong play: its expected margin and its share of hands won,
    with 95 % intervals, by playing it out with the rest of the deal dealt fairly.

    Example:

    \b
        bezique value --hold "QS JD AH AC"
        bezique value --variant rubicon --hold "QS QS JD JD AS" --hands 2000 --json
    """
    rules = rules_from(variant, rule_items)
    hands = value_hands(rules, hands)
    with progress_bar(hands, "hand", "value") as progress:
        v = holding_value(rules, hands=hands, seed=seed, policy=policy, threads=threads, progress=progress)
    if as_json:
        echo_json({"rules": rules.describe(), **value_record(v)})
    else:
        click.echo(format_value(v))
    if out:
        notice(f"wrote {len(write_value(v, rules, out, threads))} files to {out}")
