"""Making and saving figures, and the marks several charts share (bands, bars, dots)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from ..run.output import save_figure, wanted


def new_figure(width: float = 8, height: float = 4.5, ncols: int = 1, **kw):
    """A pyplot-free Figure ``width`` x ``height`` inches and its axes (one, or a row of
    ``ncols``; ``kw`` goes to :meth:`Figure.subplots`)."""
    layout = kw.pop("layout", None)
    fig = Figure(figsize=(width, height), layout=layout)
    return fig, fig.subplots(1, ncols, **kw)


def save_chart(fig: Figure, out_dir, name: str, formats=("png", "svg")) -> list[Path]:
    """Write ``fig`` as ``name.png`` and ``name.svg`` (or ``formats``; only those chosen by
    :func:`analyzer.run.output.use_formats`) in ``out_dir``, atomically; return the paths."""
    return [save_figure(fig, Path(out_dir) / f"{name}.{ext}") for ext in formats if wanted(ext)]


def step_band(ax, x, y, lo, hi, label, width):
    """A histogram as a step line (bins ``width`` wide from the lower edges ``x``) with its 95 %
    band; NaN leaves a gap. Returns the line."""
    x = np.append(np.asarray(x, dtype=float), np.asarray(x)[-1] + width)
    y, lo, hi = (np.append(np.asarray(v, dtype=float), np.asarray(v)[-1]) for v in (y, lo, hi))
    line, = ax.step(x, y, where="post", label=label)
    ax.fill_between(x, lo, hi, step="post", color=line.get_color(), alpha=0.2, lw=0)
    return line


def bars(ax, labels, y, lo, hi, color="tab:blue"):
    """Bars with their 95 % intervals, each labelled with its value."""
    y, lo, hi = (np.asarray(v, dtype=float) for v in (y, lo, hi))
    err = np.clip(np.vstack([y - lo, hi - y]), 0, None)   # rounding can leave -1e-15 at 0 % or 100 %
    ax.bar(labels, y, yerr=err, capsize=5, color=color)
    ax.grid(axis="y", alpha=0.3)
    for i, v in enumerate(y):
        ax.annotate(f"{v:.3g}", (i, hi[i]), textcoords="offset points", xytext=(0, 4), ha="center", fontsize=9)
    ax.set_ylim(top=max(np.nanmax(hi), 0) * 1.12 or None)     # room for the labels


def dots(ax, labels, y, lo, hi, color="tab:blue"):
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
