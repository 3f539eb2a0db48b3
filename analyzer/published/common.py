"""What the published studies share: their command line (the deals' seed, a scale on every
number of deals, the games, the threads, the output folder and whether the study writes its
page), the command that reproduces a study, an interval as text, a Markdown table and the
section of its page (results/NAME/README.md, and report.html beside it) each study keeps between
its markers."""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from ..policies.spec import resolve_policy
from ..run.output import atomic_write, update_marked_section
from ..studies.play.compare import compare_pair
from ..tables.markdown import shown_table
from ..tables.page import write_page
from ..tables.stats import interval_text
from . import StudyError

ROOT = Path(__file__).resolve().parents[2]        # the repository: its results/ are the studies'
RESULTS = ROOT / "results"
GAMES = ["ordinary", "rubicon"]


def command(name: str, *args: str) -> str:
    """The command line that runs the study ``name`` with ``args``, as a study writes it down."""
    return " ".join(("bezique", "study", name, *args))


def parser(name: str, doc: str, seed: int | None = None, threads: bool = False) -> argparse.ArgumentParser:
    """A parser for the study ``name``, described by ``doc`` (its module's docstring), with
    ``--seed`` where ``seed`` is its default and ``--threads`` where ``threads`` says so."""
    ap = argparse.ArgumentParser(prog=command(name), description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    if seed is not None:
        ap.add_argument("--seed", type=int, default=seed, help="the deals (neither training nor tuning played them)")
    if threads:
        ap.add_argument("--threads", type=int, default=None)
    return ap


def study_parser(name: str, doc: str, seed: int, out: str, tables: str | None = None,
                 games_help: str | None = None) -> argparse.ArgumentParser:
    """A parser with the common options: ``--seed`` (default ``seed``), ``--scale``,
    ``--games``, ``--threads``, ``--no-readme``, ``--out`` (default ``out``) and, where
    ``tables`` says what it then does, ``--tables``; each study adds its own."""
    ap = parser(name, doc, seed, threads=True)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every number of deals and hands by this")
    ap.add_argument("--games", nargs="+", default=GAMES, choices=GAMES, help=games_help)
    ap.add_argument("--no-readme", action="store_true",
                    help="write no page (the study's section of --out's README.md, and report.html)")
    if tables:
        ap.add_argument("--tables", action="store_true", help=tables)
    ap.add_argument("--out", default=out)
    return ap


def scaler(scale: float):
    """A number of deals or hands -> that number times ``scale`` (``--scale``), at least 2."""
    return lambda n: max(2, int(n * scale))


def scaled_command(name: str, scale: float) -> str:
    """The command of a study run at ``scale`` (written only when it is not 1)."""
    return command(name, *(("--scale", str(scale)) if scale != 1 else ()))


def ci(row, key: str = "mean_diff", fmt: str = "{:+.1f}", scale: float = 1.0) -> str:
    """``row[key]`` with its 95 % interval as text (tables.stats.interval_text): "+12.3 [+10.1, +14.5]"."""
    return interval_text(row, key, fmt, scale)


def table(rows, columns) -> list[str]:
    """The lines of a Markdown table of ``rows`` (a DataFrame or a list of rows); ``columns`` is
    a list of (header, row -> text) (tables/markdown.shown_table)."""
    return shown_table(rows, columns).splitlines()


def publish(args, mark: str, text: str, heading: str, title: str | None = None) -> int:
    """Print a study's markdown ``text`` and, unless ``--no-readme``, keep it on its page
    (:func:`write_section`: ``--out``'s README.md and report.html, its section ``heading``, a new
    page's title ``title``); 0, the study's exit status."""
    if not args.no_readme:
        write_section(args.out, mark, text, heading, title)
    print(text)
    return 0


def read_tables(out, *names: str) -> list[pd.DataFrame]:
    """The tables ``names`` a study wrote into ``out`` (their CSV files)."""
    missing = [name for name in names if not (Path(out) / f"{name}.csv").is_file()]
    if missing:
        raise StudyError(f"{out}: no {', '.join(f'{n}.csv' for n in missing)} to read (run the study without "
                         "--tables first)")
    return [pd.read_csv(Path(out) / f"{name}.csv", index_col=0) for name in names]


def write_section(out, mark: str, text: str, heading: str, title: str | None = None) -> Path:
    """Put a study's ``text`` between its markers ``mark`` of its page, ``out``/README.md (made
    with the heading ``title`` where there is none yet; a new section ``heading`` where the
    markers are absent), so that what else the page says stays; then write the page as
    report.html beside it. Returns the page's path."""
    page = Path(out) / "README.md"
    if not page.exists():
        page.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(page, lambda p: Path(p).write_text(f"# {title or heading}\n", encoding="utf-8"))
    update_marked_section(page, mark, text, heading)
    write_page(page)
    return page


def unit(game: str) -> str:
    """The unit of a game's margins, as compare counts them."""
    return "net game points per game" if game == "rubicon" else "points per hand"


def timed_pair(rules, a: str, b: str, deals: int, seed: int, threads, bar) -> dict:
    """compare_pair's row for the policy ``a`` against ``b`` on ``deals`` deals of ``seed``,
    seats swapped (``bar`` counts the hands), with the seconds it took (``seconds``)."""
    t0 = time.perf_counter()
    row = compare_pair(rules, resolve_policy(a), resolve_policy(b), deals, seed, threads,
                       progress=lambda d: bar.update(2 * d)).row()
    return {**row, "seconds": time.perf_counter() - t0}


def run_bezique(args: list[str]) -> None:
    """Run the ``bezique`` command line with ``args`` in the repository, said on stderr first;
    a failure raises. A published study writes into its own committed folder, so the command
    gets ``--force`` (the only writer of results/ that may: docs/commands.md, ``--out``)."""
    args = [*args, "--force"]
    print("$ bezique " + " ".join(args), file=sys.stderr, flush=True)
    subprocess.run([str(Path(sys.executable).parent / "bezique"), *args], check=True, cwd=ROOT)


def with_other_games(df: pd.DataFrame, path: Path, games) -> pd.DataFrame:
    """``df`` with the rows of the table at ``path`` (an earlier run's CSV, where there is one)
    whose game is not in ``games``: a study run for one game keeps the other's rows. The games
    stay in the order of :data:`GAMES` (the ordinary game first), whichever was run last."""
    if not Path(path).is_file():
        return df
    kept = pd.read_csv(path, index_col=0)
    both = pd.concat([kept[~kept.game.isin(games)], df], ignore_index=True)
    order = both.game.map({g: i for i, g in enumerate(GAMES)}).fillna(len(GAMES))
    return both.iloc[order.argsort(kind="stable")].reset_index(drop=True)


def weights_policy(path) -> str:
    """The policy that plays the model file ``path`` under results/, named relative to the
    repository (the studies that name models run there)."""
    return f"learned:weights={Path(path).relative_to(ROOT)},rules=any"
