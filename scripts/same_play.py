"""Same play: the per-hand records of fixed policy pairings and rule sets, saved before a change
that must not alter play (a restructuring, a speed-up, a new rule option) and compared after it
with ``np.array_equal``.

Example:
    python scripts/same_play.py save /tmp/before.npz          # before the change
    python scripts/same_play.py check /tmp/before.npz         # after it: one line per case
    python scripts/same_play.py save /tmp/b.npz --case rubicon-replace-hints-greedy

Each case is (variant, rule options, policies, hands); the records are those of
``records.play_records`` for hands 0 .. hands-1 with seed 20261201, kept field by field (layout's
REC_DTYPE), so that a record that gains a field still compares on the fields both have. ``check``
exits 1 if any case differs, naming the first field and hand that differ.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

SEED = 20261201
# (name, variant, rule options, policies, hands)
CASES = [
    ("ordinary-greedy-random", "ordinary", {}, ["greedy", "random"], 3000),
    ("ordinary-hints-greedy", "ordinary", {}, ["hints", "greedy"], 3000),
    ("ordinary-tuned-hints", "ordinary", {}, ["hints:tuned-ordinary", "hints"], 3000),
    ("ordinary-3packs-declare_all", "ordinary", {"packs": 3, "declare_all": True}, ["hints", "greedy"], 2000),
    ("ordinary-american", "ordinary", {"meld_reuse": "american"}, ["greedy", "hints"], 2000),
    ("ordinary-expert-hints", "ordinary", {}, ["expert:plain,guard=0", "hints"], 20),
    ("rubicon-replace-greedy-random", "rubicon", {"redeclare": "replace"}, ["greedy", "random"], 1500),
    ("rubicon-replace-hints-greedy", "rubicon", {"redeclare": "replace"}, ["hints", "greedy"], 1500),
    ("rubicon-replace-tuned-hints", "rubicon", {"redeclare": "replace"}, ["hints:tuned-rubicon", "hints"], 1500),
    ("rubicon-same-hints-random", "rubicon", {"redeclare": "same_or_higher"}, ["hints", "random"], 1500),
    ("rubicon-same-greedy-greedy", "rubicon", {"redeclare": "same_or_higher", "carte_blanche": "once"},
     ["greedy", "greedy"], 1500),
    ("rubicon-replace-expert-hints", "rubicon", {"redeclare": "replace"}, ["expert:plain,guard=0", "hints"], 4),
    ("rubicon-portland-greedy-random", "rubicon", {}, ["greedy", "random"], 1500),
    ("rubicon-portland-hints-greedy", "rubicon", {}, ["hints", "greedy"], 1500),
    ("rubicon-portland-tuned-hints", "rubicon", {}, ["hints:tuned-rubicon", "hints"], 1500),
    ("rubicon-portland-expert-hints", "rubicon", {}, ["expert:plain,guard=0", "hints"], 4),
    ("no_trump-hints-greedy", "no_trump", {}, ["hints", "greedy"], 2000),
    ("panache-greedy-hints", "panache", {}, ["greedy", "hints"], 2000),
    ("three_handed-hints", "three_handed", {}, ["hints", "greedy", "random"], 1000),
    ("four_handed-partner", "four_handed", {"partner_declares": True}, ["hints", "greedy"], 1000),
    ("ordinary-learned-learned", "ordinary", {}, ["learned", "learned"], 1500),
    ("ordinary-learned-hints", "ordinary", {}, ["learned", "hints:tuned-ordinary"], 1500),
    ("ordinary-hints-exact", "ordinary", {}, ["hints:endgame=exact", "hints"], 1500),
    ("rubicon-learned-learned", "rubicon", {}, ["learned", "learned"], 600),
    ("rubicon-learned-hints", "rubicon", {}, ["learned", "hints:tuned-rubicon"], 600),
    ("ordinary-search-learned", "ordinary", {},
     ["expert:plain,prior=3,rollout=tuned-ordinary,samples=48,switch=2,late=12", "learned"], 40),
    ("rubicon-search-learned", "rubicon", {},
     ["expert:plain,prior=3,rollout=tuned-rubicon,samples=32,switch=2,late=12", "learned"], 20),
    ("ordinary-expert-learned-rollout", "ordinary", {}, ["expert:plain,rollout=learned,samples=8,guard=0", "learned"], 6),
    ("ordinary-expert-by-name", "ordinary", {}, ["expert", "learned"], 60),
    ("rubicon-expert-by-name", "rubicon", {}, ["expert", "learned"], 20),
]


def records(name: str) -> dict:
    """The records of case ``name``, field by field: {"name:field": array}, a seat's fields as
    "name:seats.field" (hands x seats)."""
    from analyzer.policies.spec import resolve_policy
    from analyzer.run.records import as_structured, play_records
    from analyzer.rules import preset

    _, variant, options, policies, hands = next(c for c in CASES if c[0] == name)
    rules = preset(variant, **options)
    rec = as_structured(play_records(rules.to_array(), SEED, 0, hands, [resolve_policy(p) for p in policies]))
    out = {f"{name}:{f}": np.array(rec[f]) for f in rec.dtype.names if f != "seats"}
    seats = rec["seats"]
    out.update({f"{name}:seats.{f}": np.array(seats[f]) for f in seats.dtype.names})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["save", "check"])
    ap.add_argument("file")
    ap.add_argument("--case", action="append", help="only these cases (repeatable; default all)")
    args = ap.parse_args()
    names = args.case or [c[0] for c in CASES]
    unknown = sorted(set(names) - {c[0] for c in CASES})
    if unknown:
        print(f"unknown case {unknown[0]!r}; cases: {', '.join(c[0] for c in CASES)}", file=sys.stderr)
        return 2
    if args.mode == "save":
        arrays = {}
        for n in names:
            arrays.update(records(n))
        np.savez_compressed(args.file, **arrays)
        print(f"saved {len(names)} cases to {args.file}")
        return 0
    saved = np.load(args.file)
    bad = 0
    for n in names:
        now = records(n)
        common = [k for k in now if k in saved.files]
        if not common:
            print(f"{n}: not in {args.file}")
            bad += 1
            continue
        differ = [k for k in common if not np.array_equal(saved[k], now[k])]
        new = sorted(k.split(":", 1)[1] for k in now if k not in saved.files)
        extra = f"; new fields not compared: {', '.join(new)}" if new else ""
        if not differ:
            print(f"{n}: same ({len(now[common[0]])} hands, {len(common)} fields{extra})")
            continue
        k = differ[0]
        a, b = saved[k], now[k]
        rows = np.nonzero((a != b).reshape(len(a), -1).any(axis=1))[0] if a.shape == b.shape else [0]
        print(f"{n}: DIFFERENT in {k.split(':', 1)[1]} (first at hand {rows[0]}, {len(rows)} hands){extra}")
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
