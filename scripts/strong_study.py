"""Strong play by name, a stronger learned player and independent evidence (issue 33): writes
results/strong/ and the ``strong`` section of results/README.md.

- ``names.csv``: ``expert`` (the strongest search, by name) and the search that rolls out with
  the learned player (``expert:prior=0,rollout=learned``) against ``learned``;
- ``players.csv``: every player at the top against the tuned hints and against ``learned``:
  the learned player of each round, a second player trained independently (another seed, a
  network that never sees the tuned teacher's choice) and the best response to ``learned``
  (the exploitability probe: what a player trained against the frozen ``learned`` gains);
- ``statistics.csv``: each of them in self-play, the statistics side by side (totals, double
  and treble bézique, rubicon rates, the worth of a brisque), and which agree.

Every comparison plays each deal twice with the seats swapped, on deals of a seed no training,
tuning or choice of settings played (20261206); intervals are 95 %.

Example:
    python scripts/strong_study.py                          # the committed figures (about an hour on 2 cores)
    python scripts/strong_study.py --scale 0.05 --no-readme --out /tmp/strong
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ladder_study import statistics  # noqa: E402 (the ladder's self-play statistics, shared)

from analyzer.policies.learned import shipped_model  # noqa: E402
from analyzer.policies.registry import resolve_policy  # noqa: E402
from analyzer.rules import preset  # noqa: E402
from analyzer.run.output import update_marked_section, write_table  # noqa: E402
from analyzer.studies.compare import compare_pair  # noqa: E402
from analyzer.tables.stats import interval_text  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MARK = "strong"
TRAIN = ROOT / "results" / "train"
# (game, label, policy A, policy B, deals)
NAMES = [
    ("ordinary", "expert (the strongest search)", "expert", "learned", 1_000),
    ("ordinary", "expert rolling out with learned", "expert:prior=0,rollout=learned", "learned", 300),
    ("rubicon", "expert (the strongest search)", "expert", "learned", 400),
    ("rubicon", "expert rolling out with learned", "expert:prior=0,rollout=learned", "learned", 150),
]


def models(game: str) -> list[tuple[str, str]]:
    """(label, policy) of each player at the top of ``game`` whose model is on disk."""
    out = [("learned", "learned")]
    for label, run in (("learned, round 1", f"{game}"), ("independent, round 1", f"{game}-independent"),
                       ("independent", f"{game}-independent-round2"), ("best response to learned", f"{game}-br")):
        path = TRAIN / run / "model.npz"
        if path.is_file() and path.read_bytes() != shipped_model(game).read_bytes():    # not learned itself
            out.append((label, f"learned:weights={path},rules=any"))
    return out


def pair(game, label, a, b, deals, seed, threads, bar) -> dict:
    """compare_pair's row for A against B, labelled, with the seconds it took."""
    t0 = time.perf_counter()
    r = compare_pair(preset(game), resolve_policy(a), resolve_policy(b), deals, seed, threads,
                     progress=lambda d: bar.update(2 * d)).row()
    return {"game": game, "player": label, **r, "seconds": round(time.perf_counter() - t0, 1)}


def unit(game: str) -> str:
    return "net game points per game" if game == "rubicon" else "points per hand"


def markdown(names: pd.DataFrame, players: pd.DataFrame, stats: pd.DataFrame, command: str) -> str:
    """The study's tables for results/README.md."""
    ci = interval_text
    lines = [f"Made by `{command}` (seed {int(names.seed.iloc[0]) if 'seed' in names else 20261206}: deals no "
             "training, tuning or choice of settings played), each deal played twice with the seats swapped; "
             "95 % intervals.", "", "**The names**: `expert` is the strongest search by name; a search that rolls "
             "out with `learned` keeps its choice unless it finds one clearly better.", "",
             "| game | player | policy | against | deals | advantage | seconds |", "|---|---|---|---|---|---|---|"]
    for _, r in names.iterrows():
        lines.append(f"| {r.game} | {r.player} | `{r.policy_a}` | `{r.policy_b}` | {int(r.deals):,} | "
                     f"{ci(r, 'mean_diff')} {unit(r.game)} | {r.seconds:.0f} |")
    lines += ["", "**The players at the top**, against the tuned hints and against `learned`:", "",
              "| game | player | against | deals | advantage |", "|---|---|---|---|---|"]
    for _, r in players.iterrows():
        lines.append(f"| {r.game} | {r.player} | `{r.policy_b}` | {int(r.deals):,} | {ci(r, 'mean_diff')} {unit(r.game)} |")
    if len(stats):
        lines += ["", "**Their statistics side by side** (self-play, both seats the same player):", "",
                  "| game | player | hands | mean total per seat | double bézique % | treble bézique % | rubicon rate % "
                  "| winner's game score | margin per brisque |", "|---|---|---|---|---|---|---|---|---|"]
        for _, r in stats.iterrows():
            rub = r.game == "rubicon"
            lines.append(f"| {r.game} | {r.player} | {int(r.hands):,} | {ci(r, 'mean_total', '{:.0f}')} | "
                         f"{ci(r, 'double_bezique_rate', '{:.2f}', 100)} | "
                         + (f"{ci(r, 'treble_bezique_rate', '{:.3f}', 100)} | {ci(r, 'rubicon_rate', '{:.1f}', 100)} | "
                            f"{ci(r, 'winner_game_score', '{:.0f}')} | " if rub else "– | – | – | ")
                         + f"{ci(r, 'margin_per_brisque', '{:.1f}')} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    """Run the study (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=20261206, help="the deals (neither training nor tuning played them)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every number of deals and hands by this")
    ap.add_argument("--games", nargs="+", default=["ordinary", "rubicon"], choices=["ordinary", "rubicon"])
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--no-readme", action="store_true", help="do not touch results/README.md")
    ap.add_argument("--tables", action="store_true", help="only write the markdown from the tables in --out")
    ap.add_argument("--out", default=str(ROOT / "results" / "strong"))
    args = ap.parse_args(argv)
    out = Path(args.out)
    if not args.tables:
        measure(args, out)
    names, players = pd.read_csv(out / "names.csv", index_col=0), pd.read_csv(out / "players.csv", index_col=0)
    stats = pd.read_csv(out / "statistics.csv", index_col=0)
    command = "python scripts/strong_study.py" + (f" --scale {args.scale}" if args.scale != 1 else "")
    text = markdown(names, players, stats, command)
    if not args.no_readme:
        update_marked_section(ROOT / "results" / "README.md", MARK, text,
                              "Strong play by name, a stronger learned player, and independent evidence")
    print(text)
    return 0


def measure(args, out: Path) -> None:
    """Play every comparison and the self-play statistics; write their tables into ``out``."""
    scaled = lambda n: max(2, int(n * args.scale))      # noqa: E731 (a one-line helper)
    vs = {"ordinary": (20_000, 5_000), "rubicon": (5_000, 2_000)}     # deals: against the tuned hints, learned
    self_play = {"ordinary": 100_000, "rubicon": 20_000}
    expert_hands = {"ordinary": 2_000, "rubicon": 600}
    names = [n for n in NAMES if n[0] in args.games]
    jobs = []
    for game in args.games:
        for label, p in models(game):
            jobs.append((game, label, p, f"hints:tuned-{game}", scaled(vs[game][0])))
            if p != "learned":
                jobs.append((game, label, p, "learned", scaled(vs[game][1])))
    stat_hands = {g: {label: scaled(self_play[g]) for label, _p in models(g)} for g in args.games}
    for g in args.games:
        stat_hands[g].update({"expert": scaled(expert_hands[g]), f"hints:tuned-{g}": scaled(self_play[g])})
    total = sum(2 * scaled(n) for *_x, n in names) + sum(2 * n for *_x, n in jobs)
    total += sum(sum(h.values()) for h in stat_hands.values())
    with tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr) as bar:
        name_rows = [pair(g, label, a, b, scaled(n), args.seed, args.threads, bar) for g, label, a, b, n in names]
        player_rows = [pair(g, label, a, b, n, args.seed, args.threads, bar) for g, label, a, b, n in jobs]
        stats = []
        for game in args.games:
            players = models(game) + [("expert", "expert"), (f"hints:tuned-{game}", f"hints:tuned-{game}")]
            stats += statistics(game, players, stat_hands[game], args.seed, args.threads, bar)
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in (("names", name_rows), ("players", player_rows), ("statistics", stats)):
        df = pd.DataFrame(rows)
        df["seed"] = args.seed
        write_table(df, out, name)


if __name__ == "__main__":
    raise SystemExit(main())
