"""The site of results/ (``bezique study site``, analyzer/published/site.py): every committed
study's page is on it and in results/README.md's table, and each page on it exists."""
from pathlib import Path

from analyzer.published.site import STUDY_PAGES, index_text

RESULTS = Path(__file__).resolve().parent.parent / "results"


def study_folders() -> set[str]:
    """The folders of results/ that hold a study's page (README.md or report.md)."""
    return {p.parent.name for pattern in ("*/README.md", "*/report.md") for p in RESULTS.glob(pattern)}


def test_every_study_page_is_on_the_site_and_in_the_results_readme():
    """A study whose page is not on the site (results/index.html) nor in results/README.md's
    table is one a reader never finds."""
    on_site = {page.split("/")[0] for _what, pages, _cmd in STUDY_PAGES for page, _name in pages}
    assert study_folders() <= on_site, study_folders() - on_site
    readme = (RESULTS / "README.md").read_text(encoding="utf-8")
    for folder in study_folders():
        assert f"({folder}/" in readme, folder


def test_every_page_on_the_site_exists_and_the_index_links_its_html():
    text = index_text()
    for _what, pages, command in STUDY_PAGES:
        assert command in text
        for page, _name in pages:
            assert (RESULTS / page).is_file(), page
            assert str(Path(page).with_name("report.html")) in text


def test_no_study_page_repeats_its_title_as_a_section_heading():
    """A page whose first section is headed by its own title reads as a stutter; a new page's
    title comes from ``publish(..., title=)``, apart from its study's section heading."""
    for page in RESULTS.glob("*/README.md"):
        lines = page.read_text(encoding="utf-8").splitlines()
        title = lines[0].removeprefix("# ").strip()
        sections = {line.removeprefix("## ").strip() for line in lines if line.startswith("## ")}
        assert title not in sections, page
