"""The headline figures under strong play as a band: a panel per figure, each strong player's
estimate with its 95 % interval, the band between the lowest and highest shaded, and the
verdict the report's text says (:func:`analyzer.tables.band_table.figure_verdict`): the same for
every strong player, differing between them, or not settled by these hands.

Beside the estimates a bar as long as 5 % of the figure shows what "agree within 5 %" means: two
players whose estimates (and their intervals) lie closer than it agree, however far apart their
intervals look on an axis that does not start at 0 (which the axis says)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..tables.band_table import (
    DIFFERS,
    NEAR,
    OPEN,
    SAME,
    estimates,
    figure_verdict,
    is_share,
    tolerance,
)
from .figure import note_cut_axis

BAR = "tab:green"       # the bar of 5 % of the figure


def band_chart(df: pd.DataFrame, title: str) -> Figure:
    """``df`` is band_table's: per figure a panel, per player a dot with its interval, the band
    shaded, a bar of 5 % of the figure beside them and the figure's verdict over the panel; a
    legend of the marks and the verdicts' rule under the panels."""
    figures = list(dict.fromkeys(df.figure))
    cols = min(3, len(figures))
    rows = math.ceil(len(figures) / cols)
    fig = Figure(figsize=(4.4 * cols, 3.5 * rows + 1.6), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    for ax, key in zip(axes.ravel(), figures):
        _panel(ax, df[df.figure == key])
    for ax in axes.ravel()[len(figures):]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=10)
    handles = [Line2D([], [], color="tab:blue", marker="o", ls="none"), Patch(color="tab:grey", alpha=0.2, lw=0),
               Line2D([], [], color=BAR, lw=4)]
    labels = ["a strong player's estimate (95 % interval)", "the band: lowest to highest estimate",
              f"{100 * NEAR:.0f} % of the figure (its mean over the players)"]
    fig.legend(handles, labels, loc="outside lower center", ncols=3, fontsize=8,
               title=f"{SAME}: every two players differ by less than {100 * NEAR:.0f} % of the figure, "
                     f"their 95 % interval included;\n{DIFFERS}: two of them surely do; else {OPEN}",
               title_fontsize=8)
    return fig


def _panel(ax, g: pd.DataFrame) -> None:
    """One figure's panel of :func:`band_chart` (``g``: its rows of band_table)."""
    scale = 100.0 if is_share(g.unit.iloc[0]) else 1.0
    y, lo, hi = (scale * g[c].to_numpy(float) for c in ("value", "value_lo", "value_hi"))
    x = np.arange(len(g))
    ax.axhspan(scale * g.band_lo.iloc[0], scale * g.band_hi.iloc[0], color="tab:grey", alpha=0.2, lw=0)
    ax.errorbar(x, y, yerr=np.clip(np.vstack([y - lo, hi - y]), 0, None), fmt="o", capsize=5)
    half = scale * tolerance(estimates(g)) / 2
    if math.isfinite(half):
        middle = (np.nanmin(y) + np.nanmax(y)) / 2
        ax.plot([len(g) - 0.3] * 2, [middle - half, middle + half], color=BAR, lw=4, solid_capstyle="butt")
    ax.set_xticks(x, [p.replace(":", ":\n", 1) for p in g.player], fontsize=8)
    ax.set_xlim(-0.5, len(g) - 0.1)
    ax.set_ylabel("%" if scale == 100 else g.unit.iloc[0], fontsize=9)
    ax.set_title(f"{g.what.iloc[0]}:\n{figure_verdict(g)}", fontsize=9)
    ax.grid(axis="y", alpha=0.3)
    note_cut_axis(ax, "y")
