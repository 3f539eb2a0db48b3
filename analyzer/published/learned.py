"""The learned player measured: against every other player, and in self-play beside the tuned
hints, on deals that neither its training nor its learning curve used.

Writes results/learned/: ``strength.csv`` (one row per game and opponent: the learned player's
mean advantage per deal, seats swapped, points per hand or net game points per game, its 95 %
interval, score share and Elo), ``selfplay.csv`` (per game and policy: mean totals, rubicon rate,
double bézique rate, each with its interval) and the markdown tables between the ``learned``
markers of its page (results/learned/README.md).

The training used seed 1 (deals 0 .. steps x hands) and its learning curve seed 1,000,004; this
study plays seed 20261201 by default.

Example:
    bezique study learned                                   # ~10 min on 2 cores
    bezique study learned --scale 0.1 --no-readme           # a quick look
"""
from __future__ import annotations

import sys
import time

import pandas as pd

from ..plots.figure import save_chart
from ..plots.learning import rounds_chart
from ..rules import preset
from ..run.output import write_table
from ..studies.play.compare import compare
from ..studies.play.simulate import simulate
from .common import RESULTS, ci, command, publish, study_parser, table, unit

MARK = "learned"
# opponent -> deals (each played twice, seats swapped), per game
OPPONENTS = {
    "ordinary": {"random": 5_000, "greedy": 5_000, "hints": 20_000, "hints:tuned-ordinary": 20_000,
                 "expert:plain,guard=0": 600, "expert": 1_000},
    "rubicon": {"random": 2_000, "greedy": 2_000, "hints": 5_000, "hints:tuned-rubicon": 5_000,
                "expert:plain,guard=0": 150, "expert": 300},
}
SELF_PLAY = {"ordinary": 100_000, "rubicon": 20_000}
# the training runs of each round of the shipped models (results/train/), and the variants of a
# round drawn beside them: (label, run, the run it starts from or None)
ROUNDS = {
    "ordinary": [("round 1 (over the tuned hints)", "ordinary", None),
                 ("round 2 (the shipped model)", "ordinary-round2", "ordinary"),
                 ("best response to round 2 (a round 3 against it frozen)", "ordinary-br", "ordinary-round2")],
    "rubicon": [("round 1 (over the tuned hints)", "rubicon", None),
                ("round 2, bonus 25 (the shipped model)", "rubicon-round2", "rubicon"),
                ("round 2, bonus 50", "rubicon-round2-variants/bonus50", "rubicon"),
                ("round 2, bonus 100", "rubicon-round2-variants/bonus100", "rubicon"),
                ("round 3 over the bonus-50 round 2", "rubicon-round2-variants/round3-bonus50",
                 "rubicon-round2-variants/bonus50")],
}
# the rule sets the models were not trained on: (label, preset, options, deals) against the
# tuned hints of the model's game
VARIANTS = (
    ("V1 no_trump", "no_trump", {}, 5_000),
    ("V2 panache", "panache", {}, 5_000),
    ("V3 fixed_point", "fixed_point", {}, 5_000),
    ("V6 hand_size=9", "ordinary", {"hand_size": 9}, 5_000),
    ("V6 hand_size=10", "ordinary", {"hand_size": 10}, 5_000),
    ("V7 packs=3", "ordinary", {"packs": 3}, 5_000),
    ("Rubicon redeclare=replace", "rubicon", {"redeclare": "replace"}, 2_000),
    ("Rubicon redeclare=same_or_higher", "rubicon", {"redeclare": "same_or_higher"}, 2_000),
)


def strength(game: str, opponent: str, deals: int, seed: int, threads, player: str = "learned",
             **options) -> dict:
    """``player`` against ``opponent`` on ``deals`` deals of ``game`` (a preset, with
    ``options``), seats swapped."""
    t0 = time.monotonic()
    r = compare(preset(game, **options), [player, opponent], deals, seed, threads=threads).pairs.iloc[0]
    return {"game": game, "opponent": opponent, "deals": deals, "seed": seed,
            **{k: float(r[k]) for k in ("mean_diff", "mean_diff_lo", "mean_diff_hi", "score_a", "score_a_lo",
                                        "score_a_hi", "elo_a", "elo_a_lo", "elo_a_hi")},
            "seconds": round(time.monotonic() - t0, 1)}


def self_play(game: str, policy: str, hands: int, seed: int, threads) -> dict:
    """``policy`` against itself: mean totals, rubicon rate (Rubicon), double bézique rate."""
    res = simulate(preset(game), [policy, policy], hands, seed, threads=threads)
    s = res.tables["summary"]
    row = {"game": game, "policy": policy, "hands": hands, "seed": seed,
           "mean_total": float(s.mean_score.mean()), "mean_total_lo": float(s.mean_score_lo.mean()),
           "mean_total_hi": float(s.mean_score_hi.mean()),
           "double_bezique_rate": float(s.double_bezique_rate.mean()),
           "double_bezique_rate_lo": float(s.double_bezique_lo.mean()),
           "double_bezique_rate_hi": float(s.double_bezique_hi.mean())}
    if game == "rubicon":
        rub = res.tables["rubicon"]
        row.update(rubicon_rate=float(rub.rubicon_rate[0]), rubicon_rate_lo=float(rub.rubicon_rate_lo[0]),
                   rubicon_rate_hi=float(rub.rubicon_rate_hi[0]))
    return row


def rounds_charts(out) -> None:
    """results/learned/rounds_GAME.png: the learning curve of each round (ROUNDS), a round drawn
    from where the run it improves on ended."""
    train = RESULTS / "train"
    for game, runs in ROUNDS.items():
        curves = {run: pd.read_csv(train / run / "curve.csv") for _l, run, _s in runs}
        drawn = []
        for label, run, start in runs:
            offset = 0.0 if start is None else float(curves[start].hands.max())
            if start is not None:
                offset += next(o for _l, r, o in drawn if r == start)
            drawn.append((label, run, offset))
        fig = rounds_chart([(label, curves[run], offset) for label, run, offset in drawn], unit(game),
                           f"{'Ordinary' if game == 'ordinary' else 'Rubicon'} bézique: the learned player, "
                           "round by round (95 % intervals)", f"hints:tuned-{game}")
        save_chart(fig, out, f"rounds_{game}")


def markdown(strong: pd.DataFrame, selfp: pd.DataFrame, variants: pd.DataFrame, command: str) -> str:
    """The tables of its page."""
    lines = [f"Made by `{command}` (seed {int(strong.seed.iloc[0])}: deals that neither the training nor its "
             "learning curve played). Each deal is played twice, seats swapped; intervals 95 %.", ""]
    lines += table(strong, [("game", lambda r: r.game), ("opponent", lambda r: f"`{r.opponent}`"),
                            ("deals", lambda r: f"{int(r.deals):,}"),
                            ("learned's advantage", lambda r: f"{ci(r)} {unit(r.game)}"),
                            ("score share", lambda r: f"{ci(r, 'score_a', '{:.1f}', 100)} %"),
                            ("Elo", lambda r: ci(r, "elo_a", "{:+.0f}"))])
    lines += ["", "Self-play (both seats the same policy):", ""]
    lines += table(selfp, [("game", lambda r: r.game), ("policy", lambda r: f"`{r.policy}`"),
                           ("hands", lambda r: f"{int(r.hands):,}"),
                           ("mean total per seat", lambda r: ci(r, "mean_total", "{:.1f}")),
                           ("rubicon rate", lambda r: ci(r, "rubicon_rate", "{:.2f}", 100) + " %"
                            if r.game == "rubicon" else "—"),
                           ("double bézique rate (per seat)",
                            lambda r: f"{ci(r, 'double_bezique_rate', '{:.3f}', 100)} %")])
    if len(variants):
        lines += ["", "Rule sets the models were not trained on, against the tuned hints of the model's game:", ""]
        lines += table(variants, [("rule set", lambda r: r.variant), ("deals", lambda r: f"{int(r.deals):,}"),
                                  ("learned's advantage", ci)])
    return "\n".join(lines)


def main(argv=None) -> int:
    """Run the study (see the module docstring)."""
    ap = study_parser("learned", __doc__, 20261201, str(RESULTS / "learned"))
    ap.add_argument("--no-variants", action="store_true", help="leave out the rule sets not trained on")
    ap.add_argument("--rounds-only", action="store_true", help="only draw the rounds' learning curves")
    args = ap.parse_args(argv)
    rounds_charts(args.out)
    if args.rounds_only:
        return 0
    made_by = command("learned", *(argv if argv is not None else sys.argv[1:]))
    strong, selfp = [], []
    for game in args.games:
        for opponent, deals in OPPONENTS[game].items():
            row = strength(game, opponent, max(int(deals * args.scale), 10), args.seed, args.threads)
            print(f"{game}: learned vs {opponent}: {ci(row)} over {row['deals']:,} deals "
                  f"({row['seconds']:.0f} s)", flush=True)
            strong.append(row)
        for policy in ("learned", f"hints:tuned-{game}"):
            row = self_play(game, policy, max(int(SELF_PLAY[game] * args.scale), 10), args.seed, args.threads)
            print(f"{game}: {policy} self-play: mean total {row['mean_total']:.1f}", flush=True)
            selfp.append(row)
    variants = []
    for label, name, options, deals in VARIANTS if not args.no_variants else ():
        game = "rubicon" if name == "rubicon" else "ordinary"
        row = strength(name, f"hints:tuned-{game}", max(int(deals * args.scale), 10), args.seed, args.threads,
                       player="learned:rules=any", **options)
        row["variant"] = label
        print(f"{label}: learned vs hints:tuned-{game}: {ci(row)}", flush=True)
        variants.append(row)
    strong_df, self_df, var_df = pd.DataFrame(strong), pd.DataFrame(selfp), pd.DataFrame(variants)
    write_table(strong_df, args.out, "strength")
    write_table(self_df, args.out, "selfplay")
    if variants:
        write_table(var_df, args.out, "variants")
    text = markdown(strong_df, self_df, var_df, made_by)
    return publish(args, MARK, text, "The learned player")


if __name__ == "__main__":
    raise SystemExit(main())
