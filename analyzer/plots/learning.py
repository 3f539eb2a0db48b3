"""The learned player's learning curve: its result against the teacher on held-out deals, by
training step, with 95 % intervals."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .figure import new_figure


def learning_curve_chart(curve: pd.DataFrame, unit: str, title: str, opponent: str) -> Figure:
    """Mean result against ``opponent`` (``unit``) by self-play hands, with its interval; the
    rows without a measurement are left out."""
    fig, ax = new_figure()
    df = curve.dropna(subset=["vs_teacher"])
    x = df["hands"].to_numpy(dtype=float)
    y = df["vs_teacher"].to_numpy(dtype=float)
    err = np.clip(np.vstack([y - df["vs_teacher_lo"].to_numpy(), df["vs_teacher_hi"].to_numpy() - y]), 0, None)
    ax.errorbar(x, y, yerr=err, fmt="o-", capsize=4, label=f"learned against {opponent}")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("self-play hands played in training")
    ax.set_ylabel(f"mean difference ({unit})")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def rounds_chart(rounds: list[tuple[str, pd.DataFrame, float]], unit: str, title: str, opponent: str) -> Figure:
    """The learning curves of successive training runs on one axis: each (label, curve, offset)
    drawn from ``offset`` self-play hands on (a round of policy iteration starts where the run it
    improves on ended), with its intervals; each run's points are on its own held-out deals."""
    fig, ax = new_figure(8.5, 4.8)
    for label, curve, offset in rounds:
        df = curve.dropna(subset=["vs_teacher"])
        x = offset + df["hands"].to_numpy(dtype=float)
        y = df["vs_teacher"].to_numpy(dtype=float)
        err = np.clip(np.vstack([y - df["vs_teacher_lo"].to_numpy(), df["vs_teacher_hi"].to_numpy() - y]), 0, None)
        ax.errorbar(x, y, yerr=err, fmt="o-", capsize=3, ms=4, label=label)
        ax.axvline(offset, color="grey", lw=0.6, ls=":")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("self-play hands played in training, over the rounds")
    ax.set_ylabel(f"against {opponent} ({unit})")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig
