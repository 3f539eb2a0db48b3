"""Tables as Markdown for people: a DataFrame's columns (:func:`md_table`), or rows shown
through a function per column (:func:`shown_table`), as report.md, hints.md and the published
studies' pages write them."""
from __future__ import annotations


def _cell(v, fmt: str) -> str:
    """A table cell: numbers formatted, a missing value (NaN, None) as an en dash."""
    if v is None or (isinstance(v, float) and v != v):
        return "–"
    return fmt.format(v) if isinstance(v, float) else str(v)


def md_table(df, cols, fmt="{:.4g}") -> str:
    """``df``'s columns ``cols`` as a Markdown table; rows with no value in any of the
    numeric columns are left out (they say nothing)."""
    df = df[cols]
    numeric = [c for c in cols if df[c].dtype.kind in "fiu"]
    if numeric:
        df = df[df[numeric].notna().any(axis=1)]
    return shown_table(df, [(c, (lambda c: lambda r: _cell(r[c], fmt))(c)) for c in cols])


def shown_table(df, columns) -> str:
    """``df`` (a DataFrame, or a list of rows) as a Markdown table for people: ``columns`` is a
    list of (header, row -> text); an empty header is written "| |"."""
    rows = (r for _, r in df.iterrows()) if hasattr(df, "iterrows") else df
    head = "|" + "|".join(f" {h} " if h else " " for h, _ in columns) + "|\n|" + "---|" * len(columns) + "\n"
    return head + "".join("| " + " | ".join(f(r) for _, f in columns) + " |\n" for r in rows)
