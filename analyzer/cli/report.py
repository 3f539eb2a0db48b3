"""The studies: ``report`` (the main job: the study of a game, written as report.md with every
table and chart) and ``study`` (a published study of results/, by name)."""
from __future__ import annotations

import click

from ..published import STUDIES, run_study
from ..studies.report.strong import StrongPlay
from ..studies.report.study import format_study, hands_played, strong_play, study, write_report
from .console import notice, progress_bar
from .options import command_text, deal_options, given_options, rule_options, rules_from, run_options


@click.command("report")
@rule_options
@deal_options
@run_options(hands=100_000, hands_help="Hands per policy pairing (hints, greedy, random self-play and hints vs "
                                       "greedy), and at most as many deals per pair head to head (each played twice; a pair "
                                       "stops once its difference is known to within ±2.5 %).",
             out=None, out_help="Output directory (default: results/report-VARIANT).",
             seed_help="Master seed: every pairing plays the same deals.",
             default_out=lambda kw: f"results/report-{rules_from(kw['variant'], kw['rule_items']).name}")
@click.option("--expert-hands", default=0, show_default=True, metavar="N",
              help="Also play N hands of expert self-play (a strong reference player, ~20 "
                   "ordinary hands/s per core) as a pairing beside the heuristics.")
@click.option("--learned-hands", default=StrongPlay.hands, show_default=True, metavar="N",
              help="Hands of self-play of the learned player, the study's headline pairing (strong play); the "
                   "band's other strong players play a quarter of them, all only where that would settle a "
                   "figure; 0 leaves the learned player out (so does a game it has no model for).")
@click.option("--learned-deals", default=StrongPlay.deals, show_default=True, metavar="N",
              help="Deals, at most, on which the learned player plays each heuristic head to head (each twice, "
                   "seats swapped; a pair stops once its difference is known to within ±2.5 %).")
@click.option("--ablation-deals", default=StrongPlay.ablation_deals, show_default=True, metavar="N",
              help="Deals on which hints, and hints without each hint in turn, play the learned player: "
                   "each hint's worth against strong play (0: not measured).")
@click.option("--verbose", "-v", is_flag=True,
              help="Print every finding in a sentence, the policies, the rules and the sample (by default: the "
                   "takeaways and the headline figures; the files hold everything).")
@click.option("--band/--no-band", default=True, show_default=True,
              help="Also play the package's other strong players (learned:player=2 …, trained apart) in "
                   "self-play on the same deals, and give the headline figures as the band over them: "
                   "whether each is the same for every strong player (within 5 %), differs between them, or is "
                   "not settled.")
def report_command(variant, rule_items, hands, seed, threads, out, expert_hands, learned_hands, learned_deals,
                   ablation_deals, verbose, band):
    """Run the study and write every table (CSV, Parquet), chart (PNG, SVG) and report.md.

    Exact and simulated deal-time odds; double bézique over the play (by trick,
    held but never scored, and why); rubicon rates and the loser's total
    (Rubicon); brisque value; combinations; score distributions; seat advantage;
    the policies head to head; the seven of trumps and the hands needed to reach
    1000, 1500, 2000 (ordinary).

    Example:

    \b
        bezique report --variant rubicon --hands 200000 --seed 1 --out results/report-rubicon
    """
    if min(expert_hands, learned_hands, learned_deals, ablation_deals) < 0:
        raise click.ClickException("--expert-hands, --learned-hands, --learned-deals and --ablation-deals take "
                                   "0 or more")
    rules = rules_from(variant, rule_items)
    extra = tuple((name, name, n) for name, n in (("expert", expert_hands),) if n)
    strong, why = strong_play(rules, learned_hands, learned_deals, ablation_deals, band)
    if why:
        notice(f"note: {why}; the study is of the heuristics alone")
    defaults = StrongPlay()
    command = command_text("report", ("--variant", variant), ("--hands", hands), ("--seed", seed), ("--out", out),
                           ("--expert-hands", expert_hands or None), ("--no-band", None if band else True),
                           *((f"--{k.replace('_', '-')}", v) for k, v, d in (
                               ("learned_hands", learned_hands, defaults.hands),
                               ("learned_deals", learned_deals, defaults.deals),
                               ("ablation_deals", ablation_deals, defaults.ablation_deals)) if v != d),
                           *(("--rule", r) for r in rule_items), *given_options())
    with progress_bar(hands_played(hands, extra, rules.players, strong=strong), "hand", "report") as progress:
        st = study(rules, hands, seed, threads=threads, progress=progress, extra=extra, strong=strong)
    files = write_report(st, out, command, threads=threads)
    click.echo(format_study(st, verbose))
    click.echo(f"wrote {len(files)} files; open {out}/report.html")


STUDY_HELP = (
    "Run a published study of results/ (docs/studies.md): it plays its games and writes its tables, "
    "charts and its page (results/NAME/README.md and report.html); the options after NAME are the study's own "
    "(bezique study NAME --help). The same as python -m analyzer.published.NAME.\n\n"
    "NAME is one of:\n\n\b\n" + "\n".join(f"  {n:<12} {what}" for n, what in STUDIES.items())
    + "\n\nExample:\n\n\b\n    bezique study ladder --help\n"
    "    bezique study learned --scale 0.0001 --no-variants --no-readme --out learned-quick\n")


@click.command("study", help=STUDY_HELP,
               context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("name", metavar="NAME")
@click.argument("study_args", nargs=-1, type=click.UNPROCESSED, metavar="[STUDY OPTIONS]")
@click.pass_context
def study_command(ctx, name, study_args):
    """``bezique study NAME``: the published study NAME with its own options (STUDY_HELP)."""
    ctx.exit(run_study(name, study_args))
