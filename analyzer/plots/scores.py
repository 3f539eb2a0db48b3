"""Score distributions: hand scores by bin and P(score >= x), the Rubicon loser's total and
the winner's game score, each with its 95 % bands."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..numbers import share
from .figure import new_figure, percent_axis, rules_title, sized, step_band


def score_distribution_chart(df: pd.DataFrame, width: int, title: str, by: str = "policy",
                             legend: str = "policy (self-play; band: 95% CI)", means: dict | None = None,
                             sizes: dict | None = None) -> Figure:
    """Share of hands by hand-score bin (``df`` as :func:`analyzer.tables.stats.score_shares`, one
    line per value of column ``by``, labelled with its hands from ``sizes``) with 95 % bands;
    ``means`` (label -> mean, low, high) marks each line's mean (dashed) and its interval. The
    x axis stops where 99 % of every line's hands score less (the tail is in
    :func:`score_at_least_chart`)."""
    fig, ax = new_figure()
    right = 0
    for label, g in df.groupby(by, sort=False):
        line = step_band(ax, g.score, 100 * g.share, 100 * g.share_lo, 100 * g.share_hi, sized(label, sizes),
                         width)
        right = max(right, g.score[g.at_least >= 0.01].max() + width)
        if means:
            mean, lo, hi = means[label]
            ax.axvline(mean, color=line.get_color(), ls="--", lw=1)
            ax.axvspan(lo, hi, color=line.get_color(), alpha=0.15)
    ax.set_xlim(0, right)
    ax.set_xlabel(f"hand score (points; bins of {width}; cut where 99 % of hands score less)")
    ax.set_ylabel("share of a seat's hands (%)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(title=legend)
    fig.tight_layout()
    return fig


def score_chart(result) -> Figure:
    """The hand scores of a :class:`analyzer.studies.play.simulate.Result`, one line per seat, with 95 %
    bands and each seat's mean score and its interval."""
    # keeps import analyzer.plots light: the tallies load the engine and the policies
    from ..run.tallies import score_bin
    from ..tables.stats import score_shares

    width = score_bin(result.rules)
    summary = result.tables["summary"]
    frames, means = [], {}
    for _, row in summary.iterrows():
        label = f"seat {row.seat} ({row.policy})"
        frames.append(score_shares(result.tallies.score_hist[row.seat], width).assign(seat=label))
        means[label] = (row.mean_score, row.mean_score_lo, row.mean_score_hi)
    title = (f"Hand scores, {rules_title(result.rules)}: " + " vs ".join(result.policies) +
             f" ({result.hands:,} hands, seed {result.seed})")
    return score_distribution_chart(pd.concat(frames, ignore_index=True), width, title, by="seat",
                                    legend="seat (band: 95% CI;\ndashed: mean, shaded: its 95% CI)",
                                    means=means)


def score_at_least_chart(df: pd.DataFrame, title: str, sizes: dict | None = None) -> Figure:
    """P(hand score >= x) per policy (labelled with its hands from ``sizes``) in per cent (on a
    log scale when it spans decades), with 95 % bands."""
    fig, ax = new_figure()
    for policy, g in df.groupby("policy", sort=False):
        line, = ax.plot(g.score, 100 * g.at_least, label=sized(policy, sizes))
        ax.fill_between(g.score, 100 * g.at_least_lo, 100 * g.at_least_hi, color=line.get_color(), alpha=0.2, lw=0)
    percent_axis(ax, "y", 100 * df.at_least, "seat's hands scoring x or more")
    ax.set_xlabel("hand score x (points)")
    ax.set_title(title)
    ax.grid(alpha=0.3, which="both")
    ax.legend(title="policy (self-play; band: 95% CI)")
    fig.tight_layout()
    return fig


def loser_total_chart(df: pd.DataFrame, width: int, limit: int, title: str, sizes: dict | None = None) -> Figure:
    """The Rubicon game loser's total by bin (decided games), per pairing (labelled with its
    games from ``sizes``), with 95 % bands and the line of the rubicon ``limit`` (1000), in per
    cent (on a log scale when they span decades: the games near and over it are few)."""
    fig, ax = new_figure()
    shares = []
    for pairing, g in df.groupby("pairing", sort=False):
        r = g.iloc[0]
        pct = np.where(g.games > 0, 100 * g.share, np.nan)         # none: a gap on the log scale
        shares.append(pct)
        step_band(ax, g.score, pct, 100 * g.share_lo, 100 * g.share_hi,
                  f"{sized(pairing, sizes, 'games')}: under {limit:,}, {share(r.under_limit)}", width)
    ax.axvline(limit, color="black", ls="--", lw=1)
    ax.annotate(f"{limit:,}: under it, even with his\nbrisques, the loser is\nrubiconed (R3.9)", (limit, 0.97),
                xycoords=("data", "axes fraction"), xytext=(6, 0), textcoords="offset points", va="top", fontsize=9)
    percent_axis(ax, "y", shares, "share of decided games; a draw has no loser")
    ax.set_xlim(0, max(df.score.max() + width, limit + 3 * width))
    ax.set_xlabel(f"the game loser's total without brisques (points; bins of {width})")
    ax.set_title(title)
    ax.grid(alpha=0.3, which="both")
    ax.legend(title="pairing (band: 95% CI; share of games under the limit)", fontsize=9, loc="lower left")
    fig.tight_layout()
    return fig


def game_score_chart(df: pd.DataFrame, title: str, sizes: dict | None = None) -> Figure:
    """Distribution of the winner's game score over the decided games, per pairing (labelled
    with its games from ``sizes``), with 95 % bands; the x axis stops where 99.5 % of every
    pairing's games score less."""
    fig, ax = new_figure()
    width = int(df.game_score.iloc[1] - df.game_score.iloc[0]) if len(df) > 1 else 100
    right = 0
    for pairing, g in df.groupby("pairing", sort=False):
        step_band(ax, g.game_score, 100 * g.share, 100 * g.share_lo, 100 * g.share_hi, sized(pairing, sizes, "games"),
                  width)
        tail = g.share[::-1].cumsum()[::-1]              # share of games from this bin up
        right = max(right, g.game_score[tail >= 0.005].max() + width)
    ax.set_xlim(0, right)
    ax.set_xlabel(f"winner's game score (points; bins of {width}; cut where 99.5 % of games score less)")
    ax.set_ylabel("share of decided games (%; a draw has no winner)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(title="pairing (band: 95% CI)")
    fig.tight_layout()
    return fig
