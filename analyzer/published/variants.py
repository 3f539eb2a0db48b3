"""The study of each of the rulebook's games (docs/rules.md section 4) beside the two headline
games: for every variant a `bezique report` (hints, greedy and random in self-play, hints
against greedy, the policies head to head, the deal-time odds) and whole games to the target
with `bezique simulate --games` (hints in self-play), then one table of headline figures side
by side in results/variants/README.md.

Example:
    bezique study variants                          # 200,000 hands, 20,000 games
    bezique study variants --hands 20000 --games 2000 --variants three_handed
"""
from __future__ import annotations

import sys
import time

import pandas as pd

from ..tables.markdown import md_table
from .common import RESULTS, ci, command, parser, run_bezique, write_section

MARK = "variants"
OUT = RESULTS / "variants"
VARIANTS = ("ordinary", "no_trump", "panache", "fixed_point", "three_handed", "four_handed", "rubicon")
DESCRIPTION = {
    "ordinary": "two-handed, 64 cards, turn-up (R2)",
    "no_trump": "V1: trumps fixed by the first marriage",
    "panache": "V2: fours of four different suits",
    "fixed_point": "V3: a player at the target may claim the game",
    "three_handed": "V4: three players, 63 cards, to 2000",
    "four_handed": "V5: partners 0+2 against 1+3, 64 cards",
    "rubicon": "Rubicon: four packs, one deal one game (R3)",
}


def interval(row, col: str, fmt: str = "{:.1f}") -> str:
    """``value [lo, hi]`` of a table column with its ``_lo``/``_hi`` columns."""
    if f"{col}_lo" in row:
        return ci(row, col, fmt)
    return f"{fmt.format(row[col])} [{fmt.format(row.lo)}, {fmt.format(row.hi)}]"


def headline(variant: str) -> dict:
    """The figures of one variant's study, read back from its CSV tables."""
    d = OUT / variant
    summary = pd.read_csv(d / "summary.csv")
    hints = summary[summary.pairing == "hints vs hints"]
    double = pd.read_csv(d / "double_bezique.csv").set_index("policy").loc["hints"]
    pair = pd.read_csv(d / "pairwise.csv")
    vs = pair[(pair.policy_a == "hints") & (pair.policy_b == "greedy")].iloc[0]
    score = hints.mean_score.mean()
    row = {"variant": f"`{variant}`", "game": DESCRIPTION[variant],
           "hints: mean hand score per seat": f"{score:.1f}",
           "hints: double bézique scored (% of a seat's hands)": interval(
               double * 100, "scored_double", "{:.2f}"),
           "hints against greedy (per deal)": interval(vs, "mean_diff", "{:+.1f}")}
    games = d / "games" / "games.csv"
    if games.exists():
        g = pd.read_csv(games).iloc[0]
        row["hints: hands per game"] = interval(g, "mean_hands", "{:.2f}")
        row["claims per game (V3)"] = f"{g.claims / g.games:.3f}" if g.claims else "–"
    else:
        row["hints: hands per game"] = "1 (a deal is a game)"
        row["claims per game (V3)"] = "–"
    return row


def main(argv=None) -> None:
    """Play each variant's study and write the table (see the module docstring)."""
    ap = parser("variants", __doc__, seed=1)
    ap.add_argument("--hands", type=int, default=200_000, help="hands per pairing of each report")
    ap.add_argument("--games", type=int, default=20_000, help="whole games of hints self-play")
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    ap.add_argument("--table-only", action="store_true", help="only rebuild the README table")
    args = ap.parse_args(argv)
    for v in args.variants if not args.table_only else ():
        t0 = time.perf_counter()
        run_bezique(["report", "--variant", v, "--hands", str(args.hands), "--seed", str(args.seed),
             "--out", f"results/variants/{v}", "-q"])
        if v != "rubicon":
            run_bezique(["simulate", "--variant", v, "--policy", "hints", "--games", str(args.games), "--seed",
                 str(args.seed), "--out", f"results/variants/{v}/games", "-q"])
        print(f"{v}: {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    rows = [headline(v) for v in VARIANTS if (OUT / v / "summary.csv").exists()]
    df = pd.DataFrame(rows)
    table = md_table(df, list(df.columns))
    made_by = command("variants", "--hands", str(args.hands), "--games", str(args.games), "--seed", str(args.seed))
    text = (f"Made by `{made_by}`: for each game a `bezique report` ({args.hands:,} hands per policy "
            f"pairing, seed {args.seed}) in its directory, and {args.games:,} whole games of `hints` "
            "self-play to the game's target (`bezique simulate --games`) in its `games/` "
            "subdirectory. Intervals are 95 %; \"hints against greedy\" is the mean difference per "
            "deal over every seating of the two policies on the same deals (with partners: "
            "the partnerships' pooled points; Rubicon: net game points per game).\n\n" + table + "\n")
    write_section(OUT, MARK, text[:-1], "The rulebook's games side by side")
    print(table)


if __name__ == "__main__":
    raise SystemExit(main())
