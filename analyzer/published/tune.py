"""The tuning study of both headline games: `bezique tune` for the ordinary game and Rubicon
into results/tune/<variant>/, and each result stored in the package as the preset
`hints:tuned-<variant>` (analyzer/policies/tuned/tuned-<variant>.json). The search weighs all
thirteen hints (the rulebook's H1..H8 and the found H9..H13), starting from and playing against
the previous preset, the tuned H1..H8 (`hints:tuned-<variant>-h8`).

Example:
    bezique study tune                        # the committed study
    bezique study tune --variants ordinary --budget 2000000 --no-install
"""
from __future__ import annotations

import json
import shutil
import sys

from .common import GAMES, RESULTS, ROOT, parser, run_bezique, table, write_section

MARK = "tune"
BUDGET = {"ordinary": 24_000_000, "rubicon": 8_000_000}
CONFIRM = {"ordinary": (20_000, 0), "rubicon": (10_000, 0)}     # deals: against hints and the opponent, expert
SEED = 20261291


def main(argv=None) -> None:
    """Tune each game, store its preset and write the summary (see the module docstring)."""
    ap = parser("tune", __doc__, seed=SEED)
    ap.add_argument("--variants", nargs="+", default=GAMES, choices=GAMES)
    ap.add_argument("--budget", type=int, default=None, help="hands per search (default: per variant)")
    ap.add_argument("--no-install", action="store_true", help="do not store the presets in the package")
    args = ap.parse_args(argv)
    for v in args.variants:
        out = f"results/tune/{v}"
        hints_deals, expert_deals = CONFIRM[v]
        run_bezique(["tune", "--variant", v, "--opponent", f"hints:tuned-{v}-h8", "--start", f"tuned-{v}-h8",
                     "--budget", str(args.budget or BUDGET[v]), "--seed", str(args.seed), "--confirm",
                     str(hints_deals), "--confirm-expert", str(expert_deals), "--out", out])
        if not args.no_install:
            target = ROOT / "analyzer" / "policies" / "tuned" / f"tuned-{v}.json"
            target.parent.mkdir(exist_ok=True)
            shutil.copyfile(ROOT / out / "tune.json", target)
            print(f"stored {target.relative_to(ROOT)}", file=sys.stderr)
    if all((RESULTS / f"tune/{v}/tune.json").exists() for v in GAMES):
        write_summary()


def _confirmation(preset: dict, against: str) -> str:
    """The tuned preset's confirmed margin over ``against``, with its interval and deals."""
    c = next((r for r in preset["confirmation"] if r["against"] == against), None)
    if c is None:
        return "not measured"
    return f"{c['mean_diff']:+.1f} [{c['mean_diff_lo']:+.1f}, {c['mean_diff_hi']:+.1f}] ({c['deals']:,} deals)"


def write_summary() -> None:
    """The table of both tunings on results/tune's page (between its tune markers)."""
    o, r = (json.loads((RESULTS / f"tune/{v}/tune.json").read_text()) for v in GAMES)
    weights = lambda p: ", ".join(f"{h} {w:.2f}" for h, w in p["weights"].items())     # noqa: E731
    text = (f"CMA-ES searched the weights of all thirteen hints (each in [0, 5]) against the previous "
            f"presets, the tuned H1..H8 (`hints:tuned-<game>-h8`), starting from their weights (a found "
            f"hint at 1): {o['hands_spent']:,} hands in {o['generations']} generations for the ordinary "
            f"game, {r['hands_spent']:,} in {r['generations']} for Rubicon (seed {o['seed']}), then "
            f"confirmed the answer on the deals of seed {o['seed']}, which the search never played. The "
            "results are the presets `hints:tuned-ordinary` and `hints:tuned-rubicon`; each "
            "`tune/<variant>/tune.md` says in plain words which hints were strengthened, weakened or "
            "switched off.\n\n")
    rows = [("tuned weights", weights), ("tuned against hand-set hints", lambda p: _confirmation(p, "hints")),
            ("tuned against the tuned H1..H8", lambda p: _confirmation(p, p["opponent"]))]
    text += "\n".join(table(rows, [("", lambda row: row[0]), ("ordinary (points per hand)", lambda row: row[1](o)),
                                   ("Rubicon (net game points per game)", lambda row: row[1](r))]))
    write_section(RESULTS / "tune", MARK, text, "Tuned hints (`bezique tune`)")


if __name__ == "__main__":
    raise SystemExit(main())
