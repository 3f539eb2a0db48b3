"""The headline figures under strong play as a band: a panel per figure, each strong player's
estimate with its 95 % interval, the band between the lowest and highest shaded, and whether
the figure is the game's or the players' (:mod:`analyzer.tables.band_table`)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..tables.band_table import is_share

def band_chart(df: pd.DataFrame, title: str) -> Figure:
    """``df`` is band_table's: per figure a panel, per player a dot with its interval."""
    figures = list(dict.fromkeys(df.figure))
    cols = min(3, len(figures))
    rows = math.ceil(len(figures) / cols)
    fig = Figure(figsize=(4.2 * cols, 3.4 * rows + 0.6))
    axes = fig.subplots(rows, cols, squeeze=False)
    for ax, key in zip(axes.ravel(), figures):
        g = df[df.figure == key]
        scale = 100.0 if is_share(g.unit.iloc[0]) else 1.0
        y, lo, hi = (scale * g[c].to_numpy(float) for c in ("value", "value_lo", "value_hi"))
        x = np.arange(len(g))
        ax.axhspan(scale * g.band_lo.iloc[0], scale * g.band_hi.iloc[0], color="tab:grey", alpha=0.2, lw=0)
        ax.errorbar(x, y, yerr=np.clip(np.vstack([y - lo, hi - y]), 0, None), fmt="o", capsize=5)
        ax.set_xticks(x, [p.replace("learned:", "learned:\n") for p in g.player], fontsize=8)
        ax.set_xlim(-0.5, len(g) - 0.5)
        ax.set_ylabel("%" if scale == 100 else g.unit.iloc[0])
        ax.set_title(f"{g.what.iloc[0]}\n{g.verdict_text.iloc[0]}", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes.ravel()[len(figures):]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig
