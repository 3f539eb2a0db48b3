"""Comparing players: ``compare`` (every pair on the same deals, seats swapped; Elo, SPRT,
Bradley-Terry) and ``ablate`` (each hint's worth: the hints with and without it)."""
from __future__ import annotations

import math

import click

from ..studies.hints.worth import ablate, format_ablation, hints_on, write_ablation
from ..studies.play.compare import compare, format_comparison, points_unit, write_comparison
from .console import notice, progress_bar
from .options import JSON_OPTION, deal_options, echo_json, policies_from, records, rule_options, rules_from, run_options


def _parse_sprt(text: str | None) -> tuple[float, float] | None:
    """``"0,10"`` -> (0.0, 10.0); None for None; ClickException if malformed or not ELO0 < ELO1."""
    if text is None:
        return None
    try:
        elo0, elo1 = (float(x) for x in text.split(","))
    except ValueError:
        raise click.ClickException(f"--sprt expects ELO0,ELO1 (e.g. 0,10), got {text!r}") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1)):
        raise click.ClickException(f"--sprt needs finite Elo bounds, got {text!r}")
    if elo1 <= elo0:
        raise click.ClickException(f"--sprt needs ELO0 < ELO1, got {text!r}")
    return elo0, elo1


@click.command("compare")
@click.argument("policy_names", nargs=-1, metavar="A B [C ...]")
@rule_options
@deal_options
@run_options(hands=20_000, hands_help="Deals per pair (each played twice, seats swapped); the maximum with --sprt.",
             out=None, out_help="Write pairs.csv, ranking.csv and heatmap.png here (nothing is written without it).",
             seed_help="Master seed: every pair plays the same deals.")
@click.option("--sprt", default=None, metavar="ELO0,ELO1",
              help="Stop each pair as soon as a sequential probability ratio test (alpha = beta = 0.05) "
                   "accepts elo <= ELO0 or elo >= ELO1 (looked at every 1,024 deals).")
@JSON_OPTION
def compare_command(policy_names, variant, rule_items, hands, seed, threads, out, sprt, as_json):
    """Compare policies pair by pair on the same deals, in every seating.

    A B [C ...] are policies: each is a built-in name (see `bezique policies`),
    hints:/expert: settings such as hints:no=H4, or path/to/file.py:function.

    For each pair: mean point difference per deal (Rubicon: net game points per
    game) with its 95% CI, A's score share (wins + draws/2) with a Wilson CI, and
    the Elo difference with its CI. With three or more policies, a Bradley-Terry
    ranking on the Elo scale. With three or four players each deal is played in
    every seating of the pair (one against two and two against one; partnership
    against partnership).

    Example:

    \b
        bezique compare greedy random hints --variant ordinary --hands 20000 --seed 3 --out results/compare
    """
    if len(policy_names) < 2:
        raise click.ClickException("give at least two policies to compare")
    rules = rules_from(variant, rule_items)
    specs = [policies_from([n], rules)[0] for n in policy_names]
    with progress_bar(hands * (len(specs) * (len(specs) - 1) // 2), "deal", "compare") as progress:
        res = compare(rules, specs, hands, seed, threads=threads, sprt=_parse_sprt(sprt), progress=progress)
    if as_json:
        echo_json({"rules": rules.describe(), "hands": hands, "seed": seed, "unit": points_unit(rules),
                   "pairs": records(res.pairs), "ranking": None if res.ranking is None else records(res.ranking)})
    else:
        click.echo(format_comparison(res, rules, seed))
    if out:
        notice(f"\nwrote {len(write_comparison(res, rules, out, hands, seed, threads, sprt))} files to {out}")


@click.command("ablate")
@rule_options
@run_options(hands=20_000, hands_help="Deals per hint (each played twice, seats swapped).",
             out=None, out_help="Write ablation.csv and ablation.png/.svg here (nothing is written without it).",
             seed_help="Master seed: every hint is measured on the same deals.")
@click.option("--against", default=None, metavar="POLICY",
              help="Measure each hint against this opponent instead (e.g. expert, or path/to/file.py:function): "
                   "the full policy's "
                   "result against it minus the result without the hint.")
@click.option("--base", default="hints", show_default=True, metavar="POLICY",
              help="The hints policy whose hints are switched off in turn, e.g. hints:tuned-ordinary "
                   "(each hint it plays: weight > 0).")
def ablate_command(variant, rule_items, hands, seed, threads, out, against, base):
    """The value of each hint: the full hints policy against itself without it.

    Prints, per hint of --base (hints: H1-H8), the full policy's mean advantage
    per deal (Rubicon: net game points per game) with its 95% CI; writes the
    table and a bar chart. With --against POLICY (e.g. expert, or a
    file.py:function policy) the full policy and each policy without a hint
    play that opponent instead, and a hint's value is the difference of their
    results.

    Example:

    \b
        bezique ablate --variant ordinary --hands 20000 --seed 1 --out results/ablation-ordinary
        bezique ablate --base hints:tuned-ordinary --hands 20000 --seed 2
    """
    rules = rules_from(variant, rule_items)
    opponent = policies_from([against], rules)[0] if against else None
    n = len(hints_on(base))
    with progress_bar(hands * (n + 1 if against else n), "deal", "ablate") as progress:
        df = ablate(rules, hands, seed, threads=threads, progress=progress, against=opponent, base=base)
    click.echo(format_ablation(df, rules, hands, seed, against, base))
    if out:
        notice(f"\nwrote {len(write_ablation(df, rules, out, hands, seed, threads, against, base))} files to {out}")
