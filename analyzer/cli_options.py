"""What the ``bezique`` commands share: the rule and run options, the progress bar, and
turning bad input and engine errors into one line and a non-zero exit."""
from __future__ import annotations

import functools
import json
import os
import re
import shlex
import signal
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack, contextmanager

import click

from .deal import DealError, active_given, given_hand, parse_given
from .rules import NUMBERS, PRESETS, WORDS, RuleError, RuleSet, preset
from .run.backends import BackendError, dask_backend, default_threads
from .run.checkpoint import (
    CheckpointError,
    Checkpoints,
    active_checkpoints,
    keep_checkpoints,
)
from .run.compiling import CompileWatch, compile_beside, duration_text
from .run.driver import MAX_HANDS, MAX_SEED, SimulationError
from .run.output import FORMATS, OutputError, check_writable, use_formats
from .stop import STOP


class RuleViolationExit(click.ClickException):
    """A replay move that breaks a rule: exit code 2."""

    exit_code = 2


QUIET = {"on": False}       # --quiet: no progress, notices or compile line (errors still print)


def notice(text: str) -> None:
    """A line on stderr about the run (not its result), unless --quiet."""
    if not QUIET["on"]:
        click.echo(text, err=True)


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
    """The RuleSet of ``--variant`` with the ``--rule`` items applied; ClickException if invalid."""
    try:
        return preset(variant, **parse_rule_options(rule_items))
    except RuleError as e:
        raise click.ClickException(str(e)) from None


def policies_from(names, rules: RuleSet) -> list:
    """PolicySpecs for ``--policy`` names, one per seat (none: greedy, random, greedy …
    round the table; one: every seat plays it); ClickException for a wrong count or an
    unknown policy, or a policy that cannot play these rules."""
    # keeps the CLI's start-up light: the policies compile (numba) when a command runs
    from .policies.registry import PolicyError, check_rules, resolve_policy
    names = list(names) or [("greedy", "random")[s % 2] for s in range(rules.players)]
    if len(names) == 1:
        names = names * rules.players
    if len(names) != rules.players:
        raise click.ClickException(f"give one --policy per seat ({rules.players}), got {len(names)}")
    try:
        specs = [resolve_policy(n) for n in names]
        check_rules(specs, rules)
        return specs
    except PolicyError as e:
        raise click.ClickException(str(e)) from None


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
    turn-up) as named, the rest of the pack fairly (analyzer/deal.py); a card that is not one, or
    a hand the rules cannot deal, is one line and exit code 1. Put it above the decorators whose
    options give the variant and rules (rule_options)."""
    @functools.wraps(f)
    def given(*args, **kw):
        hold, seat, turn_up = kw.pop("hold"), kw.pop("seat"), kw.pop("turn_up")
        try:
            hand = parse_given(rules_from(kw["variant"], kw["rule_items"]), hold, seat, turn_up)
        except DealError as e:
            raise click.ClickException(str(e)) from None
        if hand is not None:
            told = hand.describe()
            notice(f"dealt given: seat {hand.seat} holds {told['hold'] or 'no card named'}"
                   + (f", {told['turn_up']} turned up" if told["turn_up"] else "") + "; the rest of the pack fairly")
        with given_hand(hand):
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
    given). Before the command runs, a bad value is one clear error; it then runs on the
    chosen backend, keeping checkpoints in its output directory; while it runs, an engine
    error (an illegal policy action) is one line and exit code 1, never a traceback. A command
    with ``own_checkpoints`` (train) keeps and resumes its state itself."""
    def decorate(command: Callable) -> Callable:
        @functools.wraps(command)
        def checked(*args, **kw):
            workers, scheduler, resume = kw.pop("workers", None), kw.pop("scheduler", None), kw.pop("resume", False)
            QUIET["on"] = kw.pop("quiet", False)
            formats = kw.pop("formats", ())
            _check_run(kw[count], kw["seed"], kw.get("threads"), workers, scheduler, count)
            if "variant" in kw:
                rules_from(kw["variant"], kw["rule_items"])       # a bad rule: one line, before any compiling
            if default_out and not kw.get("out"):
                kw["out"] = default_out(kw)
            if resume and not kw.get("out"):
                raise click.ClickException("--resume needs --out: the directory of the interrupted run")
            if kw.get("out"):
                check_out(kw["out"])
            try:
                with ExitStack() as stack:
                    if formats:
                        stack.enter_context(use_formats(formats))
                    if kw.get("out") and threads and not own_checkpoints:
                        _note_dropped_checkpoint(kw["out"], resume)
                        stack.enter_context(keep_checkpoints(kw["out"], _command_identity(kw), resume))
                    watch_compiles()
                    if workers is not None or scheduler is not None:
                        notice(f"starting Dask {'workers' if workers else 'client'}...")
                        stack.enter_context(dask_backend(workers, scheduler))
                    return command(*args, **kw)
            except (SimulationError, BackendError, CheckpointError, OutputError) as e:   # OutputError: a result
                raise click.ClickException(str(e)) from None                          # that cannot be written

        f = click.option("--format", "formats", multiple=True, type=click.Choice(FORMATS),
                         help="Write tables and charts only in this format (repeatable; default: "
                              "all of csv, parquet, png, svg).")(checked)
        f = click.option("--quiet", "-q", is_flag=True,
                         help="No progress bar or lines, no notices: only the results (and errors).")(f)
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


def _note_dropped_checkpoint(out, resume: bool) -> None:
    if not resume and Checkpoints(out).exists():
        notice(f"note: {out} holds an interrupted run; starting over (--resume would continue it)")


IGNORED_FOR_RESUME = ("threads", "out")     # where and how fast a run goes, not what it computes


def _command_identity(kw: dict) -> dict:
    """What a checkpoint records of the command: its name, the arguments that change the
    result (as JSON would give them back) and the line that resumes it."""
    ctx = click.get_current_context()
    args = json.loads(json.dumps({k: v for k, v in kw.items() if k not in IGNORED_FOR_RESUME}, default=str))
    line = " ".join(shlex.quote(w) for w in ["bezique", ctx.info_name, *_typed_args(ctx)])
    if "--resume" not in line.split():
        line += " --resume"
    return {"name": ctx.info_name, "args": args, "line": line}


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


def check_out(out) -> None:
    """One clear error, before the run, for an output directory that cannot be written."""
    try:
        check_writable(out)
    except OutputError as e:
        raise click.ClickException(str(e)) from None


MAX_THREADS = 1024         # threads or local worker processes: more than any machine has cores


def check_seed(seed: int, name: str = "--seed") -> None:
    """One clear error for a seed outside 0 .. 2^64-1."""
    if not 0 <= seed <= MAX_SEED:
        raise click.ClickException(f"{name} must be from 0 to 2^64-1, got {seed}")


def _check_run(hands: int, seed: int, threads: int | None = None, workers: int | None = None,
               scheduler: str | None = None, count: str = "hands") -> None:
    """One clear error for a bad --hands (``--COUNT``), --seed, --threads, --workers or --scheduler,
    and for each backend choice that cannot go together."""
    if not 0 < hands <= MAX_HANDS:
        raise click.ClickException(f"--{count} must be from 1 to 2^63-1, got {hands}")
    check_seed(seed)
    if threads is not None and not 1 <= threads <= MAX_THREADS:
        raise click.ClickException(f"--threads must be from 1 to {MAX_THREADS}, got {threads}")
    if workers is not None and not 1 <= workers <= MAX_THREADS:
        raise click.ClickException(f"--workers must be from 1 to {MAX_THREADS}, got {workers}")
    if workers is not None and scheduler is not None:
        raise click.ClickException("give --workers (a local cluster) or --scheduler (a running one), not both")
    if threads is not None and workers is not None:
        raise click.ClickException("--threads is for the default backend; the local cluster of --workers has "
                                   "its own worker processes (give one of --threads and --workers)")
    if threads is not None and scheduler is not None:
        raise click.ClickException("--threads is for the default backend; the cluster at --scheduler has its "
                                   "own workers (give one of --threads and --scheduler)")
    if scheduler is not None:
        check_scheduler(scheduler)


SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")     # distributed's protocols that reach another process
SCHEDULER_RE = re.compile(r"^(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
                          r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(?P<port>\d{1,5}))?$")


def check_scheduler(address: str) -> None:
    """One clear error for a --scheduler that is no address (``[SCHEME://]HOST[:PORT]``),
    before Dask is asked: distributed answers such an address with a traceback (a
    ValueError), or waits 10 s on a port past 65535."""
    m = SCHEDULER_RE.match(address)
    if m is None:
        raise click.ClickException(f"--scheduler expects an address such as tcp://10.0.0.5:8786, got {address!r}")
    if m["scheme"] is not None and m["scheme"].lower() not in SCHEDULER_SCHEMES:
        raise click.ClickException(f"--scheduler: unknown protocol {m['scheme']!r} in {address!r} "
                                   f"(one of {', '.join(SCHEDULER_SCHEMES)})")
    if m["port"] is not None and not 1 <= int(m["port"]) <= 65535:
        raise click.ClickException(f"--scheduler: the port must be from 1 to 65535, got {m['port']} in {address!r}")


PROGRESS_EVERY = 30.0      # seconds between two progress lines when stderr is not a terminal
                           # (the environment's BEZIQUE_PROGRESS_EVERY, if a number, instead)


def _progress_every() -> float:
    try:
        return max(float(os.environ["BEZIQUE_PROGRESS_EVERY"]), 0.0)
    except (KeyError, ValueError):
        return PROGRESS_EVERY


@contextmanager
def progress_bar(total: int, unit: str, desc: str):
    """Progress on stderr for ``total`` ``unit``s: a bar on a terminal, otherwise a line every
    PROGRESS_EVERY seconds (done, rate, time left); yields the callback that advances it by the
    number just finished. Interrupted (Ctrl-C, SIGTERM), it says how far the run got and exits
    with code 130."""
    last = base_t = time.monotonic()
    base_done = 0          # the rate counts from here: after the last compile, never across it
    every = _progress_every()
    done = 0
    bar = None
    quiet = QUIET["on"]
    if quiet:
        pass
    elif sys.stderr.isatty():
        from tqdm import tqdm   # keeps the CLI's start-up light: loads with the first bar
        bar = tqdm(total=total, unit=unit, unit_scale=True, desc=desc, file=sys.stderr)
    else:
        click.echo(f"{desc}: {total:,} {unit}s to play; progress every {every:g} s", err=True)

    def update(n: int) -> None:
        nonlocal done, last, base_t, base_done
        done += n
        now = time.monotonic()
        watch = WATCH[0] if WATCH else None
        compiled = watch is not None and (watch.busy or watch.quiet_since > base_t)
        if compiled:                  # numba compiled since the rate's start: measure from now
            base_t, base_done = now, done
        if bar is not None:
            if compiled:
                bar.unpause()         # tqdm's rate, too, leaves the compile out
            bar.update(n)
            return
        if quiet or compiled:
            return
        if now - last >= every and done < total:
            last = now
            rate = (done - base_done) / max(now - base_t, 1e-9)
            left = (total - done) / rate if rate > 0 else float("inf")
            speed = (f"{rate:,.0f} {unit}s/s, about {duration_text(left)} left" if done > base_done
                     else "measuring the rate")
            click.echo(f"{desc}: {done:,} of {total:,} {unit}s ({done / total:.0%}), {speed}", err=True)
    try:
        yield update
    except KeyboardInterrupt:                 # Ctrl-C, or SIGTERM (see stop_on_sigterm)
        if bar is not None:
            bar.close()
        click.echo(f"\n{desc}: stopped after {done:,} of {total:,} {unit}s; {_kept()}", err=True)
        raise click.exceptions.Exit(130) from None
    finally:
        if bar is not None:
            bar.close()


def _kept() -> str:
    """What an interrupted run leaves: its checkpoint and the command that resumes it."""
    store = active_checkpoints()
    if store is None:
        return "nothing was written (with --out, finished chunks are kept and --resume continues)"
    return f"the finished chunks are kept in {store.dir}; resume with:\n  {store.resume_line}"


def stop_on_sigterm() -> None:
    """Make SIGTERM stop a run as Ctrl-C does (the workers finish the chunk in hand, at most
    a second or so, and the command says how far it got); either one sets stop.STOP, which
    every wait for a chunk checks."""


    def interrupt(signum, frame):
        STOP.set()
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, interrupt)
        signal.signal(signal.SIGINT, interrupt)
    except ValueError:             # not the main thread: leave the default
        pass


# the main job's first compile (bezique report), measured on 2 cores (2026-12-04): 51 s and 60 s in this
# process, the policies compiling beside it in a second one; the whole job 72.5 s and 79.4 s
COLD_COMPILE = "the main job compiles in about a minute on 2 cores"
WATCH: list = []                           # this process's CompileWatch, once started
BATCH_MODULE = "analyzer.engine.batch"     # the batch kernel: every command of run_options compiles it
# The policy modules whose kernels compile when imported and which do not import the batch kernel
# (policies/user.py does, through engine/api.py): compiled beside it on a cold start. Not imported
# from policies/: importing that package compiles them here (tests/test_compiling.py checks both).
POLICY_KERNEL_MODULES = ("analyzer.policies.builtin", "analyzer.policies.hints", "analyzer.policies.learned")


def watch_compiles() -> None:
    """Before a command runs the engine: when its kernels are not cached yet, one line saying
    that they compile now and about how long it takes, and the batch kernel compiled here while
    a second process compiles the policies (run/compiling.compile_beside); and, once per process,
    the watch (run/compiling.py) that says every PROGRESS_EVERY seconds while numba compiles how
    long it has taken and what it is on, and lets the progress bar leave that time out of its
    rate."""
    from .engine import kernels_cached   # keeps the CLI's start-up light: the engine package loads numba
    cold = not kernels_cached()
    if cold:
        notice("compiling the simulator's numba kernels (first run after installing or changing the "
               f"engine; cached afterwards): {COLD_COMPILE}; a line every {min(_progress_every(), PROGRESS_EVERY):g} s "
               "says how far it is")
    if not WATCH:
        WATCH.append(CompileWatch(notice, every=min(_progress_every(), PROGRESS_EVERY)).start())
    if cold:
        compile_beside([BATCH_MODULE], POLICY_KERNEL_MODULES)
