"""The rulebook's hints: ``hints`` (the hints against strong play, a verdict per hint) and
``tune`` (their weights searched by CMA-ES, confirmed on deals the search never saw)."""
from __future__ import annotations

import click

from ..studies.hints.report import hints_report, write_hints_report
from ..studies.hints.study import PAIRINGS, HintStudy
from ..studies.hints.tune import check_request, forget_search, tune
from ..studies.hints.tune_output import format_tune, write_tune
from .console import notice, progress_bar
from .options import POLICY_FORMS, command_text, rule_options, rules_from, run_options


@click.command("hints")
@rule_options
@run_options(hands=100, hands_help="Hands of each strong pairing.", out=None, threads=False,
             out_help="Write hints.csv/.parquet, decisions.parquet, hints_GAME.png/.svg and hints.md (with "
                      "--patterns also patterns.csv/.parquet and disagreements.parquet) "
                      "here (default: results/hints-GAME, a directory of its own).",
             default_out=lambda kw: f"results/hints-{'rubicon' if kw['variant'] == 'rubicon' else 'ordinary'}",
             seed_help="Master seed of the hands played.")
@click.option("--pairing", "pairings", multiple=True, metavar="A,B",
              help="A strong pairing, two policies: A,B, or \"A vs B\" when a policy's settings hold commas "
                   "(repeatable; default: learned,learned expert,learned expert,expert).")
@click.option("--samples", default=16, show_default=True,
              help="Sampled worlds the search values each decision with (where a hint applies).")
@click.option("--hints", "base", default="hints", show_default=True, metavar="HINTS",
              help="The hints asked: hints (each as the rulebook describes it, weight 1) or a preset such as "
                   "hints:tuned-ordinary.")
@click.option("--patterns", is_flag=True,
              help="Also find where the strong players part from the tuned hints (hints:tuned-GAME): the "
                   "kinds of disagreement and the points each carries (patterns.csv, a section of hints.md), "
                   "from the same hands.")
def hints_command(variant, rule_items, hands, seed, out, pairings, samples, base, patterns):
    """The rulebook's hints H1-H8 against strong play.

    Strong players play hands (learned and expert, self-play and against each
    other); at each of their decisions the hints (--hints) are asked with each
    hint on and off in turn. Where switching a hint off changes the choice,
    the hint applies: the study says how often the strong player makes the
    hint's choice, and a search's values say what following the hint is worth
    and what it would cost where strong play does not follow it. Writes a table,
    every decision, a chart and hints.md (a verdict per hint in words).

    Example:

    \b
        bezique hints --variant ordinary --hands 200 --seed 20261260
    """
    rules = rules_from(variant, rule_items)
    study = HintStudy(pairings=tuple(_pairing(p) for p in pairings) or PAIRINGS, hands=hands, seed=seed,
                      samples=samples, base=base)
    with progress_bar(hands * len(study.pairings), "hand", "hints") as progress:
        report = hints_report(rules, study, patterns, progress=progress)
    click.echo(report.text)
    notice(f"\nwrote {len(write_hints_report(report, out))} files to {out}")


def _pairing(text: str) -> tuple:
    """``--pairing expert,learned`` (or ``"expert:samples=64,late=0 vs learned"``): two policy
    names (the library checks that they are policies)."""
    names = tuple(x.strip() for x in (text.split(" vs ") if " vs " in text else text.split(",")))
    if len(names) != 2 or not all(names):
        raise click.ClickException(f"--pairing takes two policies, A,B or \"A vs B\" (e.g. expert,learned), "
                                   f"got {text!r}")
    return names


@click.command("tune")
@rule_options
@click.option("--policy", "policy_name", default="hints", show_default=True,
              help="The policy whose weights are tuned (hints: the weights of H1..H13).")
@click.option("--opponent", default="hints", show_default=True, metavar="NAME",
              help="What each candidate plays, on the same deals with the seats swapped: " + POLICY_FORMS + ".")
@run_options(hands=2_000_000, hands_help="Hands the search may play (each candidate: its deals twice).",
             out=None, out_help="Directory for the tables, charts, tune.json (the preset) and tune.md; the "
             "search keeps its state there after each generation (--resume continues it).", count="budget",
             seed_help="Master seed: the search's generations draw their deals from it; the confirmation "
                       "plays the deals of the seed itself, which the search never saw.")
@click.option("--confirm", "confirm_deals", default=50_000, show_default=True,
              help="Deals of the confirmation against hand-set hints (each played twice).")
@click.option("--confirm-expert", "expert_deals", default=0, show_default=True,
              help="Deals of the confirmation against expert (0: none; expert plays ~20 ordinary "
                   "hands a second per core).")
@click.option("--start", default=None, metavar="PRESET",
              help="Start the search from a stored preset's weights (e.g. tuned-ordinary-h8; a hint "
                   "it does not name starts at 1). Default: every hint at 1.")
def tune_command(variant, rule_items, policy_name, opponent, budget, seed, threads, out, confirm_deals,
                 expert_deals, start):
    """Search the hint weights for the strongest cheap player (CMA-ES).

    Each candidate weighting of H1..H13 plays --opponent on the same deals with the
    seats swapped; every candidate of a generation plays the same deals, and the
    deals per candidate grow as the search narrows. The answer (the mean of the
    final search distribution) is confirmed on fresh deals against hand-set hints
    and --opponent (and expert with --confirm-expert), each figure with its 95%
    interval.

    Example:

    \b
        bezique tune --variant ordinary --opponent hints --budget 4000000 --seed 1 --out results/tune-ordinary
    """
    rules = rules_from(variant, rule_items)
    command = command_text("tune", ("--variant", variant), ("--opponent", opponent), ("--budget", budget),
                           ("--seed", seed), ("--confirm", confirm_deals), ("--confirm-expert", expert_deals or None),
                           ("--start", start),
                           *(("--rule", r) for r in rule_items), ("--out", out or None))
    check_request(rules, policy_name, opponent, budget, confirm_deals, expert_deals)
    if out and not click.get_current_context().params.get("resume", False) and forget_search(out):
        notice(f"note: {out} held an interrupted search; starting over (--resume would continue it)")
    with progress_bar(budget, "hand", "tune") as progress:
        res = tune(rules, opponent, budget, seed, out, threads, progress, confirm_deals, expert_deals,
                   command=command, start=start)
    click.echo(format_tune(res))
    if out:
        notice(f"\nwrote {len(write_tune(res, out, threads))} files to {out}")
