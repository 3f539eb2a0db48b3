"""What the ``bezique`` commands share: the rule, deal and run options (each bad value refused by
the library's own checks before anything runs), the policies by seat, the line that runs a
command again, and JSON for --json. Imported by the families of commands, not at start-up: it
loads the library."""
from __future__ import annotations

import functools
import json
import shlex
import sys
from collections.abc import Callable
from contextlib import ExitStack

import click

from ..given_deal import active_given, given_deal, parse_given
from ..rules import NUMBERS, PRESETS, WORDS, RuleSet, preset
from ..run.backends import dask_backend, default_threads
from ..run.checkpoint import Checkpoints, keep_checkpoints
from ..run.checks import check_backend, check_count, check_seed
from ..run.output import FORMATS, check_writable, claim_output, use_formats
from ..run.task import check_policies
from .console import QUIET, notice

POLICY_FORMS = ("a built-in name (see `bezique policies`), hints:/expert: settings such as hints:no=H4, "
                "or path/to/file.py:function for your own")
JSON_OPTION = click.option("--json", "as_json", is_flag=True,
                           help="Print the results as JSON (stdout) instead of text.")
QUIET_OPTION = click.option("--quiet", "-q", is_flag=True,
                            help="No progress bar or lines, no notices: only the results (and errors).")
FORCE_OPTION = click.option("--force", is_flag=True,
                            help="Write into --out even where it holds files of another command (or other "
                                 "settings) or of no command: files of the same names are replaced, nothing "
                                 "else there is removed.")


def records(df) -> list[dict]:
    """A table as JSON records (its index a column when it names something); NaN is null."""
    if df.index.name is not None or not df.index.equals(type(df.index)(range(len(df)))):
        df = df.reset_index()
    return json.loads(df.to_json(orient="records"))


def echo_json(payload: dict) -> None:
    """Print ``payload`` as JSON (--json)."""
    click.echo(json.dumps(payload, indent=1, ensure_ascii=False))


def parse_rule_options(items) -> dict:
    """``["hand_size=9", "declare_all=true"]`` -> ``{"hand_size": 9, "declare_all": True}``: a
    whole-number option's value as an int, a switch's true/false/yes/no/on/off as a bool, a
    word option's value as given (so ``carte_blanche=off`` stays the word); a value that does
    not convert stays a string, for :func:`analyzer.rules.check_value` to refuse by name.
    ClickException for an item without '='."""
    out = {}
    for item in items:
        if "=" not in item:
            raise click.ClickException(f"--rule expects KEY=VALUE (e.g. hand_size=9), got {item!r}")
        key, value = (x.strip() for x in item.split("=", 1))
        low = value.lower()
        if key in WORDS:
            out[key] = value
        elif key in NUMBERS:
            try:
                out[key] = int(value)
            except ValueError:
                out[key] = value
        elif low in ("true", "yes", "on", "false", "no", "off"):
            out[key] = low in ("true", "yes", "on")
        else:
            out[key] = value
    return out


def rules_from(variant: str, rule_items) -> RuleSet:
    """The RuleSet of ``--variant`` with the ``--rule`` items applied (RuleError if invalid)."""
    return preset(variant, **parse_rule_options(rule_items))


def policies_from(names, rules: RuleSet) -> list:
    """PolicySpecs for ``--policy`` names, one per seat (none: greedy, random, greedy …
    round the table; one: every seat plays it), checked by the library (PolicyError for a
    wrong count, an unknown policy, or a policy that cannot play these rules)."""
    names = list(names) or [("greedy", "random")[s % 2] for s in range(rules.players)]
    return list(check_policies(rules, names * rules.players if len(names) == 1 else names))


def rule_options(f):
    """--variant and --rule, shared by the commands that play hands."""
    f = click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE",
                     help="Change a rule option, e.g. --rule hand_size=9 --rule packs=3 "
                          "--rule declare_all=true --rule meld_reuse=american.")(f)
    f = click.option("--variant", default="ordinary", show_default=True,
                     help=f"Rule preset: {', '.join(sorted(PRESETS))}.")(f)
    return f


def deal_options(f):
    """--hold, --seat and --turn-up: deal every hand of the command with one seat's cards (and the
    turn-up) as named, the rest of the pack fairly (analyzer/given_deal.py); a card that is not one, or
    a hand the rules cannot deal, is one line and exit code 1. Put it above the decorators whose
    options give the variant and rules (rule_options)."""
    @functools.wraps(f)
    def given(*args, **kw):
        hold, seat, turn_up = kw.pop("hold"), kw.pop("seat"), kw.pop("turn_up")
        QUIET["on"] = kw.get("quiet", False)          # its notice too is silenced by --quiet
        hand = parse_given(rules_from(kw["variant"], kw["rule_items"]), hold, seat, turn_up)
        if hand is not None:
            told = hand.describe()
            notice(f"dealt given: seat {hand.seat} holds {told['hold'] or 'no card named'}"
                   + (f", {told['turn_up']} turned up" if told["turn_up"] else "") + "; the rest of the pack fairly")
        with given_deal(hand):
            return f(*args, **kw)
    given = click.option("--turn-up", "turn_up", default=None, metavar="CARD",
                         help="The turned-up card, as named (ordinary games; e.g. --turn-up 7S).")(given)
    given = click.option("--seat", type=int, default=0, show_default=True, metavar="N",
                         help="The seat whose cards --hold names.")(given)
    return click.option("--hold", default=None, metavar="CARDS",
                        help='Cards seat --seat is dealt, as named, e.g. --hold "QS JD AH AC" (the rest of '
                             "its hand, the other hands and the talon dealt fairly).")(given)


def given_options() -> tuple:
    """The (flag, value) pairs of the hand the command is given (:func:`deal_options`), for
    :func:`command_text`: none when it deals fairly."""
    given = active_given()
    if given is None:
        return ()
    told = given.describe()
    return (("--hold", shlex.quote(told["hold"]) if told["hold"] else None),
            ("--seat", given.seat or None), ("--turn-up", told["turn_up"]))


def run_options(hands: int, hands_help: str, out: str | None, out_help: str, threads: bool = True,
                seed_help: str = "Master seed: the same seed plays the same deals.",
                default_out: Callable[[dict], str] | None = None, count: str = "hands",
                own_checkpoints: bool = False):
    """--hands (or ``--COUNT``), --seed, --out and, unless ``threads`` is False, the backend (--threads,
    --workers, --scheduler) and --resume, for a command that runs the simulator, with these
    defaults and help texts (``default_out(kwargs)``: the output directory when --out is not
    given). Before the command runs, a bad value is one clear error, and so is an output
    directory holding what another command wrote (--force writes anyway: :func:`writing_into`);
    it then runs on the chosen backend, keeping checkpoints in its output directory; while it
    runs, an engine error (an illegal policy action) is one line and exit code 1, never a
    traceback. A command with ``own_checkpoints`` (train) keeps and resumes its state itself."""
    def decorate(command: Callable) -> Callable:
        @functools.wraps(command)
        def checked(*args, **kw):
            workers, scheduler, resume = kw.pop("workers", None), kw.pop("scheduler", None), kw.pop("resume", False)
            QUIET["on"] = kw.pop("quiet", False)
            formats, force = kw.pop("formats", ()), kw.pop("force", False)
            check_count(kw[count], f"--{count}")
            check_seed(kw["seed"], "--seed")
            check_backend(kw.get("threads"), workers, scheduler)
            if "variant" in kw:
                rules_from(kw["variant"], kw["rule_items"])       # a bad rule: one line, before any compiling
            if default_out and not kw.get("out"):
                kw["out"] = default_out(kw)
            if resume and not kw.get("out"):
                raise click.ClickException("--resume needs --out: the directory of the interrupted run")
            with ExitStack() as stack:
                identity = stack.enter_context(writing_into(kw, force, resume)) if kw.get("out") else None
                if formats:
                    stack.enter_context(use_formats(formats))
                if kw.get("out") and threads and not own_checkpoints:
                    _note_dropped_checkpoint(kw["out"], resume)
                    stack.enter_context(keep_checkpoints(kw["out"], _resumable(identity), resume))
                if workers is not None or scheduler is not None:
                    notice(f"starting Dask {'workers' if workers else 'client'}...")
                    stack.enter_context(dask_backend(workers, scheduler))
                return command(*args, **kw)

        f = click.option("--format", "formats", multiple=True, type=click.Choice(FORMATS),
                         help="Write tables and charts only in this format (repeatable; default: "
                              "all of csv, parquet, png, svg).")(checked)
        f = QUIET_OPTION(f)
        f = FORCE_OPTION(f)
        f = click.option("--out", type=click.Path(file_okay=False), default=out,
                         show_default=out is not None, help=out_help)(f)
        if threads:
            f = click.option("--resume", is_flag=True,
                             help="Continue the interrupted run kept in --out (same arguments): only the "
                                  "chunks not finished are played; the result is the same as an "
                                  "uninterrupted run's.")(f)
            f = click.option("--scheduler", default=None, metavar="ADDRESS",
                             help="Run on the Dask cluster whose scheduler is at ADDRESS "
                                  "(e.g. tcp://10.0.0.5:8786); see docs/long-runs.md.")(f)
            f = click.option("--workers", default=None, type=int, metavar="N",
                             help="Run on a local Dask cluster of N worker processes (default: threads of "
                                  "this process); the results are the same.")(f)
            f = click.option("--threads", default=None, type=int,
                             help=f"Worker threads (default: one per core, {default_threads()} here; "
                                  "the results are the same for any number).")(f)
        f = click.option("--seed", default=1, show_default=True, help=seed_help)(f)
        return click.option(f"--{count}", default=hands, show_default=True, help=hands_help)(f)
    return decorate


def out_options(out_help: str):
    """--out DIR, --force and --quiet for a command that writes into a directory but takes its run's
    options itself (``value``): the directory checked and claimed for the command before it runs
    (:func:`writing_into`), as :func:`run_options` does. Put it below :func:`deal_options`."""
    def decorate(command: Callable) -> Callable:
        @functools.wraps(command)
        def guarded(*args, **kw):
            force = kw.pop("force", False)
            QUIET["on"] = kw.pop("quiet", False)
            if not kw.get("out"):
                return command(*args, **kw)
            with writing_into(kw, force):
                return command(*args, **kw)
        f = QUIET_OPTION(guarded)
        f = FORCE_OPTION(f)
        return click.option("--out", type=click.Path(file_okay=False), default=None, metavar="DIR", help=out_help)(f)
    return decorate


def writing_into(kw: dict, force: bool = False, resume: bool = False):
    """The block in which the command of ``kw`` (its arguments) writes into ``kw["out"]``: the
    directory checked writable, then refused where it holds what another command or no command
    wrote, unless ``force`` (or ``resume``: the interrupted run's own checks apply), and its
    manifest made to name this command (:func:`analyzer.run.output.claim_output`); returns
    (yields) the command's identity (:func:`_command_identity`)."""
    check_writable(kw["out"])
    return claim_output(kw["out"], _command_identity(kw), force, resume)


def _note_dropped_checkpoint(out, resume: bool) -> None:
    if not resume and Checkpoints(out).exists():
        notice(f"note: {out} holds an interrupted run; starting over (--resume would continue it)")


IGNORED_FOR_RESUME = ("threads", "out", "as_json")     # where, how fast and how said, not what it computes


def _command_identity(kw: dict) -> dict:
    """What a checkpoint and an output directory's manifest record of the command: its name,
    the arguments that change the result (as JSON would give them back; the hand it is given,
    :func:`deal_options`, among them) and the line that runs it."""
    ctx = click.get_current_context()
    given = active_given()
    args = {k: v for k, v in kw.items() if k not in IGNORED_FOR_RESUME}
    args = json.loads(json.dumps(args | ({"given": given.describe()} if given else {}), default=str))
    line = " ".join(shlex.quote(w) for w in ["bezique", ctx.info_name, *_typed_args(ctx)])
    return {"name": ctx.info_name, "args": args, "line": line}


def _resumable(identity: dict) -> dict:
    """The command's identity as a checkpoint keeps it: its line the one that resumes it."""
    line = identity["line"]
    return identity | {"line": line if "--resume" in line.split() else f"{line} --resume"}


def command_text(name: str, *options: tuple[str, object]) -> str:
    """The line that runs ``bezique NAME`` again, as a report or a tuned preset records it: the
    ``(flag, value)`` options in their order, those whose value is None left out (a value of
    True: the flag alone)."""
    return " ".join(["bezique", name, *(flag if value is True else f"{flag} {value}"
                                        for flag, value in options if value is not None)])


def _typed_args(ctx) -> list[str]:
    """The command's arguments as typed (from the command line when it is ours; else rebuilt
    from the options that differ from their defaults, as when called from Python)."""
    if sys.argv[1:2] == [ctx.info_name]:
        return sys.argv[2:]
    words = []
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        if not isinstance(param, click.Option) or value in (None, False, (), param.default):
            continue
        flag = param.opts[-1]
        if param.is_flag:
            words.append(flag)
        else:
            for v in value if param.multiple else [value]:
                words += [flag, str(v)]
    return words
