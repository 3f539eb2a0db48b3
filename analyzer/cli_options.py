"""What the ``bezique`` commands share: the rule and run options, the progress bar, and
turning bad input and engine errors into one line and a non-zero exit."""
from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager

import click

from .driver import default_threads
from .rules import PRESETS, RuleError, RuleSet, preset


class RuleViolationExit(click.ClickException):
    """A replay move that breaks a rule: exit code 2."""

    exit_code = 2


def parse_rule_options(items) -> dict:
    """``["hand_size=9", "declare_all=true"]`` -> ``{"hand_size": 9, "declare_all": True}``
    (numbers and true/false/yes/no/on/off converted); ClickException for an item without '='."""
    out = {}
    for item in items:
        if "=" not in item:
            raise click.ClickException(f"--rule expects KEY=VALUE (e.g. hand_size=9), got {item!r}")
        key, value = (x.strip() for x in item.split("=", 1))
        low = value.lower()
        if low in ("true", "yes", "on"):
            out[key] = True
        elif low in ("false", "no", "off"):
            out[key] = False
        else:
            try:
                out[key] = int(value)
            except ValueError:
                out[key] = value
    return out


def rules_from(variant: str, rule_items) -> RuleSet:
    """The RuleSet of ``--variant`` with the ``--rule`` items applied; ClickException if invalid."""
    try:
        return preset(variant, **parse_rule_options(rule_items))
    except RuleError as e:
        raise click.ClickException(str(e)) from None


def policies_from(names, rules: RuleSet) -> list:
    """PolicySpecs for ``--policy`` names, one per seat (none: greedy, random; one: every seat
    plays it); ClickException for a wrong count or an unknown policy."""
    from .policies.registry import PolicyError, resolve_policy
    names = list(names) or ["greedy", "random"]
    if len(names) == 1:
        names = names * rules.players
    if len(names) != rules.players:
        raise click.ClickException(f"give one --policy per seat ({rules.players}), got {len(names)}")
    try:
        return [resolve_policy(n) for n in names]
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


def run_options(hands: int, hands_help: str, out: str | None, out_help: str, threads: bool = True,
                seed_help: str = "Master seed: the same seed plays the same deals."):
    """--hands, --seed, --threads (unless ``threads`` is False) and --out for a command that
    runs the simulator, with these defaults and help texts. Before the command runs, a bad
    value is one clear error; while it runs, an engine error (an illegal policy action) is
    one line and exit code 1, never a traceback."""
    def decorate(command: Callable) -> Callable:
        @functools.wraps(command)
        def checked(*args, **kw):
            _check_run(kw["hands"], kw["seed"], kw.get("threads"))
            if kw.get("out"):
                check_out(kw["out"])
            compile_notice()
            from .simulate import SimulationError
            try:
                return command(*args, **kw)
            except SimulationError as e:
                raise click.ClickException(str(e)) from None

        f = click.option("--out", type=click.Path(file_okay=False), default=out,
                         show_default=out is not None, help=out_help)(checked)
        if threads:
            f = click.option("--threads", default=None, type=int,
                             help=f"Worker threads (default: one per core, {default_threads()} here; "
                                  "the results are the same for any number).")(f)
        f = click.option("--seed", default=1, show_default=True, help=seed_help)(f)
        return click.option("--hands", default=hands, show_default=True, help=hands_help)(f)
    return decorate


def check_out(out) -> None:
    """One clear error, before the run, for an output directory that cannot be written."""
    from .output import OutputError, check_writable
    try:
        check_writable(out)
    except OutputError as e:
        raise click.ClickException(str(e)) from None


def _check_run(hands: int, seed: int, threads: int | None = None) -> None:
    """One clear error for a bad --hands, --seed or --threads."""
    if hands <= 0:
        raise click.ClickException(f"--hands must be positive, got {hands}")
    if seed < 0:
        raise click.ClickException(f"--seed must be >= 0, got {seed}")
    if threads is not None and threads < 1:
        raise click.ClickException(f"--threads must be >= 1, got {threads}")


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
    start = last = time.monotonic()
    every = _progress_every()
    done = 0
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=total, unit=unit, unit_scale=True, desc=desc, file=sys.stderr)

    def update(n: int) -> None:
        nonlocal done, last
        done += n
        if bar is not None:
            bar.update(n)
            return
        now = time.monotonic()
        if now - last >= every and done < total:
            last = now
            rate = done / max(now - start, 1e-9)
            left = (total - done) / rate if rate > 0 else float("inf")
            click.echo(f"{desc}: {done:,} of {total:,} {unit}s ({done / total:.0%}), {rate:,.0f} {unit}s/s, "
                       f"about {_duration(left)} left", err=True)
    try:
        yield update
    except KeyboardInterrupt:                 # Ctrl-C, or SIGTERM (see stop_on_sigterm)
        if bar is not None:
            bar.close()
        click.echo(f"\n{desc}: stopped after {done:,} of {total:,} {unit}s; nothing was written", err=True)
        raise click.exceptions.Exit(130) from None
    finally:
        if bar is not None:
            bar.close()


def stop_on_sigterm() -> None:
    """Make SIGTERM stop a run as Ctrl-C does (the workers finish the chunk in hand, at most
    a second or so, and the command says how far it got)."""
    import signal

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, interrupt)
    except ValueError:             # not the main thread: leave the default
        pass


def _duration(seconds: float) -> str:
    """``seconds`` as "2 h 5 min", "3 min 20 s" or "40 s"."""
    if seconds == float("inf"):
        return "an unknown time"
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 60} min {s % 60} s" if s >= 60 else f"{s} s"


def compile_notice() -> None:
    """Before the first run after installing or changing the engine, one line saying that the
    kernels compile now and roughly how long it takes (else the wait is silent)."""
    from .engine import kernels_cached
    if not kernels_cached():
        click.echo("compiling the simulator's numba kernels (first run after installing or changing the "
                   "engine): about 1-3 minutes on 2 cores, cached afterwards", err=True)
