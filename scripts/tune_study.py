"""The tuning study of both headline games: `bezique tune` for the ordinary game and Rubicon
into results/tune/<variant>/, and each result stored in the package as the preset
`hints:tuned-<variant>` (analyzer/policies/tuned/tuned-<variant>.json). The search weighs all
thirteen hints (the rulebook's H1..H8 and the found H9..H13), starting from and playing against
the previous preset, the tuned H1..H8 (`hints:tuned-<variant>-h8`).

Example:
    python scripts/tune_study.py                        # the committed study
    python scripts/tune_study.py --variants ordinary --budget 2000000 --no-install
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- tune: made by scripts/tune_study.py -->", "<!-- /tune -->"
BUDGET = {"ordinary": 24_000_000, "rubicon": 8_000_000}
CONFIRM = {"ordinary": (20_000, 0), "rubicon": (10_000, 0)}     # deals: against hints and the opponent, expert
SEED = 20261291


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", nargs="+", default=["ordinary", "rubicon"], choices=["ordinary", "rubicon"])
    ap.add_argument("--budget", type=int, default=None, help="hands per search (default: per variant)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--no-install", action="store_true", help="do not store the presets in the package")
    args = ap.parse_args()
    bezique = str(Path(sys.executable).parent / "bezique")
    for v in args.variants:
        out = f"results/tune/{v}"
        hints_deals, expert_deals = CONFIRM[v]
        cmd = [bezique, "tune", "--variant", v, "--opponent", f"hints:tuned-{v}-h8", "--start", f"tuned-{v}-h8",
               "--budget", str(args.budget or BUDGET[v]), "--seed", str(args.seed), "--confirm", str(hints_deals),
               "--confirm-expert", str(expert_deals), "--out", out]
        print("$ " + " ".join(["bezique", *cmd[1:]]), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True, cwd=ROOT)
        if not args.no_install:
            target = ROOT / "analyzer" / "policies" / "tuned" / f"tuned-{v}.json"
            target.parent.mkdir(exist_ok=True)
            shutil.copyfile(ROOT / out / "tune.json", target)
            print(f"stored {target.relative_to(ROOT)}", file=sys.stderr)
    if all((ROOT / f"results/tune/{v}/tune.json").exists() for v in ("ordinary", "rubicon")):
        write_summary()


def _confirmation(preset: dict, against: str) -> str:
    c = next((r for r in preset["confirmation"] if r["against"] == against), None)
    if c is None:
        return "not measured"
    return f"{c['mean_diff']:+.1f} [{c['mean_diff_lo']:+.1f}, {c['mean_diff_hi']:+.1f}] ({c['deals']:,} deals)"


def write_summary() -> None:
    """The table of both tunings in results/README.md (between its tune markers)."""
    o, r = (json.loads((ROOT / f"results/tune/{v}/tune.json").read_text()) for v in ("ordinary", "rubicon"))
    weights = lambda p: ", ".join(f"{h} {w:.2f}" for h, w in p["weights"].items())     # noqa: E731
    text = (f"CMA-ES searched the weights of all thirteen hints (each in [0, 5]) against the previous "
            f"presets, the tuned H1..H8 (`hints:tuned-<game>-h8`), starting from their weights (a found "
            f"hint at 1): {o['hands_spent']:,} hands in {o['generations']} generations for the ordinary "
            f"game, {r['hands_spent']:,} in {r['generations']} for Rubicon (seed {o['seed']}), then "
            f"confirmed the answer on the deals of seed {o['seed']}, which the search never played. The "
            "results are the presets `hints:tuned-ordinary` and `hints:tuned-rubicon`; each "
            "`tune/<variant>/tune.md` says in plain words which hints were strengthened, weakened or "
            "switched off.\n\n"
            "| | ordinary (points per hand) | Rubicon (net game points per game) |\n|---|---|---|\n"
            f"| tuned weights | {weights(o)} | {weights(r)} |\n"
            f"| tuned against hand-set hints | {_confirmation(o, 'hints')} | {_confirmation(r, 'hints')} |\n"
            f"| tuned against the tuned H1..H8 | {_confirmation(o, o['opponent'])} | "
            f"{_confirmation(r, r['opponent'])} |\n")
    readme = ROOT / "results" / "README.md"
    before, mark, rest = readme.read_text().partition(BEGIN)
    after = rest.partition(END)[2] if mark else "\n"
    readme.write_text(before + BEGIN + "\n" + text + END + after)


if __name__ == "__main__":
    main()
