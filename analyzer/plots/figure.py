"""Making and saving figures, the marks several charts share (bands, bars, dots), the
percentage axes, legends of what was drawn, and the rule set's name for a title.

What a chart writes follows the pages: names in words (:mod:`analyzer.words`), figures in one
format each (:mod:`analyzer.numbers`), each series with its own sample size (:func:`sized`), and
a value axis that leaves 0 out says so (:func:`note_cut_axis`)."""
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

from ..numbers import count, points
from ..rules import PRESETS, RuleSet
from ..run.output import FORMATS, save_figure, use_formats, wanted

LOG_SPAN = 30           # percentages spanning more than this factor go on a log axis
MAX_CHANGES = 4         # rule changes a title names before "+N more"
CUT = "axis does not start at 0"


def sized(label: str, sizes: dict | None, unit: str = "hands") -> str:
    """A series' label with its own sample size when ``sizes`` (label -> count) has it:
    "learned (16,000 hands)"; else the label as it is."""
    return f"{label} ({count(sizes[label])} {unit})" if sizes and label in sizes else label


def sizes_text(sizes: dict | None, names, unit: str = "hands") -> str:
    """The sample sizes of the series ``names`` in a few words, where ``sizes`` has them:
    "100,000 hands each", or "16,000 hands: learned, learned:player=2; 100,000 hands: hints"."""
    groups = {}
    for name in names:
        if sizes and name in sizes:
            groups.setdefault(sizes[name], []).append(name)
    if len(groups) == 1:
        return f"{count(next(iter(groups)))} {unit} each"
    return "; ".join(f"{count(n)} {unit}: {', '.join(group)}" for n, group in groups.items())


def note_cut_axis(ax, axis: str = "y") -> bool:
    """Say under ``ax``'s ``axis`` ("x" or "y") label that the axis does not start at 0, when it
    is linear and its view leaves 0 out (a difference small against its interval would look
    large); returns whether it does. Call it once the axis's limits are final."""
    linear = (ax.get_xscale() if axis == "x" else ax.get_yscale()) == "linear"
    lo, hi = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    cut = linear and (lo > 0 or hi < 0)
    if cut:
        label = (ax.xaxis if axis == "x" else ax.yaxis).label
        label.set_text(f"{label.get_text()}\n({CUT})" if label.get_text() else CUT)
    return cut


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
    linear axis from 0 ("label (%)") unless the positive values span more than LOG_SPAN times, then
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
    else:
        (ax.set_xlim if axis == "x" else ax.set_ylim)(0, None)
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


def bars(ax, labels, x, lo, hi, color="tab:blue", text=points):
    """Horizontal bars from 0, one per label from the top, with their 95 % intervals, each
    labelled with its value in ``text`` (a format of :mod:`analyzer.numbers`)."""
    x, lo, hi = (np.asarray(v, dtype=float) for v in (x, lo, hi))
    y = np.arange(len(x))
    err = np.clip(np.vstack([x - lo, hi - x]), 0, None)   # rounding can leave -1e-15 at 0 % or 100 %
    ax.barh(y, x, xerr=err, capsize=4, color=color)
    ax.set_yticks(y, labels)
    ax.set_ylim(len(y) - 0.5, -0.5)            # the first label at the top (not invert_yaxis: axes may share y)
    ax.grid(axis="x", alpha=0.3)
    for i, v in enumerate(x):
        ax.annotate(text(v), (max(hi[i], v), i), textcoords="offset points", xytext=(4, 0), va="center", fontsize=8)
    left, right = min(np.nanmin(lo), 0), max(np.nanmax(hi), 0)
    ax.set_xlim(left, right + 0.2 * (right - left or 1))     # room for the labels


def dots(ax, labels, x, lo, hi, color="tab:blue", text=points):
    """One dot per label from the top with its 95 % interval (percentages), the axis fitted
    to the intervals within 0-100 (said under its label when it leaves 0 out: call
    :func:`note_cut_axis` once it is labelled), each dot labelled with its value in ``text``."""
    x, lo, hi = (np.asarray(v, dtype=float) for v in (x, lo, hi))
    y = np.arange(len(x))
    ax.errorbar(x, y, xerr=np.clip(np.vstack([x - lo, hi - x]), 0, None), fmt="o", capsize=4, color=color,
                clip_on=False)
    ax.set_yticks(y, labels)
    ax.set_ylim(len(y) - 0.5, -0.5)            # the first label at the top
    pad = 0.15 * max(np.nanmax(hi) - np.nanmin(lo), 1e-6)
    left, right = max(np.nanmin(lo) - pad, 0), min(np.nanmax(hi) + pad, 100)
    ax.set_xlim(left, right)
    ax.grid(axis="x", alpha=0.3)
    for i, v in enumerate(x):        # above the dot, towards the middle of the axis
        inward = -1 if v > (left + right) / 2 else 1
        ax.annotate(text(v), (v, i), textcoords="offset points", xytext=(4 * inward, 5), fontsize=8,
                    ha="right" if inward < 0 else "left", va="bottom")
