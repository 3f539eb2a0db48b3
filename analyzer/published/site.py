"""results/ as a site: every committed study's page written anew as report.html beside its
Markdown (its charts inline, analyzer/tables/page.py), and results/index.html, which links them
all with the command that remakes each. Nothing is played: the pages are the committed ones.

Example:
    bezique study site                  # seconds
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..run.output import atomic_write
from ..tables.markdown import shown_table
from ..tables.page import render, write_page
from .common import RESULTS, parser

# (what the study asks, its pages under results/ (Markdown; each gets a report.html beside it) and
# how it is named on the index, the command that remakes it)
STUDY_PAGES = (
    ("The study of each game, strong play first",
     (("ordinary/report.md", "ordinary"), ("rubicon/report.md", "Rubicon")), "bezique study reports"),
    ("The rulebook's hints against strong play",
     (("hints/README.md", "summary"), ("hints/ordinary/hints.md", "ordinary"), ("hints/rubicon/hints.md", "Rubicon")),
     "bezique hints (the command is on each page)"),
    ("What a dealt card is worth", (("deal_value/README.md", "both games"),), "bezique study deal_value"),
    ("The ladder: every player against the tuned hints, up to the ceilings",
     (("ladder/README.md", "both games"),), "bezique study ladder"),
    ("The learned player: its strength, its generations", (("learned/README.md", "both games"),),
     "bezique study learned, bezique study generations"),
    ("Strong play: what describes the game, and what the players", (("strong/README.md", "both games"),),
     "bezique study strong"),
    ("The strongest player's figures beside the band of the fast ones", (("strongest/README.md", "both games"),),
     "bezique study strongest"),
    ("Search that improves on its policy", (("search/README.md", "both games"),), "bezique study search"),
    ("The tuned hints",
     (("tune/README.md", "summary"), ("tune/ordinary/tune.md", "ordinary"), ("tune/rubicon/tune.md", "Rubicon")),
     "bezique study tune"),
    ("The rulebook's games side by side",
     (("variants/README.md", "summary"), *((f"variants/{v}/report.md", v.replace("_", " ")) for v in
                                           ("ordinary", "no_trump", "panache", "fixed_point", "three_handed",
                                            "four_handed", "rubicon"))), "bezique study variants"),
    ("Rubicon by the Portland Club's laws, before and after", (("portland/README.md", "Rubicon"),),
     "bezique study portland"),
    ("The search player as it was", (("expert/README.md", "both games"),), "bezique study expert"),
    ("What the review says of the players, and luck apart from skill", (("review/README.md", "both games"),),
     "bezique study review"),
    ("A player written elsewhere: OpenSpiel's IS-MCTS against the project's players",
     (("external/README.md", "both games"),), "bezique study external"),
)


def html_of(markdown_page: str) -> str:
    """Where the page of a Markdown file of results/ is (report.html beside it)."""
    return str(Path(markdown_page).with_name("report.html"))


def index_text() -> str:
    """The index of results/ as Markdown: each study, its pages, the command that remakes it."""
    rows = [(what, ", ".join(f"[{name}]({html_of(p)})" for p, name in pages), f"`{cmd}`")
            for what, pages, cmd in STUDY_PAGES]
    return ("# Results: what the studies found\n\n"
            "Every figure here is made by a command from a seed, and each page says which. Each page opens "
            "here with its charts in it; its Markdown is beside it, and its tables (CSV, Parquet) and charts "
            "(PNG, SVG) are in its folder. Intervals are 95 %.\n\n"
            + shown_table(rows, [("study", lambda r: r[0]), ("pages", lambda r: r[1]), ("made by", lambda r: r[2])])
            + "\nThe project's documentation says how each study is made (docs/studies.md) and what every "
            "table's columns mean (docs/tables.md).\n")


def write_site(root: Path = RESULTS) -> list[Path]:
    """Write every study page's report.html under ``root`` and ``root``/index.html; returns them."""
    written = [write_page(root / page) for _what, pages, _cmd in STUDY_PAGES for page, _name in pages
               if (root / page).is_file()]
    text = render(index_text(), root, title="Results: what the studies found")
    written.append(atomic_write(root / "index.html", lambda p: Path(p).write_text(text, encoding="utf-8")))
    return written


def main(argv=None) -> int:
    """Write the site (see the module docstring)."""
    parser("site", __doc__).parse_args(argv)
    written = write_site()
    print(f"wrote {len(written)} pages under {RESULTS}: open {RESULTS / 'index.html'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
