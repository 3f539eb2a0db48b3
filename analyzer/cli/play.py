"""Playing hands: ``simulate`` (hands, or whole games to a target), ``trace`` (one hand, every
event), ``replay`` (a replay file played back) and ``warm`` (the kernels compiled ahead)."""
from __future__ import annotations

import json

import click

from ..hands.hand_json import outcome_json
from ..hands.log_text import format_log
from ..hands.play import replay_hand, trace_hand
from ..hands.replay_file import RuleViolation
from ..run.checks import check_count, check_hand_number, check_seed
from ..studies.play.simulate import WARM_POLICIES, simulate, warm, write_simulation
from ..tables.game_tables import format_games_run
from ..tables.stats import format_run
from .console import notice, progress_bar
from .options import (
    JSON_OPTION,
    POLICY_FORMS,
    deal_options,
    echo_json,
    policies_from,
    records,
    rule_options,
    rules_from,
    run_options,
)


@click.command("simulate")
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
def simulate_command(variant, rule_items, policy_names, hands, seed, threads, out, games, target, as_json):
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
        # the games kernel compiles when imported: only for a games run (not for trace)
        from ..studies.play.games import MAX_GAMES, simulate_games, write_games
        check_count(games, "--games", MAX_GAMES, "2^53")
        with progress_bar(games, "game", "simulate") as progress:
            result = simulate_games(rules, specs, games, seed, threads=threads, progress=progress)
        _show(result, format_games_run(result), as_json, games=games)
        if out:
            written = write_games(result, out, threads)
            notice(f"\nwrote {len(written)} files to {out}")
    else:
        with progress_bar(hands, "hand", "simulate") as progress:
            result = simulate(rules, specs, hands, seed, threads=threads, progress=progress)
        _show(result, format_run(result), as_json, hands=hands)
        if out:
            written = write_simulation(result, out, threads)
            notice(f"\nwrote {len(written)} files to {out}")


def _show(result, text: str, as_json: bool, **size) -> None:
    """Print a run's ``text``, or with ``as_json`` its rules, policies, size (``hands=`` or
    ``games=``), seed and tables as JSON."""
    if as_json:
        echo_json({"rules": result.rules.describe(), "policies": result.policies, **size, "seed": result.seed,
                   "tables": {name: records(df) for name, df in result.tables.items()}})
    else:
        click.echo(text)


def _game_totals(text: str) -> list[int]:
    """``--game-totals 990,400``: whole numbers, one per seat (checked by the library)."""
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise click.ClickException(f"--game-totals takes whole numbers, one per seat (e.g. 990,0), got {text!r}") \
            from None


@click.command("trace")
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
@click.option("--explain", is_flag=True,
              help="At each decision, the learned player's three best actions with their values (points "
                   "of the hand's margin; Rubicon: game points of the game's score), the one played marked.")
@click.option("--explain-seat", "explain_seats", type=int, multiple=True, metavar="S",
              help="Explain only seat S's decisions (repeatable; default: every seat). Implies --explain.")
def trace_command(variant, rule_items, policy_names, seed, hand_index, json_path, symbols, game_totals,
                  explain, explain_seats):
    """Play one hand and print every event: deal, tricks, declarations, draws, scores.

    Each seat is named by its policy and each combination in words. With --explain, each
    decision shows the learned player's three best actions and their values, and marks the
    one the seat's policy played (ordinary and Rubicon bezique: the games it has a model for).

    Example:

    \b
        bezique trace --seed 3 --policy greedy --policy random --json hand3.json
        bezique trace --seed 3 --policy greedy --policy random --explain --explain-seat 1
    """
    check_seed(seed, "--seed")
    check_hand_number(hand_index, "--hand")
    rules = rules_from(variant, rule_items)
    totals = _game_totals(game_totals) if game_totals is not None else None
    outcome = trace_hand(rules, policies_from(policy_names, rules), seed, hand_index, totals, json_path,
                         explain=explain or bool(explain_seats), explain_seats=explain_seats or None)
    click.echo(format_log(outcome, symbols))
    if outcome.error:
        raise click.ClickException(outcome.error)
    if json_path:
        click.echo(f"wrote {json_path}")


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the event log and scores as JSON.")
@click.option("--symbols", is_flag=True, help="Show suits as ♠♥♦♣.")
def replay_command(file, as_json, symbols):
    """Play the hand given in FILE (a replay file, see docs/commands.md, "Replay file format") and print its log.

    A move that breaks a rule stops the replay with exit code 2 and names the
    move and the rule; a malformed file exits with code 1.

    Example:

    \b
        bezique replay tests/replays/example_hand.json
    """
    outcome = replay_hand(file)
    if as_json:
        click.echo(json.dumps(outcome_json(outcome), indent=1, ensure_ascii=False))
    else:
        click.echo(format_log(outcome, symbols))
    if outcome.error:
        raise RuleViolation(outcome.error)


@click.command("warm")
@click.option("--policy", "policy_names", multiple=True, metavar="NAME",
              help="A policy whose kernels to compile (repeatable; default: "
                   f"{', '.join(WARM_POLICIES)}, the main job's players): " + POLICY_FORMS + ".")
def warm_command(policy_names):
    """Compile the kernels that playing hands needs (or load them from numba's cache), in the
    ordinary game and Rubicon, and say how long it took.

    Run it once on each machine of a Dask cluster before its workers start (docs/long-runs.md):
    the workers then load the kernels instead of each compiling them.

    Example:

    \b
        bezique warm
        bezique warm --policy hints --policy expert
    """
    for variant, name, seconds in warm(policy_names or WARM_POLICIES):
        click.echo(f"{variant}: {name} ready ({seconds:.1f} s)")
