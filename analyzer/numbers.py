"""One format for each kind of figure, wherever a figure is shown (pages, charts, terminal):

- a **share** in per cent, its decimals set by its size (three significant digits, one decimal at
  least, four at most), the same decimals for its interval: "49.5 %", "5.25 % [5.01, 5.50]",
  "0.213 %";
- **points** (a mean score, a margin, a count of hands or declarations per hand) with the decimals
  set by size (of the largest of the figure and its bounds): three below 1, two below 10, one
  below 1,000, none from 1,000 (with thousands separated): "0.512", "3.60", "279.8", "2,032";
- a **difference** (what one player or choice gains over another) as points, always signed, both
  bounds too: "+17.2 [+11.1, +23.4]", "-1.30 [-5.60, +3.10]";
- a **count** as a whole number with thousands separated: "16,000".

The tables written as CSV and Parquet keep their full precision (shares as fractions 0 to 1).
"""
from __future__ import annotations

import math


def share_decimals(p: float) -> int:
    """Decimals of a share ``p`` (a fraction) shown in per cent: three significant digits, one to
    four decimals."""
    pct = abs(100 * p)
    if pct == 0 or not math.isfinite(pct):
        return 1
    return min(4, max(1, 2 - math.floor(math.log10(pct))))


def share(p: float, lo: float | None = None, hi: float | None = None) -> str:
    """A share (a fraction) in per cent, with its interval when given: "5.25 % [5.01, 5.50]"."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    d = share_decimals(p)
    text = f"{100 * p:.{d}f} %"
    return text if lo is None else f"{text} [{100 * lo:.{d}f}, {100 * hi:.{d}f}]"


def points_decimals(x: float) -> int:
    """Decimals of a figure in points (or hands) by its size: 3 below 1, 2 below 10, 1 below 1,000,
    else 0."""
    a = abs(x)
    return 3 if a < 1 else 2 if a < 10 else 1 if a < 1000 else 0


def points(x: float, lo: float | None = None, hi: float | None = None, sign: bool = False) -> str:
    """A figure in points (or any unit that is not a share), with its interval when given:
    "279.8 [277.8, 282.2]"; with ``sign`` every number signed: "+17.2 [+11.1, +23.4]". The
    decimals are those of the largest of the three, so that the figure and its bounds read alike."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    d = points_decimals(max(abs(v) for v in (x, lo, hi) if v is not None))
    f = f"{{:{'+' if sign else ''},.{d}f}}"

    def show(v: float) -> str:
        return f.format(round(v, d) + 0.0)       # + 0.0: never a negative zero

    return show(x) if lo is None else f"{show(x)} [{show(lo)}, {show(hi)}]"


def difference(x: float, lo: float | None = None, hi: float | None = None) -> str:
    """A signed difference with its interval, every number signed: "-1.30 [-5.60, +3.10]"."""
    return points(x, lo, hi, sign=True)


def count(n: int) -> str:
    """A whole number with thousands separated: "16,000"."""
    return f"{int(n):,}"
