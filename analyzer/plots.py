"""Matplotlib charts from the tables (Agg backend: no screen needed)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .output import save_figure  # noqa: E402


def score_distribution_chart(hist, summary, width: int, title: str):
    """Share of hands by hand score (bins ``width`` points wide), one line per seat, mean
    with its CI marked."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for i, col in enumerate(c for c in hist.columns if c.startswith("seat ")):
        share = hist[col] / hist[col].sum()
        line, = ax.step(hist["score"], share, where="post", label=col, lw=1.5)
        row = summary.iloc[i]
        ax.axvline(row.mean_score, color=line.get_color(), ls="--", lw=1)
        ax.axvspan(row.mean_score_lo, row.mean_score_hi, color=line.get_color(), alpha=0.15)
    ax.set_title(title)
    ax.set_xlabel(f"hand score (points; bins of {width}, the last {hist['bin'].iloc[-1]})")
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
    from .tallies import score_bin
    fig = score_distribution_chart(tables["score_histogram"], tables["summary"], score_bin(result.rules), title)
    paths = [save_figure(fig, f"{out_dir}/score_distribution.{ext}") for ext in ("png", "svg")]
    plt.close(fig)
    return paths


HEATMAP_VALUES = {     # pairs column -> (scale, centre: the scaled value of equal policies, cell text)
    "mean_diff": (1.0, 0.0, "{:+.1f}"),
    "score_a": (100.0, 50.0, "{:.1f}"),      # per cent
}


def heatmap_figure(pairs, names, value: str, unit: str, title: str):
    """A figure of the pairwise ``value`` of ``pairs`` (``mean_diff``: row minus column;
    ``score_a``: the row's score share, wins + half the draws), each cell with its 95 %
    interval (``score_a`` in per cent); the column's view of a pair mirrors the row's."""
    import numpy as np

    scale, centre, fmt = HEATMAP_VALUES[value]
    text = fmt.format
    k = len(names)
    m = np.full((3, k, k), np.nan)          # value, low, high
    idx = {n: i for i, n in enumerate(names)}
    for _, r in pairs.iterrows():
        i, j = idx[r.policy_a], idx[r.policy_b]
        m[:, i, j] = scale * r[value], scale * r[f"{value}_lo"], scale * r[f"{value}_hi"]
        m[:, j, i] = 2 * centre - m[[0, 2, 1], i, j]
    fig, ax = plt.subplots(figsize=(1.8 * k + 3, 1.4 * k + 2))
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
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("policy (row)")
    ax.set_title((title + "\n" if title else "") + f"{unit} (95% CI in brackets)")
    fig.colorbar(im, ax=ax, label=unit)
    fig.tight_layout()
    return fig


def write_heatmap(pairs, names, unit: str, out_dir, title: str = ""):
    """Pairwise mean differences (row policy minus column policy) as heatmap.png."""
    fig = heatmap_figure(pairs, names, "mean_diff", f"mean of row minus column, {unit}", title)
    path = save_figure(fig, f"{out_dir}/heatmap.png")
    plt.close(fig)
    return path


def write_ablation_chart(df, unit: str, title: str, out_dir) -> list:
    """Bar chart of each hint's value with its 95 % CI (PNG and SVG)."""
    import numpy as np

    fig, ax = plt.subplots(figsize=(8, 4.5))
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
    paths = [save_figure(fig, f"{out_dir}/ablation.{ext}") for ext in ("png", "svg")]
    plt.close(fig)
    return paths
