"""The strong reference player measured: results/expert/ (tables, charts, README.md).

For each variant, on the same deals with the seats swapped (bezique compare):
- ``strength``: expert against hints, greedy and random;
- ``distance``: every hints setting (hints, hints:no=H1..H8) and greedy against expert: how
  far each heuristic is from strong play;
- ``endgame_regret``: hints:endgame=exact against hints: the points per hand hints' own
  second-stage play loses against the exact solver;
- ``budget`` (ordinary): expert at several sample counts and rollouts against hints, with the
  seconds each costs: what the budget buys.

Example:
    python scripts/expert_study.py --threads 1          # the committed figures (35 min on one core)
    python scripts/expert_study.py --deals 20 --rubicon-deals 4 --regret-deals 100 --budget-deals 10 --out /tmp/expert
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from analyzer.studies.compare import compare_pair
from analyzer.run.output import write_table
from analyzer.plots.figure import new_figure, save_chart
from analyzer.policies.params import HINT_NAMES, RULEBOOK_HINTS
from analyzer.policies.registry import resolve_policy
from analyzer.rules import preset

ROOT = Path(__file__).resolve().parent.parent
BUDGETS = ("expert:plain,samples=8", "expert:plain,samples=16", "expert:plain", "expert:plain,samples=64",
           "expert:plain,samples=32,prune=0", "expert:plain,endgame=exact", "expert:plain,rollout=hints")


def pair(rules, a, b, deals, seed, threads, bar):
    """compare_pair's row for A against B, with the seconds it took."""
    t0 = time.perf_counter()
    r = compare_pair(rules, resolve_policy(a), resolve_policy(b), deals, seed, threads,
                     progress=lambda d: bar.update(2 * d)).row()
    r["seconds"] = time.perf_counter() - t0
    return r


def interval_chart(df, labels, unit, title, xlabel):
    """Horizontal bars of mean_diff with their 95 % intervals."""
    fig, ax = new_figure(8, 0.45 * len(df) + 1.5)
    y = df["mean_diff"].to_numpy()
    ax.barh(labels, y, xerr=[y - df["mean_diff_lo"].to_numpy(), df["mean_diff_hi"].to_numpy() - y],
            capsize=4, color=["tab:red" if v < 0 else "tab:blue" for v in y])
    ax.axvline(0, color="black", lw=0.8)
    ax.invert_yaxis()
    ax.set_xlabel(f"{xlabel} ({unit}, 95 % interval)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def fmt(r) -> str:
    return f"{r.mean_diff:+.1f} [{r.mean_diff_lo:+.1f}, {r.mean_diff_hi:+.1f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000, help="ordinary deals per pair (each played twice)")
    ap.add_argument("--rubicon-deals", type=int, default=200, help="Rubicon deals per pair")
    ap.add_argument("--budget-deals", type=int, default=600, help="ordinary deals per budget setting")
    ap.add_argument("--regret-deals", type=int, default=20_000, help="deals for the endgame regret")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", default=str(ROOT / "results" / "expert:plain"))
    args = ap.parse_args()
    out = Path(args.out)
    variants = {"ordinary": args.deals, "rubicon": args.rubicon_deals}
    others = ["hints"] + [f"hints:no={h}" for h in HINT_NAMES[:RULEBOOK_HINTS]] + ["greedy"]
    total = sum(2 * d * (2 * 3 + len(others)) for d in variants.values()) + 2 * 2 * args.regret_deals \
        + 2 * args.budget_deals * len(BUDGETS)
    strength, distance, regret, budget = [], [], [], []
    with tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr) as bar:
        for variant, deals in variants.items():
            rules = preset(variant)
            for b in ("hints", "greedy", "random"):
                strength.append({"variant": variant,       # twice the deals: the headline figures
                                 **pair(rules, "expert:plain", b, 2 * deals, args.seed, args.threads, bar)})
            for a in others:
                distance.append({"variant": variant, **pair(rules, a, "expert:plain", deals, args.seed, args.threads, bar)})
            regret.append({"variant": variant, **pair(rules, "hints:endgame=exact", "hints", args.regret_deals,
                                                      args.seed, args.threads, bar)})
        rules = preset("ordinary")
        for a in BUDGETS:
            r = pair(rules, a, "hints", args.budget_deals, args.seed, args.threads, bar)
            r["seconds_per_expert_hand"] = r["seconds"] / (2 * args.budget_deals)
            budget.append(r)
    tables = {"strength": pd.DataFrame(strength), "distance": pd.DataFrame(distance),
              "endgame_regret": pd.DataFrame(regret), "budget": pd.DataFrame(budget)}
    for name, df in tables.items():
        write_table(df, out, name)
    for variant in variants:
        unit = "net game points per game" if variant == "rubicon" else "points per hand"
        d = tables["distance"][tables["distance"].variant == variant]
        save_chart(interval_chart(d, list(d.policy_a), unit, f"{variant}: each heuristic against expert",
                                  "mean difference, heuristic - expert"), out, f"distance_{variant}")
    write_readme(tables, out, args)
    print(f"wrote {out}")


def write_readme(tables, out: Path, args) -> None:
    """results/expert/README.md: the tables in words."""
    s, d, g, b = (tables[k] for k in ("strength", "distance", "endgame_regret", "budget"))
    lines = ["# The strong reference player (`expert`)", "",
             f"Reproduce: `python scripts/expert_study.py --deals {args.deals} --rubicon-deals "
             f"{args.rubicon_deals} --regret-deals {args.regret_deals} --budget-deals {args.budget_deals} "
             f"--seed {args.seed}" + (f" --threads {args.threads}" if args.threads else "") + "`", "",
             "Every figure is a mean difference per deal (ordinary: points per hand; Rubicon: net game "
             "points per game) on the same deals played twice with the seats swapped, with its 95 % "
             "interval; `score` is the share of games won (draws half). `expert` is the default: 32 "
             "samples, greedy rollouts, pruning at 2 standard errors, exact second stage.", "",
             "## Expert against the heuristics", "", "| variant | opponent | deals | expert's advantage | score |",
             "|---|---|---|---|---|"]
    lines += [f"| {r.variant} | {r.policy_b} | {r.deals:,} | {fmt(r)} | {r.score_a:.3f} "
              f"[{r.score_a_lo:.3f}, {r.score_a_hi:.3f}] |" for r in s.itertuples()]
    lines += ["", "## How far each heuristic is from strong play", "",
              "Each hints setting against expert (negative: it loses that much to strong play).", "",
              "| variant | policy | deals | against expert |", "|---|---|---|---|"]
    lines += [f"| {r.variant} | {r.policy_a} | {r.deals:,} | {fmt(r)} |" for r in d.itertuples()]
    lines += ["", "![ordinary](distance_ordinary.png)", "", "![rubicon](distance_rubicon.png)", "",
              "## Endgame regret of hints", "",
              "`hints:endgame=exact` plays the first stage exactly as `hints` does and the two-handed second "
              "stage by the exact solver; its advantage is what hints' own second-stage play costs.", "",
              "| variant | deals | exact second stage's advantage |", "|---|---|---|"]
    lines += [f"| {r.variant} | {r.deals:,} | {fmt(r)} |" for r in g.itertuples()]
    lines += ["", "## What the budget buys (ordinary, against hints)", "",
              f"| expert setting | deals | advantage over hints | seconds per hand, expert in one seat "
              f"({args.threads or 'one per core'} thread{'' if args.threads == 1 else 's'}) |",
              "|---|---|---|---|"]
    lines += [f"| `{r.policy_a}` | {r.deals:,} | {fmt(r)} | {r.seconds_per_expert_hand:.3f} |"
              for r in b.itertuples()]
    (out / "README.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
