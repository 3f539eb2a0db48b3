"""Regenerate the committed results/: the default study for both variants.

Example:
    python scripts/make_results.py                 # 1,000,000 hands per pairing, seed 1
    python scripts/make_results.py --hands 200000  # quicker
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tqdm import tqdm

from analyzer.studies.report import hands_played, study, write_report
from analyzer.rules import preset

ROOT = Path(__file__).resolve().parent.parent
EXPERT_HANDS = [20_000, 5_000]      # expert self-play: ~20 ordinary hands, ~4 Rubicon games /s per core


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=1_000_000, help="hands per policy pairing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--variants", nargs="+", default=["ordinary", "rubicon"])
    ap.add_argument("--expert-hands", type=int, nargs=2, default=EXPERT_HANDS, metavar=("ORDINARY", "RUBICON"),
                    help="hands of expert self-play in each variant's report (0: none)")
    args = ap.parse_args()
    for variant in args.variants:
        out = ROOT / "results" / variant
        t0 = time.perf_counter()
        n_expert = args.expert_hands[0 if variant == "ordinary" else 1]
        extra = (("expert", "expert", n_expert),) if n_expert else ()
        command = (f"python scripts/make_results.py --hands {args.hands} --seed {args.seed} "
                   f"--variants {variant} --expert-hands {' '.join(map(str, args.expert_hands))}")
        with tqdm(total=hands_played(args.hands, extra), unit="hand", unit_scale=True, desc=variant,
                  file=sys.stderr) as bar:
            st = study(preset(variant), args.hands, args.seed, threads=args.threads, progress=bar.update,
                       extra=extra)
        files = write_report(st, out, command)
        print(f"{variant}: {len(files)} files in {out.relative_to(ROOT)} "
              f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
