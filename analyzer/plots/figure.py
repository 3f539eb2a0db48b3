"""Making and saving figures, the marks several charts share (bands, bars, dots), the
percentage axes, legends of what was drawn, and the rule set's name for a title."""
from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from ..rules import PRESETS, RuleSet
from ..run.output import FORMATS, save_figure, use_formats, wanted

LOG_SPAN = 30           # percentages spanning more than this factor go on a log axis
MAX_CHANGES = 4         # rule changes a title names before "+N more"


def rules_title(rules: RuleSet) -> str:
    """The rule set for a title: its preset ("ordinary bézique") and the options changed from
    it, as ``--rule`` takes them ("ordinary bézique, hand_size=9")."""
    base = PRESETS[rules.name]
    changes = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.describe().items()
               if getattr(base, k) != v]
    if len(changes) > MAX_CHANGES:
        changes = changes[:MAX_CHANGES - 1] + [f"+{len(changes) - MAX_CHANGES + 1} more options"]
    return ", ".join([f"{rules.name} bézique", *changes])


def percent_text(v: float, _pos=None) -> str:
    """A tick label for ``v`` per cent: "0.1 %", "25 %"; below 0.001 % a power of ten ("10⁻⁵ %")."""
    if v >= 1e-3 or v <= 0:
        return f"{v:g} %"
    mantissa, exponent = f"{v:.0e}".split("e")
    factor = "" if mantissa == "1" else mantissa + r"\times"
    return f"${factor}10^{{{int(exponent)}}}$ %"


def percent_axis(ax, axis: str, values, label: str) -> bool:
    """Put the percentages ``values`` (an array or a list of them) on ``ax``'s ``axis`` ("x" or "y"), labelled ``label``: a
    linear axis ("label (%)") unless the positive values span more than LOG_SPAN times, then
    a log axis whose ticks read 0.1 %, 1 %, 10 % ("label (log scale)"). Returns whether log."""
    parts = values if isinstance(values, (list, tuple)) else [values]    # arrays of any shapes
    v = np.concatenate([np.asarray(part, dtype=float).ravel() for part in parts])
    v = v[np.isfinite(v) & (v > 0)]
    log = bool(len(v)) and v.max() > LOG_SPAN * v.min()
    which = ax.xaxis if axis == "x" else ax.yaxis
    (ax.set_xlabel if axis == "x" else ax.set_ylabel)(f"{label} ({'log scale' if log else '%'})")
    if log:
        (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
        few = v.max() < 1e3 * v.min()          # under three decades: 2 and 5 labelled as well
        which.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if few else (1.0,)))
        which.set_major_formatter(FuncFormatter(percent_text))
        which.set_minor_formatter(NullFormatter())
    return log


def _drawn(handle) -> bool:
    """Whether a legend handle has a mark on the axes: a line (or error bars) with a finite point."""
    line = handle.lines[0] if isinstance(handle, ErrorbarContainer) else handle
    if not isinstance(line, Line2D):
        return True
    xy = np.asarray(line.get_xydata(), dtype=float)
    return bool(np.isfinite(xy).all(axis=1).any())


def drawn_handles(*axes) -> tuple[list, list[str]]:
    """The legend handles and labels of ``axes`` for the marks actually drawn (a line with no
    point is left out), each label once."""
    out = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            if label not in out and _drawn(handle):
                out[label] = handle
    return list(out.values()), list(out)


def new_figure(width: float = 8, height: float = 4.5, ncols: int = 1, **kw):
    """A pyplot-free Figure ``width`` x ``height`` inches and its axes (one, or a row of
    ``ncols``; ``kw`` goes to ``Figure.subplots``)."""
    layout = kw.pop("layout", None)
    fig = Figure(figsize=(width, height), layout=layout)
    return fig, fig.subplots(1, ncols, **kw)


def save_chart(fig: Figure, out_dir, name: str, formats=("png", "svg")) -> list[Path]:
    """Write ``fig`` as ``name.png`` and ``name.svg`` (or ``formats``; only those chosen by
    :func:`analyzer.run.output.use_formats`) in ``out_dir``, atomically; return the paths."""
    return [save_figure(fig, Path(out_dir) / f"{name}.{ext}") for ext in formats if wanted(ext)]


def save_charts(jobs: dict, out_dir, processes: int | None = None) -> dict[str, list[Path]]:
    """Draw and write every chart of ``jobs`` (name -> (chart function, its arguments)) into
    ``out_dir`` as :func:`save_chart` does; return the paths by name. The charts are drawn in
    ``processes`` processes at once (None: one per core, as many as there are charts; matplotlib
    draws on one core), forked from this one where the system forks (Linux), else one after
    the other here."""
    processes = min(len(jobs), processes or os.cpu_count() or 1)
    formats = tuple(ext for ext in FORMATS if wanted(ext))
    if processes < 2 or not sys.platform.startswith("linux"):
        return {name: _draw(name, job, out_dir, formats) for name, job in jobs.items()}
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = {name: pool.submit(_draw, name, job, out_dir, formats) for name, job in jobs.items()}
        return {name: future.result() for name, future in futures.items()}


def _draw(name: str, job: tuple, out_dir, formats: tuple) -> list[Path]:
    """One chart of :func:`save_charts`: drawn, then written in ``formats``."""
    function, args = job
    with use_formats(formats):
        return save_chart(function(*args), out_dir, name)


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
