"""The command line the study scripts (scripts/*_study.py) share: the deals' seed, a scale on
every number of deals, the games, the threads, the output folder and whether results/README.md
is touched; each script adds its own options to the parser."""
from __future__ import annotations

import argparse

GAMES = ["ordinary", "rubicon"]


def study_parser(doc: str, seed: int, out: str, tables: str | None = None,
                 games_help: str | None = None) -> argparse.ArgumentParser:
    """A parser with the study scripts' common options: ``--seed`` (default ``seed``),
    ``--scale``, ``--games``, ``--threads``, ``--no-readme``, ``--out`` (default ``out``) and,
    where ``tables`` says what it then does, ``--tables``; ``doc`` is the script's docstring."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=seed, help="the deals (neither training nor tuning played them)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every number of deals and hands by this")
    ap.add_argument("--games", nargs="+", default=GAMES, choices=GAMES, help=games_help)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--no-readme", action="store_true", help="do not touch results/README.md")
    if tables:
        ap.add_argument("--tables", action="store_true", help=tables)
    ap.add_argument("--out", default=out)
    return ap
