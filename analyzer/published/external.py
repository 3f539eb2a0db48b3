"""A player no one here wrote: OpenSpiel's IS-MCTS (its own implementation,
``open_spiel.python.algorithms.ismcts``, with its random roll-out evaluator) against the project's
players, through the OpenSpiel game of ``analyzer.field`` (issue 58). Writes results/external/.

Each deal of the seed is played twice, IS-MCTS at seat 0 then at seat 1 against the same
opponent (duplicate deals, seats swapped); a deal's figure is IS-MCTS's mean return over its two
hands (the ordinary game: its points less the opponent's; Rubicon: net game points, R3.9); the
interval is over the deals. The deals were neither trained nor tuned on (their seed is this
study's own). The opponents are the project's players as OpenSpiel bots (``field/bots.py``):
``greedy``, ``hints:tuned-GAME`` and ``learned``; the ladder (results/ladder/) measured each of
the project's players against ``hints:tuned-GAME``, so IS-MCTS's margin against it places it there.

IS-MCTS's settings: OpenSpiel's defaults but for the UCT constant, which OpenSpiel's examples
set to 2 for returns within [-1, 1]: here 2 times the standard deviation of a hand's return in
random play (72 points in the ordinary game, 1,514 net game points in Rubicon: measured on 400
random hands), so that exploration has the scale of the returns. One random roll-out per leaf;
the worlds drawn by the game's ``resample_from_infostate`` (the engine's sampler).

- ``hands.csv``: one row per hand played (game, simulations a move, opponent, deal, IS-MCTS's
  seat, its return, its seconds and searched moves). A run keeps the rows of the hands it has
  already played (the same seed and settings) and plays the rest: it can be stopped and run again.
- ``external.csv``: per game, budget and opponent: the deals, IS-MCTS's mean return per hand with
  its 95 % interval, its seconds a move; ``external.png``: the same as a chart.

Example:
    bezique study external                       # ~80 min on 2 cores (2 h 20 min of search on one)
    bezique study external --scale 0.25 --out /tmp/external --no-readme
"""
from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..errors import BeziqueError
from ..numbers import difference
from ..plots.figure import new_figure, save_chart
from ..run.output import write_table
from ..tables.stats import mean_ci
from .common import GAMES, RESULTS, publish, scaled_command, scaler, study_parser, table, unit

try:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from ..field import openspiel_game as og
    from ..field.bots import ProjectBot, play_deal
except ImportError as missing:           # the field extra is not installed
    raise BeziqueError(f"this study plays OpenSpiel's IS-MCTS, which needs the field extra "
                       f"(pip install -e '.[field]'): {missing}") from None

SEED = 20261258
OPPONENTS = ("greedy", "hints:tuned-{game}", "learned")
DEALS = {("ordinary", 100): 20, ("ordinary", 1000): 4, ("rubicon", 100): 6, ("rubicon", 300): 3}
RANDOM_SD = {"ordinary": 72.4, "rubicon": 1514.3}    # a hand's return in random play (400 hands)
MARK = "external"
COLUMNS = ["game", "sims", "opponent", "seed", "deal", "seat", "result", "seconds", "moves"]


class _TimedBot:
    """A bot whose moves with a choice are timed and counted."""

    def __init__(self, bot):
        self.bot, self.seconds, self.moves = bot, 0.0, 0

    def step(self, state) -> int:
        if len(state.legal_actions()) == 1:
            return state.legal_actions()[0]
        t0 = time.perf_counter()
        action = self.bot.step(state)
        self.seconds += time.perf_counter() - t0
        self.moves += 1
        return action


def ismcts_bot(game, sims: int, seed: int):
    """OpenSpiel's IS-MCTS with ``sims`` simulations a move and a random roll-out, its streams
    and its worlds seeded by ``seed`` (see the module docstring for the UCT constant)."""
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0 * RANDOM_SD[game.rules.name], max_simulations=sims,
                           random_state=np.random.RandomState(seed + 1))
    sampler = pyspiel.UniformProbabilitySampler(seed + 2, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


def play_pair(job: tuple) -> list[dict]:
    """One deal played twice, IS-MCTS at each seat (job: game, sims, opponent, deal, seed)."""
    name, sims, opponent, deal, seed = job
    game = og.load(name, margin=name != "rubicon")
    rows = []
    for seat in (0, 1):
        mcts_bot = _TimedBot(ismcts_bot(game, sims, (seed * 7919 + deal * 2 + seat) % 2**31))
        bots = [mcts_bot, ProjectBot(game, 1 - seat, opponent, seed, deal)]
        returns = play_deal(game, seed, deal, bots if seat == 0 else bots[::-1])
        rows.append({"game": name, "sims": sims, "opponent": opponent, "seed": seed, "deal": deal, "seat": seat,
                     "result": returns[seat], "seconds": mcts_bot.seconds, "moves": mcts_bot.moves})
    return rows


def jobs_for(args) -> list[tuple]:
    """Every deal pair of the study, the deals of every pairing taken in turn (so that a run
    stopped early has played about as much of each)."""
    scale = scaler(args.scale)
    jobs = [(g, sims, o.format(game=g), d, args.seed) for (g, sims), n in DEALS.items() if g in args.games
            for o in OPPONENTS for d in range(scale(n))]
    return sorted(jobs, key=lambda j: (j[3], j[1], j[0]))


def summary(hands: pd.DataFrame) -> pd.DataFrame:
    """Per game, budget and opponent: deals, IS-MCTS's mean return per hand with its 95 %
    interval over the deals (each deal's two hands averaged), seconds a searched move."""
    out = []
    for (game, sims, opponent), g in hands.groupby(["game", "sims", "opponent"], sort=False):
        pairs = g.groupby("deal").filter(lambda d: len(d) == 2).groupby("deal").result.mean().to_numpy(float)
        mean, lo, hi = (float(x) for x in mean_ci(pairs.sum(), (pairs * pairs).sum(), len(pairs)))
        out.append({"game": game, "sims": int(sims), "opponent": opponent, "deals": len(pairs),
                    "mean": mean, "mean_lo": lo, "mean_hi": hi,
                    "seconds_per_move": float(g.seconds.sum() / max(g.moves.sum(), 1))})
    return pd.DataFrame(sorted(out, key=_table_order))


def _table_order(row: dict) -> tuple:
    """The games in GAMES's order, the budgets ascending, the opponents in OPPONENTS's order."""
    names = [o.format(game=row["game"]) for o in OPPONENTS]
    return (GAMES.index(row["game"]), row["sims"], names.index(row["opponent"]))


def chart(df: pd.DataFrame):
    """IS-MCTS's margin against each opponent at each budget, a panel per game, one above the other."""
    games = list(dict.fromkeys(df.game))
    rows = [len(df[df.game == g]) for g in games]
    fig, _ax = new_figure(9, 1.4 + 0.42 * sum(rows) + 0.9 * len(games))
    fig.clear()
    axes = fig.subplots(len(games), 1, squeeze=False, gridspec_kw={"height_ratios": rows})[:, 0]
    for ax, game in zip(axes, games):
        d = df[df.game == game]
        labels = [f"{s:,} simulations, against {o}" for o, s in zip(d.opponent, d.sims)]
        y = d["mean"].to_numpy()
        colours = ["tab:blue" if lo > 0 else "tab:red" if hi < 0 else "tab:grey"
                   for lo, hi in zip(d.mean_lo, d.mean_hi)]
        ax.barh(labels, y, xerr=[y - d.mean_lo.to_numpy(), d.mean_hi.to_numpy() - y], capsize=4, color=colours)
        ax.axvline(0, color="black", lw=0.8)
        ax.invert_yaxis()
        ax.set_xlabel(f"IS-MCTS's margin ({unit(game)}, 95 % interval)")
        ax.set_title(f"{'Rubicon' if game == 'rubicon' else 'Ordinary'} bézique", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle("OpenSpiel's IS-MCTS against the project's players\n(blue: IS-MCTS ahead, red: behind, "
                 "grey: not told apart)", fontsize=10)
    fig.tight_layout()
    return fig


def ladder_place(df: pd.DataFrame, game: str, ladder_csv: Path = RESULTS / "ladder" / "ladder.csv") -> list[str]:
    """Where IS-MCTS stands on the ladder of ``game`` (results/ladder: every player's margin against
    ``hints:tuned-GAME``), one sentence a budget: the rungs just below and above its margin against
    the same player."""
    if not ladder_csv.is_file():
        return []
    rungs = pd.read_csv(ladder_csv, index_col=0)
    rungs = rungs[(rungs.game == game) & ~rungs.player.str.startswith("ceiling")].sort_values("mean_diff")
    out = []
    for r in df[(df.game == game) & (df.opponent == f"hints:tuned-{game}")].itertuples():
        below = rungs[rungs.mean_diff_hi < r.mean_lo]
        above = rungs[rungs.mean_diff_lo > r.mean_hi]
        level = rungs[~rungs.index.isin(below.index) & ~rungs.index.isin(above.index)]
        words = ([f"below `{above.player.iloc[0]}` ({above.mean_diff.iloc[0]:+,.0f})"] if len(above) else
                 [] if len(level) else ["above every player of the ladder"])
        if len(below):
            words.insert(0, f"above `{below.player.iloc[-1]}` ({below.mean_diff.iloc[-1]:+,.0f})")
        if len(level):
            words.append("not told apart from " + ", ".join(f"`{p}` ({v:+,.0f})" for p, v in
                                                           zip(level.player, level.mean_diff)))
        out.append(f"- {game}, {r.sims:,} simulations a move: {difference(r.mean, r.mean_lo, r.mean_hi)} against "
                   f"`hints:tuned-{game}`, so " + "; ".join(words) + ".")
    return out


def markdown(df: pd.DataFrame, hands: pd.DataFrame, made_by: str, seed: int) -> str:
    """The study's page section."""
    lines = [f"Made by `{made_by}` (seed {seed}; each deal played twice, IS-MCTS at each seat). "
             f"{len(hands):,} hands; IS-MCTS searched for {hands.seconds.sum() / 60:,.0f} minutes in all, a hand on "
             "one core. IS-MCTS's margin is its mean return per hand: in the ordinary game its points less the "
             "opponent's, in Rubicon net game points (R3.9); 95 % intervals over the deals, each deal's two hands "
             "averaged.", ""]
    lines += table(df, [("game", lambda r: r.game), ("simulations a move", lambda r: f"{r.sims:,}"),
                        ("opponent", lambda r: f"`{r.opponent}`"), ("deals", lambda r: f"{r.deals:,}"),
                        ("IS-MCTS's margin", lambda r: difference(r["mean"], r.mean_lo, r.mean_hi)),
                        ("seconds a move", lambda r: f"{r.seconds_per_move:.2f}")])
    lines += ["", "![IS-MCTS against the project's players](external.png)", "",
              "**Where it stands on the ladder** (results/ladder/: each player's margin against the tuned "
              "hints on other deals; the ceilings, which cheat, left out; a rung is above or below where the "
              "intervals do not overlap):", ""]
    for game in dict.fromkeys(df.game):
        lines += ladder_place(df, game)
    return "\n".join(lines)


def main(argv=None) -> int:
    """Run the study (see the module docstring)."""
    ap = study_parser("external", __doc__, SEED, str(RESULTS / "external"),
                      tables="play nothing: the tables, chart and page from the hands already in hands.csv")
    args = ap.parse_args(argv)
    out = Path(args.out)
    done_path = out / "hands.csv"
    hands = pd.read_csv(done_path, index_col=0) if done_path.is_file() else pd.DataFrame(columns=COLUMNS)
    done = set(zip(hands.game, hands.sims, hands.opponent, hands.deal, hands.seed))
    todo = [] if args.tables else [j for j in jobs_for(args) if j not in done]
    with ProcessPoolExecutor(max_workers=args.threads or 2) as pool, \
            tqdm(total=len(todo), desc="deals", file=sys.stderr) as bar:
        for rows in pool.map(play_pair, todo):
            hands = pd.concat([hands, pd.DataFrame(rows)], ignore_index=True)
            write_table(hands, out, "hands")            # every finished deal kept at once
            bar.update(1)
    df = summary(hands[hands.seed == args.seed])
    write_table(df, out, "external")
    save_chart(chart(df), out, "external")
    text = markdown(df, hands, scaled_command("external", args.scale), args.seed)
    return publish(args, MARK, text, "OpenSpiel's IS-MCTS against the project's players")


if __name__ == "__main__":
    raise SystemExit(main())
