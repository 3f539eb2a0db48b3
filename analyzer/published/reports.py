"""Regenerate the committed results/: the study of both games with the strongest fast player,
the learned one, as the headline pairing and the heuristics beside it.

Each game plays, on the same deals of one seed: ``learned`` in self-play (the headline), the
tuned hints, ``hints``, ``greedy`` and ``random`` in self-play and ``hints`` against ``greedy``;
then the learned player against the tuned hints, seats swapped. The ordinary game plays
``--hands`` hands per pairing, Rubicon ``--rubicon-hands`` games (a Rubicon hand is a game).

Example:
    bezique study reports                 # the committed figures (about 30 min on 2 quiet cores)
    bezique study reports --hands 20000 --rubicon-hands 5000   # a quick look
"""
from __future__ import annotations

import sys
import time

from tqdm import tqdm

from ..rules import preset
from ..studies.report.study import hands_played, study, write_report
from .common import GAMES, RESULTS, ROOT, command, parser

HEADLINE = "learned"                 # the strongest player fast enough for a million hands


def pairings(variant: str) -> tuple:
    """The self-play pairings of a game's study, the headline first, then the heuristics."""
    tuned = f"hints:tuned-{variant}"
    return ((HEADLINE, HEADLINE), (tuned, tuned), ("hints", "hints"), ("greedy", "greedy"),
            ("random", "random"), ("hints", "greedy"))


def head_to_head(variant: str) -> tuple:
    """The policies a game's study compares head to head, seats swapped (the whole ladder of
    players is results/ladder/, bezique study ladder)."""
    return (HEADLINE, f"hints:tuned-{variant}")


def main(argv=None) -> None:
    """Write results/ordinary and results/rubicon (see the module docstring)."""
    ap = parser("reports", __doc__, seed=1, threads=True)
    ap.add_argument("--hands", type=int, default=1_000_000, help="ordinary hands per policy pairing")
    ap.add_argument("--rubicon-hands", type=int, default=200_000, help="Rubicon games per policy pairing")
    ap.add_argument("--variants", nargs="+", default=GAMES, choices=GAMES)
    args = ap.parse_args(argv)
    for variant in args.variants:
        out = RESULTS / variant
        t0 = time.perf_counter()
        hands = args.hands if variant == "ordinary" else args.rubicon_hands
        pairs, h2h = pairings(variant), head_to_head(variant)
        made_by = command("reports", "--hands", str(args.hands), "--rubicon-hands", str(args.rubicon_hands),
                          "--seed", str(args.seed), "--variants", variant)
        with tqdm(total=hands_played(hands, pairings=pairs, head_to_head=h2h), unit="hand", unit_scale=True, desc=variant,
                  file=sys.stderr) as bar:
            st = study(preset(variant), hands, args.seed, threads=args.threads, progress=bar.update,
                       pairings=pairs, head_to_head=h2h)
        files = write_report(st, out, made_by)
        print(f"{variant}: {len(files)} files in {out.relative_to(ROOT)} "
              f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    raise SystemExit(main())
