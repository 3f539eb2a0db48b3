"""docs/layout.md's tables of modules, made from the modules' docstrings, so that the page names
every module as its docstring describes it (tests/test_docs.py holds the page to this text).

After adding, moving or redescribing a module, write the page anew:
    python tests/layout_doc.py
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "layout.md"
WIDTH = 150          # a description longer than this is cut at a word, with " …"

INTRO = """# Layout of the repository

Where each part of the code lives: every module of `analyzer/` with the first paragraph of its
docstring, made from the docstrings by `tests/layout_doc.py` (`python tests/layout_doc.py` writes
this page anew; `tests/test_docs.py` fails when it is out of date). How the parts fit together
(the import layers, the words, the hand state, where each rule is checked) is in
[ARCHITECTURE.md](ARCHITECTURE.md).
"""

# (folder under analyzer/, or "" for the package root; heading; a paragraph under it or "")
SECTIONS = [
    ("", "The package root", ""),
    ("cli", "analyzer/cli/: the command line, a module per family of commands", ""),
    ("published", "analyzer/published/: the published studies of results/",
     "One module a study, each one command: `bezique study NAME` or `python -m analyzer.published.NAME`\n"
     "(see [studies.md](studies.md)); a layer of their own below the command line (`analyzer/layers.py`)."),
    ("studies", "analyzer/studies/: the studies, a sub-package for each question", ""),
    ("studies/report", "analyzer/studies/report/: the main job's study and report.md", ""),
    ("studies/hints", "analyzer/studies/hints/: the hints against strong play, their worth and their tuning", ""),
    ("studies/odds", "analyzer/studies/odds/: the odds, exact and simulated", ""),
    ("studies/value", "analyzer/studies/value/: what cards are worth", ""),
    ("studies/position", "analyzer/studies/position/: a position analysed", ""),
    ("studies/strength", "analyzer/studies/strength/: the learned player trained", ""),
    ("studies/play", "analyzer/studies/play/: hands and games played, players compared", ""),
    ("field", "analyzer/field/: bézique in OpenSpiel and PettingZoo",
     "An OpenSpiel game and a PettingZoo environment over the engine ([field-tools.md](field-tools.md)); the\n"
     "`field` extra, never imported by the main job."),
    ("hands", "analyzer/hands/: one hand at a time", ""),
    ("plots", "analyzer/plots/: charts (matplotlib Figures)", ""),
    ("tables", "analyzer/tables/: tables with 95 % intervals", ""),
    ("learning", "analyzer/learning/: training the learned player", ""),
    ("run", "analyzer/run/: running hands", ""),
    ("policies", "analyzer/policies/: the policies, their names and parameters", ""),
    ("engine", "analyzer/engine/: numba kernels only", ""),
]


def description(path: Path) -> str:
    """The first paragraph of ``path``'s docstring as one line of Markdown, cut at WIDTH."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text).replace("``", "`").rstrip(".")
    if len(text) > WIDTH:
        text = text[:WIDTH].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    return text.replace("|", "\\|")


def modules_of(folder: str) -> list[Path]:
    """The modules directly in analyzer/``folder``."""
    return sorted((ROOT / "analyzer" / folder).glob("*.py"))


def page() -> str:
    """The whole page: the introduction, a table a section, then the part beside the package
    as the page now has it."""
    parts = [INTRO]
    for folder, heading, note in SECTIONS:
        rows = [f"| `{p.relative_to(ROOT)}` | {description(p)} |" for p in modules_of(folder)]
        parts.append(f"### {heading}\n\n" + (note + "\n\n" if note else "")
                     + "| module | what it is |\n|---|---|\n" + "\n".join(rows) + "\n")
    beside = PAGE.read_text(encoding="utf-8").partition("## Beside the package")[2]
    return "\n".join(parts) + "\n## Beside the package" + beside


if __name__ == "__main__":
    PAGE.write_text(page(), encoding="utf-8")
    sys.exit(0)
