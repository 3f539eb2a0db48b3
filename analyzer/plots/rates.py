"""Rates and odds with their 95 % intervals: deal-time odds, béziques by trick,
combinations, rubicons, brisques and the length of a game."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ..numbers import count, share
from ..words import combination_name, event_name
from .figure import (
    bars,
    dots,
    drawn_handles,
    new_figure,
    note_cut_axis,
    percent_axis,
    sized,
    sizes_text,
)


def odds_chart(df: pd.DataFrame, title: str) -> Figure:
    """Every event of the odds table: the exact probability (black bar) and the simulated
    frequency (dot) with its 95 % interval, in per cent (on a log scale when they span
    decades); an event never seen in the simulation shows its interval's upper bound
    (hollow triangle). Each event is named in words (:func:`analyzer.words.event_name`) with
    its sample."""
    fig, ax = new_figure(9, 0.42 * len(df) + 2.2, layout="constrained")
    y = np.arange(len(df))
    sim, lo, hi, exact = (100 * df[c].to_numpy(dtype=float)
                          for c in ("simulated", "simulated_lo", "simulated_hi", "exact_decimal"))
    seen = sim > 0
    ax.errorbar(sim[seen], y[seen], xerr=np.clip([sim[seen] - lo[seen], hi[seen] - sim[seen]], 0, None),
                fmt="o", ms=5, capsize=3, color="tab:blue", label="simulated (95% CI)")
    if (~seen & (hi > 0)).any():
        ax.plot(hi[~seen & (hi > 0)], y[~seen & (hi > 0)], "<", mfc="none", color="tab:blue",
                label="never seen: 95% upper bound")
    ax.plot(exact, y, "|", color="black", ms=16, mew=2, label="exact", zorder=1)
    percent_axis(ax, "x", [sim, hi, exact], "probability")
    ax.set_yticks(y, [f"{event_name(e)} (n = {count(n)})" for e, n in zip(df.event, df["sample"])])
    ax.invert_yaxis()
    fig.suptitle(title)
    ax.grid(axis="x", alpha=0.3, which="both")
    fig.legend(*drawn_handles(ax), loc="outside lower center", ncols=3, fontsize=9)
    return fig


def bezique_by_trick_chart(df: pd.DataFrame, title: str, sizes: dict | None = None) -> Figure:
    """Per bézique level: the cumulative share of a seat's hands in which it has scored the
    bézique (solid) and held all its cards (dashed) by each trick, per policy, with 95 %
    bands, under the exact chance of having received the cards (black), in per cent (on a log
    scale when they span decades); ``sizes`` (policy -> hands) said in the legend's title."""
    levels = list(dict.fromkeys(df.level))
    fig, axes = new_figure(max(6.5 * len(levels), 9), 6, ncols=len(levels), squeeze=False,
                           layout="constrained")
    for ax, lv in zip(axes[0], levels):
        d = df[df.level == lv]
        for policy, g in d.groupby("policy", sort=False):
            c = None
            for key, ls, alpha, what in (("scored", "-", 0.2, "scored"), ("held", "--", 0.12, "held all its cards")):
                seen = g[key] > 0            # nothing seen yet: no point on a log scale
                line, = ax.plot(g.trick[seen], 100 * g[key][seen], color=c, ls=ls, label=f"{policy}: {what}")
                c = line.get_color()
                ax.fill_between(g.trick[seen], 100 * g[f"{key}_lo"][seen], 100 * g[f"{key}_hi"][seen],
                                color=c, alpha=alpha, lw=0)
        bound = d.drop_duplicates("trick")
        ax.plot(bound.trick, 100 * bound.received_exact, color="black", lw=1.5,
                label="received all its cards (exact)")
        seen = 100 * d[["scored", "held"]].to_numpy()
        if percent_axis(ax, "y", [seen, 100 * bound.received_exact], f"seat's hands with a {lv} bézique so far") \
                and (seen > 0).any():
            ax.set_ylim(bottom=seen[seen > 0].min() / 3)    # below one hand: noise of the band
        ax.set_xlabel("tricks played (0: the deal; to the end of the first stage)")
        ax.set_title(f"{lv} bézique")
        ax.grid(alpha=0.3, which="both")
    hands = sizes_text(sizes, list(dict.fromkeys(df.policy)))
    fig.legend(*drawn_handles(*axes[0]), title="policy (self-play; band: 95% CI)" + (f"\n{hands}" if hands else ""),
               loc="outside lower center", ncol=2 * len(levels), fontsize=9)
    fig.suptitle(title)
    return fig


def combinations_chart(df: pd.DataFrame, title: str, sizes: dict | None = None) -> Figure:
    """Per combination category (in words) and policy: the share of a seat's hands in which it
    declared one at least once, with its 95 % interval, in per cent (on a log scale when they
    span decades); a category a policy never declared shows its interval's upper bound (hollow
    triangle, in the legend only if one is drawn); ``sizes``: policy -> its hands, in the legend."""
    combos = list(dict.fromkeys(df.combination))
    policies = list(dict.fromkeys(df.policy))
    fig, ax = new_figure(9, 0.45 * len(combos) + 2.6, layout="constrained")
    step = 0.7 / max(len(policies), 1)
    shown, unseen = [], False
    for i, policy in enumerate(policies):
        g = df[df.policy == policy].set_index("combination").reindex(combos)
        y = np.arange(len(combos)) + (i - (len(policies) - 1) / 2) * step
        seen = g.declared_share.to_numpy() > 0
        x, lo, hi = (100 * g[c].to_numpy() for c in ("declared_share", "declared_share_lo", "declared_share_hi"))
        marks = ax.errorbar(x[seen], y[seen], xerr=np.clip([x[seen] - lo[seen], hi[seen] - x[seen]], 0, None),
                            fmt="o", ms=4, capsize=3, label=sized(policy, sizes))
        ax.plot(hi[~seen], y[~seen], "<", mfc="none", color=marks[0].get_color())
        shown += [x[seen], hi[~seen]]
        unseen |= bool((~seen).any())
    percent_axis(ax, "x", shown, "seat's hands in which it declares the combination at least once")
    ax.set_yticks(np.arange(len(combos)), [combination_name(c) for c in combos])
    ax.invert_yaxis()
    fig.suptitle(title)
    ax.grid(axis="x", alpha=0.3, which="both")
    handles, labels = drawn_handles(ax)
    if unseen:
        handles.append(Line2D([], [], ls="none", marker="<", mfc="none", color="grey"))
        labels.append("none seen: 95% upper bound")
    fig.legend(handles, labels, title="policy (self-play; bars: 95% CI)", fontsize=9, loc="outside lower center",
               ncols=3)
    return fig


def _by_pairing(df: pd.DataFrame, sizes: dict | None, unit: str):
    """A row of two panels, one line per pairing from the top (its label on the left, with its
    own number of ``unit`` from ``sizes``): the figure and its axes."""
    fig, axes = new_figure(12, 1.2 + 0.45 * max(len(df), 3), ncols=2, sharey=True, layout="constrained")
    return fig, axes, [sized(p, sizes, unit) for p in df.pairing]


def _percent(v: float) -> str:
    """A value in per cent as a share's text ("81.8 %")."""
    return share(v / 100)


def rubicon_rate_chart(df: pd.DataFrame, title: str, sizes: dict | None = None) -> Figure:
    """Rubicon rate and share saved by brisques, per pairing (``sizes``: pairing -> its games),
    with 95 % intervals, each axis fitted to its values (the rates are near 99 %; an axis that
    leaves 0 out says so)."""
    fig, axes, labels = _by_pairing(df, sizes, "games")
    dots(axes[0], labels, 100 * df.rubicon_rate, 100 * df.rubicon_rate_lo, 100 * df.rubicon_rate_hi, text=_percent)
    axes[0].set_xlabel("games whose loser is rubiconed (%)")
    axes[0].set_title("rubicon rate")
    dots(axes[1], labels, 100 * df.saved_by_brisques, 100 * df.saved_by_brisques_lo,
         100 * df.saved_by_brisques_hi, color="tab:green", text=_percent)
    axes[1].set_xlabel("games saved from the rubicon by brisques (%)")
    axes[1].set_title("saved by brisques")
    for ax in axes:
        note_cut_axis(ax, "x")
    fig.suptitle(title + "; bars: 95% CI")
    return fig


def brisque_chart(df: pd.DataFrame, rubicon: bool, title: str, sizes: dict | None = None) -> Figure:
    """The final margin per brisque won by seat 0 (regression slope) and the share of hands
    (Rubicon: games) whose winner changes when brisques are counted, per pairing (``sizes``:
    pairing -> its hands), with 95 % intervals. (Seat 0's brisques won are not shown: in
    self-play they are fixed by symmetry.)"""
    unit = "games" if rubicon else "hands"
    fig, axes, labels = _by_pairing(df, sizes, unit)
    bars(axes[0], labels, df.margin_per_brisque, df.margin_per_brisque_lo, df.margin_per_brisque_hi,
         color="tab:orange")
    if rubicon:
        axes[0].set_xlabel("game points for seat 0 per brisque it wins")
        axes[0].set_title("association of brisques with the game score\n(brisques do not score, R3.8)")
    else:
        axes[0].set_xlabel("margin (seat 0 − seat 1, points) per brisque won by seat 0")
        axes[0].set_title("value of a brisque won (regression slope)")
        axes[0].axvline(20, color="black", ls="--", lw=1, label="its own 20 points (10 won, 10 denied)")
        fig.legend(loc="outside lower left", fontsize=9)
    bars(axes[1], labels, 100 * df.winner_changes, 100 * df.winner_changes_lo, 100 * df.winner_changes_hi,
         text=_percent)
    axes[1].set_xlabel(f"{unit} whose winner changes (%)")
    axes[1].set_title("winner changes when brisques are counted")
    fig.suptitle(title + "; bars: 95% CI")
    return fig


def game_length_chart(df: pd.DataFrame, title: str, sizes: dict | None = None) -> Figure:
    """Mean hands needed to reach 1000, 1500 and 2000, per policy (``sizes``: policy -> the
    hands it played, in the legend), with 95% CIs."""
    fig, ax = new_figure()
    policies = list(dict.fromkeys(df.policy))
    width = 0.8 / max(len(policies), 1)
    for i, policy in enumerate(policies):
        g = df[df.policy == policy]
        x = np.arange(len(g)) + i * width
        err = np.clip(np.vstack([g.mean_hands - g.mean_hands_lo, g.mean_hands_hi - g.mean_hands]), 0, None)
        ax.bar(x, g.mean_hands, width, yerr=err,
               capsize=4, label=sized(policy, sizes))
    ax.set_xticks(np.arange(len(df.target.unique())) + width * (len(policies) - 1) / 2,
                  [f"to {count(t)}" for t in df.target.unique()])
    ax.set_xlabel("game target (points, R2.24)")
    ax.set_ylabel("hands per game (mean, 95% CI)")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="policy (self-play)")
    fig.tight_layout()
    return fig


def win_chance_chart(df: pd.DataFrame, title: str) -> Figure:
    """The chance of winning the game by the score difference to the best other side, one
    line per number of hands played so far, with 95 % bands (points seen under 30 times
    are left out: their intervals say nothing)."""
    fig, ax = new_figure()
    for after, g in df[df.situations >= 30].groupby("after_hand", sort=False):
        line, = ax.plot(g.difference, 100 * g.chance, marker=".", label=f"after hand {after}")
        ax.fill_between(g.difference, 100 * g.chance_lo, 100 * g.chance_hi, color=line.get_color(),
                        alpha=0.15, lw=0)
    ax.axhline(50, color="grey", lw=0.8, ls=":")
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set_ylim(0, 100)
    ax.set_xlabel("game score difference to the best other side (points)")
    ax.set_ylabel("chance of winning the game, % (95% CI)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if ax.lines[2:]:                   # beyond the two reference lines
        ax.legend(fontsize="small")
    else:
        ax.text(0.5, 0.5, "too few games for any point (30 situations each)", transform=ax.transAxes,
                ha="center")
    fig.tight_layout()
    return fig
