"""The ``bezique`` command line: a module per family of commands, each command parsing its
options, calling the library and printing what it returns (files are the library's to write).

The group loads a family's module only when one of its commands runs (click's lazy group, here
and nowhere else), so that ``bezique --help`` and a mistyped command answer before pandas and
numba load; the table below names each command's module and its line in ``bezique --help``
(tests/test_cli_polish.py holds each line to the command's own docstring). Every error the library
raises for bad input (:class:`analyzer.errors.BeziqueError`) becomes one line and its exit
code here, in :meth:`Bezique.invoke`.
"""
from __future__ import annotations

import importlib
import os
import sys

import click

from ..errors import BeziqueError
from ..stop import STOP
from .console import LATER_COMMANDS, stop_on_sigterm, watch_compiles

# command -> (its module in this package, where it is NAME_command; its line in `bezique --help`;
# whether its module compiles kernels when imported)
COMMANDS = {
    "simulate": ("play", "Play --hands hands (or --games whole games) and print a table per seat and policy.", True),
    "trace": ("play", "Play one hand and print every event: deal, tricks, declarations, draws, scores.", True),
    "replay": ("play", "Play the hand given in FILE (a replay file, see docs/commands.md, \"Replay file format\") "
                       "and print its log.", True),
    "warm": ("play", "Compile the kernels that playing hands needs (or load them from numba's cache), in the "
                     "ordinary game and Rubicon, and say how long it took.", True),
    "compare": ("compare", "Compare policies pair by pair on the same deals, in every seating.", True),
    "ablate": ("compare", "The value of each hint: the full hints policy against itself without it.", True),
    "odds": ("odds", "Exact deal-time probabilities, as fractions and decimals, beside simulated frequencies.", True),
    "value": ("odds", "A dealt hand's value under strong play: its expected margin and its share of hands won, "
                      "with 95 % intervals, by playing it out with the rest of the deal dealt fairly.", True),
    "report": ("report", "Run the study and write every table (CSV, Parquet), chart (PNG, SVG) and report.md.", True),
    "study": ("report", "Run a published study of results/ (docs/studies.md): it plays its games and writes its "
                        "tables, charts and its page (results/NAME/README.md and report.html); the options after NAME "
                        "are the "
                        "study's own (bezique study NAME --help). The same as python -m analyzer.published.NAME.",
              False),
    "analyze": ("position", "Value every legal action of the seat to act in the position of FILE.", True),
    "review": ("position", "Review every decision of one seat in a played hand: what each move lost against the "
                           "best.", True),
    "hints": ("hints", "The rulebook's hints H1-H8 against strong play.", True),
    "tune": ("hints", "Search the hint weights for the strongest cheap player (CMA-ES).", True),
    "train": ("train", "Train the learned player by self-play (one model per game: ordinary, Rubicon).", True),
    "policies": ("reference", "List the built-in policies and the settings of `hints` and `expert`.", False),
    "rules": ("reference", "Print the rule set in force: each option, its value and the rules it implements.", False),
}


def asks_help() -> bool:
    """Whether this command line asks a command for its help (``bezique report --help``)."""
    return any(a in ("-h", "--help") for a in sys.argv[2:])


class LibraryError(click.ClickException):
    """A :class:`BeziqueError` from the library, said in one line with its exit code."""

    def __init__(self, error: BeziqueError):
        super().__init__(str(error))
        self.exit_code = error.exit_code


class Bezique(click.Group):
    """The ``bezique`` group: loads a command's module when the command runs, lists the
    commands from :data:`COMMANDS` without loading any, and turns a library error into one line."""

    def list_commands(self, ctx) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, _line, compiles = COMMANDS[name]
        if compiles and asks_help() and "numba" not in sys.modules:
            # the module's kernels would compile at import (a minute on a cold cache) for a page of
            # help that runs none of them: imported with numba's compiler off
            os.environ["NUMBA_DISABLE_JIT"] = "1"
        elif compiles:                # the module compiles its kernels when imported (a cold cache)
            watch_compiles(later=LATER_COMMANDS.get(name, ()))
        return getattr(importlib.import_module(f"{__name__}.{module}"), f"{name}_command")

    def format_commands(self, ctx, formatter) -> None:
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.Command(name, help=line).get_short_help_str(limit)) for name, (_m, line, _c) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx):
        try:
            result = super().invoke(ctx)
        except BeziqueError as e:
            raise LibraryError(e) from None
        return result


@click.group(cls=Bezique, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bezique-analyzer", prog_name="bezique",
                      message="%(prog)s (bezique-analyzer) %(version)s")
def main():
    """bezique-analyzer: play bézique hands by the million and measure strategies.

    Example:

    \b
        bezique simulate --hands 100000 --policy greedy --policy random --out results/run
    """
    stop_on_sigterm()


def all_commands() -> dict[str, click.Command]:
    """Every command by name, its module loaded (for the tests and tools that read them all)."""
    return {name: main.get_command(None, name) for name in COMMANDS}


def bezique() -> None:
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
