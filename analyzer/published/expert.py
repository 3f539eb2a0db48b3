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
    bezique study expert --threads 1          # the committed figures (35 min on one core)
    bezique study expert --deals 20 --rubicon-deals 4 --regret-deals 100 --budget-deals 10 --out /tmp/expert
"""
from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from ..plots.figure import new_figure, save_chart
from ..policies.params import HINT_NAMES, RULEBOOK_HINTS
from ..rules import preset
from ..run.output import write_table
from .common import RESULTS, ci, command, parser, table, timed_pair, unit, write_section

BUDGETS = ("expert:plain,samples=8", "expert:plain,samples=16", "expert:plain", "expert:plain,samples=64",
           "expert:plain,samples=32,prune=0", "expert:plain,endgame=exact", "expert:plain,rollout=hints")


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


def main(argv=None) -> None:
    """Play every comparison and write results/expert (see the module docstring)."""
    ap = parser("expert", __doc__, seed=1, threads=True)
    ap.add_argument("--deals", type=int, default=1000, help="ordinary deals per pair (each played twice)")
    ap.add_argument("--rubicon-deals", type=int, default=200, help="Rubicon deals per pair")
    ap.add_argument("--budget-deals", type=int, default=600, help="ordinary deals per budget setting")
    ap.add_argument("--regret-deals", type=int, default=20_000, help="deals for the endgame regret")
    ap.add_argument("--out", default=str(RESULTS / "expert:plain"))
    args = ap.parse_args(argv)
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
                                 **timed_pair(rules, "expert:plain", b, 2 * deals, args.seed, args.threads, bar)})
            for a in others:
                distance.append({"variant": variant,
                                 **timed_pair(rules, a, "expert:plain", deals, args.seed, args.threads, bar)})
            regret.append({"variant": variant, **timed_pair(rules, "hints:endgame=exact", "hints", args.regret_deals,
                                                      args.seed, args.threads, bar)})
        rules = preset("ordinary")
        for a in BUDGETS:
            r = timed_pair(rules, a, "hints", args.budget_deals, args.seed, args.threads, bar)
            r["seconds_per_expert_hand"] = r["seconds"] / (2 * args.budget_deals)
            budget.append(r)
    tables = {"strength": pd.DataFrame(strength), "distance": pd.DataFrame(distance),
              "endgame_regret": pd.DataFrame(regret), "budget": pd.DataFrame(budget)}
    for name, df in tables.items():
        write_table(df, out, name)
    for variant in variants:
        d = tables["distance"][tables["distance"].variant == variant]
        save_chart(interval_chart(d, list(d.policy_a), unit(variant), f"{variant}: each heuristic against expert",
                                  "mean difference, heuristic - expert"), out, f"distance_{variant}")
    write_readme(tables, out, args)
    print(f"wrote {out}")


def write_readme(tables, out: Path, args) -> None:
    """results/expert/README.md: the tables in words."""
    s, d, g, b = (tables[k] for k in ("strength", "distance", "endgame_regret", "budget"))
    made_by = command("expert", "--deals", str(args.deals), "--rubicon-deals", str(args.rubicon_deals),
                      "--regret-deals", str(args.regret_deals), "--budget-deals", str(args.budget_deals),
                      "--seed", str(args.seed), *(("--threads", str(args.threads)) if args.threads else ()))
    variant, deals = ("variant", lambda r: r.variant), ("deals", lambda r: f"{r.deals:,}")
    lines = ["# The strong reference player (`expert`)", "", f"Reproduce: `{made_by}`", "",
             "Every figure is a mean difference per deal (ordinary: points per hand; Rubicon: net game "
             "points per game) on the same deals played twice with the seats swapped, with its 95 % "
             "interval; `score` is the share of games won (draws half). `expert` is the default: 32 "
             "samples, greedy rollouts, pruning at 2 standard errors, exact second stage.", "",
             "## Expert against the heuristics", ""]
    lines += table(s, [variant, ("opponent", lambda r: r.policy_b), deals, ("expert's advantage", ci),
                       ("score", lambda r: ci(r, "score_a", "{:.3f}"))])
    lines += ["", "## How far each heuristic is from strong play", "",
              "Each hints setting against expert (negative: it loses that much to strong play).", ""]
    lines += table(d, [variant, ("policy", lambda r: r.policy_a), deals, ("against expert", ci)])
    lines += ["", "![ordinary](distance_ordinary.png)", "", "![rubicon](distance_rubicon.png)", "",
              "## Endgame regret of hints", "",
              "`hints:endgame=exact` plays the first stage exactly as `hints` does and the two-handed second "
              "stage by the exact solver; its advantage is what hints' own second-stage play costs.", ""]
    lines += table(g, [variant, deals, ("exact second stage's advantage", ci)])
    lines += ["", "## What the budget buys (ordinary, against hints)", ""]
    lines += table(b, [
        ("expert setting", lambda r: f"`{r.policy_a}`"), deals, ("advantage over hints", ci),
        (f"seconds per hand, expert in one seat ({args.threads or 'one per core'} "
         f"thread{'' if args.threads == 1 else 's'})", lambda r: f"{r.seconds_per_expert_hand:.3f}")])
    write_section(out, "expert", "\n".join(lines[2:]), "The measurements", title=lines[0][2:])


if __name__ == "__main__":
    raise SystemExit(main())
