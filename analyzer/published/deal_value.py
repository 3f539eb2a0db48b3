"""What a dealt card is worth under strong play (results/deal_value/): the learned player in
self-play, 1,000,000 ordinary hands and 200,000 Rubicon games, each deal's final margin
regressed on the two dealt hands' contents (analyzer/studies/value/deal.py: each card in trumps
or in a plain suit, the bézique's and the sequence's parts, pairs and threes toward the fours),
with 95 % intervals and the share of the margin's variance the dealt hands explain. Writes a
table and a chart per game and results/deal_value/README.md, in plain words.

Example:
    bezique study deal_value                           # about 4 minutes on two cores
    bezique study deal_value --scale 0.02 --no-readme --out /tmp/deal-value
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..plots.figure import new_figure, save_chart
from ..rules import preset
from ..run.output import atomic_write, write_table
from ..tables.page import write_page
from ..studies.value.deal import deal_value
from .common import RESULTS, scaled_command, scaler, study_parser, unit

SEED = 20261249
HANDS = {"ordinary": 1_000_000, "rubicon": 200_000}
MARK = "deal_value"
SHOWN = 12          # the terms the page names, by worth


def measure(args, out: Path) -> dict:
    """Play each game's hands and write its table; return the facts of each fit by game."""
    scaled = scaler(args.scale)
    facts = {}
    for game in args.games:
        table, fact = deal_value(preset(game), scaled(HANDS[game]), args.seed, threads=args.threads)
        write_table(table, out, f"deal_value_{game}")
        write_table(pd.DataFrame([fact]), out, f"fit_{game}", parquet=False)
        facts[game] = fact
    return facts


def chart(table: pd.DataFrame, game: str):
    """Each feature's worth with its interval, the largest first."""
    rows = table[~table.term.isin(["constant", "seat 0 deals"])].sort_values("worth")
    fig, ax = new_figure(8, 9, layout="constrained")
    ax.barh(rows.term, rows.worth, xerr=[rows.worth - rows.lo, rows.hi - rows.worth], capsize=3, color="tab:blue")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel(f"worth at the deal ({unit(game)}), against a plain seven")
    ax.set_title(f"{game} bézique: what a dealt card is worth under learned self-play (95 % intervals)")
    return fig


def page(tables: dict, facts: dict, command: str) -> str:
    """results/deal_value/README.md: each game's fit in plain words and its table."""
    lines = ["# What a dealt card is worth", "",
             "Each deal's final margin (seat 0's points less seat 1's; Rubicon: net game points) is "
             "regressed on the two dealt hands (seat 0's features less seat 1's, so the model is the same "
             "from either seat): each card in trumps or in a plain suit against a plain seven, what Q♠ and "
             "J♦ add beyond their rank, a bézique, the trump marriage, the trump sequence's ranks, pairs and "
             "threes toward the fours (analyzer/studies/value/deal.py). The worths are in the margin's "
             "unit per card (or per bézique, per pair) at the deal, under the learned player at both seats; "
             "the intervals are 95 % (classical least squares).", "", f"Made by `{command}`.", ""]
    for game, table in tables.items():
        f = facts[game]
        top = table[~table.term.isin(["constant", "seat 0 deals"])].sort_values("worth", ascending=False)
        lines += [f"## {game}", "",
                  f"{f['hands']:,} {'games' if game == 'rubicon' else 'hands'} of `{f['policy']}` self-play "
                  f"(seed {f['seed']}). The dealt hands explain "
                  f"**{100 * f['r2']:.1f} %** of the variance of the margin (its spread: {f['margin_sd']:.0f} "
                  f"{unit(game)}); the rest is the draws and the play.", ""]
        for _, r in top.head(3).iterrows():
            lines.append(f"- {r.term} at the deal: **{r.worth:+.1f}** [{r.lo:+.1f}, {r.hi:+.1f}] {unit(game)}")
        lines += ["", f"![{game}](deal_value_{game}.png)", "", "| term | worth | 95 % interval |", "|---|---|---|"]
        lines += [f"| {r.term} | {r.worth:+.1f} | [{r.lo:+.1f}, {r.hi:+.1f}] |" for _, r in top.head(SHOWN).iterrows()]
        lines += ["", f"Every term: `deal_value_{game}.csv`.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    """Run the study (see the module docstring)."""
    ap = study_parser("deal_value", __doc__, SEED, str(RESULTS / "deal_value"),
                      tables="only write the charts and the page from the tables in --out")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if not args.tables:
        measure(args, out)
    tables = {g: pd.read_csv(out / f"deal_value_{g}.csv") for g in args.games}
    facts = {g: pd.read_csv(out / f"fit_{g}.csv", index_col=0).iloc[0].to_dict() for g in args.games}
    for game, table in tables.items():
        save_chart(chart(table, game), out, f"deal_value_{game}")
    text = page(tables, facts, scaled_command("deal_value", args.scale))
    write_page(atomic_write(out / "README.md", lambda p: Path(p).write_text(text)))
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
