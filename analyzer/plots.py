"""Matplotlib charts from the tables (Agg backend: no screen needed)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .output import save_figure  # noqa: E402


def score_distribution_chart(hist, summary, title: str):
    """Share of hands by hand score, one line per seat, mean with its CI marked."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for i, col in enumerate(hist.columns[1:]):
        share = hist[col] / hist[col].sum()
        line, = ax.plot(hist["score"], share, label=col, lw=1.5)
        row = summary.iloc[i]
        ax.axvline(row.mean_score, color=line.get_color(), ls="--", lw=1)
        ax.axvspan(row.mean_score_lo, row.mean_score_hi, color=line.get_color(), alpha=0.15)
    ax.set_title(title)
    ax.set_xlabel("hand score (points; bins of 10)")
    ax.set_ylabel("share of hands")
    ax.legend(title="dashed: mean (95% CI band)")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def write_score_chart(result, out_dir) -> list:
    """Write score_distribution.png and .svg for a simulation result."""
    tables = result.tables
    title = (f"Hand scores, {result.rules.name} bézique: " + " vs ".join(result.policies) +
             f" ({result.hands:,} hands, seed {result.seed})")
    fig = score_distribution_chart(tables["score_histogram"], tables["summary"], title)
    paths = [save_figure(fig, f"{out_dir}/score_distribution.{ext}") for ext in ("png", "svg")]
    plt.close(fig)
    return paths
