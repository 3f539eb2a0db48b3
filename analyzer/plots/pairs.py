"""Policies head to head: the pairwise heatmap of compare and the report, and the value of
each hint (the ablation).

Each hint is named in words (:func:`analyzer.words.hint_name`) and its bar coloured by its
verdict, the one the report's text says (:func:`analyzer.tables.band_table.worth_verdict`)."""
from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from ..numbers import difference, share
from ..tables.band_table import COSTING, NEVER, UNTOLD, WORTH, worth_verdicts
from ..words import hint_name
from .figure import new_figure

HEATMAP_VALUES = {     # pairs column -> (scale, centre: the scaled value of equal policies, cell text)
    "mean_diff": (1.0, 0.0, difference),
    "score_a": (100.0, 50.0, lambda v, lo, hi: share(v / 100, lo / 100, hi / 100)),      # per cent
}
# a hint's bar by its verdict: (face colour, edge colour)
WORTH_COLORS = {WORTH: ("tab:blue", "tab:blue"), COSTING: ("tab:red", "tab:red"), UNTOLD: ("lightgrey", "grey"),
                NEVER: ("white", "black")}
LABEL_WIDTH = 28     # characters a line of a policy's name on an axis: a long one (a model's path) wraps


def axis_name(name: str) -> str:
    """A policy's name as an axis label: whole, in lines of at most LABEL_WIDTH characters."""
    return "\n".join(textwrap.wrap(name, LABEL_WIDTH, break_on_hyphens=False)) or name


def pairs_heatmap(pairs: pd.DataFrame, names: list[str], value: str, unit: str, title: str = "") -> Figure:
    """A figure of the pairwise ``value`` of ``pairs`` (``mean_diff``: row minus column;
    ``score_a``: the row's score share, wins + half the draws), each cell with its 95 %
    interval (``score_a`` in per cent); the column's view of a pair mirrors the row's. The
    diagonal, a policy against itself, is grey, hatched and says "same policy"."""
    scale, centre, text = HEATMAP_VALUES[value]
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
    ax.set_xticks(range(k), [axis_name(n) for n in names], rotation=30, ha="right")
    ax.set_yticks(range(k), [axis_name(n) for n in names])
    for i in range(k):
        for j in range(k):
            if np.isfinite(m[0, i, j]):
                dark = abs(m[0, i, j] - centre) > 0.6 * lim
                ax.text(j, i, text(*m[:, i, j]).replace(" [", "\n[", 1), ha="center",
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
    """Each hint's value (the :func:`analyzer.studies.hints.worth.ablate` table), every hint it
    holds from the top, named in words with its value and 95 % interval: a bar with its
    interval, coloured by its verdict (:func:`analyzer.tables.band_table.worth_verdict`) and a
    legend of the verdicts drawn."""
    y = np.arange(len(df))
    fig, ax = new_figure(10, 1.6 + 0.42 * max(len(df), 3), layout="constrained")
    x = df["mean_diff"].to_numpy(dtype=float)
    err = np.clip(np.vstack([x - df["mean_diff_lo"].to_numpy(), df["mean_diff_hi"].to_numpy() - x]), 0, None)
    said = worth_verdicts(df)
    ax.barh(y, x, xerr=err, capsize=4, color=[WORTH_COLORS[v][0] for v in said],
            edgecolor=[WORTH_COLORS[v][1] for v in said])
    never = np.array([v == NEVER for v in said], dtype=bool)
    ax.plot(np.zeros(int(never.sum())), y[never], "|", color="black", ms=12)     # a bar of no length: a mark at 0
    ax.set_yticks(y, [f"{hint_name(h)}: {difference(m, lo, hi)}"
                      for h, m, lo, hi in zip(df.hint, x, df.mean_diff_lo, df.mean_diff_hi)])
    ax.invert_yaxis()
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel(f"value of the hint ({unit}):\nthe full hints policy less hints without it")
    fig.suptitle(title)
    ax.grid(axis="x", alpha=0.3)
    shown = list(dict.fromkeys(v for v in WORTH_COLORS if v in said))
    fig.legend([Patch(facecolor=WORTH_COLORS[v][0], edgecolor=WORTH_COLORS[v][1]) for v in shown], shown,
               title="what the 95 % interval says", loc="outside lower center", ncols=len(shown), fontsize=9)
    return fig
