"""The report's charts: titled, axes labelled with units, CI bands or error bars."""
from __future__ import annotations

import numpy as np

from .plots import heatmap_figure, plt, save_figure


def _save(fig, out_dir, name) -> list:
    paths = [save_figure(fig, f"{out_dir}/{name}.{ext}") for ext in ("png", "svg")]
    plt.close(fig)
    return paths


def odds_chart(df, title, out_dir) -> list:
    """Every event of the odds table: the exact probability (black bar) and the simulated
    frequency (dot) with its 95 % interval, on a log scale; an event never seen in the
    simulation shows its interval's upper bound (hollow triangle)."""
    fig, ax = plt.subplots(figsize=(9, 0.42 * len(df) + 1.8))
    y = np.arange(len(df))
    sim, lo, hi = (df[c].to_numpy(dtype=float) for c in ("simulated", "simulated_lo", "simulated_hi"))
    seen = sim > 0
    ax.errorbar(sim[seen], y[seen], xerr=np.clip([sim[seen] - lo[seen], hi[seen] - sim[seen]], 0, None),
                fmt="o", ms=5, capsize=3, color="tab:blue", label="simulated (95% CI)")
    if (~seen & (hi > 0)).any():
        ax.plot(hi[~seen & (hi > 0)], y[~seen & (hi > 0)], "<", mfc="none", color="tab:blue",
                label="never seen: 95% upper bound")
    ax.plot(df.exact_decimal, y, "|", color="black", ms=16, mew=2, label="exact", zorder=1)
    ax.set_xscale("log")
    ax.set_yticks(y, [f"{e.replace('_', ' ')} (n = {n:,})" for e, n in zip(df.event, df["sample"])])
    ax.invert_yaxis()
    ax.set_xlabel("probability (log scale)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3, which="both")
    ax.legend(fontsize=9)
    fig.tight_layout()
    return _save(fig, out_dir, "odds")


def bezique_by_trick_chart(df, title, out_dir) -> list:
    """Per bézique level: the cumulative share of a seat's hands in which it has scored the
    bézique (solid) and held all its cards (dashed) by each trick, per policy, with 95 %
    bands, under the exact chance of having received the cards (black), on a log scale."""
    levels = list(dict.fromkeys(df.level))
    fig, axes = plt.subplots(1, len(levels), figsize=(max(6.5 * len(levels), 9), 6), squeeze=False,
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
        ax.set_yscale("log")
        seen = d[["scored", "held"]].to_numpy()
        if (seen > 0).any():
            ax.set_ylim(bottom=100 * seen[seen > 0].min() / 3)    # below one hand: noise of the band
        ax.set_xlabel("tricks played (0: the deal; to the end of the first stage)")
        ax.set_ylabel(f"seat's hands with a {lv} bézique so far (%, log scale)")
        ax.set_title(f"{lv} bézique")
        ax.grid(alpha=0.3, which="both")
    fig.legend(*axes[0][0].get_legend_handles_labels(), title="policy (self-play; band: 95% CI)",
               loc="outside lower center", ncol=2 * len(levels), fontsize=9)
    fig.suptitle(title)
    return _save(fig, out_dir, "double_bezique_by_trick")


def _step_band(ax, x, y, lo, hi, label, width):
    """A histogram as a step line (bins ``width`` wide from the lower edges ``x``) with its 95 %
    band; NaN leaves a gap."""
    x = np.append(np.asarray(x, dtype=float), np.asarray(x)[-1] + width)
    y, lo, hi = (np.append(np.asarray(v, dtype=float), np.asarray(v)[-1]) for v in (y, lo, hi))
    line, = ax.step(x, y, where="post", label=label)
    ax.fill_between(x, lo, hi, step="post", color=line.get_color(), alpha=0.2, lw=0)
    return line


def score_distribution_chart(df, width, title, out_dir) -> list:
    """Share of a seat's hands by hand-score bin, one line per policy, with 95 % bands; the
    x axis stops where 99 % of every policy's hands have scored less (the tail is in
    :func:`score_at_least_chart`)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    right = 0
    for policy, g in df.groupby("policy", sort=False):
        _step_band(ax, g.score, 100 * g.share, 100 * g.share_lo, 100 * g.share_hi, policy, width)
        right = max(right, g.score[g.at_least >= 0.01].max() + width)
    ax.set_xlim(0, right)
    ax.set_xlabel(f"hand score (points; bins of {width}; cut where 99 % of hands score less)")
    ax.set_ylabel("share of a seat's hands (%)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(title="policy (self-play; band: 95% CI)")
    fig.tight_layout()
    return _save(fig, out_dir, "score_distribution")


def score_at_least_chart(df, title, out_dir) -> list:
    """P(hand score >= x) per policy on a log scale, with 95 % bands."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for policy, g in df.groupby("policy", sort=False):
        line, = ax.plot(g.score, 100 * g.at_least, label=policy)
        ax.fill_between(g.score, 100 * g.at_least_lo, 100 * g.at_least_hi, color=line.get_color(), alpha=0.2, lw=0)
    ax.set_yscale("log")
    ax.set_xlabel("hand score x (points)")
    ax.set_ylabel("seat's hands scoring x or more (%, log scale)")
    ax.set_title(title)
    ax.grid(alpha=0.3, which="both")
    ax.legend(title="policy (self-play; band: 95% CI)")
    fig.tight_layout()
    return _save(fig, out_dir, "score_at_least")


def _bars(ax, labels, y, lo, hi, color="tab:blue"):
    y, lo, hi = (np.asarray(v, dtype=float) for v in (y, lo, hi))
    err = np.clip(np.vstack([y - lo, hi - y]), 0, None)   # rounding can leave -1e-15 at 0 % or 100 %
    ax.bar(labels, y, yerr=err, capsize=5, color=color)
    ax.grid(axis="y", alpha=0.3)
    for i, v in enumerate(y):
        ax.annotate(f"{v:.3g}", (i, hi[i]), textcoords="offset points", xytext=(0, 4), ha="center", fontsize=9)
    ax.set_ylim(top=max(np.nanmax(hi), 0) * 1.12 or None)     # room for the labels


def _dots(ax, labels, y, lo, hi, color="tab:blue"):
    """One dot per label with its 95 % interval (percentages), the axis fitted to the
    intervals (not from 0) within 0-100."""
    y, lo, hi = (np.asarray(v, dtype=float) for v in (y, lo, hi))
    x = np.arange(len(y))
    ax.errorbar(x, y, yerr=np.clip(np.vstack([y - lo, hi - y]), 0, None), fmt="o", capsize=5, color=color,
                clip_on=False)
    ax.set_xticks(x, labels)
    ax.set_xlim(-0.5, len(y) - 0.5)
    pad = 0.15 * max(np.nanmax(hi) - np.nanmin(lo), 1e-6)
    ax.set_ylim(max(np.nanmin(lo) - pad, 0), min(np.nanmax(hi) + pad, 100))
    ax.grid(axis="y", alpha=0.3)
    for i, v in enumerate(y):
        ax.annotate(f"{v:.4g}", (i, v), textcoords="offset points", xytext=(8, 0), va="center", fontsize=9)


def rubicon_rate_chart(df, title, out_dir) -> list:
    """Rubicon rate and share saved by brisques, per pairing, with 95 % intervals, each axis
    fitted to its values (the rates are near 99 %)."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    _dots(axes[0], df.pairing, 100 * df.rubicon_rate, 100 * df.rubicon_rate_lo, 100 * df.rubicon_rate_hi)
    axes[0].set_ylabel("games whose loser is rubiconed (%)")
    axes[0].set_title("rubicon rate (axis not from 0)")
    _dots(axes[1], df.pairing, 100 * df.saved_by_brisques, 100 * df.saved_by_brisques_lo,
          100 * df.saved_by_brisques_hi, color="tab:green")
    axes[1].set_ylabel("games saved from the rubicon by brisques (%)")
    axes[1].set_title("saved by brisques")
    for ax in axes:
        ax.tick_params(axis="x", rotation=15)
    fig.suptitle(title + "; bars: 95% CI")
    fig.tight_layout()
    return _save(fig, out_dir, "rubicon_rates")


def loser_total_chart(df, width, title, out_dir) -> list:
    """The Rubicon game loser's total by bin, per pairing, with 95 % bands and the 1000
    line, on a log scale (the games near and over 1000 are few)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for pairing, g in df.groupby("pairing", sort=False):
        r = g.iloc[0]
        share = np.where(g.games > 0, 100 * g.share, np.nan)         # none: a gap on the log scale
        _step_band(ax, g.score, share, 100 * g.share_lo, 100 * g.share_hi,
                   f"{pairing} (under 1000: {100 * r.under_1000:.3f} %)", width)
    ax.axvline(1000, color="black", ls="--", lw=1)
    ax.annotate("1000: under it, even with his\nbrisques, the loser is\nrubiconed (R3.9)", (1000, 0.97),
                xycoords=("data", "axes fraction"), xytext=(6, 0), textcoords="offset points", va="top", fontsize=9)
    ax.set_yscale("log")
    ax.set_xlim(0, max(df.score.max() + width, 1000 + 3 * width))
    ax.set_xlabel(f"the game loser's total without brisques (points; bins of {width})")
    ax.set_ylabel("share of games (%, log scale)")
    ax.set_title(title)
    ax.grid(alpha=0.3, which="both")
    ax.legend(title="pairing (band: 95% CI)", fontsize=9, loc="lower left")
    fig.tight_layout()
    return _save(fig, out_dir, "loser_totals")


def game_score_chart(df, title, out_dir) -> list:
    """Distribution of the winner's game score, per pairing, with 95 % bands; the x axis
    stops where 99.5 % of every pairing's games score less."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = int(df.game_score.iloc[1] - df.game_score.iloc[0]) if len(df) > 1 else 100
    right = 0
    for pairing, g in df.groupby("pairing", sort=False):
        _step_band(ax, g.game_score, 100 * g.share, 100 * g.share_lo, 100 * g.share_hi, pairing, width)
        tail = g.share[::-1].cumsum()[::-1]              # share of games from this bin up
        right = max(right, g.game_score[tail >= 0.005].max() + width)
    ax.set_xlim(0, right)
    ax.set_xlabel(f"winner's game score (points; bins of {width}; cut where 99.5 % of games score less)")
    ax.set_ylabel("share of games (%)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(title="pairing (band: 95% CI)")
    fig.tight_layout()
    return _save(fig, out_dir, "game_scores")


def brisque_chart(df, rubicon, title, out_dir) -> list:
    """The final margin per brisque won by seat 0 (regression slope) and the share of hands
    (Rubicon: games) whose winner changes when brisques are counted, per pairing, with 95 %
    intervals. (Seat 0's brisques won are not shown: in self-play they are fixed by symmetry.)"""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    _bars(axes[0], df.pairing, df.margin_per_brisque, df.margin_per_brisque_lo, df.margin_per_brisque_hi,
          color="tab:orange")
    if rubicon:
        axes[0].set_ylabel("game points for seat 0 per brisque it wins")
        axes[0].set_title("association of brisques with the game score\n(brisques do not score, R3.8)")
    else:
        axes[0].set_ylabel("margin (seat 0 − seat 1, points)\nper brisque won by seat 0")
        axes[0].set_title("value of a brisque won (regression slope)")
        axes[0].axhline(20, color="black", ls="--", lw=1, label="its own 20 points (10 won, 10 denied)")
        axes[0].legend(loc="lower right")
    _bars(axes[1], df.pairing, 100 * df.winner_changes, 100 * df.winner_changes_lo, 100 * df.winner_changes_hi)
    axes[1].set_ylabel(f"{'games' if rubicon else 'hands'} whose winner changes (%)")
    axes[1].set_title("winner changes when brisques are counted")
    for ax in axes:
        ax.tick_params(axis="x", rotation=15)
    fig.suptitle(title + "; bars: 95% CI")
    fig.tight_layout()
    return _save(fig, out_dir, "brisque_value")


def game_length_chart(df, title, out_dir) -> list:
    """Mean hands needed to reach 1000, 1500 and 2000, per policy, with 95% CIs."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    policies = list(dict.fromkeys(df.policy))
    width = 0.8 / max(len(policies), 1)
    for i, policy in enumerate(policies):
        g = df[df.policy == policy]
        x = np.arange(len(g)) + i * width
        err = np.clip(np.vstack([g.mean_hands - g.mean_hands_lo, g.mean_hands_hi - g.mean_hands]), 0, None)
        ax.bar(x, g.mean_hands, width, yerr=err,
               capsize=4, label=policy)
    ax.set_xticks(np.arange(len(df.target.unique())) + width * (len(policies) - 1) / 2,
                  [f"to {t}" for t in df.target.unique()])
    ax.set_ylabel("hands per game (mean, 95% CI)")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="policy (self-play)")
    fig.tight_layout()
    return _save(fig, out_dir, "game_length")


def combinations_chart(df, title, out_dir) -> list:
    """Per combination category and policy: the share of a seat's hands in which it declared
    one at least once, with its 95 % interval, on a log scale; a category a policy never
    declared shows its interval's upper bound (hollow triangle)."""
    combos = list(dict.fromkeys(df.combination))
    policies = list(dict.fromkeys(df.policy))
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(combos) + 2))
    step = 0.7 / max(len(policies), 1)
    for i, policy in enumerate(policies):
        g = df[df.policy == policy].set_index("combination").reindex(combos)
        y = np.arange(len(combos)) + (i - (len(policies) - 1) / 2) * step
        seen = g.declared_share.to_numpy() > 0
        x, lo, hi = (100 * g[c].to_numpy() for c in ("declared_share", "declared_share_lo", "declared_share_hi"))
        bars = ax.errorbar(x[seen], y[seen], xerr=np.clip([x[seen] - lo[seen], hi[seen] - x[seen]], 0, None),
                           fmt="o", ms=4, capsize=3, label=policy)
        ax.plot(hi[~seen], y[~seen], "<", mfc="none", color=bars[0].get_color())
    ax.set_xscale("log")
    ax.set_yticks(np.arange(len(combos)), [c.replace("_", " ") for c in combos])
    ax.invert_yaxis()
    ax.set_xlabel("seat's hands in which it declares the combination at least once (%, log scale)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3, which="both")
    ax.legend(title="policy (self-play; bars: 95% CI;\n◁ none seen: upper bound)", fontsize=9)
    fig.tight_layout()
    return _save(fig, out_dir, "combinations")


def pairwise_chart(pairs, names, unit, title, out_dir) -> list:
    """The row policy's share of the ``unit`` (hands or games) won against the column policy
    (wins + half the draws), with 95 % intervals."""
    fig = heatmap_figure(pairs, names, "score_a", f"row's share of {unit} won, wins + ½ draws (%)", title)
    return _save(fig, out_dir, "pairwise")
