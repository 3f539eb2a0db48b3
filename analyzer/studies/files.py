"""What a study writes into its output directory: its tables (CSV and Parquet), its charts (PNG
and SVG) and its run record (run.json: the facts of the run, the package version and the
commit), each file written atomically, then the directory's manifest of what the run wrote."""
from __future__ import annotations

from ..given_deal import active_given
from .. import plots
from ..run.output import finish_output, write_run_record, write_table
from ..tables.page import write_page


def write_files(out, threads, tables=None, charts=None, files=(), parquet=True, pages=(), **facts) -> list:
    """Write ``tables`` (name: DataFrame; CSV and, with ``parquet``, Parquet), ``charts`` (name:
    Figure, or (Figure, formats); PNG and SVG by default), each Markdown page of ``pages`` (already
    written) as report.html beside it, its charts inline, and run.json (``facts``, the backend of
    ``threads`` and the deal given in part, if any) into ``out`` beside the ``files`` already
    written there, and finish the directory (its manifest). Returns every file the run wrote."""
    written = list(files)
    for name, df in (tables or {}).items():
        written += write_table(df, out, name, parquet=parquet)
    for name, chart in (charts or {}).items():
        fig, formats = chart if isinstance(chart, tuple) else (chart, ("png", "svg"))
        written += plots.save_chart(fig, out, name, formats=formats)
    written += [write_page(page) for page in pages]
    given = active_given()
    written.append(write_run_record(out, threads=threads, **facts, **({"given": given.describe()} if given else {})))
    finish_output(out, written)
    return written
