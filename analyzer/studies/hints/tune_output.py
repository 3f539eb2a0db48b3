"""What ``bezique tune`` writes: the convergence and weights tables and charts, the preset
(``tune.json``) and ``tune.md``, which says in plain words what the search changed."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ...plots import save_chart
from ...plots.figure import new_figure
from ...policies.hints_names import HINT_TEXT
from ...policies.params import HINT_NAMES, RULEBOOK_HINTS
from ...run.output import atomic_write, write_json, write_table
from ..files import write_files
from ..play.compare import points_unit
from .tune import TuneResult, forget_search


def convergence_table(res: TuneResult) -> pd.DataFrame:
    """Per generation: hands spent so far, deals per candidate, the step size, the best
    candidate's and the population's mean advantage per deal with 95 % intervals."""
    rows, spent = [], 0
    for g, gen in enumerate(res.state.generations):
        spent += gen.hands
        b = int(np.argmax(gen.mean))
        half = (gen.hi - gen.lo) / 2
        pop_half = float(np.sqrt(np.sum(half ** 2))) / len(half)     # independent candidates' mean
        rows.append({"generation": g + 1, "hands": spent, "deals_per_candidate": gen.deals,
                     "candidates": len(gen.mean), "sigma": gen.sigma,
                     "best": float(gen.mean[b]), "best_lo": float(gen.lo[b]), "best_hi": float(gen.hi[b]),
                     "mean": float(gen.mean.mean()), "mean_lo": float(gen.mean.mean() - pop_half),
                     "mean_hi": float(gen.mean.mean() + pop_half)})
    return pd.DataFrame(rows)


def weights_table(res: TuneResult) -> pd.DataFrame:
    """Each hint: its weight in hand-set ``hints`` (1 for the rulebook's, 0 for a found one), the
    tuned one, and what changed (against 1, the hint as written)."""
    rows = []
    for i, h in enumerate(HINT_NAMES):
        w = res.weights[h]
        searched = h in res.names
        change = ("not searched" if not searched else "switched off after the search" if h in res.switched_off
                  else "switched off" if w == 0 else "weight near 0" if w < 0.15 else
                  "weakened" if w < 0.8 else "strengthened" if w > 1.25 else "kept")
        rows.append({"hint": h, "advice": HINT_TEXT[i], "hand_set": float(i < RULEBOOK_HINTS), "tuned": w,
                     "change": change})
    return pd.DataFrame(rows)


def convergence_chart(df: pd.DataFrame, title: str, unit: str) -> Figure:
    """Best and mean objective by hands spent, with 95 % intervals."""
    fig, ax = new_figure()
    for col, label in (("best", "best candidate of the generation"), ("mean", "mean of the generation")):
        line, = ax.plot(df.hands, df[col], marker="o", label=label)
        ax.fill_between(df.hands, df[f"{col}_lo"], df[f"{col}_hi"], color=line.get_color(), alpha=0.2, lw=0)
    ax.axhline(0, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("hands played by the search")
    ax.set_ylabel(f"advantage over the opponent ({unit}, 95% CI)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    return fig


def weights_chart(df: pd.DataFrame, title: str) -> Figure:
    """The tuned weights beside the hand-set ones."""
    fig, ax = new_figure()
    x = np.arange(len(df))
    ax.bar(x - 0.2, df.hand_set, 0.4, label="hand-set hints (the rulebook's at 1, the found ones off)", color="tab:gray")
    ax.bar(x + 0.2, df.tuned, 0.4, label="tuned", color="tab:blue")
    ax.set_xticks(x, df.hint)
    ax.set_ylabel("weight (0 = off)")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    return fig


def markdown(res: TuneResult, conv: pd.DataFrame, weights: pd.DataFrame, unit: str) -> str:
    """``tune.md``: the request, what changed in plain words, the confirmation."""
    name = res.rules.name
    lines = [f"# Tuning the hints: {name} bézique", "",
             f"Reproduce: `{res.command}`" if res.command else "", "",
             f"CMA-ES searched the weights of {', '.join(res.names)} against `{res.opponent}`, each "
             f"candidate playing the generation's deals twice with the seats swapped, "
             f"{f'starting from `hints:{res.start}`' if res.start else 'starting with every hint at 1'}: "
             f"{len(conv)} generations, {res.state.hands:,} hands (budget {res.budget:,}, seed {res.seed}). "
             "The answer is the mean of the final search distribution"
             + (f", with {', '.join(res.switched_off)} then switched off (a weight above 0 turns some hints fully "
                "on, which the search cannot see; each was tried at 0 on fresh deals)" if res.switched_off else "")
             + f", stored as the preset `hints:tuned-{name}`.", "", "## What changed", ""]
    for _, r in weights.iterrows():
        if r.change == "not searched":
            continue
        lines.append(f"- **{r.hint}** ({r.advice}): {r.change}, weight {r.tuned:.2f}.")
    lines += ["", "## Confirmation on fresh deals", "",
              f"On the deals of seed {res.seed}, which the search never played (its generations "
              "draw their own seeds), each deal played twice with the seats swapped; the tuned "
              f"preset's mean advantage in {unit} with its 95 % interval:", ""]
    for r in res.confirmation:
        clear = ("clear of zero" if r["mean_diff_lo"] > 0 else "below zero" if r["mean_diff_hi"] < 0
                 else "not clear of zero")
        lines.append(f"- against `{r['against']}` ({r['deals']:,} deals): {r['mean_diff']:+.2f} "
                     f"[{r['mean_diff_lo']:+.2f}, {r['mean_diff_hi']:+.2f}], {clear}; score share "
                     f"{r['score_a']:.4f} [{r['score_a_lo']:.4f}, {r['score_a_hi']:.4f}].")
    lines += ["", "![convergence](convergence.png)", "", "![weights](weights.png)", ""]
    return "\n".join(lines)


def format_tune(res: TuneResult) -> str:
    """A tuning as text: its generations, hands and tuned weights, then each confirmation."""
    w = res.weights
    lines = [f"{res.rules.name} bézique: {len(res.state.generations)} generations, {res.state.hands:,} hands; "
             "tuned weights " + ", ".join(f"{h} {w[h]:.2f}" for h in w)]
    for r in res.confirmation:
        lines.append(f"  tuned against {r['against']:<7} {r['mean_diff']:+.2f} [{r['mean_diff_lo']:+.2f}, "
                     f"{r['mean_diff_hi']:+.2f}] per deal over {r['deals']:,} fresh deals")
    return "\n".join(lines)


def write_tune(res: TuneResult, out, threads: int | None = None) -> list[Path]:
    """Write ``generations``, ``weights`` and ``confirmation`` (CSV, Parquet), the two charts
    (PNG, SVG), ``tune.json`` (the preset), ``tune.md`` with report.html (the same page, its charts
    inline) and run.json into ``out``, and forget
    the search's state kept there (finished: nothing to resume); return the paths."""
    unit = points_unit(res.rules)
    conv, weights = convergence_table(res), weights_table(res)
    written = write_table(conv, out, "generations") + write_table(weights, out, "weights")
    if res.confirmation:
        written += write_table(pd.DataFrame(res.confirmation), out, "confirmation")
    name = f"{res.rules.name} bézique"
    written += save_chart(convergence_chart(conv, f"{name}: tuning hints against {res.opponent}", unit),
                          out, "convergence")
    written += save_chart(weights_chart(weights, f"{name}: hint weights, hand-set and tuned"), out, "weights")
    written.append(write_json(res.preset(), Path(out) / "tune.json"))
    text = markdown(res, conv, weights, unit)
    page = atomic_write(Path(out) / "tune.md", lambda p: Path(p).write_text(text, encoding="utf-8"))
    written = write_files(out, threads, files=[*written, page], pages=[page], rules=res.rules.describe(),
                          opponent=res.opponent, budget=res.budget, seed=res.seed)
    forget_search(out)
    return written
