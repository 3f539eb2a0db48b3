"""A study's page as one self-contained HTML file: its Markdown (report.md, hints.md …) rendered
with a table of contents, every chart it shows put inline as SVG (a data: URL, so the page makes
no request to any address), tables that scroll sideways on a phone, and nothing else to load. The
page and the Markdown hold the same text in the same order: the page is made from it."""
from __future__ import annotations

import base64
import html
import re
from pathlib import Path

import markdown
from markdown.extensions.toc import slugify_unicode

from ..run.output import atomic_write

IMAGE = re.compile(r'<img alt="([^"]*)" src="([^":]+)\.(png|svg)"\s*/?>')
MIME = {"svg": "image/svg+xml", "png": "image/png"}

STYLE = """
:root { color-scheme: light; --ink: #1d2430; --soft: #5b6472; --line: #d9dde3; --accent: #2f5d9e; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       background: #fff; }
.page { display: grid; grid-template-columns: minmax(0, 16rem) minmax(0, 1fr); gap: 2rem; max-width: 78rem;
        margin: 0 auto; padding: 1.5rem 1.25rem 4rem; }
nav { position: sticky; top: 1rem; align-self: start; max-height: calc(100vh - 2rem); overflow-y: auto;
      font-size: 0.9rem; border-right: 1px solid var(--line); padding-right: 1rem; }
nav ul { list-style: none; padding-left: 0.8rem; margin: 0.2rem 0; }
nav > .toc > ul { padding-left: 0; }
nav a { color: var(--soft); text-decoration: none; }
nav a:hover { color: var(--accent); }
main { min-width: 0; }
.page.single { grid-template-columns: minmax(0, 1fr); max-width: 60rem; }
h1 { font-size: 1.7rem; line-height: 1.25; margin: 0 0 0.8rem; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 0.6rem; padding-top: 0.6rem; border-top: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.4rem 0 0.4rem; }
a { color: var(--accent); }
code { font: 0.88em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f3f5f8;
       padding: 0.05em 0.3em; border-radius: 3px; }
.table { overflow-x: auto; margin: 0.8rem 0 1.2rem; }
table { border-collapse: collapse; font-size: 0.9rem; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f6f7f9; }
td { font-variant-numeric: tabular-nums; }
img { display: block; max-width: 100%; height: auto; margin: 0.8rem 0; }
ol.takeaways > li, main > ol > li { margin: 0.45rem 0; }
@media (max-width: 52rem) {
  .page { grid-template-columns: minmax(0, 1fr); gap: 0.5rem; padding: 1rem 0.9rem 3rem; }
  nav { position: static; max-height: none; border-right: none; border-bottom: 1px solid var(--line);
        padding: 0 0 0.6rem; }
}
"""


def render(text: str, images: Path, title: str | None = None) -> str:
    """The HTML page of the Markdown ``text``: its charts (``![what](name.png)``) taken from the
    folder ``images`` and put inline (the SVG beside each PNG when there is one), a table of
    contents beside it, ``title`` (default: the first heading) in the window's title."""
    md = markdown.Markdown(extensions=["tables", "sane_lists", "toc"],
                           extension_configs={"toc": {"slugify": slugify_unicode, "toc_depth": "2-3"}})
    body = md.convert(text)
    body = IMAGE.sub(lambda m: _inline_image(images, stem=m.group(2), alt=m.group(1), ext=m.group(3)), body)
    body = body.replace("<table>", '<div class="table"><table>').replace("</table>", "</table></div>")
    nav = f'<nav aria-label="contents">{md.toc}</nav>\n' if "<li>" in md.toc else ""
    if title is None:
        first = re.search(r"^#\s+(.+)$", text, flags=re.M)
        title = first.group(1) if first else "bezique-analyzer"
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(_plain(title))}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<div class=\"page{'' if nav else ' single'}\">\n{nav}<main>\n{body}\n</main>\n</div>\n"
            "</body>\n</html>\n")


def _inline_image(folder: Path, stem: str, alt: str, ext: str) -> str:
    """An <img> whose picture is in the page itself (SVG when there is one); a picture that is not
    there stays a link to its file, so the page still says what was meant."""
    for kind in ("svg", ext):
        path = folder / f"{stem}.{kind}"
        if path.is_file():
            data = base64.b64encode(path.read_bytes()).decode("ascii")
            return f'<img alt="{alt}" src="data:{MIME[kind]};base64,{data}">'
    return f'<a href="{html.escape(stem)}.{ext}">{html.escape(alt) or html.escape(stem)}</a>'


def _plain(text: str) -> str:
    """A heading's Markdown without its marks (backticks, stars), for the window's title."""
    return re.sub(r"[`*_]", "", text)


def write_page(markdown_path, html_path=None, title: str | None = None) -> Path:
    """Write the page of the Markdown file ``markdown_path`` (default: report.html beside it),
    its charts taken from the Markdown's folder; returns the page's path (written atomically)."""
    source = Path(markdown_path)
    target = Path(html_path) if html_path else source.with_name("report.html")
    page = render(source.read_text(encoding="utf-8"), source.parent, title)
    return atomic_write(target, lambda p: Path(p).write_text(page, encoding="utf-8"))
