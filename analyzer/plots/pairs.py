"""Policies head to head: the pairwise heatmap of compare and the report, and the value of
each hint (the ablation)."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .figure import new_figure

HEATMAP_VALUES = {     # pairs column -> (scale, centre: the scaled value of equal policies, cell text)
    "mean_diff": (1.0, 0.0, "{:+.1f}"),
    "score_a": (100.0, 50.0, "{:.1f}"),      # per cent
}


def pairs_heatmap(pairs: pd.DataFrame, names: list[str], value: str, unit: str, title: str = "") -> Figure:
    """A figure of the pairwise ``value`` of ``pairs`` (``mean_diff``: row minus column;
    ``score_a``: the row's score share, wins + half the draws), each cell with its 95 %
    interval (``score_a`` in per cent); the column's view of a pair mirrors the row's. The
    diagonal, a policy against itself, is grey, hatched and says "same policy"."""
    scale, centre, fmt = HEATMAP_VALUES[value]
    text = fmt.format
    k = len(names)
    m = np.full((3, k, k), np.nan)          # value, low, high
    idx = {n: i for i, n in enumerate(names)}
    for _, r in pairs.iterrows():
        i, j = idx[r.policy_a], idx[r.policy_b]
        m[:, i, j] = scale * r[value], scale * r[f"{value}_lo"], scale * r[f"{value}_hi"]
        m[:, j, i] = 2 * centre - m[[0, 2, 1], i, j]
    fig, ax = new_figure(1.8 * k + 3, 1.4 * k + 2, layout="constrained")   # the title above the colorbar too
    lim = np.nanmax(np.abs(m[0] - centre)) if np.isfinite(m[0]).any() else 1.0
    im = ax.imshow(m[0], cmap="RdBu", vmin=centre - lim, vmax=centre + lim)
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), names)
    for i in range(k):
        for j in range(k):
            if np.isfinite(m[0, i, j]):
                dark = abs(m[0, i, j] - centre) > 0.6 * lim
                ax.text(j, i, f"{text(m[0, i, j])}\n[{text(m[1, i, j])}, {text(m[2, i, j])}]", ha="center",
                        va="center", fontsize=9, color="white" if dark else "black")
        ax.add_patch(Rectangle((i - 0.5, i - 0.5), 1, 1, facecolor="lightgrey", edgecolor="grey", hatch="//",
                               lw=0, label="same policy"))
        ax.text(i, i, "same policy", ha="center", va="center", fontsize=9, color="black",
                bbox={"facecolor": "lightgrey", "edgecolor": "none"})
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("policy (row)")
    fig.suptitle((title + "\n" if title else "") + f"{unit} (95% CI in brackets)")
    fig.colorbar(im, ax=ax, label=unit)
    return fig


def pairwise_chart(pairs: pd.DataFrame, names: list[str], unit: str, title: str) -> Figure:
    """The row policy's share of the ``unit`` (hands or games) won against the column policy
    (wins + half the draws), with 95 % intervals."""
    return pairs_heatmap(pairs, names, "score_a", f"row's share of {unit} won, wins + ½ draws (%)", title)


def ablation_chart(df: pd.DataFrame, unit: str, title: str) -> Figure:
    """Bar chart of each hint's value (the :func:`analyzer.studies.hints.worth.ablate` table) with its 95 % CI."""
    fig, ax = new_figure()
    y = df["mean_diff"].to_numpy()
    err = np.clip(np.vstack([y - df["mean_diff_lo"].to_numpy(), df["mean_diff_hi"].to_numpy() - y]), 0, None)
    colors = ["tab:blue" if v >= 0 else "tab:red" for v in y]
    ax.bar(df["hint"], y, yerr=err, capsize=5, color=colors)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("hint switched off (full hints policy against hints without it)")
    ax.set_ylabel(f"value of the hint ({unit})")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig
