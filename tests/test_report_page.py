"""report.html as a person sees it (issue 56): a small ordinary and Rubicon report, their page
checked as HTML (every tag closed, every in-page link resolves, nothing fetched from a network
address, the same text as report.md in the same order) and opened in a real headless browser
(Chromium from the system's packages; .ci/run installs chromium-headless-shell where it is
missing): no error, every chart drawn at a non-zero size, the takeaways above the fold at
1280x800, a screenshot under the test's tmp directory. Without a browser the browser test says
so and is skipped."""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest
from cli_examples import small_report

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome")
TERMINAL_CHARS = 2000


@pytest.fixture(scope="module", params=["ordinary", "rubicon"])
def report(request, tmp_path_factory):
    """(the report's directory, what `bezique report` printed) of the small report of the game's
    example (the README's quickstart; the Rubicon one), the run tests/test_report.py checks the
    files of (cli_examples.run_once: made once for the suite)."""
    return small_report(tmp_path_factory, request.param)


class PageParser(HTMLParser):
    """Every tag opened and closed in order, the ids, the in-page links and the addresses asked for."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.ids, self.anchors, self.sources = [], [], set(), [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if attrs.get("href", "").startswith("#"):
            self.anchors.append(unquote(attrs["href"][1:]))
        self.sources += [attrs[k] for k in ("src", "href") if k in attrs and not attrs[k].startswith("#")]
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append(f"</{tag}> at {self.getpos()} closes {self.stack[-1] if self.stack else 'nothing'}")
            return
        self.stack.pop()


def parsed(page: Path) -> PageParser:
    p = PageParser()
    p.feed(page.read_text(encoding="utf-8"))
    p.close()
    return p


def test_the_report_says_where_the_strongest_player_lies_beside_its_band(report):
    """The band's section names the figures for which bezique study strongest found the strongest
    player clear of the band (band_table.strongest_beside), and that for them the band is not yet
    the game's: since the ordinary band's third lineage (2026-12-06), in both games."""
    from analyzer.tables.band_table import strongest_beside
    out, _printed = report
    text = (out / "report.md").read_text(encoding="utf-8")
    game = "rubicon" if "Rubicon" in text.splitlines()[0] else "ordinary"
    got = strongest_beside(game, ["learned", "learned:player=2", "learned:player=3"])
    said = [line for line in text.splitlines() if line.startswith("Beside the band, the strongest player")]
    if got is None:             # measured with other networks than those shipped now: nothing said
        assert said == []
        return
    clear = [f["what"] for f in got["figures"].values() if f["where"].endswith("clear of it")]
    assert len(said) == 1 and all(what in said[0] for what in clear)
    assert ("not yet the game's" in said[0]) == bool(clear)
    assert clear, game                      # the committed study: some figure lies clear in each game


def test_the_page_is_well_formed_and_every_in_page_link_resolves(report):
    p = parsed(report[0] / "report.html")
    assert p.errors == [] and p.stack == []
    assert p.anchors and [a for a in p.anchors if a not in p.ids] == []


def test_the_page_asks_no_network_address_for_anything(report):
    p = parsed(report[0] / "report.html")
    charts = [s for s in p.sources if s.startswith("data:image/svg+xml;base64,")]
    assert len(charts) >= 8                                         # the charts are in the page itself
    assert [s for s in p.sources if not s.startswith("data:")] == []
    assert "<script" not in (report[0] / "report.html").read_text(encoding="utf-8")


def test_the_page_and_report_md_say_the_same_in_the_same_order(report):
    md = (report[0] / "report.md").read_text(encoding="utf-8")
    page = re.sub(r"<[^>]+>", "", (report[0] / "report.html").read_text(encoding="utf-8"))
    headings = [h.strip() for h in re.findall(r"^#{1,3} (.+)$", md, flags=re.M)]
    positions = [page.find(h.replace("'", "&#x27;") if h not in page else h) for h in headings]
    assert -1 not in positions and positions == sorted(positions), list(zip(headings, positions))


def test_the_page_opens_with_at_most_six_takeaways_each_linked_to_its_section(report):
    md = (report[0] / "report.md").read_text(encoding="utf-8")
    found = md.split("## What this study found", 1)[1].split("\n## ", 1)[0]
    items = re.findall(r"^\d+\. (.+)$", found, flags=re.M)
    assert 3 <= len(items) <= 6
    assert all(re.search(r"\[\S[^\]]*\]\(#[^)]+\)", i) and re.search(r"\[[-+]?[\d,.]+", i) for i in items)


def test_the_terminal_says_what_matters_in_at_most_2000_characters(report):
    out, printed = report
    assert len(printed) <= TERMINAL_CHARS, len(printed)
    assert "what the study found" in printed and f"{out}/report.html" in printed
    assert not re.search(r"\b(marriage_[SHDC]|four_aces|double_bezique|dealt_\w+)\b", printed)


def test_the_report_says_names_not_identifiers(report):
    md = (report[0] / "report.md").read_text(encoding="utf-8")
    assert not re.search(r"\b(marriage_[SHDC]|sequence_[SHDC]|four_(aces|kings|queens|knaves)|double_bezique|"
                         r"dealt_\w+|receives_\w+|royal_marriage|common_marriage|trump_sequence)\b", md)


def _browser() -> str | None:
    return next((b for b in map(shutil.which, BROWSERS) if b), None)


MEASURE = """<script>
const errors = [];
window.addEventListener('error', e => errors.push(String(e.message || (e.target && e.target.outerHTML))), true);
window.addEventListener('load', () => {
  const charts = [...document.images].map(i => [i.alt, i.complete, i.naturalWidth, i.getBoundingClientRect().width,
                                                  i.getBoundingClientRect().height]);
  const found = document.querySelector('main ol');
  const out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = JSON.stringify({errors, charts, takeaways_bottom: found ? found.getBoundingClientRect().bottom : -1,
                                    width: window.innerWidth, height: window.innerHeight});
  document.body.appendChild(out);
});
</script>"""


def test_the_page_in_a_real_browser(report, tmp_path):
    """Chromium opens the page at 1280x800: no error, every chart drawn at a non-zero size, the
    takeaways above the fold; a screenshot is kept in tmp_path."""
    browser = _browser()
    if browser is None:
        pytest.skip("no headless browser on this machine (install Debian's chromium-headless-shell, as .ci/run "
                    "does): report.html was checked as HTML only")
    page = report[0] / "report.html"
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("<head>", "<head>\n" + MEASURE, 1), encoding="utf-8")
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
             f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,800", "--enable-logging=stderr",
             "--host-resolver-rules=MAP * ~NOTFOUND"]
    run = subprocess.run([*flags, "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="measured">(.*?)</pre>', run.stdout, flags=re.S)
    assert found, run.stderr[-2000:]
    measured = json.loads(html.unescape(found.group(1)))
    assert measured["errors"] == []
    assert measured["charts"] and all(ok and w > 0 and rw > 0 and rh > 0 for _alt, ok, w, rw, rh in measured["charts"])
    assert 0 < measured["takeaways_bottom"] <= 800, measured["takeaways_bottom"]
    assert not re.search(r"Failed to load resource|net::ERR_", run.stderr)
    shot = tmp_path / "report-1280x800.png"
    subprocess.run([*flags, f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=120)
    assert shot.is_file() and shot.stat().st_size > 10_000
