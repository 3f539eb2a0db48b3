"""Training the learned player: ``train`` (self-play, roll-outs and a fit per step, its
learning curve, --install to make it the package's player)."""
from __future__ import annotations

from pathlib import Path

import click

from ..learning.train import MODEL, TrainConfig
from ..policies.spec import model_for
from ..studies.strength.training import install_model, train_player
from .console import notice, progress_bar
from .options import rule_options, rules_from, run_options


@click.command("train")
@rule_options
@run_options(hands=60, hands_help="Training steps: each plays --hands-per-step hands of self-play, labels "
             "a share of their decisions by roll-outs and fits the network.", out=None,
             out_help="Directory of the run: checkpoint.npz after each step (--resume continues it), "
             "model.npz (the weights so far), curve.csv and curve.png (default: results/train-VARIANT, a "
             "directory of its own).",
             count="steps", default_out=lambda kw: f"results/train-{kw['variant']}", own_checkpoints=True,
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
@click.option("--late-from", "late_from", default=None, metavar="MODEL",
              help="With --round-of or --start: the start model takes MODEL's late network (its own main "
                   "network kept), e.g. to go on from a late network trained over another main network.")
@click.option("--no-teacher-input", is_flag=True,
              help="The network never sees the teacher's choice (no such input, no bonus).")
@click.option("--teacher", default=None, metavar="HINTS",
              help="The hints policy a new network is taught from (default: hints:tuned-GAME-h8), e.g. "
                   "hints:tuned-rubicon; the model keeps it. The learning curve still plays hints:tuned-GAME-h8.")
@click.option("--eval-every", default=5, show_default=True, help="Steps between two learning-curve points.")
@click.option("--eval-deals", default=2000, show_default=True,
              help="Held-out deals per learning-curve point (each played twice, seats swapped; 0: none).")
@click.option("--install", is_flag=True,
              help="At the end, copy model.npz into the package as the `learned` model of this game.")
def train_command(variant, rule_items, steps, seed, threads, out, hands, keep, eps, fit_rows, window, lr,
                  net_rollouts, hint_bonus, round_of, start, opponent, search, late_net, late_from, no_teacher_input,
                  teacher, eval_every, eval_deals, install):
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
        bezique train --variant ordinary --steps 60 --seed 1 --out results/train-ordinary
        bezique train --variant ordinary --steps 30 --round-of results/train/ordinary/model.npz --out results/train-round2
    """
    rules = rules_from(variant, rule_items)
    resume = click.get_current_context().params.get("resume", False)
    if round_of and start:
        raise click.ClickException("--round-of already starts from its model: give --round-of or --start")
    models = {k: str(Path(v).resolve()) if v else None for k, v in
              (("start", round_of or start), ("opponent", opponent), ("late_from", late_from))}
    config = TrainConfig(steps=steps, hands=hands, keep=keep, eps=eps, fit_rows=fit_rows, window=window, lr=lr,
                         net_rollouts=net_rollouts, hint_bonus=hint_bonus, eval_every=eval_every,
                         eval_deals=eval_deals, seed=seed, rollout_start=bool(round_of), search=search,
                         late_net=late_net, teacher_input=not no_teacher_input, teacher=teacher,
                         **models)
    with progress_bar(steps, "step", "train") as advance:
        state, written = train_player(rules, config, out, threads, resume, notice=notice, advance=advance)
    click.echo(f"trained {model_for(rules)}: {state.step} steps, {state.hands_played:,} self-play hands, "
               f"{state.samples:,} samples in {state.seconds:.0f} s; model in {out}/{MODEL}")
    notice(f"\nwrote {len(written)} files to {out}")
    if install:
        notice(f"installed as the learned model of {model_for(rules)}: {install_model(rules, out)}")
