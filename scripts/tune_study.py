"""The tuning study of both headline games: `bezique tune` for the ordinary game and Rubicon
into results/tune/<variant>/, and each result stored in the package as the preset
`hints:tuned-<variant>` (analyzer/policies/tuned/tuned-<variant>.json).

Example:
    python scripts/tune_study.py                        # the committed study
    python scripts/tune_study.py --variants ordinary --budget 2000000 --no-install
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGET = {"ordinary": 20_000_000, "rubicon": 8_000_000}
CONFIRM = {"ordinary": (200_000, 2_000), "rubicon": (100_000, 400)}     # deals: against hints, expert


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", nargs="+", default=["ordinary", "rubicon"], choices=["ordinary", "rubicon"])
    ap.add_argument("--budget", type=int, default=None, help="hands per search (default: per variant)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-install", action="store_true", help="do not store the presets in the package")
    args = ap.parse_args()
    bezique = str(Path(sys.executable).parent / "bezique")
    for v in args.variants:
        out = f"results/tune/{v}"
        hints_deals, expert_deals = CONFIRM[v]
        cmd = [bezique, "tune", "--variant", v, "--opponent", "hints", "--budget", str(args.budget or BUDGET[v]),
               "--seed", str(args.seed), "--confirm", str(hints_deals), "--confirm-expert", str(expert_deals),
               "--out", out]
        print("$ " + " ".join(["bezique", *cmd[1:]]), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True, cwd=ROOT)
        if not args.no_install:
            target = ROOT / "analyzer" / "policies" / "tuned" / f"tuned-{v}.json"
            target.parent.mkdir(exist_ok=True)
            shutil.copyfile(ROOT / out / "tune.json", target)
            print(f"stored {target.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
