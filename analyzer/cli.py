"""The ``bezique`` command line: thin wrappers that parse, call the library, print, write.

What the commands share (options, progress bar, errors) is in :mod:`analyzer.cli_options`.
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

import click

from .cli_options import (
    RuleViolationExit,
    check_seed,
    deal_options,
    given_options,
    command_text,
    watch_compiles,
    notice,
    policies_from,
    progress_bar,
    rule_options,
    rules_from,
    run_options,
    stop_on_sigterm,
)
from .deal import active_given
from .run.driver import MAX_HANDS, SimulationError
from .run.output import (
    OutputError,
    check_text_path,
    check_writable,
    finish_output,
    write_json,
    write_run_record,
    write_table,
)
from .stop import STOP
from .studies.published import STUDIES, run_study
from .studies.strong import StrongPlay

POLICY_FORMS = ("a built-in name (see `bezique policies`), hints:/expert: settings such as hints:no=H4, "
                "or path/to/file.py:function for your own")


JSON_OPTION = click.option("--json", "as_json", is_flag=True,
                           help="Print the results as JSON (stdout) instead of text.")


def _records(df) -> list[dict]:
    """A table as JSON records (its index a column when it names something); NaN is null."""
    if df.index.name is not None or not df.index.equals(type(df.index)(range(len(df)))):
        df = df.reset_index()
    return json.loads(df.to_json(orient="records"))


def _echo_json(payload: dict) -> None:
    click.echo(json.dumps(payload, indent=1, ensure_ascii=False))


def run() -> None:
    """The ``bezique`` console script: :func:`main`; after Ctrl-C or SIGTERM the process exits
    at once, once its message is out, without the interpreter's shutdown, which a worker
    thread stuck in a user policy's endless loop (or inside a compile, holding the
    interpreter's lock) could hold up."""
    try:
        main()
    except SystemExit as e:
        if STOP.is_set():
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(e.code if isinstance(e.code, int) else 1)
        raise


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bezique-analyzer", prog_name="bezique",
                      message="%(prog)s (bezique-analyzer) %(version)s")
def main():
    """bezique-analyzer: play bézique hands by the million and measure strategies.

    Example:

    \b
        bezique simulate --hands 100000 --policy greedy --policy random --out results/run
    """
    stop_on_sigterm()


@main.command()
@rule_options
@deal_options
@click.option("--policy", "policy_names", multiple=True, metavar="NAME",
              help="Policy of seat 0, then seat 1 (default: greedy, random): " + POLICY_FORMS + ".")
@run_options(hands=100_000, hands_help="Number of hands to play.", out=None,
             out_help="Directory for the tables (CSV and Parquet) and the score chart (PNG, SVG).")
@click.option("--games", type=int, default=None, metavar="N",
              help="Play N whole games to the target instead of --hands single hands (R2.24; the "
                   "deal goes round the table), and report the games too: hands per game, the "
                   "chance of winning from each score difference, claims of the game (V3).")
@click.option("--target", type=int, default=None, metavar="POINTS",
              help="The game's target: 1000, 1500 or 2000 (the variant's own by default; the "
                   "same as --rule target=POINTS).")
@JSON_OPTION
def simulate(variant, rule_items, policy_names, hands, seed, threads, out, games, target, as_json):
    """Play --hands hands (or --games whole games) and print a table per seat and policy.

    The deal goes round the table (hand i is dealt by seat i mod the players). Every rate
    has its 95% confidence interval. Variants: --variant no_trump, panache, fixed_point,
    three_handed, four_handed (see `bezique rules`).

    Example:

    \b
        bezique simulate --variant ordinary --policy greedy --policy random --hands 200000 --seed 7 --out results/greedy-random
        bezique simulate --variant fixed_point --policy hints --games 20000 --target 1000 --out results/fixed-point
    """
    rules = rules_from(variant, rule_items + ((f"target={target}",) if target is not None else ()))
    specs = policies_from(policy_names, rules)
    if games is not None:
        return _simulate_games(rules, specs, games, seed, threads, out, as_json)
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .plots import score_chart
    from .studies.simulate import simulate as run
    from .tables.stats import format_run
    with progress_bar(hands, "hand", "simulate") as progress:
        result = run(rules, specs, hands, seed, threads=threads, progress=progress)
    _echo_json(_run_json(result, hands=hands)) if as_json else click.echo(format_run(result))
    if out:
        _write_outputs(out, threads, result.tables, {"score_distribution": score_chart(result)},
                       rules=rules.describe(), policies=result.policies, hands=hands, seed=seed)


def _simulate_games(rules, specs, games, seed, threads, out, as_json):
    """``simulate --games``: play whole games, print and write their tables and charts."""
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .plots import score_chart, win_chance_chart
    from .studies.games import MAX_GAMES, simulate_games
    from .tables.game_tables import format_games_run
    if not 0 < games <= MAX_GAMES:
        raise click.ClickException(f"--games must be from 1 to 2^53, got {games}")
    with progress_bar(games, "game", "simulate") as progress:
        result = simulate_games(rules, specs, games, seed, threads=threads, progress=progress)
    _echo_json(_run_json(result, games=games)) if as_json else click.echo(format_games_run(result))
    if out:
        title = f"{rules.name} bézique to {rules.target}: the chance of winning the game ({games:,} games)"
        charts = {"score_distribution": score_chart(result),
                  "win_chance": win_chance_chart(result.tables["win_chance"], title)}
        _write_outputs(out, threads, result.tables, charts, rules=rules.describe(), policies=result.policies,
                       games=games, seed=seed)


def _run_json(result, **size) -> dict:
    """A run's rules, policies, size (``hands=`` or ``games=``), seed and tables, for --json."""
    return {"rules": result.rules.describe(), "policies": result.policies, **size, "seed": result.seed,
            "tables": {name: _records(df) for name, df in result.tables.items()}}


def _write_outputs(out, threads, tables=None, charts=None, files=(), parquet=True, spaced=True, **facts) -> None:
    """Write ``tables`` (name: DataFrame; CSV and, with ``parquet``, Parquet), ``charts``
    (name: Figure, or (Figure, formats); PNG and SVG by default) and run.json (``facts``, and
    the backend of ``threads``) into ``out`` beside the ``files`` already written there, finish
    the directory (its manifest) and say how many files went where (after a blank line if
    ``spaced``)."""
    # keeps the CLI's start-up light: matplotlib loads with the first chart
    from .plots import save_chart
    written = list(files)
    for name, df in (tables or {}).items():
        written += write_table(df, out, name, parquet=parquet)
    for name, chart in (charts or {}).items():
        fig, formats = chart if isinstance(chart, tuple) else (chart, ("png", "svg"))
        written += save_chart(fig, out, name, formats=formats)
    given = active_given()
    written.append(write_run_record(out, threads=threads, **facts, **({"given": given.describe()} if given else {})))
    finish_output(out, written)
    notice(("\n" if spaced else "") + f"wrote {len(written)} files to {out}")


def _game_totals(text: str, players: int) -> list[int]:
    """``--game-totals 990,400``: one whole number per seat, 0 to 999999."""
    try:
        totals = [int(x) for x in text.split(",")]
    except ValueError:
        totals = []
    if len(totals) != players or not all(0 <= x < 10**6 for x in totals):
        raise click.ClickException(f"--game-totals takes {players} whole numbers from 0 to 999999, "
                                   f"one per seat (e.g. {','.join(['990'] + ['0'] * (players - 1))}), got {text!r}")
    return totals


@main.command()
@rule_options
@click.option("--policy", "policy_names", multiple=True, metavar="NAME",
              help="Policy of seat 0, then seat 1 (default: greedy, random): " + POLICY_FORMS + ".")
@click.option("--seed", default=1, show_default=True, help="Master seed.")
@click.option("--hand", "hand_index", default=0, show_default=True,
              help="Hand number within the run (the same deal `simulate` plays as that hand).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the hand as a replay file.")
@click.option("--symbols", is_flag=True, help="Show suits as ♠♥♦♣.")
@click.option("--game-totals", "game_totals", default=None, metavar="A,B",
              help="The game scores before this hand, one per seat (e.g. 990,400): in a game limited "
                   "to a fixed point (V3) a player who reaches the target may claim the game.")
def trace(variant, rule_items, policy_names, seed, hand_index, json_path, symbols, game_totals):
    """Play one hand and print every event: deal, tricks, declarations, draws, scores.

    Example:

    \b
        bezique trace --seed 3 --policy greedy --policy random --json hand3.json
    """
    watch_compiles()
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .hands.hand_json import replay_json
    from .hands.handlog import play_spec
    from .hands.log_text import format_log
    from .hands.replay_file import dealt_spec

    _check_trace(seed, hand_index, json_path)
    rules = rules_from(variant, rule_items)
    specs = policies_from(policy_names, rules)
    spec = dealt_spec(rules, seed, hand_index)
    if game_totals is not None:
        spec.game_totals = _game_totals(game_totals, rules.players)
    try:
        outcome = play_spec(spec, specs, seed=seed, hand=hand_index)
    except SimulationError as e:
        raise click.ClickException(str(e)) from None
    click.echo(format_log(outcome, symbols))
    if outcome.error:
        raise click.ClickException(outcome.error)
    if json_path:
        try:
            write_json(replay_json(outcome), json_path)
        except OSError as e:
            raise click.ClickException(f"cannot write {json_path}: {e.strerror or e}") from None
        click.echo(f"wrote {json_path}")


def _check_trace(seed: int, hand_index: int, json_path) -> None:
    """One clear error for a bad --seed, --hand or --json path of ``trace``."""
    check_seed(seed)
    if not 0 <= hand_index <= MAX_HANDS - 1:
        raise click.ClickException(f"--hand must be from 0 to 2^63-2, got {hand_index}")
    if json_path:
        try:
            check_writable(check_text_path(json_path).parent)
        except OutputError as e:
            raise click.ClickException(str(e)) from None


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the event log and scores as JSON.")
@click.option("--symbols", is_flag=True, help="Show suits as ♠♥♦♣.")
def replay(file, as_json, symbols):
    """Play the hand given in FILE (a replay file, see docs/commands.md, "Replay file format") and print its log.

    A move that breaks a rule stops the replay with exit code 2 and names the
    move and the rule; a malformed file exits with code 1.

    Example:

    \b
        bezique replay tests/replays/example_hand.json
    """
    watch_compiles()
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .hands.hand_json import outcome_json
    from .hands.handlog import play_spec
    from .hands.log_text import format_log
    from .hands.replay_file import ReplayError, RuleViolation, load_replay

    try:
        spec = load_replay(file)
    except ReplayError as e:
        raise click.ClickException(str(e)) from None
    except RuleViolation as e:
        raise RuleViolationExit(str(e)) from None
    outcome = play_spec(spec)
    if as_json:
        click.echo(json.dumps(outcome_json(outcome), indent=1, ensure_ascii=False))
    else:
        click.echo(format_log(outcome, symbols))
    if outcome.error:
        raise RuleViolationExit(outcome.error)


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


@main.command()
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
def compare(policy_names, variant, rule_items, hands, seed, threads, out, sprt, as_json):
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
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .plots import pairs_heatmap
    from .studies.compare import compare as run
    from .studies.compare import format_comparison, points_unit

    if len(policy_names) < 2:
        raise click.ClickException("give at least two policies to compare")
    rules = rules_from(variant, rule_items)
    specs = [policies_from([n], rules)[0] for n in policy_names]
    with progress_bar(hands * (len(specs) * (len(specs) - 1) // 2), "deal", "compare") as progress:
        res = run(rules, specs, hands, seed, threads=threads, sprt=_parse_sprt(sprt), progress=progress)
    unit = points_unit(rules)
    if as_json:
        _echo_json({"rules": rules.describe(), "hands": hands, "seed": seed, "unit": unit, "pairs": _records(res.pairs),
                    "ranking": None if res.ranking is None else _records(res.ranking)})
    else:
        click.echo(format_comparison(res, rules, seed))
    if out:
        title = f"{rules.name} bézique, {hands:,} deals per pair (x2 seats), seed {seed}"
        heatmap = pairs_heatmap(res.pairs, [s.name for s in specs], "mean_diff", f"mean of row minus column, {unit}",
                                title)
        tables = {"pairs": res.pairs, **({} if res.ranking is None else {"ranking": res.ranking})}
        _write_outputs(out, threads, tables, {"heatmap": (heatmap, ("png",))}, parquet=False, rules=rules.describe(),
                       policies=[s.name for s in specs], hands=hands, seed=seed, sprt=sprt)


@main.command()
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
def ablate(variant, rule_items, hands, seed, threads, out, against, base):
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
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .plots import ablation_chart
    from .studies.compare import ablate as run
    from .policies.registry import PolicyError
    from .studies.compare import format_ablation, hints_on, points_unit

    rules = rules_from(variant, rule_items)
    opponent = policies_from([against], rules)[0] if against else None
    try:
        n = len(hints_on(base))
    except PolicyError as e:
        raise click.ClickException(f"--base: {e}") from None
    with progress_bar(hands * (n + 1 if against else n), "deal", "ablate") as progress:
        df = run(rules, hands, seed, threads=threads, progress=progress, against=opponent, base=base)
    click.echo(format_ablation(df, rules, hands, seed, against, base))
    if out:
        title = (f"Value of each hint{'' if base == 'hints' else f' of {base}'}, {rules.name} bézique "
                 f"({hands:,} deals x 2, seed {seed})" + (f", against {against}" if against else ""))
        _write_outputs(out, threads, {"ablation": df}, {"ablation": ablation_chart(df, points_unit(rules), title)},
                       parquet=False, rules=rules.describe(), against=against, base=base, hands=hands, seed=seed)


@main.command()
@rule_options
@deal_options
@run_options(hands=200_000, hands_help="Deals simulated beside the exact values.", out=None,
             out_help="Also write odds.csv/.parquet here.",
             seed_help="Master seed of the simulated deals.")
@JSON_OPTION
def odds(variant, rule_items, hands, seed, threads, out, as_json):
    """Exact deal-time probabilities, as fractions and decimals, beside simulated frequencies.

    Bézique, double (Rubicon: treble, quadruple) bézique, each four, a sequence and a
    marriage in spades, carte blanche (Rubicon), the turn-up a seven (ordinary) in a
    dealt hand; and the chance that one player receives a double bézique over the hand.

    Example:

    \b
        bezique odds --variant rubicon --hands 400000 --seed 2
    """
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .studies.conditional_odds import odds as odds_table
    from .studies.exact import format_odds

    rules = rules_from(variant, rule_items)
    with progress_bar(hands, "deal", "odds") as progress:
        df = odds_table(rules, hands, seed, threads=threads, progress=progress)
    if as_json:
        _echo_json({"rules": rules.describe(), "hands": hands, "seed": seed, "odds": _records(df)})
    else:
        click.echo(format_odds(df, rules, hands, seed))
    if out:
        _write_outputs(out, threads, {"odds": df}, spaced=False, rules=rules.describe(), hands=hands, seed=seed)


@main.command()
@rule_options
@deal_options
@run_options(hands=100_000, hands_help="Hands per policy pairing (hints, greedy, random self-play and hints vs "
                                       "greedy), and deals per pair head to head (each played twice).",
             out=None, out_help="Output directory (default: results/report-VARIANT).",
             seed_help="Master seed: every pairing plays the same deals.",
             default_out=lambda kw: f"results/report-{rules_from(kw['variant'], kw['rule_items']).name}")
@click.option("--expert-hands", default=0, show_default=True, metavar="N",
              help="Also play N hands of expert self-play (a strong reference player, ~20 "
                   "ordinary hands/s per core) as a pairing beside the heuristics.")
@click.option("--learned-hands", default=StrongPlay.hands, show_default=True, metavar="N",
              help="Hands of self-play of the learned player, the study's headline pairing (strong play); "
                   "0 leaves the learned player out (so does a game it has no model for).")
@click.option("--learned-deals", default=StrongPlay.deals, show_default=True, metavar="N",
              help="Deals on which the learned player plays each heuristic head to head (each twice, seats "
                   "swapped).")
@click.option("--ablation-deals", default=StrongPlay.ablation_deals, show_default=True, metavar="N",
              help="Deals on which hints, and hints without each hint in turn, play the learned player: "
                   "each hint's worth against strong play (0: not measured).")
@click.option("--band/--no-band", default=True, show_default=True,
              help="Also play the package's other strong players (learned:player=2 …, trained apart) in "
                   "self-play on the same deals, and give the headline figures as the band over them: "
                   "which the strong players agree on (the game's) and which they do not (the players').")
def report(variant, rule_items, hands, seed, threads, out, expert_hands, learned_hands, learned_deals,
           ablation_deals, band):
    """Run the study and write every table (CSV, Parquet), chart (PNG, SVG) and report.md.

    Exact and simulated deal-time odds; double bézique over the play (by trick,
    held but never scored, and why); rubicon rates and the loser's total
    (Rubicon); brisque value; combinations; score distributions; seat advantage;
    the policies head to head; the seven of trumps and the hands needed to reach
    1000, 1500, 2000 (ordinary).

    Example:

    \b
        bezique report --variant rubicon --hands 200000 --seed 1 --out results/rubicon
    """
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .policies.learned import game_of, shipped_players
    from .studies.report import format_study, hands_played, strong_refusal, study, write_report

    if min(expert_hands, learned_hands, learned_deals, ablation_deals) < 0:
        raise click.ClickException("--expert-hands, --learned-hands, --learned-deals and --ablation-deals take "
                                   "0 or more")
    rules = rules_from(variant, rule_items)
    extra = tuple((name, name, n) for name, n in (("expert", expert_hands),) if n)
    others = tuple(f"learned:player={p}" for p in shipped_players(game_of(rules)) if p > 1) if band else ()
    strong = StrongPlay("learned", learned_hands, learned_deals, ablation_deals, others) if learned_hands else None
    if strong:
        why = strong_refusal(rules)
        if why:
            notice(f"note: {why}; the study is of the heuristics alone")
            strong = None
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
    click.echo(format_study(st))
    click.echo(f"wrote {len(files)} files to {out} (see {out}/report.md)")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--at", "at", type=int, default=None, metavar="MOVE",
              help="Analyse the position after the first MOVE moves of the file (default: after all).")
@click.option("--samples", default=400, show_default=True,
              help="Assignments of the unseen cards each action is played out on (first stage).")
@click.option("--rollout", type=click.Choice(["learned", "tuned", "hints", "greedy", "random"]), default="learned",
              show_default=True, help="The policy that plays each sample to the end at both seats (tuned: the "
                                      "tuned hints of the game; learned, the default, is the strongest: "
                                      "docs/search.md). In the first stage's last window each sample is solved "
                                      "exactly instead.")
@click.option("--seed", default=1, show_default=True, help="Seed of the samples.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
def analyze(file, at, samples, rollout, seed, as_json):
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
    watch_compiles()
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .hands.replay_file import ReplayError, RuleViolation, load_replay
    from .studies.analysis import AnalysisError, analyze_position, format_analysis

    check_seed(seed)
    try:
        spec = load_replay(file)
        result = analyze_position(spec, at, samples, seed, rollout)
    except (ReplayError, AnalysisError) as e:
        raise click.ClickException(str(e)) from None
    except RuleViolation as e:
        raise RuleViolationExit(str(e)) from None
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1, ensure_ascii=False))
    else:
        click.echo(format_analysis(result))


@main.command()
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
def tune(variant, rule_items, policy_name, opponent, budget, seed, threads, out, confirm_deals, expert_deals,
         start):
    """Search the hint weights for the strongest cheap player (CMA-ES).

    Each candidate weighting of H1..H13 plays --opponent on the same deals with the
    seats swapped; every candidate of a generation plays the same deals, and the
    deals per candidate grow as the search narrows. The answer (the mean of the
    final search distribution) is confirmed on fresh deals against hand-set hints
    and --opponent (and expert with --confirm-expert), each figure with its 95%
    interval.

    Example:

    \b
        bezique tune --variant ordinary --opponent hints --budget 4000000 --seed 1 --out results/tune/ordinary
    """
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .studies.tune import TuneError
    from .studies.tune_hints import check_request, forget_search
    from .studies.tune_hints import tune as run
    from .studies.tune_output import format_tune, write_tune

    rules = rules_from(variant, rule_items)
    command = command_text("tune", ("--variant", variant), ("--opponent", opponent), ("--budget", budget),
                           ("--seed", seed), ("--confirm", confirm_deals), ("--confirm-expert", expert_deals or None),
                           ("--start", start),
                           *(("--rule", r) for r in rule_items), ("--out", out or None))
    try:
        check_request(rules, policy_name, opponent, budget)
        if confirm_deals < 0 or expert_deals < 0:
            raise TuneError("--confirm and --confirm-expert take 0 or more deals")
        policies_from([opponent], rules)                 # an unknown opponent: one line, before the search
        if out and not click.get_current_context().params.get("resume", False) and forget_search(out):
            notice(f"note: {out} held an interrupted search; starting over (--resume would continue it)")
        with progress_bar(budget, "hand", "tune") as progress:
            res = run(rules, opponent, budget, seed, out, threads, progress, confirm_deals, expert_deals,
                      command=command, start=start)
    except TuneError as e:
        raise click.ClickException(str(e)) from None
    click.echo(format_tune(res))
    if out:
        _write_outputs(out, threads, files=write_tune(res, out), rules=rules.describe(), opponent=opponent,
                       budget=budget, seed=seed)
        forget_search(out)                              # finished: nothing to resume


@main.command()
@rule_options
@run_options(hands=60, hands_help="Training steps: each plays --hands-per-step hands of self-play, labels "
             "a share of their decisions by roll-outs and fits the network.", out=None,
             out_help="Directory of the run: checkpoint.npz after each step (--resume continues it), "
             "model.npz (the weights so far), curve.csv and curve.png (default: results/train/VARIANT).",
             count="steps", default_out=lambda kw: f"results/train/{kw['variant']}", own_checkpoints=True,
             seed_help="Master seed: the training deals, exploration and fit all come from it; the "
                       "learning curve plays other deals (seed + 1000003).")
@click.option("--hands-per-step", "hands", default=1000, show_default=True, help="Self-play hands per step.")
@click.option("--keep", default=1.0, show_default=True,
              help="Share of the first-stage decisions with a choice labelled by roll-outs.")
@click.option("--eps", default=0.05, show_default=True, help="Share of moves played at random (exploration).")
@click.option("--fit-rows", default=2_000_000, show_default=True,
              help="Sample rows drawn from the window for each step's fit.")
@click.option("--window", default=40, show_default=True, help="Steps whose samples each fit draws from.")
@click.option("--lr", default=1e-3, show_default=True, help="Adam's learning rate.")
@click.option("--net-rollouts", default=0, show_default=True, metavar="STEP",
              help="From this step on the roll-outs play the network as it was then (0: always the "
                   "teacher, hints:tuned-GAME).")
@click.option("--hint-bonus", default=None, type=float, metavar="POINTS",
              help="Value added to the teacher's choice: the network departs from it only for more "
                   "(default: 0 in the ordinary game, 100 points of the game score in Rubicon).")
@click.option("--round-of", "round_of", default=None, metavar="MODEL",
              help="A new round of policy iteration over MODEL (a model.npz): start from its weights "
                   "and make the roll-outs play it (at both seats, its second stage exact).")
@click.option("--start", "start", default=None, metavar="MODEL",
              help="Start from the weights of MODEL (the roll-outs still play the teacher).")
@click.option("--opponent", default=None, metavar="MODEL",
              help="A best response: MODEL, frozen, holds one seat of every hand (the seats alternate "
                   "with the hand) and only the other seat's decisions are learned.")
@click.option("--search", default=None, metavar="EXPERT",
              help="Expert iteration: with --round-of MODEL, the search EXPERT (expert, or expert:SETTINGS) "
                   "over MODEL's network labels the decisions it searches by its action values and plays "
                   "its choice there; the other decisions are labelled by roll-outs as before.")
@click.option("--late-net", default=0, show_default=True, metavar="CARDS",
              help="With --search: fit only a late network (a larger network of the same inputs) for the "
                   "decisions with at most CARDS cards left to draw, to the search's labels of them; the model "
                   "gets one if it has none (docs/learned.md, \"The late network\").")
@click.option("--no-teacher-input", is_flag=True,
              help="The network never sees the teacher's choice (no such input, no bonus).")
@click.option("--eval-every", default=5, show_default=True, help="Steps between two learning-curve points.")
@click.option("--eval-deals", default=2000, show_default=True,
              help="Held-out deals per learning-curve point (each played twice, seats swapped; 0: none).")
@click.option("--install", is_flag=True,
              help="At the end, copy model.npz into the package as the `learned` model of this game.")
def train(variant, rule_items, steps, seed, threads, out, hands, keep, eps, fit_rows, window, lr, net_rollouts,
          hint_bonus, round_of, start, opponent, search, late_net, no_teacher_input, eval_every, eval_deals,
          install):
    """Train the learned player by self-play (one model per game: ordinary, Rubicon).

    Each step plays hands with the network at both seats (at first the tuned
    hints, its teacher), tries every legal action at a share of the decisions
    and plays the hand out from each (the roll-outs see the true cards; the
    network only its seat's observation), and fits the network to the
    actions' advantages. A checkpoint after every step: --resume continues a
    killed run to the same weights. The learning curve plays held-out deals
    against hints:tuned-GAME.

    Example:

    \b
        bezique train --variant ordinary --steps 60 --seed 1 --out results/train/ordinary
        bezique train --variant ordinary --steps 30 --round-of results/train/ordinary/model.npz --out results/train/round2
    """
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from dataclasses import asdict

    import pandas as pd

    from .learning.train import CHECKPOINT, CURVE, MODEL, TrainConfig, Trainer, TrainError, teacher_name
    from .plots import learning_curve_chart
    from .policies.learned import game_of, shipped_model
    from .studies.compare import points_unit

    rules = rules_from(variant, rule_items)
    resume = click.get_current_context().params.get("resume", False)
    if round_of and start:
        raise click.ClickException("--round-of already starts from its model: give --round-of or --start")
    models = {k: str(Path(v).resolve()) if v else None for k, v in
              (("start", round_of or start), ("opponent", opponent))}
    config = TrainConfig(steps=steps, hands=hands, keep=keep, eps=eps, fit_rows=fit_rows, window=window, lr=lr,
                         net_rollouts=net_rollouts, hint_bonus=hint_bonus, eval_every=eval_every,
                         eval_deals=eval_deals, seed=seed, rollout_start=bool(round_of), search=search,
                         late_net=late_net,
                         teacher_input=not no_teacher_input, **models)
    try:
        with progress_bar(steps, "step", "train") as advance:
            state = Trainer(rules, config, out, threads, progress=notice, advance=advance).run(resume=resume)
    except TrainError as e:
        raise click.ClickException(str(e)) from None
    curve = pd.DataFrame(state.curve)
    game = game_of(rules)
    click.echo(f"trained {game}: {state.step} steps, {state.hands_played:,} self-play hands, "
               f"{state.samples:,} samples in {state.seconds:.0f} s; model in {out}/{MODEL}")
    chart = learning_curve_chart(curve, points_unit(rules), f"learned player, {rules.name} bézique: learning curve "
                                 f"(seed {seed})", teacher_name(game)) if "vs_teacher" in curve else None
    _write_outputs(out, threads, tables={CURVE.removesuffix(".csv"): curve},
                   charts={"curve": chart} if chart is not None else {},
                   files=[f"{out}/{MODEL}", f"{out}/{CHECKPOINT}"], rules=rules.describe(), seed=seed,
                   config=asdict(config), steps=state.step)
    if install:
        import shutil
        shutil.copyfile(f"{out}/{MODEL}", shipped_model(game))
        notice(f"installed as the learned model of {game}: {shipped_model(game)}")


@main.command()
@rule_options
@run_options(hands=100, hands_help="Hands of each strong pairing.", out=None, threads=False,
             out_help="Write hints.csv/.parquet, decisions.parquet, hints_GAME.png/.svg and hints.md (with "
                      "--patterns also patterns.csv/.parquet and disagreements.parquet) "
                      "here (default: results/hints/GAME).",
             default_out=lambda kw: f"results/hints/{'rubicon' if kw['variant'] == 'rubicon' else 'ordinary'}",
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
def hints(variant, rule_items, hands, seed, out, pairings, samples, base, patterns):
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
    # keeps the CLI's start-up light: the study loads (and compiles) when the command runs
    from .plots import rules_title
    from .plots.hints import hints_chart
    from .studies.hint_patterns import Disagreements, pattern_table, patterns_markdown
    from .studies.hint_report import hints_markdown
    from .studies.hint_study import PAIRINGS, HintRows, HintStudy, hint_table, play_study
    from .run.output import atomic_write, command_line

    rules = rules_from(variant, rule_items)
    if rules.players != 2:
        raise click.ClickException("bezique hints studies two-handed games (the strong players' search is "
                                   "two-handed): use --variant ordinary or rubicon")
    chosen = tuple(_pairing(p) for p in pairings) or PAIRINGS
    if samples < 2:
        raise click.ClickException(f"--samples must be 2 or more (an interval needs two), got {samples}")
    if base.partition(":")[0] != "hints":
        raise click.ClickException(f"--hints takes the hints policy or its settings (hints, hints:tuned-ordinary), "
                                   f"got {base!r}")
    _known_policy(base)
    study = HintStudy(pairings=chosen, hands=hands, seed=seed, samples=samples, base=base)
    analyses = [HintRows(rules, study)] + ([Disagreements(rules, study)] if patterns else [])
    with progress_bar(hands * len(chosen), "hand", "hints") as progress:
        rows, *parted = play_study(rules, study, analyses, progress=progress)
    parted = parted[0] if parted else None
    table = hint_table(rows, rows.attrs["decisions"])
    game = "rubicon" if rules.is_rubicon else "ordinary"
    unit = "net game points" if rules.is_rubicon else "points"
    facts = dict(command=command_line(), hands=hands, seed=seed, samples=samples, decisions=rows.attrs["decisions"],
                 base=base, pairings=[" vs ".join(p) for p in chosen])
    text = hints_markdown(table, game, facts)
    tables = {"hints": table}
    if parted is not None:
        tables["patterns"] = pattern_table(parted, parted.attrs["seat_hands"])
        text += patterns_markdown(tables["patterns"], parted, unit)
    click.echo(text)
    written = [atomic_write(Path(out) / "hints.md", lambda p: Path(p).write_text(text, encoding="utf-8"))]
    written += write_table(rows, out, "decisions", csv=False)     # a row per decision: Parquet only
    if parted is not None:
        written += write_table(parted, out, "disagreements", csv=False)
    _write_outputs(out, None, tables,
                   {f"hints_{game}": hints_chart(table, f"{rules_title(rules)}: the hints against strong play", unit)},
                   files=written, rules=rules.describe(), **facts)


def _pairing(text: str) -> tuple:
    """``--pairing expert,learned`` (or ``"expert:samples=64,late=0 vs learned"``): two known
    policy names."""
    names = tuple(x.strip() for x in (text.split(" vs ") if " vs " in text else text.split(",")))
    if len(names) != 2 or not all(names):
        raise click.ClickException(f"--pairing takes two policies, A,B or \"A vs B\" (e.g. expert,learned), "
                                   f"got {text!r}")
    for name in names:
        _known_policy(name)
    return names


def _known_policy(name: str) -> None:
    """A policy name that resolves, else one clear line."""
    # keeps the CLI's start-up light: the registry loads the policies' modules
    from .policies.registry import PolicyError, resolve_policy
    try:
        resolve_policy(name)
    except PolicyError as e:
        raise click.ClickException(str(e)) from None


@main.command()
@rule_options
@deal_options
@click.option("--policy", default="learned", show_default=True, metavar="NAME",
              help="The player at every seat: " + POLICY_FORMS + ".")
@click.option("--hands", type=click.IntRange(min=1), default=None, metavar="N",
              help="Hands played with the hand given (default: 20,000 ordinary, 5,000 Rubicon games).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=1, show_default=True, help="Master seed.")
@click.option("--threads", type=click.IntRange(min=1), default=None, help="Worker threads (default: one per core).")
def value(variant, rule_items, policy, hands, seed, threads):
    """A dealt hand's value under strong play: its expected margin and its share of hands won,
    with 95 % intervals, by playing it out with the rest of the deal dealt fairly.

    Example:

    \b
        bezique value --hold "QS JD AH AC"
        bezique value --variant rubicon --hold "QS QS JD JD AS" --hands 2000
    """
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .studies.hand_value import format_value, hand_value

    if active_given() is None:
        raise click.ClickException('give the hand to value: --hold "CARDS" (and --seat, --turn-up)')
    rules = rules_from(variant, rule_items)
    policies_from((policy,) * rules.players, rules)
    watch_compiles()
    click.echo(format_value(hand_value(rules, hands=hands, seed=seed, policy=policy, threads=threads)))


WARM_POLICIES = ("learned", "hints", "greedy", "random")     # the main job's players


@main.command()
@click.option("--policy", "policy_names", multiple=True, metavar="NAME",
              help="A policy whose kernels to compile (repeatable; default: "
                   f"{', '.join(WARM_POLICIES)}, the main job's players): " + POLICY_FORMS + ".")
def warm(policy_names):
    """Compile the kernels that playing hands needs (or load them from numba's cache), in the
    ordinary game and Rubicon, and say how long it took.

    Run it once on each machine of a Dask cluster before its workers start (docs/long-runs.md):
    the workers then load the kernels instead of each compiling them.

    Example:

    \b
        bezique warm
        bezique warm --policy hints --policy expert
    """
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .studies.simulate import simulate as run
    watch_compiles()
    for variant in ("ordinary", "rubicon"):
        rules = rules_from(variant, ())
        for name in policy_names or WARM_POLICIES:
            specs = policies_from((name,) * rules.players, rules)
            start = time.perf_counter()
            run(rules, specs, 2, 1, threads=1)
            click.echo(f"{variant}: {name} ready ({time.perf_counter() - start:.1f} s)")


@main.command()
def policies():
    """List the built-in policies and the settings of `hints` and `expert`.

    Example:

    \b
        bezique policies
    """
    # keeps the CLI's start-up light: the library (pandas, numba) loads when a command runs
    from .policies.registry import describe_policies
    for line in describe_policies():
        click.echo(line)


@main.command("rules")
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
    # keeps the CLI's start-up light: the table loads when the command runs
    from .tables.rule_table import format_rule_table, rule_table
    table = rule_table(rules_from(variant, rule_items))
    _echo_json(table) if as_json else click.echo(format_rule_table(table))


STUDY_HELP = (
    "Run a published study of results/ (docs/studies.md): it plays its games and writes its tables, "
    "charts and its section of results/README.md; the options after NAME are the study's own "
    "(bezique study NAME --help). The same as python -m analyzer.studies.published.NAME.\n\n"
    "NAME is one of:\n\n\b\n" + "\n".join(f"  {n:<12} {what}" for n, what in STUDIES.items())
    + "\n\nExample:\n\n\b\n    bezique study ladder --help\n"
    "    bezique study learned --scale 0.0001 --no-variants --no-readme --out learned-quick\n")


@main.command(help=STUDY_HELP, context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("name", metavar="NAME")
@click.argument("study_args", nargs=-1, type=click.UNPROCESSED, metavar="[STUDY OPTIONS]")
@click.pass_context
def study(ctx, name, study_args):
    """``bezique study NAME``: the published study NAME with its own options (STUDY_HELP)."""
    if name not in STUDIES:
        raise click.ClickException(f"unknown study {name!r}; the studies: {', '.join(STUDIES)}")
    ctx.exit(run_study(name, study_args))


if __name__ == "__main__":
    main()
