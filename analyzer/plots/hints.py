"""The hints against strong play (``bezique hints``): each hint's agreement with the strong
players and what following it costs where they do not, with 95 % intervals."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..numbers import count
from ..words import hint_name
from .figure import new_figure


def hints_chart(table: pd.DataFrame, title: str, unit: str) -> Figure:
    """Two panels over the hints that apply at least once (rows of ``studies/hints/study.hint_table``
    over all decisions): the share of those decisions where the strong players make the hint's
    choice; and in ``unit`` the cost of following it where they do not (their choice's value
    over the hint's) beside the worth of following it against ignoring it; each with its
    interval. Each hint is named in words (:func:`analyzer.words.hint_name`), with the decisions
    where it applies."""
    top = table[(table.stage == "all") & (table.applies > 0)]
    y = np.arange(len(top))
    fig, axes = new_figure(12, 1.4 + 0.6 * max(len(top), 2), ncols=2, sharey=True, layout="constrained")
    agree, cost = axes
    agree.errorbar(100 * top.agree, y, xerr=[100 * (top.agree - top.agree_lo), 100 * (top.agree_hi - top.agree)],
                   fmt="o", capsize=3)
    agree.axvline(50, color="grey", lw=0.8, ls=":")
    agree.set_xlim(0, 100)
    agree.set_xlabel("strong play makes the hint's choice (% of decisions where it applies)")
    agree.set_yticks(y, [f"{hint_name(h)}\n({count(n)} decisions)" for h, n in zip(top.hint, top.applies)])
    agree.invert_yaxis()
    ok = np.isfinite(top.cost_of_following.to_numpy(float))
    c = top[ok]
    cost.errorbar(c.cost_of_following, y[ok], xerr=[c.cost_of_following - c.cost_of_following_lo,
                                                     c.cost_of_following_hi - c.cost_of_following],
                  fmt="o", color="C3", capsize=3)
    g = top[np.isfinite(top.gain.to_numpy(float))]
    yg = y[np.isfinite(top.gain.to_numpy(float))] + 0.2
    cost.errorbar(g.gain, yg, xerr=[g.gain - g.gain_lo, g.gain_hi - g.gain], fmt="s", color="grey", capsize=3,
                  label="following it against ignoring it")
    cost.lines[0].set_label("strong play's choice against following it, where it does not")
    cost.axvline(0, color="grey", lw=0.8)
    cost.set_xlabel(f"{unit} a decision, where the hint applies")
    fig.legend(loc="outside lower center", ncols=2, fontsize="small")
    fig.suptitle(title)
    return fig
