"""What the program knows, nothing played: ``policies`` (the players and their settings) and
``rules`` (the rule set in force, each option with its rule ids and where the rules say it)."""
from __future__ import annotations

import click

from ..policies.spec import describe_policies
from ..tables.rule_table import format_rule_table, rule_table
from .options import JSON_OPTION, echo_json, rule_options, rules_from


@click.command("policies")
def policies_command():
    """List the built-in policies and the settings of `hints` and `expert`.

    Example:

    \b
        bezique policies
    """
    for line in describe_policies():
        click.echo(line)


@click.command("rules")
@rule_options
@JSON_OPTION
def rules_command(variant, rule_items, as_json):
    """Print the rule set in force: each option, its value and the rules it implements.

    The options of --variant with the --rule changes (marked *, with the preset's
    value beside them and the --rule items that make this rule set), the rule ids
    each option implements (R2.1 ... R3.9, V1 ... V7, Tables A and B) and the section
    of docs/rules.md that writes each one, with its anchor. Nothing is played.

    Example:

    \b
        bezique rules --variant rubicon
        bezique rules --rule hand_size=9 --rule declare_all=true --json
    """
    table = rule_table(rules_from(variant, rule_items))
    echo_json(table) if as_json else click.echo(format_rule_table(table))
