"""The README stays a page a newcomer reads to the end, and the reference under docs/ hangs
together: every relative link (and #anchor) of README.md, docs/*.md and results/README.md
resolves, every docs page is linked from the README, and the commands CI runs are the README's."""
import re
from pathlib import Path

import pytest

from cli_examples import doc_examples, doc_pages

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS, ROOT / "results" / "README.md"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def without_code(text: str) -> str:
    """The text with fenced blocks and inline code taken out (a link there is not a link)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for the page's headings: lower case, punctuation dropped, spaces to
    hyphens, a repeated one numbered."""
    seen, found = {}, set()
    for line in re.sub(r"^```.*?^```", "", page.read_text(), flags=re.S | re.M).splitlines():
        m = re.match(r"#{1,6} (.*)", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def relative_links(page: Path) -> list[str]:
    return [t for t in LINK.findall(without_code(page.read_text()))
            if not re.match(r"[a-z]+:", t)]            # http:, https:, mailto: are not checked


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


def test_the_link_checker_sees_anchors_as_github_does():
    page = ROOT / "docs" / "commands.md"
    assert {"bezique-simulate", "the-rulebooks-other-games", "whole-games---games-n---target-t",
            "re-declaring-in-rubicon-r36"} <= anchors(page)


def test_readme_is_short():
    lines = README.read_text().splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines: move reference text to docs/"


def test_every_docs_page_is_linked_from_the_readme():
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in relative_links(README)}
    assert [p.name for p in DOCS if p.resolve() not in linked] == []


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second():
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(), re.S)
    main_job, tests = blocks[0].splitlines()[-1], blocks[1].splitlines()[-1]
    assert main_job.endswith("bezique report --out results/quickstart")
    assert tests == "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
    assert tests in (ROOT / ".ci" / "run").read_text().splitlines()
    assert README.read_text().count("<!-- times: measured -->") >= 1


def test_examples_come_from_every_page_with_bash_blocks():
    """The README's and the docs' examples are all collected; those that need an interrupted
    run or a cluster sit in sh blocks, which are not run."""
    examples = doc_examples()
    for page in doc_pages():
        for block in re.findall(r"```bash\n(.*?)```", page.read_text(), re.S):
            for line in block.splitlines():
                if line.startswith("bezique "):
                    assert line.split("#")[0].strip() in examples, line
                    assert "--resume" not in line and "--scheduler" not in line, (page.name, line)
    assert len(examples) >= 22


def test_layout_is_made_from_the_docstrings():
    """docs/layout.md is what tests/layout_doc.py makes of the modules' docstrings (run it after
    adding, moving or redescribing a module)."""
    from layout_doc import PAGE, page
    assert PAGE.read_text(encoding="utf-8") == page(), "docs/layout.md is out of date: python tests/layout_doc.py"


def test_layout_names_every_module():
    """docs/layout.md names every module of analyzer/ (a new module must be written there), and
    none that is gone."""
    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "layout.md").read_text()
    modules = {f"analyzer/{p.relative_to(root / 'analyzer')}" for p in (root / "analyzer").rglob("*.py")
               if "__pycache__" not in p.parts}
    named = set(re.findall(r"`(analyzer/[\w/]+\.py)`", text))
    assert not modules - named, sorted(modules - named)
    assert not named - modules, sorted(named - modules)
