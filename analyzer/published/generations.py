"""The learned player's generations and whether its name means the best (issue 44): writes
results/learned/generations.csv, best_by_name.csv, generations_GAME.png and the ``generations``
section of the learned player's page (results/learned/README.md).

- ``generations.csv``: each network of a game's lineages (GENERATIONS: policy iteration's rounds,
  then expert iteration's generations; and the lineages trained apart) against the tuned hints on
  deals no training played (the tuned H1-H8, ``hints:tuned-GAME-h8``: the networks' teacher and
  their learning curves' yardstick, so that every generation is measured alike), and against the
  run it was trained from, head to head; both seats swapped, 95 % intervals; and ``expert``
  against the tuned hints and against its prior;
- ``best_by_name.csv``: ``learned`` (the shipped model) against every network the project has
  trained for the game (every ``results/train/*/model.npz``), head to head: the name means the
  best when each interval is clear of zero or a tie is said as such;
- ``generations_GAME.png``: the lineage's strength against the tuned hints, generation by
  generation, with the search (``expert`` over the shipped model) beside it;
- ``figures_by_strength.csv`` and ``figures_by_strength_GAME.png``: the report's headline figures
  (analyzer.tables.band_table) in each player's self-play — the tuned hints, each generation,
  ``expert`` — against its strength, so that a reader sees whether a figure settles as play gets
  stronger.

Example:
    bezique study generations                       # the committed figures
    bezique study generations --scale 0.02 --no-readme --out /tmp/gen
"""
from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from tqdm import tqdm

from ..learning.train import teacher_name
from ..numbers import count, difference
from ..plots.figure import drawn_handles, new_figure, note_cut_axis, save_chart
from ..policies.learned import load_model, shipped_model
from ..rules import preset
from ..run.backends import thread_count
from ..run.output import write_table
from ..studies.report.study import study
from ..tables.band_table import band_figures, is_share, player_figures
from .common import (
    RESULTS,
    ROOT,
    publish,
    read_tables,
    scaled_command,
    scaler,
    study_parser,
    table,
    timed_pair,
    unit,
    weights_policy,
    with_other_games,
)

TRAIN = RESULTS / "train"
MARK = "generations"
SEED = 20261230            # deals no training, tuning or choice of settings played
APART = "trained apart:"   # the label of a run of the lineage trained apart (its own line in the chart)
THIRD = "third lineage:"   # taught by the H1-H13 tuned hints (its own line too)
BRANCH = "a branch:"        # a run over an earlier generation of the first lineage (not its successor)
LINEAGES = ((APART, "C1", "the lineage trained apart"), (THIRD, "C2", "the third lineage"),
            (BRANCH, "C3", "a branch of the first lineage"))
# (label, run directory under results/train, the run it was trained from), oldest first
GENERATIONS = {
    "ordinary": [("round 1 (roll-outs by the tuned hints)", "ordinary", None),
                 ("round 2 (roll-outs by round 1)", "ordinary-round2", "ordinary"),
                 ("generation 1 (the search's labels)", "ordinary-gen1", "ordinary-round2"),
                 ("generation 1 + late network", "ordinary-gen1-late", "ordinary-gen1"),
                 ("generation 2 (late network over generation 1's)", "ordinary-gen2-late", "ordinary-gen1-late"),
                 ("generation 2 + late network of 8 cards", "ordinary-late8", "ordinary-gen2-late"),
                 (f"{BRANCH} round 2 + late network of 8 cards", "ordinary-round2-late8", "ordinary-round2"),
                 (f"{APART} round 1", "ordinary-independent", None),
                 (f"{APART} round 2", "ordinary-independent-round2", "ordinary-independent"),
                 (f"{APART} round 2 + late network", "ordinary-independent-late", "ordinary-independent-round2"),
                 (f"{APART} late network, second run", "ordinary-independent-late2", "ordinary-independent-late"),
                 (f"{THIRD} round 1", "ordinary-third", None),
                 (f"{THIRD} round 2", "ordinary-third-round2", "ordinary-third"),
                 (f"{THIRD} round 2 + late network of 8 cards", "ordinary-third-late8", "ordinary-third-round2")],
    "rubicon": [("round 1 (roll-outs by the tuned hints)", "rubicon", None),
                ("round 2 (roll-outs by round 1)", "rubicon-round2", "rubicon"),
                ("generation 1 (the search's labels)", "rubicon-gen1", "rubicon-round2"),
                ("generation 1 + late network", "rubicon-gen1-late", "rubicon-gen1"),
                ("generation 1 + late network, widened to 8 cards", "rubicon-gen1-late-late8", "rubicon-gen1-late"),
                ("generation 1 + late network, widened to 12 cards", "rubicon-gen1-late-late12",
                 "rubicon-gen1-late-late8"),
                ("late network of 12 cards, 6 steps more", "rubicon-gen1-late12-more", "rubicon-gen1-late-late12"),
                ("late network of 12 cards, 6 more at a third of the rate", "rubicon-gen1-late12-more3",
                 "rubicon-gen1-late12-more"),
                (f"{APART} round 1", "rubicon-independent", None),
                (f"{APART} round 2", "rubicon-independent-round2", "rubicon-independent"),
                (f"{APART} round 2 + late network", "rubicon-independent-late", "rubicon-independent-round2"),
                (f"{APART} generation 1 (the search's labels)", "rubicon-gen1-main", "rubicon-independent-late"),
                (f"{APART} generation 1 + late network of 8 cards", "rubicon-gen1-late8", "rubicon-gen1-main"),
                (f"{THIRD} round 1", "rubicon-third", None),
                (f"{THIRD} round 2", "rubicon-third-round2", "rubicon-third"),
                (f"{THIRD} round 2 + late network", "rubicon-third-late", "rubicon-third-round2"),
                (f"{THIRD} generation 1 (the search's labels)", "rubicon-third-gen1", "rubicon-third-late"),
                (f"{THIRD} generation 1 + late network of 8 cards", "rubicon-third-late8", "rubicon-third-gen1")],
}
# deals: against the hints, head to head, expert against the hints, expert against its prior
DEALS = {"ordinary": (20_000, 5_000, 1_000, 4_000), "rubicon": (10_000, 10_000, 1_000, 2_000)}
SELF_PLAY = {"ordinary": (20_000, 1_000), "rubicon": (5_000, 300)}          # hands: each network, expert


def model_policy(run: str) -> str:
    """The policy that plays the model of the run ``run`` (a directory under results/train)."""
    return weights_policy(TRAIN / run / "model.npz")


def lineage(game: str) -> list[tuple[str, str, str | None]]:
    """(label, policy, the policy of the run it was trained from or None) of each generation of
    ``game`` whose model is on disk."""
    on_disk = lambda run: run is not None and (TRAIN / run / "model.npz").is_file()     # noqa: E731
    return [(label, model_policy(run), model_policy(before) if on_disk(before) else None)
            for label, run, before in GENERATIONS[game] if on_disk(run)]


def trained(game: str) -> list[tuple[str, str]]:
    """(run, policy) of every network trained for ``game`` under results/train (not the shipped
    model's own file)."""
    shipped = shipped_model(game).read_bytes()
    out = []
    for path in sorted(TRAIN.glob("**/model.npz")):
        try:
            meta = load_model(path)[1]
        except ValueError:
            continue
        if meta["game"] == game and path.read_bytes() != shipped:
            out.append((str(path.parent.relative_to(TRAIN)), weights_policy(path)))
    return out


def pair(game, label, a, b, deals, seed, threads, bar) -> dict:
    """``a`` against ``b`` on ``deals`` deals of ``seed``, seats swapped: the table row."""
    r = timed_pair(preset(game), a, b, deals, seed, threads, bar)
    seconds = r.pop("seconds")
    r.update(policy_a=a, policy_b=b)            # as named here: relative to the repository
    return {"game": game, "player": label, **r, "seed": seed, "seconds": round(seconds, 1),
            "threads": thread_count(threads)}


def measure(args, out: Path) -> None:
    """Play every comparison; write generations.csv and best_by_name.csv into ``out``."""
    scaled = scaler(args.scale)
    jobs, best = [], []
    for game in args.games:
        vs_hints, h2h, expert, expert_prior = DEALS[game]
        gens = lineage(game)
        for label, p, before in gens:
            jobs.append((game, label, p, teacher_name(game), scaled(vs_hints), args.seed))
            if before:
                jobs.append((game, label, p, before, scaled(h2h), args.seed + 1))
        jobs.append((game, "learned (shipped)", "learned", teacher_name(game), scaled(vs_hints), args.seed))
        jobs.append((game, "expert (the search over learned)", "expert", teacher_name(game), scaled(expert),
                     args.seed))
        jobs.append((game, "expert (the search over learned)", "expert", "learned", scaled(expert_prior), args.seed))
        best += [(game, run, "learned", p, scaled(h2h), args.seed + 2) for run, p in trained(game)]
    total = sum(2 * n for *_x, n, _s in jobs + best)
    with tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr) as bar:
        rows = [pair(g, label, a, b, n, s, args.threads, bar) for g, label, a, b, n, s in jobs]
        best_rows = [pair(g, run, a, b, n, s, args.threads, bar) for g, run, a, b, n, s in best]
    out.mkdir(parents=True, exist_ok=True)
    for name, data in (("generations", rows), ("best_by_name", best_rows)):
        df = pd.DataFrame(data)
        df = with_other_games(df, out / f"{name}.csv", args.games)      # the other games' rows of an earlier run stay
        write_table(df, out, name)


def figures_by_strength(args, out: Path) -> None:
    """Each player's self-play (the tuned hints, each generation, expert) and its headline
    figures; written as figures_by_strength.csv."""
    rows = []
    for game in args.games:
        rules = preset(game)
        hands, expert_hands = (max(2, int(n * args.scale)) for n in SELF_PLAY[game])
        players = [(teacher_name(game), teacher_name(game))] + [(label, p) for label, p, _b in lineage(game)]
        st = study(rules, hands, args.seed + 3, args.threads, pairings=[(p, p) for _l, p in players],
                   head_to_head=(), extra=(("expert", "expert", expert_hands),))
        tables = st.tables
        for label, p in players + [("expert (the search over learned)", "expert")]:
            for key, (value, lo, hi) in player_figures(tables, p, rules.is_rubicon).items():
                rows.append({"game": game, "player": label, "policy": p, "figure": key, "value": value,
                             "value_lo": lo, "value_hi": hi, "hands": st.results[f"{p} vs {p}"].hands,
                             "seed": args.seed + 3})
    df = pd.DataFrame(rows)
    df = with_other_games(df, out / "figures_by_strength.csv", args.games)
    write_table(df, out, "figures_by_strength")


def strength_figure(figs: pd.DataFrame, gens: pd.DataFrame, game: str) -> Figure:
    """A panel per headline figure: each player's self-play value (95 % interval), a line per
    player from the weakest (top) to the strongest, named with its advantage over the tuned
    hints (generations.csv; the tuned hints at 0) and its own hands; the lineages told apart by
    colour, each drawn through its players."""
    f = figs[figs.game == game]
    tuned = teacher_name(game)
    strength = {tuned: 0.0}
    g = gens[(gens.game == game) & (gens.policy_b == tuned)]
    strength.update({r.player: r.mean_diff for _, r in g.iterrows()})
    players = sorted((p for p in dict.fromkeys(f.player) if p in strength), key=strength.get)
    row = {p: i for i, p in enumerate(players)}
    hands = f.groupby("player").hands.first()
    what = {k: (w, u) for k, w, u in band_figures(game == "rubicon")}
    fig = Figure(figsize=(13, 2.2 + 0.5 * len(players)), layout="constrained")
    axes = fig.subplots(2, 3, sharey=True).ravel()
    for ax, key in zip(axes, what):
        d = f[(f.figure == key) & f.player.isin(strength)]
        scale = 100.0 if is_share(what[key][1]) else 1.0
        prefixes = tuple(p for p, _c, _l in LINEAGES)
        for rows, color, fmt, label in ((d.player == tuned, "grey", "D", "the tuned hints"),
                                        (~d.player.str.startswith((*prefixes, "expert", tuned)), "C0", "o-",
                                         "the first lineage"),
                                        *((d.player.str.startswith(p), c, "o-", text) for p, c, text in LINEAGES),
                                        (d.player.str.startswith("expert"), "k", "s", "expert over learned")):
            if not rows.any():
                continue
            e = d[rows].sort_values("player", key=lambda names: names.map(row))
            ax.errorbar(scale * e.value, e.player.map(row), color=color, fmt=fmt, capsize=3, label=label,
                        xerr=[scale * (e.value - e.value_lo), scale * (e.value_hi - e.value)])
        ax.set_title(what[key][0], fontsize=9)
        ax.set_xlabel("%" if scale == 100 else what[key][1], fontsize=8)
        ax.grid(axis="x", alpha=0.3)
        note_cut_axis(ax, "x")
    axes[0].set_yticks(range(len(players)), [f"{p}: {difference(strength[p]) if p != tuned else 'the reference'}, "
                                             f"{count(hands[p])} hands" for p in players])
    axes[0].set_ylim(len(players) - 0.5, -0.5)          # the weakest at the top
    for ax in axes:
        ax.tick_params(labelsize=8)
    for ax in axes[len(what):]:
        ax.set_visible(False)
    fig.legend(*drawn_handles(*axes[:len(what)]), loc="outside lower center", ncols=4, fontsize=8)
    fig.suptitle(f"{game}: the headline figures against strength (self-play of each player; 95 % intervals)\n"
                 f"each player with its advantage over {tuned} ({unit(game)}) and its self-play hands, "
                 "the weakest at the top", fontsize=10)
    return fig


def strength_chart(figs: pd.DataFrame, gens: pd.DataFrame, game: str, out: Path) -> None:
    """Write :func:`strength_figure` as figures_by_strength_GAME.png and .svg into ``out``."""
    save_chart(strength_figure(figs, gens, game), out, f"figures_by_strength_{game}")


def generations_figure(df: pd.DataFrame, game: str):
    """The lineages' strength against the tuned hints, generation by generation (the shipped
    player and the search drawn as lines), one column of width a run; returns the figure."""
    g = df[(df.game == game) & (df.policy_b == teacher_name(game))]
    gens = g[~g.player.isin(["learned (shipped)", "expert (the search over learned)"])]
    fig, ax = new_figure(max(11, 1.05 * len(gens) + 1.5), 5)      # room for each run's wrapped name
    x = np.arange(len(gens))
    of = {p: gens.player.str.startswith(p).to_numpy() for p, _c, _l in LINEAGES}
    first = ~np.logical_or.reduce(list(of.values()))
    for rows, color, label in ((first, "C0", "each generation"), *((of[p], c, text) for p, c, text in LINEAGES)):
        d = gens[rows]
        if len(d):      # each lineage in its colour of the strength chart, whichever lineages a game has
            ax.errorbar(x[rows], d.mean_diff, yerr=[d.mean_diff - d.mean_diff_lo, d.mean_diff_hi - d.mean_diff],
                        fmt="o-", capsize=5, color=color, label=label)
    for label, style in (("expert (the search over learned)", "--"), ("learned (shipped)", ":")):
        r = g[g.player == label]
        if len(r):
            value = float(r.mean_diff.iloc[0])
            ax.axhline(value, ls=style, color="grey", label=f"{label}: {value:+,.0f}")
    ax.set_xticks(list(x), [textwrap.fill(p, 16) for p in gens.player], fontsize=7)
    ax.set_ylabel(f"against {teacher_name(game)}\n({unit(game)}, 95 % interval)")
    ax.set_title(f"{game}: the learned player, generation by generation (deals of seed {int(g.seed.iloc[0])}, "
                 "seats swapped)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def chart(df: pd.DataFrame, game: str, out: Path) -> None:
    """Write :func:`generations_figure` as generations_GAME.png and .svg into ``out``."""
    save_chart(generations_figure(df, game), out, f"generations_{game}")


def _against(r) -> str:
    """Whom a row of generations.csv played, in words."""
    return ("the run it was trained from" if r.policy_b.startswith("learned:weights")
            else "its prior, `learned`" if r.policy_b == "learned" else f"`{r.policy_b}`")


def _verdict(r) -> str:
    """Whether ``learned`` beats the network of a row of best_by_name.csv."""
    return ("learned beats it" if r.mean_diff_lo > 0 else "it beats learned" if r.mean_diff_hi < 0
            else "a tie: not told apart")


def markdown(df: pd.DataFrame, best: pd.DataFrame, command: str) -> str:
    """The page's section: the generations table and the name's verdicts."""
    lines = [f"Made by `{command}`; each deal played twice with the seats swapped, on deals no training, "
             "tuning or choice of settings played; 95 % intervals.", ""]
    deals = ("deals", lambda r: count(r.deals))

    def advantage(r) -> str:
        return f"{difference(r.mean_diff, r.mean_diff_lo, r.mean_diff_hi)} {unit(r.game)}"

    lines += table(df, [("game", lambda r: r.game), ("player", lambda r: r.player), ("against", _against),
                        deals, ("advantage", advantage)])
    lines += ["", "**The name means the best**: `learned` against every network the project has trained for the game "
              "(head to head):", ""]
    lines += table(best, [("game", lambda r: r.game), ("run (results/train/…)", lambda r: r.player), deals,
                          ("learned's advantage", advantage), ("verdict", _verdict)])
    return "\n".join(lines)


def main(argv=None) -> int:
    """Run the study (see the module docstring)."""
    ap = study_parser("generations", __doc__, SEED, str(RESULTS / "learned"),
                      tables="only write the charts and markdown from the tables in --out")
    args = ap.parse_args(argv)
    out = Path(args.out).resolve()
    os.chdir(ROOT)           # the models are named relative to the repository (learned:weights=results/...)
    if not args.tables:
        measure(args, out)
        figures_by_strength(args, out)
    df, best, figs = read_tables(out, "generations", "best_by_name", "figures_by_strength")
    for game in df.game.unique():
        chart(df, game, out)
        strength_chart(figs, df, game, out)
    return publish(args, MARK, markdown(df, best, scaled_command("generations", args.scale)),
                   "The learned player's generations, and the name that means the best")


if __name__ == "__main__":
    raise SystemExit(main())
