"""The ladder: every player against ``hints:tuned-GAME`` on common deals, seats swapped, up
to the two ceilings; then what strength does to the game's statistics, player by player.

Writes results/ladder/:
- ``ladder.csv``: per game and player, its mean advantage over the tuned hints per deal (points
  per hand, or net game points per game in Rubicon, as ``compare`` counts them) with its 95 %
  interval, and its share of the gap between the tuned hints and each ceiling;
- ``ladder_ordinary.png``, ``ladder_rubicon.png``: that table as a chart;
- ``statistics.csv`` (and ``statistics_GAME.png``, ``declarations_GAME.png``): per game and player, in self-play (both
  seats the same player): mean totals, the double (treble) bézique rates, the points a brisque is
  worth, declarations per hand by combination and, in Rubicon, the rubicon rate, the share saved
  by brisques and the winner's game score;
- the markdown between the ``ladder`` markers of its page (results/ladder/README.md).

Every player meets the tuned hints on the first N deals of the same seed, so the rows share
their deals (a player given fewer deals plays the first of them). The ceilings read hidden
cards (``cheat-*``): they are measuring sticks, not players.

Example:
    bezique study ladder                     # the committed figures
    bezique study ladder --scale 0.02 --no-readme --out /tmp/ladder     # a quick look
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..plots.figure import new_figure, save_chart
from ..rules import preset
from ..run.output import write_table
from ..studies.report.study import study
from .common import RESULTS, ci, publish, scaled_command, study_parser, table, timed_pair, unit

MARK = "ladder"
# one search setting for the fair player and both ceilings: ``expert`` (the strongest search of
# each game, docs/search.md) and the ceilings, which are that search given the other hand, or the
# other hand and the talon's order (expert_names.CEILINGS); so the distance from each rung to the
# next is what seeing more is worth to the same search
BEST_SEARCH = {"ordinary": "expert", "rubicon": "expert"}
CEILINGS = {g: ("cheat-sees-hand", "cheat-clairvoyant") for g in BEST_SEARCH}
# deals per rung: (fast policies, expert:plain, expert, sees the hand, clairvoyant)
DEALS = {"ordinary": (20_000, 600, 2_000, 2_000, 2_000), "rubicon": (5_000, 150, 600, 600, 600)}


def ladder(game: str) -> list[tuple[str, str, int]]:
    """(label, policy, deals) of each rung, weakest first."""
    sees, clair = CEILINGS[game]
    fast, expert, best, n_sees, n_clair = DEALS[game]
    return [("random", "random", fast), ("greedy", "greedy", fast), ("hints", "hints", fast),
            (f"hints:tuned-{game}", f"hints:tuned-{game}", 0), ("expert:plain", "expert:plain", expert),
            ("learned", "learned", fast), ("expert", BEST_SEARCH[game], best),
            ("ceiling: sees the other hand", sees, n_sees), ("ceiling: clairvoyant", clair, n_clair)]


def rung(game, label, policy, deals, seed, threads, bar) -> dict:
    """One rung: ``policy`` against the tuned hints on ``deals`` deals, seats swapped."""
    base = {"game": game, "player": label, "policy": policy, "deals": deals, "seed": seed}
    if deals == 0:                       # the reference itself: zero by construction
        return {**base, "mean_diff": 0.0, "mean_diff_lo": 0.0, "mean_diff_hi": 0.0, "seconds": 0.0}
    r = timed_pair(preset(game), policy, f"hints:tuned-{game}", deals, seed, threads, bar)
    return {**base, **{k: r[k] for k in ("mean_diff", "mean_diff_lo", "mean_diff_hi", "score_a",
                                         "score_a_lo", "score_a_hi")},
            "seconds": round(r["seconds"], 1)}


def add_shares(df: pd.DataFrame) -> pd.DataFrame:
    """Each player's share of the gap between the tuned hints and each ceiling (the ceiling's
    own interval left out: the share's interval is the player's over the ceiling's mean)."""
    for col, label in (("share_sees_hand", "ceiling: sees the other hand"), ("share_clairvoyant", "ceiling: clairvoyant")):
        for game in df.game.unique():
            g = df.game == game
            top = float(df.loc[g & (df.player == label), "mean_diff"].iloc[0])
            ends = df.loc[g, ["mean_diff_lo", "mean_diff_hi"]].to_numpy() / top
            df.loc[g, col] = df.loc[g, "mean_diff"] / top
            df.loc[g, col + "_lo"], df.loc[g, col + "_hi"] = ends.min(axis=1), ends.max(axis=1)
    return df


def ladder_chart(df: pd.DataFrame, game: str):
    """Each rung's advantage over the tuned hints with its interval; the ceilings dashed."""
    d = df[df.game == game]
    fig, ax = new_figure(8.5, 0.5 * len(d) + 1.6)
    y = d.mean_diff.to_numpy()
    colours = ["tab:grey" if p.startswith("ceiling") else "tab:red" if v < 0 else "tab:blue"
               for p, v in zip(d.player, y)]
    ax.barh(list(d.player), y, xerr=[y - d.mean_diff_lo.to_numpy(), d.mean_diff_hi.to_numpy() - y],
            capsize=4, color=colours)
    ax.axvline(0, color="black", lw=0.8)
    for i, deals in enumerate(d.deals):
        if deals == 0:
            ax.text(0, i, "  the reference", va="center", fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel(f"advantage over hints:tuned-{game} ({unit(game)}, 95 % interval)")
    ax.set_title(f"{'Rubicon' if game == 'rubicon' else 'Ordinary'} bézique: the ladder up to the ceilings "
                 "(grey: they cheat)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


EXAMPLES_1887 = (1240, 1550)     # the totals of the worked examples of Hoyle's 1887 code (R3.9)
COMBOS = ("double_bezique", "treble_bezique", "common_marriage", "royal_marriage", "bezique", "sequence",
          "fours_aces", "fours_tens", "fours_kings", "fours_queens", "fours_jacks", "carte_blanche")


def statistics(game: str, players, hands: dict, seed: int, threads, bar) -> list[dict]:
    """Self-play statistics of each (label, policy) on the first ``hands[label]`` deals."""
    rules = preset(game)
    extra = [(p, p, hands[label]) for label, p in players]
    st = study(rules, 1_000, seed, threads, pairings=(), head_to_head=(), extra=extra,
               progress=bar.update)
    t = st.tables
    rows = []
    for label, p in players:
        pairing = f"{p} vs {p}"
        s = t["summary"][t["summary"].pairing == pairing]
        dbl = t["double_bezique"].set_index("policy").loc[p]
        row = {"game": game, "player": label, "policy": p, "hands": hands[label],
               "mean_total": float(s.mean_score.mean()), "mean_total_lo": float(s.mean_score_lo.mean()),
               "mean_total_hi": float(s.mean_score_hi.mean()),
               "double_bezique_rate": float(dbl.scored_double), "double_bezique_rate_lo": float(dbl.scored_double_lo),
               "double_bezique_rate_hi": float(dbl.scored_double_hi),
               **{f"treble_bezique_rate{k}": float(dbl.get(f"scored_treble{k}", np.nan)) for k in ("", "_lo", "_hi")}}
        b = t["brisques"].set_index("pairing").loc[pairing]
        row.update(margin_per_brisque=float(b.margin_per_brisque), margin_per_brisque_lo=float(b.margin_per_brisque_lo),
                   margin_per_brisque_hi=float(b.margin_per_brisque_hi))
        c = t["combinations"][t["combinations"].policy == p].set_index("combination")
        for combo in c.index:
            row[f"per_hand_{combo}"] = float(c.loc[combo, "per_hand"])
        if game == "rubicon":
            r = t["rubicon"].set_index("pairing").loc[pairing]
            for k in ("rubicon_rate", "saved_by_brisques", "winner_game_score"):
                row.update({k: float(r[k]), k + "_lo": float(r[k + "_lo"]), k + "_hi": float(r[k + "_hi"])})
        rows.append(row)
    return rows


def statistics_chart(df: pd.DataFrame, game: str):
    """Per player: mean totals, double (treble) bézique rates and, in Rubicon, the rubicon rate."""
    d = df[df.game == game]
    panels = [("mean_total", "mean total per seat (points)", 1.0),
              ("double_bezique_rate", "double bézique scored (% of seat-hands)", 100.0)]
    panels += ([("treble_bezique_rate", "treble bézique scored (%)", 100.0), ("rubicon_rate", "rubicon rate (%)", 100.0)]
               if game == "rubicon" else [])
    fig, axes = new_figure(4.2 * len(panels), 0.45 * len(d) + 1.8, ncols=len(panels), sharey=True)
    labels = list(d.player)
    for ax, (key, title, scale) in zip(np.atleast_1d(axes), panels):
        v = scale * d[key].to_numpy()
        ax.barh(labels, v, xerr=[v - scale * d[key + "_lo"].to_numpy(), scale * d[key + "_hi"].to_numpy() - v],
                capsize=3, color=["tab:grey" if p.startswith("ceiling") else "tab:blue" for p in labels])
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        if game == "rubicon" and key == "mean_total":
            ax.axvspan(*EXAMPLES_1887, color="tab:green", alpha=0.2,
                       label="the 1887 code's worked examples (totals 1240-1550)")
            ax.legend(loc="lower right", fontsize=8)
    np.atleast_1d(axes)[0].invert_yaxis()
    fig.suptitle(f"{'Rubicon' if game == 'rubicon' else 'Ordinary'} bézique: what strength does to the statistics "
                 "(self-play, 95 % intervals)")
    fig.tight_layout()
    return fig


def declarations_chart(df: pd.DataFrame, game: str):
    """Declarations per seat and hand (game) by combination, one group of bars per player."""
    d = df[df.game == game]
    combos = [c for c in d.columns if c.startswith("per_hand_") and d[c].fillna(0).max() > 0]
    fig, ax = new_figure(11, 5.5)
    width = 0.8 / len(d)
    x = np.arange(len(combos))
    for k, (_i, r) in enumerate(d.iterrows()):
        ax.bar(x + k * width, [r[c] for c in combos], width, label=r.player,
               hatch="//" if r.player.startswith("ceiling") else None)
    ax.set_xticks(x + 0.4 - width / 2, [_combo_name(c) for c in combos],
                  rotation=30, ha="right")
    ax.set_ylabel("declared per seat and " + ("game" if game == "rubicon" else "hand"))
    ax.set_title(f"{'Rubicon' if game == 'rubicon' else 'Ordinary'} bézique: declarations by player "
                 "(self-play; hatched: the ceilings, which cheat)")
    ax.legend(fontsize=8, ncols=3)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def _combo_name(column: str) -> str:
    """A declarations column's combination: per_hand_double_bezique -> "double bezique"."""
    return column.removeprefix("per_hand_").replace("_", " ")


def _statistics_row(r) -> list[str]:
    """One self-play row's cells after its hands: totals, bézique rates, Rubicon's figures, brisques."""
    rub = r.game == "rubicon"
    return [ci(r, "mean_total", "{:.0f}"), ci(r, "double_bezique_rate", "{:.2f}", 100),
            ci(r, "treble_bezique_rate", "{:.3f}", 100) if rub else "– (two packs)",
            *((ci(r, "rubicon_rate", "{:.1f}", 100), ci(r, "saved_by_brisques", "{:.2f}", 100),
               ci(r, "winner_game_score", "{:.0f}")) if rub else ("–", "–", "–")),
            ci(r, "margin_per_brisque", "{:.1f}")]


STATISTICS_HEADERS = ("mean total per seat", "double bézique %", "treble bézique %", "rubicon rate %",
                      "saved by brisques %", "winner's game score", "margin per brisque")


def markdown(lad: pd.DataFrame, stats: pd.DataFrame, command: str) -> str:
    """The ladder's tables for its page."""
    lines = [f"Made by `{command}`: every player against `hints:tuned-GAME` on the first deals of seed "
             f"{int(lad.seed.iloc[0])}, each played twice with the seats swapped; 95 % intervals. The ceilings "
             "CHEAT (they read hidden cards): they say how far the best play the game allows is from ours.", ""]
    for game in lad.game.unique():
        lines += [f"**{game}** ({unit(game)}; `expert` and both ceilings with the same search settings, "
                  "the expert's)", ""]
        lines += table(lad[lad.game == game], [
            ("player", lambda r: f"{r.player} (`{r.policy}`)"), ("deals", lambda r: f"{int(r.deals):,}"),
            ("against the tuned hints", lambda r: "0 (the reference)" if r.deals == 0 else ci(r)),
            ("share of the gap to the ceiling that sees the hand", lambda r: ci(r, "share_sees_hand", "{:.0%}")),
            ("share of the gap to the clairvoyant", lambda r: ci(r, "share_clairvoyant", "{:.0%}"))])
        lines += ["", f"![ladder {game}](ladder/ladder_{game}.png)", ""]
    lines += ["What strength does to the statistics (self-play: both seats the same player):", ""]
    lines += table(stats, [("game", lambda r: r.game), ("player", lambda r: r.player),
                           ("hands", lambda r: f"{int(r.hands):,}"),
                           *((h, (lambda i: lambda r: _statistics_row(r)[i])(i))
                             for i, h in enumerate(STATISTICS_HEADERS))])
    if len(stats):
        lines += ["", "Declarations per seat and hand (Rubicon: game), by combination (self-play):", ""]
        for game in stats.game.unique():
            g = stats[stats.game == game]
            combos = [c for c in g.columns if c.startswith("per_hand_") and g[c].fillna(0).max() > 0]
            lines += [f"**{game}**", ""]
            lines += table(g, [("player", lambda r: r.player),
                               *((_combo_name(c), (lambda c: lambda r: f"{r[c]:.3f}")(c)) for c in combos)])
            lines += ["", f"![statistics {game}](ladder/statistics_{game}.png)", "",
                      f"![declarations {game}](ladder/declarations_{game}.png)", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    """Run the study (see the module docstring)."""
    ap = study_parser("ladder", __doc__, 20261202, str(RESULTS / "ladder"),
                      tables="only redraw the charts and markdown from the tables in --out")
    ap.add_argument("--no-stats", action="store_true", help="the ladder only")
    args = ap.parse_args(argv)
    out = Path(args.out)
    if not args.tables:
        measure(args, out)
    lad = pd.read_csv(out / "ladder.csv", index_col=0)
    st = pd.read_csv(out / "statistics.csv", index_col=0) if (out / "statistics.csv").exists() else pd.DataFrame()
    for game in lad.game.unique():
        save_chart(ladder_chart(lad, game), out, f"ladder_{game}")
        if len(st):
            save_chart(statistics_chart(st, game), out, f"statistics_{game}")
            save_chart(declarations_chart(st, game), out, f"declarations_{game}")
    return publish(args, MARK, markdown(lad, st, scaled_command("ladder", args.scale)),
                   "The ladder: from random play to the ceilings")


def measure(args, out: Path) -> None:
    """Play the ladder (and the statistics) and write their tables into ``out``."""
    scaled = lambda n: max(2, int(n * args.scale)) if n else 0    # noqa: E731 (a one-line helper)
    rungs = {g: [(label, p, scaled(n)) for label, p, n in ladder(g)] for g in args.games}
    # self-play: 5x the rung's deals for the fast players (the tuned hints as many), the rung's
    # own count for the slow ones
    fast = {g: scaled(DEALS[g][0]) for g in args.games}
    stat_hands = {g: {label: 5 * fast[g] if n in (0, fast[g]) else n for label, _p, n in rungs[g]}
                  for g in args.games}
    total = sum(2 * n for g in args.games for _l, _p, n in rungs[g])
    total += 0 if args.no_stats else sum(sum(h.values()) for h in stat_hands.values())
    rows, stats = [], []
    with tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr) as bar:
        for game in args.games:
            for label, policy, deals in rungs[game]:
                rows.append(rung(game, label, policy, deals, args.seed, args.threads, bar))
            if not args.no_stats:
                players = [(label, p) for label, p, _n in rungs[game]]
                stats += statistics(game, players, stat_hands[game], args.seed, args.threads, bar)
    write_table(add_shares(pd.DataFrame(rows)), out, "ladder")
    if stats:
        write_table(pd.DataFrame(stats), out, "statistics")


if __name__ == "__main__":
    raise SystemExit(main())
