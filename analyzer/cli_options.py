"""What the ``bezique`` commands share: the rule and run options, the progress bar, and
turning bad input and engine errors into one line and a non-zero exit."""
from __future__ import annotations

import functools
import sys
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


@contextmanager
def progress_bar(total: int, unit: str, desc: str):
    """A progress bar on stderr (shown on a terminal only) for ``total`` ``unit``s; yields the
    callback that advances it by the number just finished."""
    from tqdm import tqdm
    with tqdm(total=total, unit=unit, unit_scale=True, desc=desc, file=sys.stderr, disable=None) as bar:
        yield bar.update
